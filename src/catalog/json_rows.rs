//! `ccv list --json`: one object per session (JSON Lines), written by
//! hand from the rows (10,000 of them are a warm listing: 10 MB of JSON,
//! a fifth of its time through serde, which looks at each string three
//! times and each byte through a table).

use super::scan::SessionInfo;
use crate::model::time::format_iso;
use std::io::{self, Write};

/// One object per session (JSON Lines). Text is left as recorded
/// (serde escapes control characters, so nothing raw reaches a terminal).
/// Written straight from the rows: 10,000 of them are a warm listing,
/// 10 MB of JSON, made in parts on every core and written in order, in a
/// few buffers used again (a buffer per thread of all its rows was a
/// tenth of a warm listing's fresh pages).
pub fn write_json_lines(out: &mut dyn Write, sessions: &[SessionInfo]) -> io::Result<()> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Mutex, mpsc};
    const PART: usize = 256;
    let parts: Vec<&[SessionInfo]> = sessions.chunks(PART).collect();
    let threads = super::threads().min(parts.len()).max(1);
    if threads == 1 {
        let mut buf = Vec::new();
        for part in parts {
            buf.clear();
            json_lines(&mut buf, part)?;
            out.write_all(&buf)?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    // set when the output fails (a closed pipe): the parts left are not made
    let stop = AtomicBool::new(false);
    let (done_tx, done_rx) = mpsc::sync_channel::<(usize, io::Result<Vec<u8>>)>(threads * 2);
    let (free_tx, free_rx) = mpsc::channel::<Vec<u8>>();
    let free_rx = Mutex::new(free_rx);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (done_tx, parts, next, stop, free_rx) =
                (done_tx.clone(), &parts, &next, &stop, &free_rx);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(part) = parts.get(i) else { return };
                    let mut buf = free_rx
                        .lock()
                        .ok()
                        .and_then(|rx| rx.try_recv().ok())
                        .unwrap_or_else(|| Vec::with_capacity(part.len() * 1200));
                    buf.clear();
                    let made = crate::contain::contain(|| json_lines(&mut buf, part))
                        .unwrap_or_else(|_| Err(io::Error::other("a writing thread stopped")))
                        .map(|()| buf);
                    if done_tx.send((i, made)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        // parts made before those ahead of them, held until their turn
        let mut early = std::collections::BTreeMap::new();
        let mut turn = 0;
        let mut written = Ok(());
        for (i, made) in done_rx {
            early.insert(i, made);
            while let Some(made) = early.remove(&turn) {
                turn += 1;
                // nothing more is written after a failed write
                let buf = made.and_then(|buf| match &written {
                    Ok(()) => out.write_all(&buf).map(|()| buf),
                    Err(_) => Ok(buf),
                });
                match buf {
                    Ok(buf) => {
                        let _ = free_tx.send(buf);
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        if written.is_ok() {
                            written = Err(e);
                        }
                    }
                }
            }
        }
        written
    })
}

/// The rows of `sessions` appended to `out`.
fn json_lines(out: &mut Vec<u8>, sessions: &[SessionInfo]) -> io::Result<()> {
    for s in sessions {
        if let Some(path) = s.path.to_str() {
            push_row(out, s, path);
            continue;
        }
        let row = JsonRow::of(s);
        crate::json_out::to_writer(&mut *out, &row)?;
        out.push(b'\n');
    }
    Ok(())
}

/// A row of `ccv list --json`, its keys in the order they are written:
/// what [`push_row`] writes, and what a path that is not UTF-8 is written
/// with.
#[derive(serde::Serialize)]
struct JsonRow<'a> {
    agent: &'a str,
    project: &'a str,
    session_id: &'a str,
    title: &'a str,
    first_prompt: &'a str,
    last_activity: String,
    message_count: u64,
    message_count_exact: bool,
    size: u64,
    model: Option<&'a str>,
    git_branch: Option<&'a str>,
    subagents: u32,
    live: bool,
    cost_usd: Option<f64>,
    unpriced_messages: Option<u32>,
    unpriced_models: Option<std::collections::BTreeMap<String, u32>>,
    tokens: Option<crate::model::figures::Tokens>,
    agent_tokens: Option<crate::model::figures::Tokens>,
    prompts: Option<u32>,
    tool_calls: Option<u32>,
    path: std::borrow::Cow<'a, str>,
    /// The path's bytes, when they are not UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<Vec<u8>>,
}

