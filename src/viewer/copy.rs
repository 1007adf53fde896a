//! `y`, `Y`, `v` and `e`: what the selection means as a copy scope. The
//! text is made here (the export formatter); the clipboard thread gets it
//! through a [`Request`], so nothing here waits on a clipboard.

use super::state::{Request, State};
use crate::clipboard::{CopyScope, copy_text};
use crate::export::Options;
use crate::model::{Detail, ItemId};
use crate::rows::{self, Row, RowKind, SessionExt};

impl State {
    /// `y`: the selected row (a group: all its calls and results), or the
    /// visual range when one is open.
    pub(crate) fn copy_selection(&mut self) {
        if let super::state::Mode::Visual { anchor } = self.mode {
            self.mode = super::state::Mode::Normal;
            self.copy_range(anchor, self.selected);
            return;
        }
        let Some(r) = self.rows.get(self.selected).copied() else {
            self.message = Some("Nothing to copy".into());
            return;
        };
        let Some(id) = self.item_id(&r) else { return };
        let scope = match r.kind {
            RowKind::Group { group } => CopyScope::Group {
                agent: r.agent,
                group: group as usize,
            },
            RowKind::Branch { .. } => match self.last_of(&r) {
                Some(to) => CopyScope::Range {
                    agent: r.agent,
                    from: id,
                    to,
                },
                None => return,
            },
            _ => CopyScope::Item { agent: r.agent, id },
        };
        self.request_copy(&scope);
    }

    /// `Y`: the whole transcript as the filters show it.
    pub(crate) fn copy_filtered(&mut self) {
        self.request_copy(&CopyScope::Filtered {
            agent: None,
            filters: self.filters,
        });
    }

    /// From row `a` to row `b` (either first), inclusive of what the last
    /// row folds away.
    fn copy_range(&mut self, a: usize, b: usize) {
        let (a, b) = (a.min(b), a.max(b));
        let n = b - a + 1;
        self.copying = Some(if n == 1 {
            "1 row".into()
        } else {
            format!("{n} rows")
        });
        let (Some(ra), Some(rb)) = (self.rows.get(a).copied(), self.rows.get(b).copied()) else {
            return;
        };
        let scope = if ra.agent == rb.agent {
            match (self.item_id(&ra), self.last_of(&rb)) {
                (Some(from), Some(to)) => CopyScope::Range {
                    agent: ra.agent,
                    from,
                    to,
                },
                _ => return,
            }
        } else {
            // the ends lie in different transcripts: copy the main-transcript
            // units that hold them
            let t = &self.session.main;
            let end = rows::unit_end(t, rb.top as usize, true);
            let ids = t
                .items
                .get(ra.top as usize)
                .zip(t.items.get(end.saturating_sub(1)));
            match ids {
                Some((x, y)) => CopyScope::Range {
                    agent: None,
                    from: x.id,
                    to: y.id,
                },
                None => return,
            }
        };
        self.request_copy(&scope);
    }

    fn request_copy(&mut self, scope: &CopyScope) {
        let opts = Options {
            format: self.copy_format,
            no_thinking: !self.filters.thinking,
            no_tools: !self.filters.tools,
            no_subagents: false,
            redact: self.settings.redact.copies(),
        };
        let _ = crate::redact::take_counts();
        let text = copy_text(&self.session, scope, self.copy_format, &opts);
        self.redacted = opts
            .redact
            .then(|| crate::redact::describe(&crate::redact::take_counts()));
        if text.rows == 0 {
            self.message = Some("Nothing to copy".into());
            return;
        }
        self.message = Some("Copying…".into());
        self.requests.push(Request::Copy(text));
    }

