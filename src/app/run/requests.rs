//! What the viewer's core asks of the shell (its `Request`s): opening
//! sessions, copying, exporting, the editor; and what a copy did.

use super::Viewer;
use crate::app::event::AppEvent;
use crate::app::restore;
use crate::app::state::Request;
use crate::clipboard::{ClipboardService, CopyOutcome};
use std::path::PathBuf;

impl Viewer {
    /// What the state asked for: opening sessions, copying, exporting.
    pub(super) fn serve_requests(&mut self) {
        for r in std::mem::take(&mut self.state.requests) {
            match r {
                Request::Open(path) if !path.is_file() => {
                    self.state.message =
                        Some(format!("cannot open {}: no such file", path.display()));
                }
                Request::Open(path) => {
                    let left = self.current.clone();
                    let going_back = self.state.live.back.as_ref() == Some(&path);
                    self.open(path, true);
                    // `>` and `<` swap the two sessions
                    if going_back {
                        self.state.live.newer = left;
                    } else {
                        self.state.live.back = left;
                    }
                }
                Request::Copy(text) => {
                    let tx = self.tx.clone();
                    let clip = self.clipboard.get_or_insert_with(|| {
                        ClipboardService::spawn(move |o| {
                            let _ = tx.send(AppEvent::Copied(o));
                        })
                    });
                    clip.copy(text.text, text.rows);
                }
                Request::Resume { id, cwd, format } => {
                    match crate::source::resume_command(&id, format)
                        .and_then(|(program, _)| crate::app::resume::find_program(program))
                    {
                        Some(program) => self.resume = Some((program, id, cwd, format)),
                        None => {
                            // no claude here (a remote machine?): the command to run
                            let line = crate::source::resume_command(&id, format)
                                .map(|(p, args)| format!("{p} {}", args.join(" ")))
                                .unwrap_or_default();
                            let cmd = match &cwd {
                                Some(d) => {
                                    format!("cd {} && {line}", crate::app::resume::shell_quote(d))
                                }
                                None => line,
                            };
                            self.copy_label = Some((
                                "claude is not on PATH: copied the resume command".into(),
                                "the resume command",
                            ));
                            self.state
                                .requests
                                .push(Request::Copy(crate::clipboard::CopyText {
                                    text: cmd,
                                    rows: 1,
                                }));
                            self.serve_requests();
                        }
                    }
                }
                Request::Export {
                    path,
                    format,
                    overwrite,
                } => {
                    let r = crate::app::export_to::write(&self.state, &path, format, overwrite);
                    self.state.message = Some(match r {
                        Ok(n) => {
                            format!(
                                "Wrote {} to {}",
                                crate::model::text::counted(n as u64, "row"),
                                crate::model::text::term_path(&path)
                            )
                        }
                        Err(e) => format!(
                            "Export failed: {}",
                            crate::model::text::term_line(&e.to_string())
                        ),
                    });
                }
                Request::Edit {
                    file,
                    line,
                    find,
                    read_only,
                } => self.edit(&file, line, find.as_deref(), read_only),
                Request::CopySaved { file, read } => self.copy_saved(file.as_deref(), read),
                Request::EditSaved { file, recorded } => self.edit_saved(file, &recorded),
                Request::Reload => {
                    if let Some(path) = self.current.clone() {
                        let live = (self.state.live.newer.clone(), self.state.live.back.clone());
                        let place = self.state.keep();
                        let message = self.state.message.take();
                        self.open(path, self.project);
                        (self.state.live.newer, self.state.live.back) = live;
                        self.state.message = message;
                        self.pending_keep = Some(place);
                    }
                }
                Request::Mouse(on) => {
                    if let Err(e) = restore::set_mouse(on) {
                        self.state.message = Some(format!("mouse: {e}"));
                    }
                }
                Request::ExportMarkdown => {
                    let filters = self.state.filters;
                    let dir = self.state.settings.export_dir.clone();
                    let redact = self.state.settings.redact.copies();
                    let _ = crate::redact::take_counts();
                    let r = crate::clipboard::export_markdown_file(
                        &self.state.session,
                        filters,
                        dir.as_deref(),
                        redact,
                    );
                    let said = crate::redact::describe(&crate::redact::take_counts());
                    self.state.message = Some(match r {
                        Ok(p) if redact => {
                            format!("Wrote {} ({said})", crate::model::text::term_path(&p))
                        }
                        Ok(p) => format!("Wrote {}", crate::model::text::term_path(&p)),
                        Err(e) => format!("Export failed: {e}"),
                    });
                }
            }
        }
    }

