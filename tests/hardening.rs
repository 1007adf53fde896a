//! Malicious and broken inputs, built in the test: nothing vanishes,
//! nothing hangs, nothing reaches the terminal raw, memory stays bounded.

use assert_cmd::Command;
use ccv::app::{Action, State, perform_action};
use ccv::export::Format;
use ccv::model::Session;
use serde_json::{Value, json};
use std::time::Duration;

use crate::common;
use common::{
    assistant_line as assistant, exported, screen_text as screen, session_of as session,
    user_line as user,
};

/// The binary, with a home, config, cache and state of its own: no test
/// may see the machine's real `~/.claude`.
fn ccv() -> Command {
    // (under the build's own folder for tests: one in /tmp was left there
    // by every run)
    let sandbox = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ccv-hardening-{}", std::process::id()));
    let mut c = common::ccv_at(&sandbox);
    c.timeout(Duration::from_secs(120));
    c
}

#[test]
fn a_carriage_return_hides_nothing() {
    let s = session(&[
        user("u1", json!("VISIBLE rm -rf ~ \rharmless")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"run"}}]),
        ),
        user(
            "u2",
            json!([{"type":"tool_result","tool_use_id":"t1","content":"a\rb\rc\nline\r\nnext"}]),
        ),
    ]);
    for f in [Format::Text, Format::Markdown] {
        let text = exported(&s, f);
        assert!(text.contains("VISIBLE rm -rf ~"), "{text}");
        assert!(text.contains("harmless"), "{text}");
        // every frame of the output is kept in exports
        assert!(text.contains("a\nb\nc\nline\nnext"), "{text}");
    }
    let (mut st, shot) = common::last_call_opened(s, 100, 30);
    assert!(shot.contains("VISIBLE rm -rf ~"), "{shot}");
    assert!(shot.contains("harmless"), "{shot}");
    // the TUI folds the overwritten frames, and says so
    assert!(shot.contains("c ↻ 3 frames"), "{shot}");
    perform_action(&mut st, Action::ShowAll);
    let shot = screen(&mut st, 100, 30);
    assert!(shot.contains("│ a "), "z shows every frame: {shot}");
    assert!(!shot.contains("↻"), "{shot}");
}

#[test]
fn an_unterminated_escape_swallows_nothing_after_its_line() {
    for intro in ["\u{1b}]", "\u{1b}P", "\u{1b}_", "\u{9d}"] {
        let text = format!("first para {intro}0;junk\n\nsecond para\n\nthird para");
        let s = session(&[
            user("u1", json!("q")),
            assistant("a1", "m1", json!([{"type":"text","text":text}])),
        ]);
        let out = exported(&s, Format::Text);
        assert!(
            out.contains("second para") && out.contains("third para"),
            "{intro:?}: {out}"
        );
        let mut st = State::new(s);
        let shot = screen(&mut st, 80, 20);
        assert!(
            shot.contains("second para") && shot.contains("third para"),
            "{shot}"
        );
        assert!(!shot.contains('\u{1b}'));
    }
}

#[test]
fn a_line_longer_than_the_cap_is_reported_and_not_held() {
    let mut s = Session::new(None);
    s.set_line_cap(0, 1 << 20);
    s.feed(0, format!("{}\n", user("u1", json!("before"))).as_bytes());
    let chunk = vec![b'x'; 64 << 10];
    for _ in 0..64 {
        s.feed(0, &chunk); // 4 MB with no newline
    }
    s.feed(0, format!("\n{}\n", user("u2", json!("after"))).as_bytes());
    s.finish(0);
    let texts: Vec<&str> = s.main.items.iter().map(|i| i.text.or_marker()).collect();
    assert_eq!(texts[0], "before");
    assert!(
        texts[1].contains("line 2") && texts[1].contains("skipped"),
        "{texts:?}"
    );
    assert_eq!(texts[2], "after");
    assert_eq!(s.stats.unreadable, 1);
    assert_eq!(s.problems.len(), 1);
    assert_eq!(s.problems[0].1.line, 2);
}

