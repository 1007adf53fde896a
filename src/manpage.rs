//! `ccv man`: the manual page. clap_mangen renders the name, synopsis,
//! description and options; ccv adds its commands in the page itself
//! (there is no `ccv-export(1)` page to point to), the viewer's keys, the
//! environment, the files it reads and writes, and the exit status.

use std::io::{self, Write};

/// roff, with its special characters escaped.
fn roff(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, line) in s.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.replace('\\', "\\\\").replace('-', "\\-");
        // a line starting with `.` or `'` would be a request
        if line.starts_with('.') || line.starts_with('\'') {
            out.push_str("\\&");
        }
        out.push_str(&line);
    }
    out
}

fn section_body(render: impl Fn(&mut Vec<u8>) -> io::Result<()>) -> io::Result<String> {
    let mut buf = Vec::new();
    render(&mut buf)?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    // without its `.SH` line: it goes under the command's entry
    Ok(text
        .lines()
        .filter(|l| !l.starts_with(".SH"))
        .collect::<Vec<_>>()
        .join("\n"))
}

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "CLAUDE_CONFIG_DIR",
        "Where the projects are: $CLAUDE_CONFIG_DIR/projects (default ~/.claude/projects).",
    ),
    (
        "HOME",
        "The default projects root, config and cache are under it.",
    ),
    (
        "XDG_CONFIG_HOME",
        "The config file: $XDG_CONFIG_HOME/ccv/config.toml (default ~/.config/ccv/config.toml).",
    ),
    (
        "XDG_CACHE_HOME",
        "The listing cache, the search index and fetched prices: $XDG_CACHE_HOME/ccv.",
    ),
    (
        "XDG_STATE_HOME",
        "Markdown exports (e), copies no clipboard took, prompt history: $XDG_STATE_HOME/ccv.",
    ),
    ("NO_COLOR", "Monochrome, as --no-color."),
    ("VISUAL, EDITOR", "The editor of E and F (default vi)."),
    (
        "COLORTERM, TERM",
        "How many colours the terminal shows (truecolor, 256 or 16).",
    ),
    (
        "COLORFGBG",
        "The background, when the terminal does not answer the OSC 11 query.",
    ),
    (
        "CCV_POLL",
        "1: follow files by polling every 500 ms instead of file-system events.",
    ),
];

const FILES: &[(&str, &str)] = &[
    (
        "~/.claude/projects/PROJECT/SESSION.jsonl",
        "Claude Code's sessions (and SESSION/subagents/agent-*.jsonl). Read only: ccv never writes there.",
    ),
    (
        "~/.config/ccv/config.toml",
        "The config: theme, colours, keys, filters, prices, redaction patterns (ccv config --default).",
    ),
    (
        "~/.cache/ccv/",
        "The listing cache (sessions-v6.bin), the search index (index/) and fetched prices (prices-fetched.json): rebuilt when deleted or damaged.",
    ),
    (
        "~/.local/state/ccv/",
        "exports/ (e), history/ (what was typed in / and : and the picker), copies a clipboard did not take.",
    ),
];

const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Success."),
    (
        "1",
        "An error (a file that cannot be read, a bad --since); ccv check: findings; ccv search: nothing matched.",
    ),
    (
        "2",
        "A usage error, or no projects root; ccv check: an I/O error.",
    ),
    (
        "128+N",
        "Ended by signal N (SIGTERM, SIGINT, SIGHUP), the terminal restored.",
    ),
];

fn tagged(out: &mut dyn Write, title: &str, entries: &[(String, String)]) -> io::Result<()> {
    writeln!(out, ".SH {title}")?;
    for (k, v) in entries {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff(k), roff(v))?;
    }
    Ok(())
}

fn owned(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// Writes the page for `cmd` (ccv's command line).
pub fn write(cmd: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = cmd;
    cmd.build();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let page = clap_mangen::Man::new(sub.clone());
        let synopsis = section_body(|b| page.render_synopsis_section(b))?;
        writeln!(out, ".TP")?;
        // `\fBexport\fR [OPTIONS] <PATH>` as `ccv export ...`
        let name = sub.get_name();
        let synopsis = synopsis.replacen(
            &format!("\\fB{}\\fR", roff(name)),
            &format!("\\fBccv {}\\fR", roff(name)),
            1,
        );
        writeln!(out, "{synopsis}")?;
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            writeln!(out, "{}", roff(&about.to_string()))?;
        }
        let options = section_body(|b| page.render_options_section(b))?;
        if !options.trim().is_empty() {
            writeln!(out, ".RS\n{options}\n.RE")?;
        }
    }
    let keys: Vec<(String, String)> = crate::viewer::keymap::help()
        .into_iter()
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, d)| (k, d.to_owned()))
        .collect();
    tagged(out, "KEYS", &keys)?;
    writeln!(
        out,
        ".PP\nIn the picker, typing filters; \\fBCtrl\\-F\\fR searches every session; \\fBTab\\fR changes the order. Prompts edit as in readline (\\fBCtrl\\-W\\fR, \\fBCtrl\\-U\\fR, \\fBCtrl\\-A\\fR, \\fBAlt\\-B\\fR...); \\fBUp\\fR brings back what was typed before. A config's [keys] table changes the viewer's keys."
    )?;
    tagged(out, "ENVIRONMENT", &owned(ENVIRONMENT))?;
    tagged(out, "FILES", &owned(FILES))?;
    tagged(out, "EXIT STATUS", &owned(EXIT_STATUS))?;
    man.render_version_section(out)?;
    Ok(())
}