impl JsonRow<'_> {
    /// The row of `s`, as serde writes it (a path that is not UTF-8 with
    /// its bytes).
    fn of(s: &SessionInfo) -> JsonRow<'_> {
        let f = s.figures.as_ref();
        let path_bytes = s.path.to_str().is_none().then(|| {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                s.path.as_os_str().as_bytes().to_vec()
            }
            #[cfg(not(unix))]
            {
                s.path.to_string_lossy().into_owned().into_bytes()
            }
        });
        JsonRow {
            agent: s.agent(),
            project: &s.project,
            session_id: &s.session_id,
            title: &s.title,
            first_prompt: &s.first_prompt,
            last_activity: format_iso(s.last_activity_ms),
            message_count: s.message_count,
            message_count_exact: s.message_count_exact,
            size: s.size,
            model: s.model.as_deref(),
            git_branch: s.git_branch.as_deref(),
            subagents: s.subagents,
            live: s.live,
            cost_usd: f.and_then(|f| f.cost_usd()),
            unpriced_messages: f.map(|f| f.cost.unpriced),
            unpriced_models: f.map(|f| f.unpriced_models()),
            tokens: f.map(|f| f.tokens),
            agent_tokens: f.map(|f| f.agent_tokens),
            prompts: f.map(|f| f.prompts),
            tool_calls: f.map(|f| f.tool_calls),
            path: s.path.to_string_lossy(),
            path_bytes,
        }
    }
}

