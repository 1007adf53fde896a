//! A big file is read by several threads (`model::parallel`): what they
//! make must be what one thread feeding the same bytes makes, line for line
//! and problem for problem, whatever falls on a chunk's edge.

use crate::common;

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
    // an export's load (threads, texts left in the file, no call
    // summaries) writes the same too
    let export = ccv::source::claude::loader::load_for_export(path, false).expect("load");
    assert!(
        outcome(&export) == b,
        "{}: an export's load differs from one thread",
        path.display()
    );
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

#[test]
fn a_threaded_load_is_a_plain_feed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.jsonl");
    std::fs::write(&path, common::awkward_session()).expect("write");
    assert_same(&path);
}

/// Past the lines a chunk decodes ahead (tiny lines, thousands to a
/// chunk) and the objects a line decodes into a list (many joined on one
/// line), the rest is decoded in place: the same rows, in the same order.
#[test]
fn tiny_lines_and_long_runs_of_joined_objects_load_alike() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tiny.jsonl");
    let mut bytes = Vec::new();
    // (each line padded to 100 bytes: 5,000 lines to a chunk, and few
    // enough to load fast unoptimized)
    for i in 0..45_000 {
        let start = bytes.len();
        match i % 4_500 {
            0 => {
                let line = json!({"type": "user", "uuid": format!("u{i}"), "sessionId": "s",
                    "message": {"role": "user", "content": format!("prompt {i}")}});
                bytes.extend_from_slice(line.to_string().as_bytes());
            }
            // a run of objects joined on one line, each its own row
            1 => {
                for k in 0..300 {
                    write!(bytes, r#"{{"type":"x-{i}-{k}"}}"#).expect("write");
                }
            }
            2 => bytes.extend_from_slice(b"{\"type\":\"x\"}{"),
            _ => bytes.extend_from_slice(b"{}"),
        }
        let pad = 99usize.saturating_sub(bytes.len() - start);
        bytes.extend(std::iter::repeat_n(b' ', pad));
        bytes.push(b'\n');
    }
    std::fs::write(&path, &bytes).expect("write");
    assert!(bytes.len() > 4 << 20, "past the size read on one thread");
    assert_same(&path);
    let s = Session::load(&path).expect("load");
    // every object is an entry: 10 runs of 300, the others one a line,
    // and the rest of each of the 10 lines cut after their first object
    // an unreadable one
    assert_eq!(s.stats.entries, 45_000 - 10 + 10 * 300 + 10);
    assert_eq!(s.stats.unreadable, 10);
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
    let bytes = common::awkward_session();
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

/// `size` characters, a newline, a quote and a character of two bytes
/// among them every `every` (where they fall moves with `i`).
fn awkward_text(size: usize, i: usize, every: usize) -> String {
    (0..size)
        .map(|k| match (k + i) % every {
            0 => '\n',
            1 => '"',
            2 => 'é',
            _ => char::from(b'a' + (k % 26) as u8),
        })
        .collect()
}

/// Lines from a few bytes to several chunks long, so that chunk edges
/// fall inside lines of every size: a line a chunk ends inside of is read
/// on and decoded by that chunk's thread. Among them, CRLF endings, a
/// broken line, one that starts right after an edge, and one whose text
/// another line repeats.
fn spanning_session() -> Vec<u8> {
    let mut rng = common::Rng(11);
    let mut out = Vec::new();
    let sizes = [
        40, 3_000, 131_000, 1_100_000, 2_600_000, 900, 200_000, 70, 5_000_000,
    ];
    let mut i = 0;
    while out.len() < 14 << 20 {
        let size = sizes[i % sizes.len()] + rng.below(4096);
        let text = awkward_text(size, i, 97);
        let line = match i % 11 {
            3 => format!("{{\"type\":\"user\",\"uuid\":\"b{i}\",\"message\":{{\"content\":\"{}", "x".repeat(size)),
            5 => common::assistant_line(
                &format!("a{i}"),
                &format!("m{i}"),
                json!([{"type": "tool_use", "id": format!("t{i}"), "name": "Bash", "input": {"command": text}}]),
            )
            .to_string(),
            6 => common::user_line(
                &format!("r{i}"),
                json!([{"type": "tool_result", "tool_use_id": format!("t{}", i - 1), "content": text}]),
            )
            .to_string(),
            _ => common::user_line(&format!("u{i}"), json!(text)).to_string(),
        };
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(if i % 4 == 1 { b"\r\n" } else { b"\n" });
        // the next line starts exactly on a 128 KB edge
        if i == 20 {
            let edge = out.len().div_ceil(128 << 10) * (128 << 10);
            let pad = edge - out.len();
            if pad > 2 {
                out.extend(std::iter::repeat_n(b' ', pad - 1));
                out.push(b'\n');
            }
        }
        i += 1;
    }
    out
}

#[test]
fn lines_that_span_chunks_load_as_one_thread_reads_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("spanning.jsonl");
    let bytes = spanning_session();
    std::fs::write(&path, &bytes).expect("write");
    assert_same(&path);
    // the viewer's load: smaller chunks, texts left in the file
    let view = ccv::source::claude::loader::load_to_view(&path, &mut |_, _| {}).expect("load");
    assert_eq!(outcome(&view), outcome(&fed(&path, &bytes)));
}

