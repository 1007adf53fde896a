//! The viewer leaves tool output in the session file and reads it back
//! when shown (`model::stored`): what it reads back, searches, exports and
//! draws must be what a load that holds every text has, and a file
//! rewritten under it must never show another text in its place.

use crate::common;

use ccv::model::{Detail, Session, ToolResult};
use serde_json::json;
use std::io::Write;
use std::path::Path;

fn held(path: &Path) -> Session {
    ccv::source::claude::loader::load_to_follow(path).expect("load")
}

fn viewed(path: &Path) -> Session {
    ccv::source::claude::loader::load_to_view(path, &mut |_, _| {}).expect("load")
}

/// Every result of every transcript, in order.
fn results(s: &Session) -> Vec<&ToolResult> {
    std::iter::once(&s.main)
        .chain(s.agents.iter().map(|a| &a.transcript))
        .flat_map(|t| &t.items)
        .filter_map(|i| match &i.detail {
            Detail::Call(c) => c.result.as_ref(),
            Detail::OrphanResult(r) => Some(&**r),
            _ => None,
        })
        .collect()
}

fn items(s: &Session) -> Vec<&ccv::model::Item> {
    std::iter::once(&s.main)
        .chain(s.agents.iter().map(|a| &a.transcript))
        .flat_map(|t| &t.items)
        .collect()
}

/// The three loads (held, the viewer's and the export's) export alike (in
/// every format: the exports read texts back), and the viewer's holds most
/// of the result text in the file.
fn assert_alike(path: &Path) -> (usize, usize) {
    let (a, b) = (held(path), viewed(path));
    let c = ccv::source::claude::loader::load_for_export(path, false).expect("load");
    for format in [
        ccv::export::Format::Json,
        ccv::export::Format::Text,
        ccv::export::Format::Markdown,
    ] {
        let x = common::exported(&a, format);
        let (y, z) = (common::exported(&b, format), common::exported(&c, format));
        assert!(x == z, "{}: {format:?} differs as exported", path.display());
        if x != y {
            let at = x.lines().zip(y.lines()).position(|(p, q)| p != q);
            let at = at.unwrap_or(0);
            panic!(
                "{}: {format:?} differs at line {at}:\n{}\n---\n{}",
                path.display(),
                x.lines().nth(at).unwrap_or(""),
                y.lines().nth(at).unwrap_or("")
            );
        }
    }
    let (ia, ib) = (items(&a), items(&b));
    assert_eq!(ia.len(), ib.len());
    let mut texts_in_file = 0;
    for (x, y) in ia.iter().zip(&ib) {
        assert_eq!(x.text.get(), Some(&*b.item_text(y)), "{}", path.display());
        assert_eq!(a.call_input(x), b.call_input(y), "{}", path.display());
        if let Detail::Call(c) = &y.detail {
            texts_in_file += usize::from(c.input.missing());
        }
        texts_in_file += usize::from(y.text.missing());
    }
    let (ra, rb) = (results(&a), results(&b));
    assert_eq!(ra.len(), rb.len());
    let mut in_file = 0;
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x.text.get(), Some(&*b.result_text(y)), "{}", path.display());
        if y.text.missing() {
            in_file += 1;
        }
    }
    (in_file + texts_in_file, rb.len())
}

