//! A Codex command as the line a reader wants: the script a shell was
//! started to run, not the shell's own words. Codex runs an argv
//! (`["bash", "-lc", "<script>"]`, `["pwsh", "-NoProfile", "-Command", …]`)
//! and models often wrap a command line in one too
//! (`bash --noprofile --norc -lc 'set -e; …'`): a row showed that wrapper
//! in the room its script needed.

use serde_json::Value;

/// An argv as the command line it runs: the script, when it is a shell
/// run on one; else its words, quoted where they need to be.
pub fn command_line(argv: &[Value]) -> String {
    let words: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
    match script_of(&words) {
        Some(script) => script.to_owned(),
        None => words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" "),
    }
}

/// A command line as shown: the script, when the line only runs a shell
/// on a quoted one; else the line as written.
pub fn unwrapped(line: &str) -> String {
    plain_words(line)
        .and_then(|words| {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            script_of(&words).map(str::to_owned)
        })
        .unwrap_or_else(|| line.to_owned())
}

/// The script of a shell's argv: a shell, then flags only, the last the
/// one that runs a command (`-c`, `-lc`, `-Command`, `/c`), then the
/// script, last. None for any other argv (`sh -c 'x' arg0` included: the
/// script is then not all that runs).
fn script_of<'a>(words: &[&'a str]) -> Option<&'a str> {
    let [shell, flags @ .., run, script] = words else {
        return None;
    };
    let name = shell.rsplit(['/', '\\']).next().unwrap_or(shell);
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    let runs = match name {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "fish" => {
            flags.iter().all(|f| f.starts_with('-'))
                && run.len() > 1
                && run.starts_with('-')
                && run[1..].bytes().all(|b| b.is_ascii_alphabetic())
                && run.contains('c')
        }
        "pwsh" | "powershell" => {
            flags.iter().all(|f| f.starts_with('-'))
                && (run.eq_ignore_ascii_case("-command") || run.eq_ignore_ascii_case("-c"))
        }
        "cmd" => flags.iter().all(|f| f.starts_with('/')) && run.eq_ignore_ascii_case("/c"),
        _ => false,
    };
    (runs && !script.trim().is_empty()).then_some(script)
}

/// A shell word quoted when it needs to be.
fn quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The words of a command line that is words alone, as a POSIX shell
/// reads them: quotes and backslashes undone. None when the line holds
/// anything a shell would do more with (`;`, `|`, `&&`, a redirection,
/// `$`, a glob, a comment, a line break outside quotes, an expansion
/// inside double quotes) or a quote left open: its words would not be
/// what runs.
fn plain_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' | '!' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => return None,
                c => word.get_or_insert_with(String::new).push(c),
            },
            c if c.is_control() || ";&|<>()$`*?[]{}~#!".contains(c) => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shell_run_on_a_script_is_the_script() {
        for (line, script) in [
            ("bash --noprofile --norc -lc 'set -e; make'", "set -e; make"),
            ("bash -lc 'echo '\\''hi'\\'''", "echo 'hi'"),
            ("/bin/zsh -c \"ls -la\"", "ls -la"),
            ("  bash   -lc   'a && b'  ", "a && b"),
            ("pwsh -NoProfile -Command 'Get-ChildItem'", "Get-ChildItem"),
            ("cmd.exe /d /c 'dir'", "dir"),
        ] {
            assert_eq!(unwrapped(line), script, "{line}");
        }
    }

    #[test]
    fn any_other_line_is_kept_as_written() {
        for line in [
            "bash -lc 'make' && echo done",
            "bash -lc 'make'; echo done",
            "bash -lc 'make' > out.txt",
            "bash -lc \"echo $HOME\"",
            "bash -lc $SCRIPT",
            "bash -lc 'open",
            "sh -c 'echo $0' me",
            "bash script.sh",
            "bash -n file.sh",
            "bash --rcfile x -lc 'ls'",
            "python -c 'print(1)'",
            "bash -lc ''",
            "bash -lc 'a'\n'b'",
            "rg -n 'x' src",
            "",
        ] {
            assert_eq!(unwrapped(line), line, "{line}");
        }
    }

    #[test]
    fn an_argv_is_its_script_or_its_words_quoted() {
        let line = |v: serde_json::Value| command_line(v.as_array().unwrap());
        assert_eq!(line(json!(["bash", "-lc", "ls -la"])), "ls -la");
        assert_eq!(
            line(json!([
                "pwsh",
                "-NoProfile",
                "-Command",
                "Get-Content -Raw a.md"
            ])),
            "Get-Content -Raw a.md"
        );
        assert_eq!(
            line(json!([
                "powershell.exe",
                "-NoProfile",
                "-ExecutionPolicy",
                "Bypass",
                "-File",
                "x.ps1"
            ])),
            "powershell.exe -NoProfile -ExecutionPolicy Bypass -File x.ps1"
        );
        assert_eq!(line(json!(["ls", "-la", "a b"])), "ls -la 'a b'");
        assert_eq!(
            line(json!(["sh", "-c", "echo $0", "me"])),
            "sh -c 'echo $0' me"
        );
    }
}