/// A file read while it is written (loaded up to a cut anywhere, on every
/// core when it is big, its tail shown when it looks whole, then the rest
/// appended in pieces as the viewer follows it) shows what a read of the
/// whole file shows, with lines bent at random around the cut.
/// `CCV_GROW_ROUNDS` runs it longer (`CCV_GROW_SEED` another sequence).
#[test]
fn a_file_loaded_mid_write_then_followed_reads_as_the_whole() {
    let rounds = std::env::var("CCV_GROW_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let seed = std::env::var("CCV_GROW_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x6707);
    let mut rng = common::Rng(seed | 1);
    let base = common::awkward_session();
    let dir = tempfile::tempdir().expect("tempdir");
    for round in 0..rounds {
        // a few bends near the cut, where a line may be read twice
        let mut bytes = base.clone();
        let mut cut = (5 << 20) + rng.below(bytes.len() - (6 << 20));
        if round == 0 || rng.below(2) == 0 {
            // at a line's end, before its newline: the load shows the
            // line, whose end comes later
            cut += bytes[cut..].iter().position(|&b| b == b'\n').unwrap_or(0);
        }
        if round == 0 {
            // (a line that reads cleanly, as most do: this one surely)
            let line = common::user_line("cut", json!("the line at the cut")).to_string();
            bytes.splice(cut..cut, b"\n".iter().chain(line.as_bytes()).copied());
            cut += 1 + line.len();
        }
        for _ in 0..rng.below(4) {
            let at = cut - 2000 + rng.below(1900);
            let bend = common::BENDS[rng.below(common::BENDS.len())];
            bytes.splice(at..at, bend.iter().copied());
            cut += bend.len();
        }
        // and what may come next: the end of a `\r\n`, white space (read
        // whole, the line is that object alone), an empty line
        let extras: [&[u8]; 6] = [b"  ", b"\r", b" \r", b"\t", b"\n\n", b""];
        let extra = extras[if round == 0 {
            0
        } else {
            rng.below(extras.len())
        }];
        bytes.splice(cut..cut, extra.iter().copied());
        let path = dir.path().join(format!("grow{round}.jsonl"));
        std::fs::write(&path, &bytes[..cut]).expect("write");
        let mut grown = Session::new(Some(path.clone()));
        let f = std::fs::File::open(&path).expect("open");
        grown
            .read_file_available(0, &f, &mut |_, _| {})
            .expect("load");
        let mut rest = &bytes[cut..];
        while !rest.is_empty() {
            let n = 1 + rng.below(rest.len().min(1 << 16));
            grown.feed(0, &rest[..n]);
            grown.flush_tail(0);
            rest = &rest[n..];
        }
        grown.finish(0);
        let whole = fed(&path, &bytes);
        let (a, b) = (common::rows(&whole), common::rows(&grown));
        if a != b {
            let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(0);
            panic!(
                "round {round} (cut at {cut}): rows differ at {at}: {:?} vs {:?}",
                a.get(at).map(|t| t.chars().take(200).collect::<String>()),
                b.get(at).map(|t| t.chars().take(200).collect::<String>())
            );
        }
    }
}

