//! A tool result Claude Code saved apart. An output over its limit is
//! written to `<session>/tool-results/<call id>.txt`, and the result in
//! the session holds a preview of it, which is all Claude read:
//!
//! ```text
//! <persisted-output>
//! Output too large (57.9KB). Full output saved to: /…/<session>/tool-results/toolu_01….txt
//!
//! Preview (first 2KB):
//! …
//! ...
//! </persisted-output>
//! ```
//!
//! The model only reads the wrapper; where the whole output lies on this
//! machine is [`saved_file`]'s answer, and opening it is the app's.

use std::path::{Path, PathBuf};

/// What a saved-apart result's wrapper says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavedOutput<'a> {
    /// The size as Claude Code wrote it (`57.9KB`); empty when it did not.
    pub size: &'a str,
    /// Where Claude Code saved it, on the machine the session ran on.
    pub path: &'a str,
    /// The part Claude read (its trailing `...` taken off).
    pub preview: &'a str,
    /// The preview was cut (it ended with `...`).
    pub cut: bool,
}

impl SavedOutput<'_> {
    /// What heads it where it is shown: that Claude read only the part
    /// shown below.
    pub fn note(&self) -> String {
        let size = match self.size {
            "" => String::new(),
            s => format!(" ({})", super::text::sanitize(s)),
        };
        format!("output saved apart by Claude Code{size}: Claude read the part below")
    }
}

const OPEN: &str = "<persisted-output>";
const CLOSE: &str = "</persisted-output>";

/// The wrapper of a result saved apart, when `text` is one.
pub fn saved_output(text: &str) -> Option<SavedOutput<'_>> {
    let body = text
        .trim()
        .strip_prefix(OPEN)?
        .strip_suffix(CLOSE)?
        .trim_start_matches(['\r', '\n']);
    let (head, rest) = body.split_once('\n').unwrap_or((body, ""));
    let head = head.trim_end_matches('\r');
    let (_, path) = head.split_once("saved to:")?;
    let path = path.trim();
    let size = head
        .split_once("too large (")
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(s, _)| s.trim())
        .filter(|s| s.len() <= 24)
        .unwrap_or("");
    // the preview starts after its own heading (`Preview (first 2KB):`)
    let rest = rest.trim_start_matches(['\r', '\n']);
    let preview = match rest.split_once('\n') {
        Some((h, p)) if h.starts_with("Preview") => p,
        None if rest.starts_with("Preview") => "",
        _ => rest,
    };
    let preview = preview.trim_end_matches(['\r', '\n']);
    let (preview, cut) = match preview.strip_suffix("...") {
        Some(p) if p.is_empty() || p.ends_with('\n') => (p.trim_end_matches(['\r', '\n']), true),
        _ => (preview, false),
    };
    Some(SavedOutput {
        size,
        path,
        preview,
        cut,
    })
}

impl<'a> SavedOutput<'a> {
    /// The call whose output it is, as the file's name says
    /// (`<call id>.txt`, in a folder of either machine's separator): what
    /// a reader of a result without its call finds it by.
    pub fn call_id(&self) -> Option<&'a str> {
        let name = self.path.rsplit(['/', '\\']).next()?;
        name.strip_suffix(".txt").filter(|id| !id.is_empty())
    }
}