/// Lines whose results are long and awkward: escapes of every kind, a
/// subagent's line mirrored in `agent_progress`, two objects on a line,
/// a result in an assistant line, CRLF, a last line with no newline.
fn awkward_results() -> Vec<u8> {
    let long = |s: &str| format!("{s} {}", "filler ".repeat(60));
    let mut lines = Vec::new();
    let mut n = 0;
    let pair = |lines: &mut Vec<String>, n: &mut usize, text: serde_json::Value| {
        *n += 1;
        let n = *n;
        let id = format!("t{n}");
        lines.push(
            json!({"type":"assistant","uuid":format!("a{n}"),"sessionId":"s",
                   "message":{"id":format!("m{n}"),"role":"assistant",
                              "content":[{"type":"tool_use","id":id,"name":"Bash","input":{"command":"x"}}]}})
            .to_string(),
        );
        lines.push(
            json!({"type":"user","uuid":format!("r{n}"),"parentUuid":format!("a{n}"),"sessionId":"s",
                   "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":id,"content":text}]}})
            .to_string(),
        );
    };
    // answers and thinking, as blocks and as a message's string
    for (i, t) in [
        long("answer"),
        long("esc \u{1b}[31mred\u{1b}[0m answer"),
        long("thought tab\tquote\"back\\slash/ \u{202e}bidi"),
    ]
    .iter()
    .enumerate()
    {
        lines.push(
            json!({"type":"assistant","uuid":format!("x{i}"),"sessionId":"s",
                   "message":{"id":format!("mx{i}"),"role":"assistant",
                              "content":[{"type":"thinking","thinking":format!("thinking {t}"),"signature":"s"},
                                         {"type":"text","text":t}]}})
            .to_string(),
        );
        lines.push(
            json!({"type":"assistant","uuid":format!("y{i}"),"sessionId":"s",
                   "message":{"id":format!("my{i}"),"role":"assistant","content":format!("whole {t}")}})
            .to_string(),
        );
    }
    for t in [
        long("plain"),
        long("esc \u{1b}[31mred\u{1b}[0m and \u{1b}]0;title\u{7} osc"),
        long("tab\tquote\"back\\slash/ cr\r\nnul\u{0} bs a\u{8}b"),
        long("bidi \u{202e}evil\u{202c} zero\u{200b}width \u{feff}bom line\u{2028}sep"),
        long("c1 \u{85}\u{9b}31m wide 漢字 emoji 😀 kelvin \u{212a}"),
    ] {
        pair(&mut lines, &mut n, json!(t));
        pair(&mut lines, &mut n, json!([{"type":"text","text":t}]));
    }
    // prompts: a string, a block, and two blocks joined (held)
    for (i, content) in [
        json!(long("prompt as a string \u{1b}[2J")),
        json!([{"type":"text","text":long("prompt as a block")}]),
        json!([{"type":"text","text":long("first half")},{"type":"text","text":long("second half")}]),
    ]
    .into_iter()
    .enumerate()
    {
        lines.push(
            json!({"type":"user","uuid":format!("p{i}"),"sessionId":"s","message":{"role":"user","content":content}})
                .to_string(),
        );
    }
    // a call whose input is long: it stays in the file too
    lines.push(
        json!({"type":"assistant","uuid":"w1","sessionId":"s",
               "message":{"id":"mw1","role":"assistant",
                          "content":[{"type":"tool_use","id":"w1","name":"Write",
                                      "input":{"file_path":"/tmp/wide.rs",
                                               "content":long("fn main() { \u{1b}[1m println!(\"hi\\n\") } \u{202e}")}}]}})
        .to_string(),
    );
    // several blocks: held (their placeholders are not in the line)
    pair(
        &mut lines,
        &mut n,
        json!([{"type":"text","text":long("one")},{"type":"text","text":long("two")}]),
    );
    // an escape JSON allows where it need not: `\/` and `\u0041`
    n += 1;
    lines.push(format!(
        r#"{{"type":"assistant","uuid":"a{n}","sessionId":"s","message":{{"id":"m{n}","role":"assistant","content":[{{"type":"tool_use","id":"t{n}","name":"Read","input":{{}}}}]}}}}"#
    ));
    lines.push(format!(
        r#"{{"type":"user","uuid":"r{n}","sessionId":"s","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{n}","content":"src\/main.rs \u0041BC {}"}}]}}}}"#,
        "pad ".repeat(80)
    ));
    // a subagent's call and result, mirrored into the main file
    for (kind, content) in [
        (
            "assistant",
            json!([{"type":"tool_use","id":"sub1","name":"Grep","input":{"pattern":"p"}}]),
        ),
        (
            "user",
            json!([{"type":"tool_result","tool_use_id":"sub1","content":long("mirrored \u{1b}[1mbold")}]),
        ),
    ] {
        let inner = json!({"type":kind,"uuid":format!("in-{kind}"),"isSidechain":true,
                           "message":{"id":"msub","role":kind,"content":content}});
        lines.push(
            json!({"type":"progress","uuid":format!("p-{kind}"),"sessionId":"s",
                   "parentToolUseID":"t1","data":{"type":"agent_progress","agentId":"agent1","message":inner}})
            .to_string(),
        );
    }
    // two objects on one line, both with results
    n += 1;
    let a = json!({"type":"assistant","uuid":format!("a{n}"),"message":{"id":format!("m{n}"),"role":"assistant",
        "content":[{"type":"tool_use","id":"j1","name":"Bash","input":{}},{"type":"tool_use","id":"j2","name":"Bash","input":{}}]}});
    lines.push(a.to_string());
    let r = |id: &str| {
        json!({"type":"user","uuid":format!("r-{id}"),"message":{"role":"user",
        "content":[{"type":"tool_result","tool_use_id":id,"content":long(id)}]}})
        .to_string()
    };
    lines.push(r("j1") + &r("j2"));
    // the same id answered twice on one line, with other texts
    n += 1;
    lines.push(json!({"type":"assistant","uuid":format!("a{n}"),"message":{"id":format!("m{n}"),"role":"assistant",
        "content":[{"type":"tool_use","id":"dup","name":"Bash","input":{}}]}}).to_string());
    lines.push(
        json!({"type":"user","uuid":"r-dup","message":{"role":"user","content":[
        {"type":"tool_result","tool_use_id":"dup","content":long("first")},
        {"type":"tool_result","tool_use_id":"dup","content":long("second")}]}})
        .to_string(),
    );
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        out.extend_from_slice(l.as_bytes());
        out.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
    }
    // the last result has no newline
    pair(&mut lines, &mut n, json!(long("last, no newline")));
    let k = lines.len();
    out.extend_from_slice(lines[k - 2].as_bytes());
    out.push(b'\n');
    out.extend_from_slice(lines[k - 1].as_bytes());
    out
}

