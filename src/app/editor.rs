//! The editor (`E`, `F`): which one, the arguments that open a file at a
//! line (read-only where it has such a mode), the line a text is on.

use std::path::Path;
use std::process::Command;

/// The line of `file` that holds `needle` (first match), reading at most
/// 16 MB of it.
pub fn line_of(file: &Path, needle: &str) -> Option<u32> {
    let buf = crate::model::session::read_regular(file, 16 << 20)?;
    let at = memchr::memmem::find(&buf, needle.as_bytes())?;
    Some(memchr::memchr_iter(b'\n', &buf[..at]).count() as u32 + 1)
}

/// The editor: `$VISUAL`, else `$EDITOR`, else `vi`, split into words (as
/// `code -w` or `emacsclient -t`).
pub fn editor() -> Vec<String> {
    for var in ["VISUAL", "EDITOR"] {
        if let Ok(v) = std::env::var(var) {
            let words: Vec<String> = v.split_whitespace().map(str::to_owned).collect();
            if !words.is_empty() {
                return words;
            }
        }
    }
    vec!["vi".to_owned()]
}

/// The command that opens `file` at `line` in `editor`, in the way that
/// editor takes a line (and read-only where it has such a mode).
pub fn command(editor: &[String], file: &Path, line: u32, read_only: bool) -> Command {
    let program = editor.first().map_or("vi", String::as_str);
    let base = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // a path from a session that starts with `-` or `+` must not read as
    // an option or a command (`vim +cmd`)
    let dashed;
    let file = if file.to_string_lossy().starts_with(['-', '+']) {
        dashed = Path::new(".").join(file);
        dashed.as_path()
    } else {
        file
    };
    let mut cmd = Command::new(program);
    cmd.args(&editor[1.min(editor.len())..]);
    let at = |f: &Path| format!("{}:{line}", f.display());
    match base.as_str() {
        "vi" | "vim" | "nvim" | "gvim" | "mvim" | "view" | "nvi" | "elvis" => {
            if read_only {
                cmd.arg("-R");
            }
            cmd.arg(format!("+{line}")).arg(file);
        }
        "nano" | "pico" => {
            if read_only {
                cmd.arg("-v");
            }
            cmd.arg(format!("+{line}")).arg(file);
        }
        "less" | "most" => {
            cmd.arg(format!("+{line}g")).arg(file);
        }
        "code" | "codium" | "code-insiders" | "cursor" | "windsurf" => {
            cmd.arg("-g").arg(at(file));
        }
        "hx" | "helix" | "subl" | "sublime_text" | "zed" | "micro" => {
            cmd.arg(at(file));
        }
        // emacs, emacsclient, kak, joe, mg, ne and most others
        _ => {
            cmd.arg(format!("+{line}")).arg(file);
        }
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(editor: &str, read_only: bool) -> Vec<String> {
        let words: Vec<String> = editor.split(' ').map(str::to_owned).collect();
        let c = command(&words, Path::new("/s/a b.jsonl"), 42, read_only);
        std::iter::once(c.get_program())
            .chain(c.get_args())
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn each_editor_gets_the_line_its_way() {
        assert_eq!(args("vim", true), ["vim", "-R", "+42", "/s/a b.jsonl"]);
        assert_eq!(
            args("/usr/bin/nvim", false),
            ["/usr/bin/nvim", "+42", "/s/a b.jsonl"]
        );
        assert_eq!(args("nano", true), ["nano", "-v", "+42", "/s/a b.jsonl"]);
        assert_eq!(
            args("code -w", false),
            ["code", "-w", "-g", "/s/a b.jsonl:42"]
        );
        assert_eq!(args("hx", true), ["hx", "/s/a b.jsonl:42"]);
        assert_eq!(
            args("emacsclient -t", true),
            ["emacsclient", "-t", "+42", "/s/a b.jsonl"]
        );
        assert_eq!(args("less", true), ["less", "+42g", "/s/a b.jsonl"]);
        let c = command(&["vim".into()], Path::new("-c:!touch x"), 1, false);
        let last = c
            .get_args()
            .last()
            .map(|a| a.to_string_lossy().into_owned());
        assert_eq!(
            last.as_deref(),
            Some("./-c:!touch x"),
            "not an option to the editor"
        );
        for editor in ["vim", "nano", "emacs", "hx", "code"] {
            let c = command(&[editor.into()], Path::new("+!touch x"), 1, false);
            let args: Vec<String> = c
                .get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            assert!(
                args.iter().all(|a| !a.starts_with("+!")),
                "{editor}: {args:?} would run a command"
            );
        }
    }

    #[test]
    fn the_line_of_a_text_in_a_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("x.rs");
        std::fs::write(&f, "a\nb\nfn main() {}\n").expect("write");
        assert_eq!(line_of(&f, "fn main"), Some(3));
        assert_eq!(line_of(&f, "nowhere"), None);
    }
}