/// Where the whole output of call `call_id` lies on this machine, for a
/// session read from `file` (its own file, or one of its subagents'):
/// `tool-results/` in the session's folder, beside its file. The path the
/// wrapper names is of the machine the session ran on, and a session's
/// text never says which file to open: a call id that could leave that
/// folder (`/`, `..`, anything but letters, digits, `_` and `-`) has none.
pub fn saved_file(file: &Path, call_id: &str) -> Option<PathBuf> {
    let plain = !call_id.is_empty()
        && call_id.len() <= 200
        && call_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !plain {
        return None;
    }
    // a subagent's file is in `<session>/subagents/` (a Workflow run's a
    // folder deeper): its session's folder is the one above `subagents`
    fn named<'p>(p: Option<&'p Path>, n: &str) -> Option<&'p Path> {
        p.filter(|p| p.file_name().is_some_and(|f| f == n))
    }
    let parent = file.parent();
    let run_folder_up = parent.and_then(Path::parent);
    let subagents = named(parent, "subagents").or_else(|| {
        named(run_folder_up, "workflows")?;
        named(run_folder_up.and_then(Path::parent), "subagents")
    });
    let folder = match subagents {
        Some(s) => s.parent()?.to_path_buf(),
        None => file.with_extension(""),
    };
    Some(folder.join("tool-results").join(format!("{call_id}.txt")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = "<persisted-output>\nOutput too large (57.9KB). Full output saved to: /Users/a/.claude/projects/-x/0cd9/tool-results/toolu_01L.txt\n\nPreview (first 2KB):\n[{\"url\":1}\nline two\n...\n</persisted-output>";

    #[test]
    fn the_wrapper_is_read() {
        let s = saved_output(REAL).unwrap();
        assert_eq!(s.size, "57.9KB");
        assert_eq!(
            s.path,
            "/Users/a/.claude/projects/-x/0cd9/tool-results/toolu_01L.txt"
        );
        assert_eq!(s.preview, "[{\"url\":1}\nline two");
        assert!(s.cut);
        assert_eq!(s.call_id(), Some("toolu_01L"));
        let windows = REAL.replace(
            "/Users/a/.claude/projects/-x/0cd9/tool-results/",
            r"C:\u\0cd9\tool-results\",
        );
        assert_eq!(
            saved_output(&windows).and_then(|s| s.call_id()),
            Some("toolu_01L")
        );
        let odd = REAL.replace("toolu_01L.txt", "toolu_01L.log");
        assert_eq!(saved_output(&odd).and_then(|s| s.call_id()), None);
    }

    #[test]
    fn other_texts_are_no_wrapper() {
        for t in [
            "",
            "plain output",
            "<persisted-output>\nno close",
            "<persisted-output>\nOutput too large. Nothing saved\n</persisted-output>",
            "x <persisted-output>\nsaved to: /p\n</persisted-output>",
        ] {
            assert_eq!(saved_output(t), None, "{t:?}");
        }
    }

    #[test]
    fn odd_wrappers_give_what_they_say() {
        // no size, no preview heading, no trailing `...`, CRLF
        let s =
            saved_output("<persisted-output>\r\nsaved to: /p/x.txt\r\nabc\r\n</persisted-output>")
                .unwrap();
        assert_eq!(
            (s.size, s.path, s.preview, s.cut),
            ("", "/p/x.txt", "abc", false)
        );
        let s = saved_output(
            "<persisted-output>Output too large (1MB). Full output saved to: /q</persisted-output>",
        )
        .unwrap();
        assert_eq!((s.size, s.path, s.preview), ("1MB", "/q", ""));
        // a preview whose own last line ends with dots is not cut
        let s = saved_output("<persisted-output>\nsaved to: /p\n\nPreview (first 2KB):\nwait...\n</persisted-output>").unwrap();
        assert_eq!((s.preview, s.cut), ("wait...", false));
    }

    #[test]
    fn the_file_is_in_the_sessions_folder() {
        let p = |f: &str, id: &str| saved_file(Path::new(f), id);
        assert_eq!(
            p("/h/projects/-x/abc.jsonl", "toolu_01"),
            Some(PathBuf::from(
                "/h/projects/-x/abc/tool-results/toolu_01.txt"
            ))
        );
        assert_eq!(
            p("/h/projects/-x/abc/subagents/agent-1.jsonl", "toolu_01"),
            Some(PathBuf::from(
                "/h/projects/-x/abc/tool-results/toolu_01.txt"
            ))
        );
        assert_eq!(
            p(
                "/h/projects/-x/abc/subagents/workflows/wf_1/agent-1.jsonl",
                "t-2"
            ),
            Some(PathBuf::from("/h/projects/-x/abc/tool-results/t-2.txt"))
        );
        // a folder above named so is not the session's
        assert_eq!(
            p("/subagents/h/abc.jsonl", "t"),
            Some(PathBuf::from("/subagents/h/abc/tool-results/t.txt"))
        );
        for id in ["", "../../etc/passwd", "a/b", "..", "a.b", "a\0b", "é"] {
            assert_eq!(p("/h/projects/-x/abc.jsonl", id), None, "{id:?}");
        }
    }
}
