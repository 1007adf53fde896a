//! `E` and `F`: the selected row's JSONL line, or the file its tool call
//! touched (or the whole of its output that Claude Code saved apart), in
//! the user's editor. The state names what to open; the loop
//! hands the terminal over and builds the command (`app::editor`).

use super::state::{Request, State};
use crate::model::Detail;
use crate::rows::SessionExt;
use std::path::{Path, PathBuf};

impl State {
    /// `E`: the session file at the selected row's line, read-only.
    pub(crate) fn edit_line(&mut self) {
        let Some(r) = self.rows.get(self.selected).copied() else {
            return;
        };
        let Some(item) = self
            .session
            .transcript_checked(r.agent)
            .and_then(|t| t.items.get(r.index as usize))
        else {
            return;
        };
        let path = self
            .session
            .sources
            .get(item.source as usize)
            .and_then(|s| s.path.clone());
        match path {
            Some(file) => self.requests.push(Request::Edit {
                file,
                line: item.line.max(1),
                find: None,
                read_only: true,
            }),
            None => self.message = Some("this session has no file (standard input?)".into()),
        }
    }

    /// `F`: the file the selected call read or changed, at the line it
    /// read from or the text it wrote.
    pub(crate) fn edit_file(&mut self) {
        let call = self.rows.get(self.selected).and_then(|r| {
            let t = self.session.transcript_checked(r.agent)?;
            let item = t.items.get(r.index as usize)?;
            match &item.detail {
                Detail::Call(c) => Some((item, c)),
                _ => None,
            }
        });
        let Some(call) = call else {
            self.message = Some("F opens the file of a tool call: select one".into());
            return;
        };
        let (item, call) = call;
        if let Some(r) = &call.result {
            let text = self.session.result_text(r);
            if let Some(saved) = crate::model::saved::saved_output(&text) {
                let file = self
                    .session
                    .sources
                    .get(r.source as usize)
                    .and_then(|s| s.path.as_deref())
                    .and_then(|f| crate::model::saved::saved_file(f, &call.id));
                let recorded = PathBuf::from(saved.path);
                self.requests.push(Request::EditSaved { file, recorded });
                return;
            }
        }
        let input: serde_json::Value =
            serde_json::from_str(&self.session.call_input(item)).unwrap_or(serde_json::Value::Null);
        let text = |k: &str| input.get(k).and_then(|v| v.as_str());
        let Some(name) = crate::model::item::named_file(&input) else {
            self.message = Some(format!(
                "this {} call names no file",
                crate::model::text::term_line(&call.name)
            ));
            return;
        };
        let mut file = PathBuf::from(name);
        if file.is_relative()
            && let Some(cwd) = &self.session.meta.cwd
        {
            file = Path::new(cwd).join(file);
        }
        let line = input
            .get("offset")
            .and_then(|v| v.as_u64())
            .map_or(1, |n| n.clamp(1, u32::MAX as u64) as u32);
        // an edit: where its new text is now
        let find = text("new_string")
            .or_else(|| text("content"))
            .and_then(|s| s.lines().find(|l| !l.trim().is_empty()))
            .map(str::to_owned);
        self.requests.push(Request::Edit {
            file,
            line,
            find,
            read_only: false,
        });
    }
}