/// A file of tiny lines of no known kind (a row is a few hundred bytes
/// whatever its line) shows the first 10,000 as rows, the last saying the
/// rest are hidden, and hides and counts the rest; the lines of known
/// kinds among them are shown as ever, read whole or fed in pieces.
#[test]
fn lines_of_unknown_kinds_past_ten_thousand_are_hidden_and_counted() {
    let mut text = format!("{}\n", user("u1", json!("before")));
    text += &"{}\n".repeat(25_000);
    text += &format!("{}\n", user("u2", json!("after")));
    text += &"{\"type\":\"brand-new\",\"x\":1}\n".repeat(5_000);
    for piece in [text.len(), 4096] {
        let mut s = Session::new(None);
        for chunk in text.as_bytes().chunks(piece) {
            s.feed(0, chunk);
        }
        s.finish(0);
        let unknown: Vec<&str> = s
            .main
            .items
            .iter()
            .filter(|i| i.kind == ccv::model::Kind::Unknown)
            .map(|i| i.text.or_marker())
            .collect();
        assert_eq!(unknown.len(), 10_000, "pieces of {piece}");
        assert!(unknown[9_999].starts_with("[ccv shows 10,000 rows of unknown kinds at most"));
        assert!(!unknown[9_998].contains("hidden"));
        let texts: Vec<&str> = s.main.items.iter().map(|i| i.text.or_marker()).collect();
        assert!(texts.contains(&"before") && texts.contains(&"after"));
        assert_eq!(
            s.stats
                .hidden_by_reason
                .get("lines of unknown kinds past the first 10,000"),
            Some(&20_000)
        );
        assert_eq!(s.stats.entries, 30_002);
        assert_eq!(s.stats.shown + s.stats.hidden + s.stats.unreadable, 30_002);
    }
}

/// Blocks of unknown kinds count among the 10,000 rows too: an answer of
/// 15,000 of them and a text shows its text and 10,000 of them.
#[test]
fn blocks_of_unknown_kinds_past_ten_thousand_are_not_rows() {
    let blocks: Vec<Value> = (0..15_000)
        .map(|_| json!({"type": "brand-new-block"}))
        .chain([json!({"type": "text", "text": "hello"})])
        .collect();
    let text = format!(
        "{}\n{}\n",
        assistant("a1", "m1", json!(blocks)),
        user("u1", json!([{"type": "another-new-block"}]))
    );
    let mut s = Session::new(None);
    s.feed(0, text.as_bytes());
    s.finish(0);
    let unknown = s
        .main
        .items
        .iter()
        .filter(|i| i.kind == ccv::model::Kind::Unknown);
    assert_eq!(unknown.count(), 10_000);
    assert!(s.main.items.iter().any(|i| i.text.or_marker() == "hello"));
    // the prompt of nothing but a block past them is hidden, and counted
    assert_eq!(s.stats.shown + s.stats.hidden, 2);
    assert_eq!(s.stats.hidden_by_reason.get("empty message"), Some(&1));
}

/// 20 MB in 2 KB writes, the tail checked after each as the follower does:
/// linear, not a re-decode of the tail per append.
#[test]
fn a_long_line_in_small_writes_costs_its_bytes_once() {
    let big = "y".repeat(20 << 20);
    let line = format!("{}\n", user("u1", json!(big)));
    let mut s = Session::new(None);
    for piece in line.as_bytes().chunks(2048) {
        s.feed(0, piece);
        s.flush_tail(0);
    }
    assert_eq!(s.main.items.len(), 1);
    assert_eq!(s.main.items[0].text.len(), 20 << 20);
}