/// The row of `s` (its path UTF-8, `path`) and a newline: the bytes
/// serde writes for [`JsonRow`] (a test holds them so).
fn push_row(out: &mut Vec<u8>, s: &SessionInfo, path: &str) {
    use crate::json_out::push_str;
    let f = s.figures.as_deref();
    let mut num = itoa::Buffer::new();
    // every key after the first
    let key = |out: &mut Vec<u8>, k: &str| {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b"\":");
    };
    let opt_str = |out: &mut Vec<u8>, v: Option<&str>| match v {
        Some(v) => push_str(out, v),
        None => out.extend_from_slice(b"null"),
    };
    out.extend_from_slice(b"{\"agent\":");
    push_str(out, s.agent());
    for (k, v) in [
        ("project", s.project.as_str()),
        ("session_id", &s.session_id),
        ("title", &s.title),
        ("first_prompt", &s.first_prompt),
    ] {
        key(out, k);
        push_str(out, v);
    }
    key(out, "last_activity");
    push_str(out, &format_iso(s.last_activity_ms));
    key(out, "message_count");
    out.extend_from_slice(num.format(s.message_count).as_bytes());
    key(out, "message_count_exact");
    out.extend_from_slice(bool_text(s.message_count_exact));
    key(out, "size");
    out.extend_from_slice(num.format(s.size).as_bytes());
    key(out, "model");
    opt_str(out, s.model.as_deref());
    key(out, "git_branch");
    opt_str(out, s.git_branch.as_deref());
    key(out, "subagents");
    out.extend_from_slice(num.format(s.subagents).as_bytes());
    key(out, "live");
    out.extend_from_slice(bool_text(s.live));
    key(out, "cost_usd");
    match f.and_then(|f| f.cost_usd()).filter(|u| u.is_finite()) {
        Some(u) => out.extend_from_slice(ryu::Buffer::new().format_finite(u).as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    key(out, "unpriced_messages");
    match f {
        Some(f) => out.extend_from_slice(num.format(f.cost.unpriced).as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    key(out, "unpriced_models");
    match f {
        Some(f) => {
            out.push(b'{');
            for (i, (model, n)) in f.unpriced_models().iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                push_str(out, model);
                out.push(b':');
                out.extend_from_slice(num.format(*n).as_bytes());
            }
            out.push(b'}');
        }
        None => out.extend_from_slice(b"null"),
    }
    for (k, t) in [
        ("tokens", f.map(|f| f.tokens)),
        ("agent_tokens", f.map(|f| f.agent_tokens)),
    ] {
        key(out, k);
        match t {
            Some(t) => {
                for (k, v) in [
                    ("{\"input\":", t.input),
                    (",\"output\":", t.output),
                    (",\"cache_creation\":", t.cache_creation),
                    (",\"cache_read\":", t.cache_read),
                ] {
                    out.extend_from_slice(k.as_bytes());
                    out.extend_from_slice(num.format(v).as_bytes());
                }
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
    }
    for (k, v) in [
        ("prompts", f.map(|f| f.prompts)),
        ("tool_calls", f.map(|f| f.tool_calls)),
    ] {
        key(out, k);
        match v {
            Some(v) => out.extend_from_slice(num.format(v).as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
    }
    key(out, "path");
    push_str(out, path);
    out.extend_from_slice(b"}\n");
}

fn bool_text(b: bool) -> &'static [u8] {
    if b { b"true" } else { b"false" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::figures::{Breakdown, Detail, Figures, Slice, Tokens};
    use crate::model::price::Cost;
    use std::path::PathBuf;

    fn row(text: &str, figures: Option<Figures>) -> SessionInfo {
        SessionInfo {
            project: format!("/p/{text}"),
            session_id: text.chars().rev().collect(),
            path: PathBuf::from(format!("/t/{text}.jsonl")),
            title: text.into(),
            first_prompt: text.repeat(3),
            last_activity_ms: 1_763_382_205_826,
            message_count: 25,
            message_count_exact: text.len().is_multiple_of(2),
            size: u64::MAX,
            model: (!text.len().is_multiple_of(3)).then(|| text.to_owned()),
            git_branch: (text.len() % 2 == 1).then(|| format!("b/{text}")),
            subagents: 7,
            subagent_files: None,
            mtime_ns: 1,
            live: text.len() % 2 == 1,
            unreadable: false,
            figures: figures.map(Box::new),
            agent: text.len().is_multiple_of(4).then(|| "codex".to_owned()),
            spawned: Vec::new(),
        }
    }

    /// Rows written by hand are the bytes serde writes for them: every
    /// kind of text (escapes, controls, C1, bidi, wide, astral), figures
    /// absent, priced, unpriced by model, with no model, a cost of zero
    /// and a long one, numbers at their ends.
    #[test]
    fn a_row_by_hand_is_serdes_row() {
        let texts = [
            "",
            "plain",
            "q\"uote\\",
            "\n\r\t\x08\x0c\x01\x1f",
            "\x7f\u{85}\u{9f}",
            "\u{202e}rtl\u{2066}\u{200f}\u{061c}",
            "\u{2028}\u{2029}\u{feff}",
            "日本語🦀",
            "a long line that goes on well past sixteen bytes with a \u{1b}[31m colour in it",
        ];
        let slice = |model: &str, usd: f64, unpriced: u32| Slice {
            at_ms: 0,
            model: model.into(),
            cost: Cost { usd, unpriced },
            ..Slice::default()
        };
        let figures = [
            None,
            Some(Figures::default()),
            Some(Figures {
                tokens: Tokens {
                    input: 1,
                    output: u64::MAX / 3,
                    cache_creation: 0,
                    cache_read: 987_654_321,
                },
                cost: Cost {
                    usd: 0.145_362_749_999_999_99,
                    unpriced: 3,
                },
                agent_tokens: Tokens::default(),
                prompts: u32::MAX,
                tool_calls: 13,
                detail: Detail::new(Breakdown {
                    slices: vec![
                        slice("claude-zeta-9", 0.0, 2),
                        slice("", 0.0, 1),
                        slice("\u{1b}]0;title\u{7}", 0.0, 4),
                        slice("claude-opus-4-6", 1.5, 0),
                    ],
                    ..Breakdown::default()
                }),
                ..Figures::default()
            }),
            Some(Figures {
                cost: Cost {
                    usd: 0.0,
                    unpriced: 5,
                },
                detail: Detail::new(Breakdown {
                    slices: vec![slice("m", 0.0, 5)],
                    ..Breakdown::default()
                }),
                ..Figures::default()
            }),
            Some(Figures {
                cost: Cost {
                    usd: 123_456.000_001,
                    unpriced: 0,
                },
                ..Figures::default()
            }),
        ];
        for t in texts {
            for f in &figures {
                let s = row(t, f.clone());
                let mut by_hand = Vec::new();
                json_lines(&mut by_hand, std::slice::from_ref(&s)).expect("write");
                let serde_row = JsonRow::of(&s);
                let mut by_serde = Vec::new();
                crate::json_out::to_writer(&mut by_serde, &serde_row).expect("write");
                by_serde.push(b'\n');
                assert_eq!(
                    String::from_utf8_lossy(&by_hand),
                    String::from_utf8_lossy(&by_serde)
                );
            }
        }
    }

    /// Rows written on several threads come out in order, each once, and
    /// a path that is not UTF-8 is written with its bytes.
    #[cfg(unix)]
    #[test]
    fn rows_in_parts_come_out_in_order() {
        use std::os::unix::ffi::OsStrExt;
        let mut rows: Vec<SessionInfo> = (0..2000).map(|i| row(&i.to_string(), None)).collect();
        rows[777].path = PathBuf::from(std::ffi::OsStr::from_bytes(b"/t/\xff.jsonl"));
        let mut all = Vec::new();
        write_json_lines(&mut all, &rows).expect("write");
        let lines: Vec<serde_json::Value> = all
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).expect("json"))
            .collect();
        assert_eq!(lines.len(), 2000);
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(l["title"], i.to_string());
        }
        assert_eq!(lines[777]["path_bytes"][3], 0xff);
    }
}
