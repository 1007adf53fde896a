//! `:` commands, marks and the errors-only filter: what the viewer does
//! beyond moving and folding, each a change of [`State`] or a
//! [`Request`] for the loop.

use super::state::{Mode, Request, State};
use crate::export::Format;
use crate::rows::SessionExt;

/// The commands `:` knows, for the message when one is not.
const COMMANDS: &str =
    ":LINE  :export[!] FILE  :set [no]tools|thinking|meta|errors|mouse  :redact  :info  :q";

impl State {
    /// Runs a command line (without its `:`).
    pub(crate) fn run_command(&mut self, line: &str) {
        let line = line.trim();
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            n if n.bytes().all(|b| b.is_ascii_digit()) => match n.parse::<u32>() {
                Ok(n) => self.goto_line(n),
                Err(_) => self.message = Some(format!("no line {n}")),
            },
            "export" | "export!" | "w" | "w!" => self.export_to(arg, cmd.ends_with('!')),
            "set" | "se" => self.set(arg),
            "redact" => self.toggle_redact(),
            "q" | "quit" | "q!" => self.quit = true,
            "help" | "h" => self.mode = Mode::Help,
            "info" => {
                if self.mode != Mode::Info {
                    self.toggle_info();
                }
            }
            _ => {
                self.message = Some(format!(
                    "unknown command :{}: {COMMANDS}",
                    crate::model::text::term_line(cmd)
                ))
            }
        }
    }

    /// `:N`: the row of line N of the session's file.
    fn goto_line(&mut self, n: u32) {
        match self.session.sources.first().and_then(|s| s.path.clone()) {
            Some(file) => {
                self.jump_to(&file, n, "");
            }
            None => self.message = Some("this session has no file to count lines in".into()),
        }
    }

    /// `:export FILE`: the transcript as the filters show it, in the format
    /// the name says (`.md`, `.json`, else text). An existing file is kept
    /// unless the command says `!`.
    fn export_to(&mut self, arg: &str, overwrite: bool) {
        if arg.is_empty() {
            self.message = Some(":export FILE (.md markdown, .json JSON, else text)".into());
            return;
        }
        let path = crate::paths::expand_tilde(arg);
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let format = match ext.as_deref() {
            Some("md" | "markdown") => Format::Markdown,
            Some("json" | "jsonl") => Format::Json,
            Some("html" | "htm") => Format::Html,
            _ => Format::Text,
        };
        self.requests.push(Request::Export {
            path,
            format,
            overwrite,
        });
    }

    /// `:set tools`, `:set nothinking`, `:set errors!` (toggles).
    fn set(&mut self, arg: &str) {
        if arg.is_empty() {
            let f = self.filters;
            let on = |b: bool, n: &str| if b { n.to_owned() } else { format!("no{n}") };
            self.message = Some(format!(
                "{} {} {} {} {}",
                on(f.tools, "tools"),
                on(f.thinking, "thinking"),
                on(f.meta, "meta"),
                on(f.errors, "errors"),
                on(self.settings.mouse, "mouse")
            ));
            return;
        }
        for word in arg.split_whitespace() {
            let (name, value) = if let Some(n) = word.strip_suffix('!') {
                (n, None)
            } else if let Some(n) = word.strip_prefix("no") {
                (n, Some(false))
            } else {
                (word, Some(true))
            };
            let mut f = self.filters;
            let flag = match name {
                "tools" => &mut f.tools,
                "thinking" => &mut f.thinking,
                "meta" => &mut f.meta,
                "errors" => &mut f.errors,
                "mouse" => {
                    let want = value.unwrap_or(!self.settings.mouse);
                    if want != self.settings.mouse {
                        super::state::perform_action(self, super::Action::ToggleMouse);
                    }
                    continue;
                }
                other => {
                    self.message = Some(format!(
                        "unknown setting {}: tools thinking meta errors mouse",
                        crate::model::text::term_line(other)
                    ));
                    return;
                }
            };
            *flag = value.unwrap_or(!*flag);
            if f != self.filters {
                self.filters = f;
                self.rebuild();
            }
        }
    }

    /// `!`: only the error rows, or everything again.
    pub(crate) fn toggle_errors(&mut self) {
        if !self.filters.errors {
            let n = super::search::find_errors(&self.session).len();
            if n == 0 {
                self.message = Some("no errors in this session".into());
                return;
            }
            self.message = Some(format!("errors only: {n} (! shows everything)"));
        }
        self.filters.errors = !self.filters.errors;
        self.rebuild();
    }

    /// `#`: off → copies and exports → the screen too → off. The screen
    /// changes by reading the session again through the redactor.
    pub(crate) fn toggle_redact(&mut self) {
        use super::state::Redaction;
        let next = match self.settings.redact {
            Redaction::Off => Redaction::Copies,
            Redaction::Copies => Redaction::Screen,
            Redaction::Screen => Redaction::Off,
        };
        let screen_changed =
            (next == Redaction::Screen) != (self.settings.redact == Redaction::Screen);
        self.settings.redact = next;
        crate::redact::set_screen(next == Redaction::Screen);
        if screen_changed {
            self.requests.push(Request::Reload);
            // the info overlay's texts are redacted when taken: taken again
            // now (a session from stdin is not read again)
            self.retake_info();
        }
        self.message = Some(
            match next {
                Redaction::Off => "redaction off",
                Redaction::Copies => "copies and exports redacted (# again: the screen too)",
                Redaction::Screen => "the screen, copies and exports redacted (# again: off)",
            }
            .into(),
        );
    }

    /// `m{a-z}`: remembers the selected row.
    pub(crate) fn set_mark(&mut self, c: char) {
        if !c.is_ascii_alphabetic() {
            self.message = Some("a mark is a letter: m a … m z".into());
            return;
        }
        if let Some(mark) = self.mark_here() {
            self.marks.insert(c, mark);
            self.message = Some(format!("mark {c}: ' {c} comes back here"));
        }
    }

    /// The selected row, as a mark names it.
    pub(crate) fn mark_here(&self) -> Option<super::state::Mark> {
        let r = self.rows.get(self.selected).copied()?;
        Some(super::state::Mark {
            agent: r.agent,
            id: self.item_id(&r)?,
            kind: r.kind,
        })
    }

    /// `'{a-z}`: back to a marked row, opening what folds it away.
    pub(crate) fn goto_mark(&mut self, c: char) {
        let Some(&mark) = self.marks.get(&c) else {
            self.message = Some(if c == '\'' {
                "no jump to go back to yet ('' returns from G, gg, a search, a mark…)".into()
            } else {
                format!("no mark {c}")
            });
            return;
        };
        // the row itself when it is there, else the item, opened
        let here = self.rows.iter().position(|r| {
            r.agent == mark.agent && r.kind == mark.kind && self.item_id(r) == Some(mark.id)
        });
        let name = if c == '\'' {
            "back where you were".to_owned()
        } else {
            format!("mark {c}")
        };
        if let Some(i) = here {
            self.select(i);
            self.message = Some(name);
            return;
        }
        let agent = mark.agent;
        let at = self
            .session
            .transcript_checked(agent)
            .and_then(|t| t.index_of(mark.id));
        match at {
            Some(i) => {
                self.reveal((agent, i));
                self.message = Some(name);
            }
            None => self.message = Some(format!("mark {c} is gone")),
        }
    }
}