#[test]
fn devices_and_fifos_are_not_sessions() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        if !std::path::Path::new(dev).exists() {
            continue;
        }
        let out = ccv().args(["export", dev]).output().expect("runs");
        assert!(!out.status.success(), "{dev}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a regular file"), "{dev}: {err}");
    }
    // a folder: what to do with one, not a pipe
    let dir = tempfile::tempdir().expect("tempdir");
    for args in [&["export"][..], &["check"], &["export", "--format", "html"]] {
        let out = ccv().args(args).arg(dir.path()).output().expect("runs");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("a directory, not a session file") && err.contains("--all"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("pipe it in"), "{err}");
    }
    #[cfg(unix)]
    {
        let dir = tempfile::tempdir().expect("tempdir");
        let proj = dir.path().join("projects").join("-w");
        std::fs::create_dir_all(&proj).expect("mkdir");
        std::fs::write(
            proj.join("ok.jsonl"),
            format!("{}\n", user("u1", json!("fine"))),
        )
        .expect("write");
        let fifo = proj.join("trap.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .envs(common::outside_home())
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipping the FIFO part: no mkfifo");
            return;
        }
        std::os::unix::fs::symlink("/dev/zero", proj.join("zero.jsonl")).expect("symlink");
        let out = ccv()
            .args(["list", "--json"])
            .arg(dir.path().join("projects"))
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .output()
            .expect("runs");
        assert!(out.status.success());
        let listed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(listed.lines().count(), 1, "{listed}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("skipped 2"), "{err}");
        assert!(err.contains("FIFO") && err.contains("device"), "{err}");
        let out = ccv().arg("export").arg(&fifo).output().expect("runs");
        assert!(!out.status.success());
    }
}

/// Under a 3 GB address-space limit: a sparse 4 GB file (one line of NUL
/// bytes) exports with a clear report, and `/dev/zero` piped in ends too.
#[cfg(target_os = "linux")]
#[test]
fn memory_stays_bounded_under_ulimit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sparse = dir.path().join("sparse.jsonl");
    let f = std::fs::File::create(&sparse).expect("create");
    if f.set_len(4 << 30).is_err() {
        eprintln!("skipping: no sparse files here");
        return;
    }
    drop(f);
    let bin = assert_cmd::cargo::cargo_bin("ccv");
    let run = |script: String| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .envs(common::sandbox(dir.path()))
            .output()
            .expect("sh runs")
    };
    let out = run(format!(
        "ulimit -v 3000000; '{}' export '{}' > /dev/null",
        bin.display(),
        sparse.display()
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(":1: line of 4.0 GB skipped"), "{err}");
    let out = run(format!(
        "ulimit -v 3000000; head -c 600000000 /dev/zero | '{}' export - > /dev/null",
        bin.display()
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("skipped"), "{err}");
}

#[test]
fn names_and_messages_reach_stderr_made_safe() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("evil\u{1b}]2;PWNED\u{7}.jsonl");
    std::fs::write(&path, "not json\n").expect("write");
    let out = ccv().arg("export").arg(&path).output().expect("runs");
    let err = out.stderr;
    assert!(
        !err.contains(&0x1b) && !err.contains(&0x07),
        "{}",
        String::from_utf8_lossy(&err)
    );
    assert!(String::from_utf8_lossy(&err).contains("PWNED"));
    let missing = dir.path().join("gone\u{1b}[2J.jsonl");
    let out = ccv().arg("export").arg(&missing).output().expect("runs");
    assert!(!out.stderr.contains(&0x1b));
    let out = ccv()
        .args(["export", "--format", "\u{1b}]2;x\u{7}"])
        .output()
        .expect("runs");
    assert!(!out.stderr.contains(&0x1b), "clap's error too");
}

#[test]
fn json_output_escapes_c1_and_bidi_controls() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proj = dir.path().join("projects").join("-w");
    std::fs::create_dir_all(&proj).expect("mkdir");
    let text = "csi\u{9b}31m and \u{202e}evil\u{2066}";
    let path = proj.join("s.jsonl");
    std::fs::write(&path, format!("{}\n", user("u1", json!(text)))).expect("write");
    for args in [
        vec![
            "export".to_owned(),
            "--format".into(),
            "json".into(),
            path.display().to_string(),
        ],
        vec![
            "list".into(),
            "--json".into(),
            dir.path().join("projects").display().to_string(),
        ],
    ] {
        let out = ccv()
            .args(&args)
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .output()
            .expect("runs");
        let s = String::from_utf8(out.stdout).expect("utf8");
        assert!(
            !s.contains('\u{9b}') && !s.contains('\u{202e}'),
            "{args:?}: {s}"
        );
        assert!(
            s.contains("\\u009b") && s.contains("\\u202e"),
            "{args:?}: {s}"
        );
        let v: Value = serde_json::from_str(s.lines().next().expect("a line")).expect("json");
        let back = v
            .get("text")
            .or_else(|| v.get("title"))
            .and_then(Value::as_str);
        assert_eq!(back, Some(text), "round trip");
    }
}

