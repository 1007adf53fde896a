//! One title rule: the viewer's header (`Session::title`), the picker's
//! listing and `ccv list` name every session alike.

use ccv::catalog::scan::scan_file;
use ccv::model::Session;
use std::path::Path;

fn line(kind: &str, uuid: &str, content: &str) -> String {
    format!(
        r#"{{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s","version":"2.1.3","type":"{kind}","message":{{"role":"{kind}","content":{content}}},"uuid":"{uuid}","timestamp":"2025-01-01T10:00:00.000Z"}}"#
    ) + "\n"
}

fn tool_output(uuid: &str, bytes: usize) -> String {
    let text = "x".repeat(bytes);
    line(
        "user",
        uuid,
        &format!(r#"[{{"type":"tool_result","tool_use_id":"t","content":"{text}"}}]"#),
    )
}

fn titles(path: &Path) -> (Option<String>, String) {
    let s = Session::load(path).expect("load");
    let meta = std::fs::metadata(path).expect("stat");
    let info = scan_file(path, meta.len(), 0, "/w").expect("scan");
    (s.title().map(str::to_owned), info.title)
}

fn check(name: &str, body: &str, want: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(format!("{name}.jsonl"));
    std::fs::write(&path, body).expect("write");
    let (viewer, picker) = titles(&path);
    assert_eq!(viewer.as_deref(), Some(want), "{name}: viewer");
    assert_eq!(picker, want, "{name}: picker");
}

#[test]
fn a_first_prompt_deep_in_a_big_file_titles_it() {
    // 1 MB: metadata and tool output first, the prompt at ~600 KB
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 600 * 1024 {
        body.push_str(&tool_output(&format!("o{n}"), 20_000));
        n += 1;
    }
    body.push_str(&line("user", "p1", r#""Find the leak in the pool""#));
    while body.len() < 1024 * 1024 {
        body.push_str(&tool_output(&format!("q{n}"), 20_000));
        n += 1;
    }
    check("deep", &body, "Find the leak in the pool");
}

#[test]
fn a_summary_of_another_session_does_not_title_this_one() {
    let body = [
        r#"{"type":"summary","summary":"Somebody else's work","leafUuid":"elsewhere"}"#.to_owned()
            + "\n",
        line("user", "u1", r#""Tune the cache""#),
    ]
    .concat();
    check("foreign", &body, "Tune the cache");
    let own = [
        r#"{"type":"summary","summary":"Cache tuning","leafUuid":"u1"}"#.to_owned() + "\n",
        line("user", "u1", r#""Tune the cache""#),
    ]
    .concat();
    check("own", &own, "Cache tuning");
    // the same in a big file, where the leaf sits in the middle
    let mut big = r#"{"type":"summary","summary":"Big own","leafUuid":"mid"}"#.to_owned() + "\n";
    big.push_str(&line("user", "u0", r#""Start""#));
    for n in 0..20 {
        big.push_str(&tool_output(&format!("a{n}"), 20_000));
    }
    big.push_str(&line("user", "mid", r#""Middle""#));
    for n in 0..20 {
        big.push_str(&tool_output(&format!("b{n}"), 20_000));
    }
    check("big-own", &big, "Big own");
}

#[test]
fn sessions_that_open_with_a_command_or_an_image_get_a_title() {
    let cmd = line(
        "user",
        "c1",
        r#""<command-name>/review</command-name>\n<command-args>42</command-args>""#,
    );
    check("command", &cmd, "/review 42");
    let img = line(
        "user",
        "i1",
        r#"[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]"#,
    );
    check("image", &img, "[image]");
    let both = line(
        "user",
        "i2",
        r#"[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}},{"type":"text","text":"What is wrong here?"}]"#,
    );
    check("text-image", &both, "What is wrong here?");
}

/// A teammate's session opens with its task from the team lead: that is
/// its first prompt (a user row marked as from the lead) and its subject
/// the title, on screen, in the picker, in exports.
#[test]
fn a_teammate_session_is_titled_by_its_task() {
    let task = serde_json::json!(
        "<teammate-message teammate_id=\"team-lead\" color=\"blue\">\n{\"type\":\"task_assignment\",\"taskId\":\"2\",\"subject\":\"Fix the CI cache\",\"description\":\"The cache key misses the lockfile.\",\"assignedBy\":\"team-lead\"}\n</teammate-message>"
    );
    let body = line("user", "u1", &task.to_string())
        + &line("assistant", "a1", r#"[{"type":"text","text":"On it."}]"#);
    check("teammate", &body, "Fix the CI cache");
    // plain text from the lead, named by its summary
    let plain = serde_json::json!(
        "<teammate-message teammate_id=\"team-lead\" summary=\"Review the parser\">You are an agent on team \"x\".\nReview the parser.</teammate-message>"
    );
    check(
        "teammate-plain",
        &line("user", "u1", &plain.to_string()),
        "Review the parser",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, &body).expect("write");
    let s = Session::load(&path).expect("load");
    let first = &s.main.items[0];
    assert_eq!(first.kind, ccv::model::Kind::User);
    assert!(first.flags.from_lead);
    let text = crate::common::exported(&s, ccv::export::Format::Text);
    assert!(
        text.starts_with("[User] (from the team lead)\nTask #2: Fix the CI cache\n\nThe cache key misses the lockfile."),
        "{text}"
    );
}

/// The file's name is the session's id, though its first lines were
/// copied from an earlier session (and carry that one's id).
#[test]
fn the_file_name_is_the_session_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir
        .path()
        .join("2b7c1f5e-9d1a-4c55-8a0e-3f1f6f0a9e11.jsonl");
    std::fs::write(&path, line("user", "u1", "\"copied from before\"")).expect("write");
    let meta = std::fs::metadata(&path).expect("stat");
    let info = scan_file(&path, meta.len(), 0, "/w").expect("scan");
    assert_eq!(info.session_id, "2b7c1f5e-9d1a-4c55-8a0e-3f1f6f0a9e11");
}

/// Exports leave out Claude Code's caveat before a local command (the
/// viewer hides it too).
#[test]
fn exports_leave_out_the_local_command_caveat() {
    let caveat = serde_json::json!(
        "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>"
    );
    let mut caveat_line: serde_json::Value =
        serde_json::from_str(line("user", "c1", &caveat.to_string()).trim()).expect("json");
    caveat_line["isMeta"] = serde_json::json!(true);
    let body = format!("{caveat_line}\n") + &line("user", "u1", "\"the real prompt\"");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("c.jsonl");
    std::fs::write(&path, &body).expect("write");
    let s = Session::load(&path).expect("load");
    for format in [
        ccv::export::Format::Text,
        ccv::export::Format::Markdown,
        ccv::export::Format::Json,
    ] {
        let out = crate::common::exported(&s, format);
        assert!(!out.contains("Caveat"), "{format:?}: {out}");
        assert!(out.contains("the real prompt"), "{format:?}: {out}");
    }
}

/// What an IDE's extension puts before a prompt (the file open, the lines
/// selected) is context, not what was typed: the session is named by the
/// prompt, which is a user row of its own, the context a meta row. In one
/// string with the prompt after it, the prompt names it too.
#[test]
fn an_ides_context_before_the_prompt_does_not_name_the_session() {
    let opened = r#"<ide_opened_file>The user opened the file /w/mise.toml in the IDE. This may or may not be related to the current task.</ide_opened_file>"#;
    let selected = r#"<ide_selection>The user selected the lines 3 to 4 from /w/a.go:\nx := 1\n\nThis may or may not be related to the current task.</ide_selection>"#;
    let blocks = line(
        "user",
        "u1",
        &format!(
            r#"[{{"type":"text","text":"{opened}"}},{{"type":"text","text":"{selected}"}},{{"type":"text","text":"Add a CODEOWNERS file"}}]"#
        ),
    );
    check("ide-blocks", &blocks, "Add a CODEOWNERS file");
    let one = line("user", "u2", &format!(r#""{opened}\nWhy is this slow?""#));
    check("ide-string", &one, "Why is this slow?");
    // the rows: the context as meta, the prompt as the user's
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rows.jsonl");
    std::fs::write(&path, &blocks).expect("write");
    let s = Session::load(&path).expect("load");
    let rows: Vec<(ccv::model::Kind, String)> = s
        .main
        .items
        .iter()
        .map(|i| (i.kind, i.text.or_marker().to_string()))
        .collect();
    use ccv::model::Kind::{Meta, User};
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(
        (rows[0].0, rows[1].0, rows[2].0),
        (Meta, Meta, User),
        "{rows:?}"
    );
    assert_eq!(rows[2].1, "Add a CODEOWNERS file");
    // context alone (a prompt cut off) is no title: nothing was typed
    let alone = line(
        "user",
        "u3",
        &format!(r#"[{{"type":"text","text":"{opened}"}}]"#),
    ) + &line("user", "u4", r#""The real question""#);
    check("ide-alone", &alone, "The real question");
}
