//! A big file is read by several threads (`model::parallel`): what they
//! make must be what one thread feeding the same bytes makes, line for line
//! and problem for problem, whatever falls on a chunk's edge.

mod common;

use ccv::model::Session;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Everything a load is judged by: the JSON export, the counts, the
/// problems with their lines.
fn outcome(s: &Session) -> String {
    let mut out = common::exported(s, ccv::export::Format::Json);
    let st = &s.stats;
    out += &format!(
        "\nentries {} shown {} hidden {} unreadable {} recovered {} {:?}\n",
        st.entries, st.shown, st.hidden, st.unreadable, st.recovered, st.hidden_by_reason
    );
    for (src, p) in &s.problems {
        out += &format!("{src}:{}:{}:{}\n", p.line, p.recovered, p.message);
    }
    out
}

/// One thread, the bytes in small pieces.
fn fed(path: &Path, bytes: &[u8]) -> Session {
    let mut s = Session::new(Some(path.to_owned()));
    for piece in bytes.chunks(64 * 1024 + 7) {
        s.feed(0, piece);
    }
    s.finish(0);
    s
}

/// Panics of the decoding threads: one would be caught (its chunk is then
/// decoded in place) and so be invisible in what the load makes.
static DECODER_PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_decoder_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some("ccv-decode") {
                DECODER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            default(info);
        }));
    });
}

fn assert_same(path: &Path) {
    count_decoder_panics();
    let bytes = std::fs::read(path).expect("read");
    let threads = Session::load(path).expect("load");
    assert_eq!(
        DECODER_PANICS.load(Ordering::SeqCst),
        0,
        "a decoding thread panicked"
    );
    let one = fed(path, &bytes);
    let (a, b) = (outcome(&threads), outcome(&one));
    if a != b {
        let at = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        panic!(
            "{}: the threaded load differs from one thread at output line {at}:\n{}\n---\n{}",
            path.display(),
            a.lines().nth(at).unwrap_or(""),
            b.lines().nth(at).unwrap_or("")
        );
    }
}

/// ~17 MB of every kind of line, bad ones included, so several chunks
/// start and end in the middle of lines of every kind.
fn awkward_session() -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev: Option<String> = None;
    let mut i = 0;
    while out.len() < 17 << 20 {
        let uuid = format!("u{i}");
        let mut line = match i % 7 {
            0 => common::user_line(
                &uuid,
                json!(format!("prompt {i} {}", "word ".repeat(i % 300))),
            ),
            1 => common::assistant_line(
                &uuid,
                &format!("m{i}"),
                json!([{"type":"tool_use","id":format!("t{i}"),"name":"Bash","input":{"command":format!("ls {i}")}}]),
            ),
            2 => common::user_line(
                &uuid,
                json!([{"type":"tool_result","tool_use_id":format!("t{}", i - 1),"content":format!("out\t\"{i}\"\n{}", "line\n".repeat(i % 2000))}]),
            ),
            3 => common::assistant_line(
                &uuid,
                &format!("m{i}"),
                json!([{"type":"text","text":"é ✓ \u{1F600}"}]),
            ),
            4 => json!({"type":"brand-new-kind","uuid":uuid,"whatever":[1,2,{"x":null}]}),
            5 => json!({"type":"summary","summary":format!("s{i}"),"leafUuid":"u0"}),
            _ => common::user_line(&uuid, json!(42)),
        };
        if let Some(p) = &prev {
            line["parentUuid"] = json!(p);
        }
        prev = Some(uuid);
        let mut text = serde_json::to_vec(&line).expect("json");
        match i % 53 {
            // two objects on one line
            7 => text.extend_from_slice(
                b"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"joined\"}}",
            ),
            // invalid UTF-8 inside a string
            11 => {
                let at = text.len() - 3;
                text.splice(at..at, [0xff, 0xfe]);
            }
            // truncated JSON
            13 => text.truncate(text.len() / 2),
            // a number where a string belongs
            17 => {
                text = br#"{"type":"user","uuid":17,"message":{"role":"user","content":"typed"}}"#
                    .to_vec()
            }
            // a lone surrogate escape
            19 => {
                text = br#"{"type":"user","message":{"role":"user","content":"half \ud800 pair"}}"#
                    .to_vec()
            }
            23 => text = b"not json at all".to_vec(),
            29 => text.clear(),
            _ => {}
        }
        out.extend_from_slice(&text);
        out.extend_from_slice(if i % 5 == 0 { b"\r\n" } else { b"\n" });
        if i == 900 {
            // lines longer than a chunk, one after the other: a chunk then
            // holds a single newline, or none
            for n in [5 << 20, 3 << 20, 2 << 20] {
                let big = common::user_line("big", json!("x".repeat(n)));
                out.extend_from_slice(&serde_json::to_vec(&big).expect("json"));
                out.push(b'\n');
            }
        }
        i += 1;
    }
    // no newline at the very end
    out.extend_from_slice(br#"{"type":"user","message":{"role":"user","content":"last"}}"#);
    out
}

#[test]
fn a_threaded_load_is_a_plain_feed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.jsonl");
    std::fs::write(&path, awkward_session()).expect("write");
    assert_same(&path);
}

#[test]
fn real_sessions_end_to_end_load_alike() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    // the corpus end to end: real lines of every version on every edge
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("corpus.jsonl");
    let mut out = std::fs::File::create(&path).expect("create");
    for f in files {
        let mut bytes = std::fs::read(&f).expect("read");
        if !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        out.write_all(&bytes).expect("write");
    }
    drop(out);
    assert_same(&path);
}

#[test]
fn a_file_that_grows_while_read_is_read_to_its_end() {
    // what is appended after the load measured the file is read in order
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("grows.jsonl");
    let bytes = awkward_session();
    std::fs::write(&path, &bytes).expect("write");
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .expect("open");
            for i in 0..200 {
                let l = common::user_line(&format!("late{i}"), json!(format!("late {i}")));
                writeln!(f, "{l}").expect("append");
            }
        })
    };
    let s = Session::load(&path).expect("load");
    writer.join().expect("writer");
    // every line the load saw is whole and in order: it matches one thread
    // fed the same first bytes
    let seen = s.sources[0].bytes_read() as usize;
    let now = std::fs::read(&path).expect("read");
    assert!(seen >= bytes.len(), "the load stopped early: {seen}");
    let one = fed(&path, &now[..seen]);
    assert_eq!(outcome(&s), outcome(&one));
}