/// Garbage without end (`/dev/urandom` piped in): past a run of unreadable
/// lines they are counted and held as one row, so memory does not grow
/// with the input; a readable line afterwards is shown as usual.
#[test]
fn a_long_run_of_garbage_is_held_as_one_row() {
    let mut s = Session::new(None);
    let run = ccv::model::session::GARBAGE_RUN as usize;
    for _ in 0..run + 5_000 {
        s.feed(0, b"\x8f\x01garbage \xff not json\n");
    }
    s.feed(
        0,
        format!("{}\n", user("u1", json!("after the noise"))).as_bytes(),
    );
    s.finish(0);
    assert_eq!(s.stats.unreadable as usize, run + 5_000);
    assert_eq!(
        s.stats.entries,
        s.stats.shown + s.stats.hidden + s.stats.unreadable
    );
    assert_eq!(
        s.main.items.len(),
        run + 2,
        "the run's rows, one held row, the prompt"
    );
    assert_eq!(s.problems.len(), run + 1);
    let held = &s.main.items[run];
    assert!(
        held.text
            .or_marker()
            .contains("5000 unreadable lines in a row"),
        "{}",
        held.text
    );
    assert_eq!(s.main.items[run + 1].text, "after the noise");
    assert_eq!(s.marks(), &s.marks_from_scratch());
}

/// A file that is one JSON document written over many lines (Gemini CLI
/// keeps its sessions so; any pretty-printed file) is one row that says
/// what it is, not a row per line of it: read whole or in parts as a
/// follower reads it, with its finding for `ccv check`. Gemini's is named.
#[test]
fn one_json_document_over_many_lines_is_one_row_that_says_so() {
    let doc = serde_json::to_string_pretty(&json!({
        "sessionId": "g1",
        "projectHash": "7e89",
        "messages": [{"type": "user", "content": "hi"}, {}, [], {"type": "gemini", "content": "ok"}],
    }))
    .expect("json");
    let lines = doc.lines().count() as u64;
    let read_whole = |doc: &str| {
        let mut s = Session::new(None);
        s.feed(0, doc.as_bytes());
        s.finish(0);
        s
    };
    let whole = read_whole(&doc);
    let mut parts = Session::new(None);
    for piece in doc.as_bytes().chunks(7) {
        parts.feed(0, piece);
        parts.flush_tail(0);
    }
    parts.finish(0);
    for s in [&whole, &parts] {
        assert_eq!(s.main.items.len(), 1, "{:?}", s.main.items);
        let row = &s.main.items[0];
        assert_eq!((row.kind, row.line), (ccv::model::Kind::Unreadable, 1));
        let text = row.text.or_marker();
        assert!(text.contains(&format!("lines 1 to {lines}")), "{text}");
        assert!(text.contains("one JSON document"), "{text}");
        assert!(text.contains("a Gemini CLI session"), "{text}");
        assert_eq!(s.stats.unreadable, lines);
        assert_eq!(s.stats.entries, s.stats.unreadable);
        assert_eq!(s.problems.len(), 1);
        assert_eq!(
            s.problems[0].1.message,
            text.trim_start_matches("unreadable line 1: ")
        );
        assert_eq!(s.marks(), &s.marks_from_scratch());
    }
    // another document is not named Gemini's
    let other = read_whole("[\n  1,\n  2\n]\n");
    let text = other.main.items[0].text.or_marker();
    assert!(text.contains("lines 1 to 4: one JSON document"), "{text}");
    assert!(!text.contains("Gemini"), "{text}");
}