    /// `c o` on an output saved apart: the whole of it from `file`, else
    /// `read` (what Claude read).
    fn copy_saved(&mut self, file: Option<&std::path::Path>, read: String) {
        let size = crate::model::item::human_bytes;
        let (text, label) = match file.and_then(crate::model::saved_read::read_saved) {
            Some(s) if s.whole => {
                let done = format!("Copied the whole output ({})", size(s.size));
                (s.text, (done, "the whole output"))
            }
            Some(s) => {
                // (bytes read: a bad byte is 3 once made U+FFFD)
                let read = (s.text.len() as u64).min(crate::model::saved_read::MOST);
                let (read, all) = (size(read), size(s.size));
                let done =
                    format!("Copied the first {read} of the output ({all}: F opens it whole)");
                (s.text, (done, "the output's first part"))
            }
            None => {
                let done = "The whole output is not on this machine: copied what Claude read";
                (read, (done.to_owned(), "what Claude read"))
            }
        };
        let text = if self.state.settings.redact.copies() {
            let _ = crate::redact::take_counts();
            let t = crate::redact::active().redact(&text).into_owned();
            self.state.redacted = Some(crate::redact::describe(&crate::redact::take_counts()));
            t
        } else {
            text
        };
        self.copy_label = Some(label);
        self.state
            .requests
            .push(Request::Copy(crate::clipboard::CopyText { text, rows: 1 }));
        self.serve_requests();
    }

    /// `F` on an output saved apart: `file` read-only in the editor, or
    /// where the session says it was.
    fn edit_saved(&mut self, file: Option<PathBuf>, recorded: &std::path::Path) {
        // a regular file of the session's folder, not a link
        match file.filter(|f| crate::model::saved_read::plain_file(f)) {
            Some(f) => self.edit(&f, 1, None, true),
            None => {
                self.state.message = Some(format!(
                    "the whole output is not on this machine (it was saved to {})",
                    crate::model::text::term_path(recorded)
                ))
            }
        }
    }

    /// Hands the terminal to the editor and takes it back when it quits.
    fn edit(&mut self, file: &std::path::Path, line: u32, find: Option<&str>, read_only: bool) {
        if !file.is_file() {
            self.state.message = Some(format!(
                "cannot open {}: no such file here",
                crate::model::text::term_path(file)
            ));
            return;
        }
        let line = find
            .and_then(|f| crate::app::editor::line_of(file, f))
            .unwrap_or(line);
        let editor = crate::app::editor::editor();
        crate::app::input::HANDOFF.pause();
        restore::restore();
        let status = crate::app::editor::command(&editor, file, line, read_only).status();
        crate::app::input::HANDOFF.resume();
        if let Err(e) = restore::take_back(self.state.settings.mouse) {
            self.error = Some(format!("could not take the terminal back: {e}"));
            self.state.quit = true;
            return;
        }
        self.term.swap_buffers();
        self.term.swap_buffers();
        if let Err(e) = status {
            self.state.message = Some(format!(
                "cannot run {}: {e}",
                crate::model::text::term_line(&editor.join(" "))
            ));
        }
    }

    pub(super) fn on_copied(&mut self, outcome: CopyOutcome) {
        if let Some(bytes) = outcome.osc52() {
            let w = crate::clipboard::write_osc52(self.term.backend_mut(), bytes);
            if let Err(e) = w {
                self.state.message = Some(format!("Copy failed: writing to the terminal: {e}"));
                return;
            }
        }
        let redacted = self.state.redacted.take();
        let rows = self.state.copying.take();
        self.state.message = Some(match self.copy_label.take() {
            // `Copied the resume command to the clipboard (claude is not
            // on PATH)`, not `Copied 1 row (110 B)`
            Some((done, _)) if !outcome.is_error => {
                let how = match &outcome.delivery {
                    Some(crate::clipboard::Delivery::Clipboard) => "to the clipboard".to_owned(),
                    Some(crate::clipboard::Delivery::File(p)) => format!("to {}", p.display()),
                    Some(_) => "via OSC 52".to_owned(),
                    None => String::new(),
                };
                format!("{done} {how}")
            }
            Some((_, what)) => format!("{what}: {}", outcome.message),
            // `Copied 4 rows: 14 entries (3.1 KB) to the clipboard`
            None => match (rows, outcome.is_error) {
                (Some(r), false) => crate::clipboard::with_rows(&outcome.message, &r),
                _ => outcome.message,
            },
        });
        if let (Some(r), Some(m)) = (redacted, &mut self.state.message) {
            m.push_str(" · ");
            m.push_str(&r);
        }
    }
}