    /// `c` then a key: a part of the selected row. `c` the call's command
    /// (Bash) or input, `o` its output alone, `p` the file it names, `s`
    /// the session id, `l` where the row is (`FILE:LINE`).
    pub(crate) fn copy_part(&mut self, key: char) {
        let item = self.rows.get(self.selected).and_then(|r| {
            self.session
                .transcript_checked(r.agent)?
                .items
                .get(r.index as usize)
        });
        let call = match item.map(|i| &i.detail) {
            Some(Detail::Call(c)) => Some(&**c),
            _ => None,
        };
        let raw_input = item.map(|i| self.session.call_input(i)).unwrap_or_default();
        let input =
            || -> serde_json::Value { serde_json::from_str(&raw_input).unwrap_or_default() };
        use super::keymap::{Part, copy_part_of};
        let Some(which) = copy_part_of(key) else {
            self.message = Some(format!("c then: {}", super::keymap::copy_parts_line()));
            return;
        };
        let part: Result<(String, &str), &str> = match which {
            Part::Input => match call {
                Some(_) => {
                    let v = input();
                    match v.get("command").and_then(|c| c.as_str()) {
                        Some(cmd) => Ok((cmd.to_owned(), "the command")),
                        // (an input serde does not read is copied as written)
                        None if v.is_null() => Ok((raw_input.to_string(), "the input")),
                        None => Ok((
                            serde_json::to_string_pretty(&v)
                                .unwrap_or_else(|_| raw_input.to_string()),
                            "the input",
                        )),
                    }
                }
                None => item
                    .map(|i| (self.session.item_text(i).into_owned(), "the text"))
                    .ok_or("nothing selected"),
            },
            Part::Output => match call {
                Some(c) => {
                    let text = c.result.as_ref().map(|r| self.session.result_text(r));
                    // saved apart: the shell reads the whole from its file
                    if let Some(t) = &text
                        && crate::model::saved::saved_output(t).is_some()
                    {
                        let file = c.result.as_ref().and_then(|r| {
                            let path = self
                                .session
                                .sources
                                .get(r.source as usize)?
                                .path
                                .as_deref()?;
                            crate::model::saved::saved_file(path, &c.id)
                        });
                        self.message = Some("Copying the output…".into());
                        self.requests.push(Request::CopySaved {
                            file,
                            read: t.to_string(),
                        });
                        return;
                    }
                    text.map(|t| (t.into_owned(), "the output"))
                        .ok_or("this call has no result yet")
                }
                None => item
                    .map(|i| (self.session.item_text(i).into_owned(), "the text"))
                    .ok_or("nothing selected"),
            },
            Part::Path => crate::model::item::named_file(&input())
                .map(|p| (p.to_owned(), "the path"))
                .ok_or("no file path in this row"),
            Part::SessionId => self
                .session_id()
                .map(|id| (id, "the session id"))
                .ok_or("no session id"),
            Part::Place => item
                .and_then(|i| {
                    let path = self.session.sources.get(i.source as usize)?.path.as_ref()?;
                    Some((format!("{}:{}", path.display(), i.line), "the place"))
                })
                .ok_or("this row has no file line"),
        };
        let part = part.map(|(text, what)| {
            if self.settings.redact.copies() {
                let _ = crate::redact::take_counts();
                let t = crate::redact::active().redact(&text).into_owned();
                crate::redact::count_shown_markers(&t);
                self.redacted = Some(crate::redact::describe(&crate::redact::take_counts()));
                (t, what)
            } else {
                (text, what)
            }
        });
        match part {
            Ok((text, what)) if !text.is_empty() => {
                self.message = Some(format!("Copying {what}…"));
                self.requests
                    .push(Request::Copy(crate::clipboard::CopyText { text, rows: 1 }));
            }
            Ok((_, what)) => self.message = Some(format!("{what} is empty")),
            Err(why) => self.message = Some(why.to_owned()),
        }
    }

    /// The last item a row stands for: a group's last call, a branch's last
    /// message, else the row's own item.
    fn last_of(&self, r: &Row) -> Option<ItemId> {
        let t = self.session.transcript_checked(r.agent)?;
        let i = r.index as usize;
        let last = match r.kind {
            RowKind::Group { group } => t.groups.get(group as usize)?.last,
            RowKind::Branch { .. } => rows::unit_end(t, i, r.agent.is_none()).saturating_sub(1),
            _ => i,
        };
        Some(t.items.get(last)?.id)
    }
}