/// A session whose head is damaged into what looks like a document's
/// first line is not lost: the lines before the first line of JSON Lines
/// are one unreadable row, and every line from there is read.
#[test]
fn a_head_that_looks_like_a_document_does_not_hide_the_session() {
    let text = format!(
        "{{\n  \"x\":\n{}\n{}\n",
        user("u1", json!("still here")),
        assistant("a1", "m1", json!([{"type": "text", "text": "and so am I"}]))
    );
    let mut s = Session::new(None);
    s.feed(0, text.as_bytes());
    s.finish(0);
    let rows: Vec<String> = s
        .main
        .items
        .iter()
        .map(|i| i.text.or_marker().to_string())
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[0].contains("lines 1 to 2: not JSON Lines"), "{rows:?}");
    assert_eq!(rows[1..], ["still here", "and so am I"]);
    assert_eq!(s.stats.unreadable, 2);
}

/// A field of an unexpected type (a number where a timestamp string was, a
/// string where a flag or a count was) costs that field, not the line: the
/// rest is read, and the field is reported with the line's number.
#[test]
fn a_field_of_an_unexpected_type_costs_only_that_field() {
    let lines = [
        r#"{"type":"user","uuid":"u1","isSidechain":"no","sessionId":"s","message":{"role":"user","content":"hello there"}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","timestamp":12345,"message":{"id":"m","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":"5","output_tokens":7}}}"#,
        r#"{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done","is_error":"no"}]}}"#,
    ];
    let mut s = ccv::model::Session::new(None);
    for l in lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    s.finish(0);
    let kinds: Vec<_> = s.main.items.iter().map(|i| i.kind).collect();
    assert_eq!(
        kinds,
        vec![ccv::model::Kind::User, ccv::model::Kind::ToolCall],
        "no unknown rows"
    );
    let call = common::first_call(&s.main);
    assert_eq!(
        call.result.as_ref().and_then(|r| r.text.get()),
        Some("done")
    );
    assert_eq!(
        s.main.totals.output_tokens, 7,
        "the usage's other fields are kept"
    );
    let said: Vec<String> = s
        .problems
        .iter()
        .map(|(_, p)| format!("{}: {}", p.line, p.message))
        .collect();
    assert!(
        said.iter().any(|m| m.starts_with("1: field isSidechain")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|m| m.starts_with("2: field timestamp")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|m| m.contains("message.usage.input_tokens")),
        "{said:?}"
    );
    assert!(s.problems.iter().all(|(_, p)| p.recovered));
}

