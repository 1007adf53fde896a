//! `ccv export` through the built binary.

use crate::common;

use assert_cmd::Command;

const KINDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/kinds.jsonl");

fn ccv() -> Command {
    // never let a test see the machine's real ~/.claude
    common::ccv_at(std::path::Path::new("/nonexistent-ccv-test"))
}

#[test]
fn text_export_labels_rows() {
    let out = ccv().args(["export", KINDS]).output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    for label in [
        "[User]",
        "[Assistant]",
        "[Thinking]",
        "[Tool Call] Read",
        "[Tool Result]",
        "[Tool Error]",
        "[System]",
        "[Command]",
        "[Meta]",
        "[Compaction]",
        "[Unknown]",
        "[API Error]",
    ] {
        assert!(
            text.contains(&format!("\n{label}\n")) || text.starts_with(&format!("{label}\n")),
            "missing {label}"
        );
    }
    assert!(!text.contains('\x1b'), "raw escape in text export");
    // rows are separated by one blank line
    assert!(text.contains("[User]\nFix the parser in @src/parse.rs please\n\n[Thinking]\n"));
}

#[test]
fn filters_drop_thinking_and_tools() {
    let out = ccv()
        .args(["export", "--no-thinking", "--no-tools", KINDS])
        .output()
        .expect("run");
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(!text.contains("[Thinking]"));
    assert!(!text.contains("[Tool Call]"));
    assert!(!text.contains("[Tool Result]"));
    assert!(text.contains("[Assistant]"));
}

#[test]
fn json_export_has_the_audit_fields() {
    let out = ccv()
        .args(["export", "--format", "json", KINDS])
        .output()
        .expect("run");
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .expect("utf8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(rows[0]["kind"], "user");
    assert_eq!(rows[0]["uuid"], "u1");
    assert_eq!(rows[0]["timestamp"], "2026-01-02T10:00:00.000Z");
    assert_eq!(rows[0]["line"], 3);
    let call = rows
        .iter()
        .find(|r| r["kind"] == "tool_call")
        .expect("a call");
    assert_eq!(call["tool_name"], "Read");
    assert_eq!(call["tool_use_id"], "toolu_read");
    assert_eq!(
        call["input"]["file_path"],
        "/home/alice/src/demo/src/parse.rs"
    );
    let kinds: std::collections::BTreeSet<&str> =
        rows.iter().filter_map(|r| r["kind"].as_str()).collect();
    for k in [
        "user",
        "assistant",
        "thinking",
        "tool_call",
        "tool_result",
        "system",
        "command",
        "meta",
        "compaction",
        "unknown",
    ] {
        assert!(kinds.contains(k), "no {k} row");
    }
}

#[test]
fn markdown_export_fences_code() {
    let text = markdown_of(std::path::Path::new(KINDS));
    assert!(text.contains("## Tool Call: Read\n\n```json\n"));
    assert!(text.contains("## User\n\nFix the parser"));
}

/// `ccv export --format markdown PATH`'s output.
fn markdown_of(path: &std::path::Path) -> String {
    let out = ccv()
        .args(["export", "--format", "markdown"])
        .arg(path)
        .output()
        .expect("run");
    String::from_utf8(out.stdout).expect("utf8")
}

/// The outline holds: one `#` (the title block), `##` rows, and the
/// assistant's own headings below them (code blocks untouched).
#[test]
fn markdown_export_headings_outrank_the_content() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("h.jsonl");
    let answer = "# Plan\n\n## Step one\n\n```sh\n# not a heading\n```\n###### deep";
    let lines = [
        serde_json::json!({"type":"user","uuid":"u1","sessionId":"sid-1","cwd":"/w","message":{"role":"user","content":"plan it"}}),
        serde_json::json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"sid-1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":answer}]}}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, body).expect("write");
    let text = markdown_of(&path);
    assert!(text.starts_with("# plan it\n\n"), "{text}");
    assert!(text.contains("- **Session:** sid-1"), "{text}");
    assert!(text.contains("- **Directory:** /w"), "{text}");
    assert!(
        !text.lines().any(|l| l == "# Plan" || l == "## Step one"),
        "{text}"
    );
    assert!(
        text.contains("## Assistant\n\n### Plan\n\n#### Step one"),
        "{text}"
    );
    assert!(text.contains("```sh\n# not a heading\n```"), "{text}");
    assert!(text.contains("\n###### deep"), "{text}");
}