/// A Codex rollout past the size read on one thread: its lines are read
/// ahead as Codex's on the other cores (`Translate::read_ahead`) and
/// translated in order, as one thread reading it translates them. Among
/// them reasoning encrypted or not, calls and outputs on chunk edges,
/// CRLF endings, broken lines and blank ones before the first.
fn codex_rollout(blank_first: bool) -> Vec<u8> {
    let mut rng = common::Rng(29);
    let mut out = Vec::new();
    if blank_first {
        out.extend_from_slice(b"\n  \n");
    }
    let meta = json!({"timestamp": "2026-02-23T11:54:52.352Z", "type": "session_meta", "payload":
        {"id": "019c8a59-e9dd-71f0-9ae3-4079fe9726a9", "cwd": "/work", "cli_version": "0.104.0",
         "base_instructions": {"text": "x".repeat(20_000)}}});
    writeln!(out, "{meta}").expect("write");
    let mut i = 0;
    while out.len() < 9 << 20 {
        let time = format!("2026-02-23T12:{:02}:{:02}.000Z", (i / 60) % 60, i % 60);
        let size = match rng.below(10) {
            0 => 700_000,
            1 => 90_000,
            _ => 30 + rng.below(3_000),
        };
        let text = awkward_text(size, i, 89);
        let call = format!("call_{i}");
        let payload = match i % 9 {
            0 => {
                json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": format!("prompt {i}")}]})
            }
            1 => {
                json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": "gAAAA".repeat(size / 5 + 1)})
            }
            2 => {
                json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": text}], "encrypted_content": null})
            }
            3 => {
                json!({"type": "function_call", "name": "exec_command", "arguments": json!({"cmd": format!("ls {i}")}).to_string(), "call_id": call})
            }
            4 => json!({"type": "function_call_output", "call_id": format!("call_{}", i - 1),
                "output": format!("Chunk ID: a2\nWall time: 0.1 seconds\nProcess exited with code {}\nOutput:\n{text}", i % 2)}),
            5 => {
                json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
            }
            6 => {
                json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": i * 100, "cached_input_tokens": i * 50, "output_tokens": i * 10}, "last_token_usage": {"input_tokens": 100, "cached_input_tokens": 50, "output_tokens": 10}}})
            }
            _ => json!({"type": "agent_message", "message": format!("answer {i}")}),
        };
        let kind = if matches!(i % 9, 6 | 7) {
            "event_msg"
        } else {
            "response_item"
        };
        let line = json!({"timestamp": time, "type": kind, "payload": payload}).to_string();
        match i % 37 {
            13 => out.extend_from_slice(&line.as_bytes()[..line.len() / 2]),
            14 => out.extend_from_slice(b"not json"),
            _ => out.extend_from_slice(line.as_bytes()),
        }
        out.extend_from_slice(if i % 5 == 2 { b"\r\n" } else { b"\n" });
        i += 1;
    }
    out
}

#[test]
fn a_big_codex_rollout_loads_as_one_thread_reads_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    for blank_first in [false, true] {
        let path = dir.path().join(format!("rollout-{blank_first}.jsonl"));
        let bytes = codex_rollout(blank_first);
        std::fs::write(&path, &bytes).expect("write");
        assert_same(&path);
        let s = Session::load(&path).expect("load");
        assert_eq!(s.format(), Some("codex"));
        assert!(
            s.stats.unreadable > 0 && s.stats.shown > 100,
            "{:?}",
            s.stats
        );
        let view = ccv::source::claude::loader::load_to_view(&path, &mut |_, _| {}).expect("load");
        assert_eq!(outcome(&view), outcome(&fed(&path, &bytes)));
    }
}