/// Every text of a session, in every field a command prints (paths, branch,
/// model, tool names, input keys and values, diff lines, titles, system
/// lines, unknown types, an unreadable line), holds escape sequences, C0
/// and C1 controls, DEL and bidi controls. No command and no output format
/// may print one of them raw: each output may reach a terminal.
#[test]
fn no_command_prints_a_control_from_a_session_raw() {
    let home = tempfile::tempdir().expect("tempdir");
    let proj = home.path().join("claude").join("projects").join("-w-evil");
    std::fs::create_dir_all(&proj).expect("mkdir");
    let p = "X\u{1b}]2;PWNED\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2066}\r\u{0}\u{8}\u{7f}\u{85}Y";
    let s = |t: &str| format!("{t}{p}");
    let ts = |n: u32| format!("2025-01-01T00:00:0{n}Z");
    let lines = [
        json!({"type":"summary","summary":s("sum"),"leafUuid":"a3"}),
        json!({"type":"custom-title","customTitle":s("title"),"sessionId":"s1"}),
        json!({"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":ts(0),
            "cwd":s("/w/evil"),"gitBranch":s("br"),"version":s("1.0"),
            "message":{"role":"user","content":s("prompt")}}),
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":ts(1),
            "message":{"id":"m1","role":"assistant","model":s("claude-x"),
            "usage":{"input_tokens":10,"output_tokens":5},
            "content":[{"type":"thinking","thinking":s("think")},{"type":"text","text":s("answer")},
                {"type":"tool_use","id":s("t1"),"name":s("Bash"),
                 "input":{"command":s("cmd"),s("key"):s("value")}}]}}),
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","timestamp":ts(2),
            "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":s("t1"),
                "content":s("out"),"is_error":true}]},
            "toolUseResult":{"stdout":s("o"),"filePath":s("/f")}}),
        json!({"type":"assistant","uuid":"a3","parentUuid":"u2","sessionId":"s1","timestamp":ts(3),
            "message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2",
                "name":"Edit","input":{"file_path":s("/x.rs"),"old_string":s("a"),"new_string":s("b")}}]}}),
        json!({"type":"user","uuid":"u3","parentUuid":"a3","sessionId":"s1","timestamp":ts(4),
            "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":s("ok")}]},
            "toolUseResult":{"filePath":s("/x"),"structuredPatch":[{"oldStart":1,"oldLines":1,
                "newStart":1,"newLines":1,"lines":[s("-a"),s("+b")]}]}}),
        json!({"type":"system","uuid":"s9","parentUuid":"u3","sessionId":"s1","timestamp":ts(5),
            "subtype":s("x"),"content":s("sys"),"level":"error"}),
        json!({"type":s("weird"),"uuid":"w1","data":p}),
        json!({"type":"user","uuid":"u4","parentUuid":"s9","sessionId":"s1","timestamp":ts(6),
            "message":{"role":"user","content":format!(
                "<command-name>/cmd{p}</command-name><command-args>arg{p}</command-args>")}}),
    ];
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    text.push_str(&format!("garbage{p}\n"));
    let file = proj.join("s1.jsonl");
    std::fs::write(&file, text).expect("write");
    let file = file.display().to_string();
    let root = home.path().join("claude").join("projects");
    let root = root.display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec!["export", &file],
        vec!["export", "--format", "markdown", &file],
        vec!["export", "--format", "json", &file],
        vec!["export", "--format", "html", &file],
        vec!["export", "--redact", &file],
        vec!["check", &file],
        vec!["check", "--json", &file],
        vec!["list", &root],
        vec!["list", "--json", &root],
        vec!["search", "prompt"],
        vec!["search", "--json", "prompt"],
        vec!["search", "value"],
        vec!["stats"],
        vec!["stats", "--json"],
        vec!["stats", "--by", "model"],
        vec!["stats", "--by", "project"],
        vec!["top"],
    ];
    let raw = [
        ("ESC", "\u{1b}"),
        ("BEL", "\u{7}"),
        ("NUL", "\u{0}"),
        ("CR", "\r"),
        ("BS", "\u{8}"),
        ("DEL", "\u{7f}"),
        ("C1 CSI", "\u{9b}"),
        ("C1 NEL", "\u{85}"),
        ("RLO", "\u{202e}"),
        ("LRI", "\u{2066}"),
    ];
    for args in runs {
        let out = common::ccv_at(home.path())
            .args(&args)
            .timeout(Duration::from_secs(120))
            .output()
            .expect("runs");
        for (name, stream) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let s = String::from_utf8_lossy(stream);
            for (what, c) in raw {
                assert!(
                    !s.contains(c),
                    "{args:?} printed a raw {what} on {name}:\n{s}"
                );
            }
        }
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
}