#[test]
fn the_viewer_reads_back_what_a_full_load_holds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, awkward_results()).expect("write");
    let (in_file, all) = assert_alike(&path);
    assert!(
        in_file >= 12,
        "only {in_file} of {all} results left in the file"
    );
    // big enough to be read by several threads, chunk edges everywhere
    let big = dir.path().join("big.jsonl");
    std::fs::write(&big, common::awkward_session()).expect("write");
    let (in_file, all) = assert_alike(&big);
    assert!(
        in_file * 2 > all,
        "only {in_file} of {all} results left in the file"
    );
}

#[test]
fn real_sessions_read_back_alike() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut in_file = 0;
    for f in &files {
        in_file += assert_alike(f).0;
    }
    assert!(in_file > 1000, "{in_file} results left in the files");
}

#[test]
fn a_file_changed_under_the_viewer_says_so_and_shows_no_other_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let bytes = awkward_results();
    std::fs::write(&path, &bytes).expect("write");
    let s = viewed(&path);
    let stored: Vec<&ToolResult> = results(&s)
        .into_iter()
        .filter(|r| r.text.missing())
        .collect();
    let first = stored[0];
    let changed = |s: &Session, r: &ToolResult| {
        let t = s.result_text(r);
        assert!(
            t.starts_with("[this text changed on disk"),
            "read back: {}",
            &t[..t.len().min(80)]
        );
    };
    // the same bytes, one letter changed: same length, same line ends
    let at = memchr::memmem::find(&bytes, b"plain filler").expect("text");
    let mut edited = bytes.clone();
    edited[at + 7] = b'F';
    std::fs::write(&path, &edited).expect("write");
    changed(&s, first);
    // cut short: the lines are no longer there
    std::fs::write(&path, &bytes).expect("write");
    let s2 = viewed(&path);
    std::fs::write(&path, &bytes[..at]).expect("write");
    for r in results(&s2).into_iter().filter(|r| r.text.missing()) {
        changed(&s2, r);
    }
    // written back as it was: read alike again
    std::fs::write(&path, &bytes).expect("write");
    assert!(s.result_text(first).starts_with("plain"));
    // gone, with the file never opened by the reader
    let s = viewed(&path);
    std::fs::remove_file(&path).expect("remove");
    for r in results(&s).into_iter().filter(|r| r.text.missing()) {
        changed(&s, r);
    }
}