/// Every row of a markdown export is its own section when rendered,
/// whatever its text leaves open: a code fence (an answer cut off inside
/// one), an HTML comment, a fence of a longer run or with an info string
/// that does not close it; `\`\`\`a\`\`\`` is code inline, no fence; a
/// fence in a list item or a quote ends with it, and gets no closing.
#[test]
fn markdown_export_rows_stay_sections_whatever_their_text_leaves_open() {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("open.jsonl");
    let texts = [
        ("user", "paste:\n```python\nprint(1)"),
        ("assistant", "cut off:\n~~~~\ncode\n~~~\n# still code"),
        ("user", "```a``` inline\n# Heading"),
        ("assistant", "<!-- a comment never closed\n# hidden"),
        ("user", "````\n```js\n````x\nstill code"),
        // a fence in a list item ends with the item: no closing after it
        ("assistant", "- item\n  ```py\n  code in a list"),
        ("user", "> quoted\n> ```\n> code in a quote"),
        // HTML blocks that run on past blank lines, to their end tag
        ("assistant", "look:\n<script>\nalert(1)"),
        ("user", "php:\n<?php echo 1;"),
        ("assistant", "cdata:\n<![CDATA[ x"),
        ("user", "pre:\n<pre>\nsome"),
        ("assistant", "style:\n<STYLE type=x>\nbody{}"),
        ("user", "textarea:\n<textarea>\nx"),
        ("assistant", "decl:\n<!DOCTYPE html"),
        ("user", "div:\n<div>\nopen div"),
        ("assistant", "the end"),
    ];
    let mut body = String::new();
    for (n, (role, text)) in texts.iter().enumerate() {
        let message = if *role == "user" {
            serde_json::json!({"role":"user","content":text})
        } else {
            serde_json::json!({"id":format!("m{n}"),"role":"assistant","model":"claude-opus-4-6",
                "content":[{"type":"text","text":text}]})
        };
        let line = serde_json::json!({"type":role,"uuid":format!("u{n}"),
            "parentUuid": if n == 0 { serde_json::Value::Null } else { format!("u{}", n - 1).into() },
            "sessionId":"s","message":message});
        body.push_str(&format!("{line}\n"));
    }
    std::fs::write(&path, body).expect("write");
    let text = markdown_of(&path);
    let mut sections = Vec::new();
    let mut heading: Option<String> = None;
    for e in Parser::new(&text) {
        match e {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) => heading = Some(String::new()),
            Event::Text(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => sections.extend(heading.take()),
            _ => {}
        }
    }
    let want: Vec<&str> = texts
        .iter()
        .map(|(r, _)| if *r == "user" { "User" } else { "Assistant" })
        .collect();
    assert_eq!(sections, want, "{text}");
    assert!(text.contains("```a``` inline\n### Heading"), "{text}");
    assert!(text.contains("  code in a list\n\n## User"), "{text}");
    assert!(text.contains("> code in a quote\n\n## Assistant"), "{text}");
}

#[test]
fn stdin_and_unreadable_lines() {
    let input = "{\"type\":\"user\",\"message\":{\"content\":\"hello\"}}\nnot json\n{\"type\":\"user\",\"message\":{\"content\":\"bye\"}}";
    let out = ccv()
        .args(["export", "-"])
        .write_stdin(input)
        .output()
        .expect("run");
    assert!(out.status.success(), "exit 0 despite a bad line");
    let stdout = String::from_utf8(out.stdout).expect("utf8");
    assert!(stdout.contains("hello") && stdout.contains("bye"));
    let stderr = String::from_utf8(out.stderr).expect("utf8");
    assert!(stderr.contains("ccv: -:2: not JSON"), "{stderr}");
}

#[test]
fn hostile_bytes_never_reach_the_output() {
    let evil =
        "\x1b]2;pwned\x07\x1b]52;c;aGk=\x07\x1b[2J\x1b[?1049h\x1b[?1000h\r\0\u{9b}31m\u{202e}";
    let line =
        serde_json::json!({"type":"user","message":{"role":"user","content": format!("a{evil}b")}});
    let tool = serde_json::json!({"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name": format!("Bash{evil}"),"input":{"command": evil}}]}});
    let res = serde_json::json!({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content": evil}]}});
    let input = format!("{line}\n{tool}\n{res}\n");
    for format in ["text", "markdown"] {
        let out = ccv()
            .args(["export", "--format", format, "-"])
            .write_stdin(input.clone())
            .output()
            .expect("run");
        let text = String::from_utf8(out.stdout).expect("utf8");
        let bad: Vec<char> = text
            .chars()
            .filter(|&c| ccv::model::text::is_unsafe_char(c) || c == '\x1b')
            .collect();
        assert!(bad.is_empty(), "{format}: {bad:?} in {text:?}");
    }
}

#[test]
fn help_and_version() {
    let out = ccv().arg("--help").output().expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("export"));
    let out = ccv().arg("--version").output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ccv "));
}

/// `ccv export … | head`: the reader leaving early is not an error, in
/// any format.
#[test]
fn a_closed_pipe_ends_the_export_quietly() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("big.jsonl");
    let line = serde_json::json!({"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"x".repeat(2000)}});
    let body: String = (0..400).map(|_| format!("{line}\n")).collect();
    std::fs::write(&file, body).expect("write");
    for format in ["text", "json", "markdown"] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ccv"))
            .args(["export", "--format", format])
            .arg(&file)
            .envs(common::sandbox(std::path::Path::new(
                "/nonexistent-ccv-test",
            )))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut first = [0u8; 16];
        child
            .stdout
            .take()
            .expect("stdout")
            .read_exact(&mut first)
            .expect("read");
        // stdout is dropped here: the pipe is closed
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{format}: {:?}", out.status);
        assert!(
            out.stderr.is_empty(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