/// A line nested 200,000 deep (in a key before the message, in a result's
/// structured copy, in a call's input, in a progress line's data) aborts
/// no command: every pass that reads a line's shape without decoding it
/// stops at 128 levels, as serde does, and takes such a line for doubt.
#[test]
fn deep_nesting_aborts_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join("-p");
    std::fs::create_dir_all(&project).expect("mkdir");
    let n = 200_000;
    let deep = format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let copy = format!("{}\"deep words\"{}", "{\"a\":".repeat(n), "}".repeat(n));
    let lines = [
        r#"{"type":"user","message":{"role":"user","content":"hello there"},"uuid":"u0","timestamp":"2026-01-01T00:00:00Z","cwd":"/x","sessionId":"s"}"#.to_owned(),
        format!(
            r#"{{"type":"user","x":{deep},"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t","content":"ok"}}]}},"uuid":"u1","timestamp":"2026-01-01T00:00:01Z"}}"#
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t","content":"fine"}}]}},"toolUseResult":{copy},"uuid":"u2","timestamp":"2026-01-01T00:00:02Z"}}"#
        ),
        format!(
            r#"{{"type":"assistant","message":{{"id":"m","role":"assistant","model":"claude-x","content":[{{"type":"tool_use","id":"t9","name":"Bash","input":{deep}}}],"usage":{{"input_tokens":1,"output_tokens":1}}}},"uuid":"u3","timestamp":"2026-01-01T00:00:03Z"}}"#
        ),
        format!(r#"{{"type":"progress","data":{deep},"uuid":"u4","timestamp":"2026-01-01T00:00:04Z"}}"#),
    ];
    let file = project.join("s.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let root = dir.path().to_str().expect("utf-8");
    let path = file.to_str().expect("utf-8");
    ccv().args(["list", "--json", root]).assert().success();
    ccv().args(["stats", root]).assert().success();
    ccv().args(["search", "hello", root]).assert().success();
    // found only in the copy, which no row shows: no hit, and no abort
    ccv().args(["search", "deep", root]).assert().code(1);
    ccv().args(["export", path]).assert().success();
}

/// A session file an editor saved with a byte-order mark first reads as
/// the same file without it: its first line (the first prompt) is no
/// unreadable one, and its listing (title, counts, cost), export and
/// search say what they say of the file without the mark.
#[test]
fn a_byte_order_mark_first_changes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let lines = [
        user("u1", json!("zebramark: fix the flaky test")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"text","text":"Looking at the zebramark test now."}]),
        ),
    ];
    let plain: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let root = tmp.path().join("projects");
    for (dir, text) in [
        ("-plain", plain.clone()),
        ("-marked", format!("\u{feff}{plain}")),
    ] {
        std::fs::create_dir_all(root.join(dir)).expect("mkdir");
        std::fs::write(root.join(dir).join("s.jsonl"), text).expect("write");
    }
    let run = |args: &[&str]| {
        let out = ccv()
            .env("CCV_NO_BACKGROUND_INDEX", "1")
            .args(args)
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let file = |dir: &str| root.join(dir).join("s.jsonl").display().to_string();
    for dir in ["-plain", "-marked"] {
        let check = run(&["check", &file(dir)]);
        assert!(!check.contains("unreadable"), "{dir}: {check}");
    }
    assert_eq!(
        run(&["export", "--format", "json", &file("-plain")]),
        run(&["export", "--format", "json", &file("-marked")])
    );
    let tree = root.display().to_string();
    let rows: Vec<Value> = run(&["list", "--json", &tree])
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for key in ["title", "message_count", "cost_usd", "model", "unreadable"] {
        assert_eq!(rows[0][key], rows[1][key], "{key}: {rows:?}");
    }
    assert_eq!(
        rows[0]["title"], "zebramark: fix the flaky test",
        "{rows:?}"
    );
    // the first line's words are found in both files, at line 1
    let hits = run(&["search", "--json", "zebramark", &tree]);
    let lines = |dir: &str| {
        let mut l: Vec<u64> = hits
            .lines()
            .filter_map(|h| serde_json::from_str::<Value>(h).ok())
            .filter(|h| h.to_string().contains(dir))
            .filter_map(|h| h["line"].as_u64())
            .collect();
        l.sort_unstable();
        l
    };
    assert_eq!(lines("-plain"), [1, 2], "{hits}");
    assert_eq!(lines("-marked"), [1, 2], "{hits}");
    // and by the index
    run(&["index", &tree]);
    let indexed = run(&["search", "--json", "zebramark", &tree]);
    assert_eq!(indexed, hits);
}