#[test]
fn an_export_of_a_file_changed_under_it_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let bytes = awkward_results();
    std::fs::write(&path, &bytes).expect("write");
    let s = ccv::source::claude::loader::load_for_export(&path, false).expect("load");
    let before = common::exported(&s, ccv::export::Format::Json);
    assert!(before.contains("plain filler"));
    assert_eq!(s.texts_changed(), 0);
    let at = memchr::memmem::find(&bytes, b"plain filler").expect("text");
    let mut edited = bytes.clone();
    edited[at + 7] = b'F';
    std::fs::write(&path, &edited).expect("write");
    let after = common::exported(&s, ccv::export::Format::Json);
    assert!(after.contains("[this text changed on disk"), "{after}");
    assert!(!after.contains("plain Filler"), "{after}");
    assert!(s.texts_changed() > 0);
    // through the command: said on stderr
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ccv"))
        .envs(common::sandbox(dir.path()))
        .args(["export", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn appended_results_are_read_back_from_where_they_were_written() {
    // the follower's way: a load, then appended bytes fed as they come,
    // the last line at first without its end
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let bytes = awkward_results();
    let cut = bytes.len() * 2 / 3;
    std::fs::write(&path, &bytes[..cut]).expect("write");
    let mut s = viewed(&path);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("open");
    for piece in bytes[cut..].chunks(97) {
        f.write_all(piece).expect("append");
        s.feed(0, piece);
        s.flush_tail(0);
    }
    let whole = held(&path);
    assert_eq!(
        common::exported(&s, ccv::export::Format::Json),
        common::exported(&whole, ccv::export::Format::Json)
    );
}

#[test]
fn search_finds_in_the_file_what_it_finds_in_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, awkward_results()).expect("write");
    let (a, b) = (held(&path), viewed(&path));
    // terms across what JSON escapes and what the screen shows otherwise
    let queries = [
        "plain",
        "PLAIN",
        "filler",
        "redand",
        "red and",
        "esc red",
        "red",
        "title",
        "osc",
        "tab",
        "quote",
        "\"back",
        "back\\slash",
        "slash/",
        "src/main.rs",
        "ABC",
        "abc",
        "b",
        "nul^@",
        "^@",
        "^[",
        "U+202E",
        "<U+202E>evil",
        "evil",
        "zerowidth",
        "zero",
        "U+FEFF",
        "bom",
        "U+2028",
        "kelvin",
        "k",
        "K",
        "漢字",
        "😀",
        "^[[31m",
        "mirrored",
        "bold",
        "1mbold",
        "j1",
        "j2",
        "first",
        "second",
        "last",
        "no newline",
        "one two",
        "\"one\"",
        "nope-not-there",
        "answer",
        "red answer",
        "whole",
        "thinking thought",
        "bidi",
        "U+202E>bidi",
        "prompt as",
        "half second",
        "half\nsecond",
        "2J",
        "println",
        "wide.rs",
        "/tmp/wide",
        "println!(\"hi",
        "hi\\n",
    ];
    for q in queries {
        assert_eq!(
            ccv::app::search::find_all(&a, q),
            ccv::app::search::find_all(&b, q),
            "query {q:?}"
        );
    }
    // the escape sequence is not part of the text
    assert!(!ccv::app::search::find_all(&b, "red and").is_empty());
    assert!(!ccv::app::search::find_all(&b, "esc red").is_empty());
    // in a call's input left in the file
    assert!(!ccv::app::search::find_all(&b, "println").is_empty());
    let write = items(&b)
        .into_iter()
        .find_map(|i| match &i.detail {
            Detail::Call(c) if c.name == "Write" => Some(c),
            _ => None,
        })
        .expect("the Write call");
    assert!(write.input.missing());
}

#[test]
fn search_finds_alike_in_real_sessions() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut rng = common::Rng(7);
    for f in files.iter().take(25) {
        let (a, b) = (held(f), viewed(f));
        // words of the results themselves, cut anywhere
        let texts: Vec<String> = results(&a)
            .iter()
            .filter_map(|r| r.text.get())
            .filter(|t| t.len() > 300)
            .map(str::to_owned)
            .collect();
        for t in texts.iter().take(20) {
            let chars: Vec<char> = t.chars().collect();
            let at = rng.below(chars.len().saturating_sub(12).max(1));
            let q: String = chars[at..(at + 1 + rng.below(10)).min(chars.len())]
                .iter()
                .collect();
            let q = q.trim();
            if q.is_empty() || q.contains('"') {
                continue;
            }
            assert_eq!(
                ccv::app::search::find_all(&a, q),
                ccv::app::search::find_all(&b, q),
                "{}: query {q:?}",
                f.display()
            );
        }
    }
}

/// A frame draws `…` where `text` will be; once the app reads the texts
/// back, the next frame draws each of `then`.
fn drawn_then_read(s: &mut ccv::app::State, text: &str, then: &[&str]) {
    let first = common::screen_text(s, 100, 40);
    assert!(first.contains('…'), "{first}");
    assert!(!first.contains(text), "{first}");
    assert!(crate::common::fill_drawn(s));
    let second = common::screen_text(s, 100, 40);
    for t in then {
        assert!(second.contains(t), "{t:?} in:\n{second}");
    }
}

#[test]
fn an_open_call_is_drawn_with_its_output_read_back() {
    use ccv::app::action::Action;
    use ccv::app::state::perform_action;
    use ccv::rows::RowKind;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, awkward_results()).expect("write");
    let mut s = common::utc_state(viewed(&path));
    perform_action(&mut s, Action::Top);
    // the first rows: an answer and a thinking left in the file (a
    // message whose content is one string with escapes is held: serde
    // decodes it before it is seen, see `model::json_str`)
    drawn_then_read(
        &mut s,
        "Thinking   62 words",
        &["Thinking   62 words", "Assistant  answer filler"],
    );
    assert!(!crate::common::fill_drawn(&mut s));
    // the first call of the first group, opened: its output is read then
    let group = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. }))
        .expect("a group");
    perform_action(&mut s, Action::Down(group));
    perform_action(&mut s, Action::Toggle);
    common::screen_text(&mut s, 100, 40);
    crate::common::fill_drawn(&mut s);
    perform_action(&mut s, Action::Down(1));
    assert!(matches!(s.rows[s.selected].kind, RowKind::Call { .. }));
    perform_action(&mut s, Action::Toggle);
    drawn_then_read(&mut s, "plain filler", &["plain filler"]);
    // read once: the next frame needs nothing more
    assert!(!crate::common::fill_drawn(&mut s));
}

#[test]
fn a_session_with_many_subagent_files_reads_every_one_back() {
    // more files than a reader keeps open
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir
        .path()
        .join("0b5e7c1a-0000-4000-8000-000000000001.jsonl");
    std::fs::write(&path, awkward_results()).expect("write");
    let sub = dir
        .path()
        .join("0b5e7c1a-0000-4000-8000-000000000001")
        .join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    for k in 0..40 {
        let call = json!({"type":"assistant","uuid":format!("a{k}"),"isSidechain":true,"agentId":format!("x{k}"),
            "message":{"id":format!("m{k}"),"role":"assistant",
                       "content":[{"type":"tool_use","id":format!("c{k}"),"name":"Bash","input":{"command":"ls"}}]}});
        let result = json!({"type":"user","uuid":format!("r{k}"),"parentUuid":format!("a{k}"),"isSidechain":true,
            "agentId":format!("x{k}"),
            "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":format!("c{k}"),
                       "content":format!("agent {k} says {}", "more ".repeat(80))}]}});
        std::fs::write(
            sub.join(format!("agent-x{k}.jsonl")),
            format!("{call}\n{result}\n"),
        )
        .expect("write");
    }
    let (in_file, _) = assert_alike(&path);
    assert!(in_file >= 40);
}