/// A message's content of another shape than text or blocks, and a
/// call's input nested deeper than serde reads, are shown as written:
/// neither vanishes as empty nor becomes `null`.
#[test]
fn content_of_another_shape_and_too_deep_an_input_are_shown_as_written() {
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!({ "a": deep });
    }
    let s = session(&[
        user("u1", json!("q")),
        assistant(
            "a1",
            "m1",
            json!({"type":"text","text":"an object, not a list"}),
        ),
        assistant(
            "a2",
            "m2",
            json!([{"type":"tool_use","id":"t1","name":"Deep","input":deep}]),
        ),
        user(
            "u2",
            json!([{"type":"tool_result","tool_use_id":"t1","content":{"status":"odd result"}}]),
        ),
    ]);
    let text = exported(&s, Format::Text);
    assert!(
        text.contains(r#"{"type":"text","text":"an object, not a list"}"#),
        "{text}"
    );
    assert!(text.contains(r#"{"status":"odd result"}"#), "{text}");
    let (_, shot) = common::last_call_opened(s, 100, 30);
    assert!(shot.contains("an object, not a list"), "{shot}");
    assert!(shot.contains(r#"{"a":{"a":"#), "{shot}");
    assert!(!shot.contains("│ null"), "{shot}");
}

/// A tool result's list whose blocks hold what ccv does not expect: a
/// search result (its `source` a URL, its text in blocks of its own) is
/// shown with its title, URL and text, and a block with a field of
/// another type loses that field alone (said by line and path); the
/// other blocks' texts stay, where the whole list was left out.
#[test]
fn a_results_list_keeps_its_texts_beside_odd_blocks() {
    let result = json!([{"type":"tool_result","tool_use_id":"t1","content":[
        {"type":"text","text":"kept text"},
        {"type":"search_result","title":"Docs","source":"https://example.com/d",
         "content":[{"type":"text","text":"result body"}]},
        {"type":"future","id":5}
    ]}]);
    let s = session(&[
        user("u1", json!("q")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"mcp__docs__find","input":{}}]),
        ),
        user("u2", result.clone()),
    ]);
    let text = exported(&s, Format::Text);
    for shown in [
        "kept text",
        "[search result \"Docs\" · https://example.com/d]\nresult body",
        "[future]",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
    let line = serde_json::to_string(&json!({"type":"user","uuid":"u2","sessionId":"s",
        "message":{"role":"user","content":result}}))
    .expect("json");
    let out = ccv()
        .args(["export", "-"])
        .write_stdin(line + "\n")
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(String::from_utf8_lossy(&out.stdout).contains("kept text"));
    assert_eq!(
        err.trim(),
        "ccv: -:1: field message.content[0].content[2].id has an unexpected type or value (left out)"
    );
}

/// A document read in parts of every size, a session of JSON Lines after
/// it or not, with or without a last newline: the rows, the lines counted
/// and the findings are a whole read's. (A line that looked whole at the
/// end of a read, `{}`, went on after it, `{},`, and was counted twice.)
#[test]
fn a_document_read_in_parts_counts_each_line_once() {
    let mut seed: u64 = 84;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..600 {
        let hash = if round % 2 == 0 {
            json!("7e")
        } else {
            json!(null)
        };
        let messages: Vec<Value> = (0..next(5))
            .map(|i| json!({"type": "user", "content": format!("m{i}"), "x": [{}, []]}))
            .collect();
        let mut doc = serde_json::to_string_pretty(
            &json!({"sessionId": "g", "projectHash": hash, "messages": messages}),
        )
        .expect("json");
        if next(3) == 0 {
            doc.push('\n');
            doc.push_str(&user("u1", json!("after")).to_string());
        }
        if next(2) == 0 {
            doc.push('\n');
        }
        let mut whole = Session::new(None);
        whole.feed(0, doc.as_bytes());
        whole.finish(0);
        let mut parts = Session::new(None);
        let b = doc.as_bytes();
        let mut at = 0;
        while at < b.len() {
            let n = (1 + next(40)).min(b.len() - at);
            parts.feed(0, &b[at..at + n]);
            parts.flush_tail(0);
            at += n;
        }
        parts.finish(0);
        let rows = |s: &Session| {
            let rows = s.main.items.iter();
            rows.map(|i| (i.kind, i.line, i.text.or_marker().to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(rows(&whole), rows(&parts), "round {round}: {doc}");
        let counts = |s: &Session| (s.stats.entries, s.stats.unreadable, s.problems.len());
        assert_eq!(counts(&whole), counts(&parts), "round {round}: {doc}");
    }
}