#[test]
fn damaged_files_read_back_as_a_full_load_reads_them() {
    // bytes flipped, cut and doubled anywhere: the viewer's load must read
    // back what a full load holds, and never panic on what it finds
    let dir = tempfile::tempdir().expect("tempdir");
    let base = awkward_results();
    let mut rng = common::Rng(0x5eed);
    let rounds: usize = std::env::var("CCV_MUTATION_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    for round in 0..rounds {
        let mut bytes = base.clone();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = rng.below(256) as u8,
                1 => bytes[at] = b"\"\\{}[]\n,:"[rng.below(9)],
                2 => {
                    let end = (at + rng.below(300)).min(bytes.len());
                    bytes.drain(at..end);
                }
                _ => {
                    let end = (at + rng.below(300)).min(bytes.len());
                    let piece = bytes[at..end].to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        let path = dir.path().join(format!("m{round}.jsonl"));
        // a last line without its newline is a line still being written
        // to the viewer's load (it waits for the rest) and unreadable to
        // the export's: ended here, the loads read the same lines
        if bytes.last() != Some(&b'\n') {
            bytes.push(b'\n');
        }
        std::fs::write(&path, &bytes).expect("write");
        assert_alike(&path);
        let s = viewed(&path);
        for q in ["filler", "red and", "src/main.rs"] {
            assert_eq!(
                ccv::app::search::find_all(&held(&path), q),
                ccv::app::search::find_all(&s, q),
                "round {round}, query {q:?}"
            );
        }
    }
}

#[test]
fn a_last_line_cut_short_is_reported_by_the_viewer_and_the_export() {
    // the viewer waits for a last line's end (it may be being written);
    // until it comes the line is in no entry, so the status line says so,
    // and an export (the file as it is) reports it unreadable
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cut.jsonl");
    let whole = json!({"type":"user","uuid":"u1","sessionId":"s",
        "message":{"role":"user","content":"first prompt"}});
    let cut =
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assis"#;
    std::fs::write(&path, format!("{whole}\n{cut}")).expect("write");
    for s in [viewed(&path), held(&path)] {
        assert_eq!(s.unfinished_line(), Some((0, 2)));
        let mut state = common::utc_state(s);
        let screen = common::screen_text(&mut state, 100, 10);
        assert!(screen.contains("line 2 unfinished"), "{screen}");
        // followed, and written a moment ago: a line written in two parts
        // is not worth a word; two seconds without a write, it is
        state.live.attached = true;
        state.live.last_write_ms = Some(1_000_000);
        state.live.now_ms = 1_000_020;
        let screen = common::screen_text(&mut state, 100, 10);
        assert!(!screen.contains("unfinished"), "{screen}");
        state.live.now_ms = 1_003_000;
        let screen = common::screen_text(&mut state, 100, 10);
        assert!(screen.contains("line 2 unfinished"), "{screen}");
    }
    let text = common::exported(
        &ccv::source::claude::loader::load_for_export(&path, false).expect("load"),
        ccv::export::Format::Text,
    );
    assert!(text.contains("unreadable line 2"), "{text}");
    // ended, it is an entry and nothing is unfinished
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("open");
    f.write_all(br#"tant","content":[{"type":"text","text":"an answer"}]}}"#)
        .and_then(|()| f.write_all(b"\n"))
        .expect("append");
    let s = viewed(&path);
    assert_eq!(s.unfinished_line(), None);
    let mut state = common::utc_state(s);
    let screen = common::screen_text(&mut state, 100, 10);
    assert!(!screen.contains("unfinished"), "{screen}");
    assert!(screen.contains("an answer"), "{screen}");
}

/// Texts of megabytes (read back in parts: `model::read_in_parts`) with
/// escapes of every kind, a part's edge anywhere in them: read back as a
/// full load holds them, and one changed under the viewer says so.
#[test]
fn texts_of_megabytes_read_back_alike_and_say_when_changed() {
    let mut rng = 0x9e37_79b9_u64;
    let mut text = |mb: usize| {
        let pieces = [
            "a",
            "é",
            "→",
            "😀",
            "\n",
            "\\",
            "\"",
            "/",
            "\u{1b}[31m",
            "\t",
            " ",
            "xyz0123456789",
        ];
        let mut t = String::new();
        while t.len() < mb << 20 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            t.push_str(pieces[(rng % pieces.len() as u64) as usize]);
        }
        t
    };
    let (answer, input, output) = (text(5), text(4), text(6));
    let lines = [
        json!({"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"go"}}),
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s",
               "message":{"id":"m1","role":"assistant","content":[
                   {"type":"text","text":answer},
                   {"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/x","content":input}}]}}),
        json!({"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s",
               "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":output}]}}),
    ];
    let mut bytes = Vec::new();
    for l in &lines {
        // (non-ASCII escaped as `\u…`, surrogate pairs too, as some writers do)
        bytes.extend_from_slice(ascii_json(l).as_bytes());
        bytes.push(b'\n');
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, &bytes).expect("write");
    let (in_file, _) = assert_alike(&path);
    assert!(in_file >= 3, "{in_file} texts left in the file");
    // one byte of the output changed, far from the ends the check reads
    let s = viewed(&path);
    let r = results(&s)[0];
    assert!(r.text.missing());
    let at = bytes.len() - (3 << 20);
    let mut edited = bytes.clone();
    edited[at] = if edited[at] == b'a' { b'b' } else { b'a' };
    std::fs::write(&path, &edited).expect("write");
    let t = s.result_text(r);
    // (a change the check does not sample shows the text as it is now:
    // either way, never another text)
    assert!(
        t.starts_with("[this text changed on disk") || t.len() + 16 > output.len(),
        "{}",
        &t[..t.len().min(80)]
    );
    // cut short
    std::fs::write(&path, &bytes[..bytes.len() - (1 << 20)]).expect("write");
    let t = s.result_text(r);
    assert!(
        t.starts_with("[this text changed on disk"),
        "{}",
        &t[..t.len().min(80)]
    );
}

/// `v` as JSON with every character beyond ASCII escaped (`\u00e9`, a
/// surrogate pair beyond the first plane), as Python's `json.dumps` writes.
fn ascii_json(v: &serde_json::Value) -> String {
    let mut out = String::new();
    for c in v.to_string().chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}
