//! How session facts read to a person (relative time, sizes, short model
//! names) and the two outputs of `ccv list` (table, JSON Lines).

use super::scan::SessionInfo;
use crate::model::text::sanitize;
use crate::model::time::format_iso;
use std::io::{self, Write};

pub use crate::model::time::relative_time;

/// `512 B`, `120 KB`, `3.1 MB`, `1.2 GB`.
pub fn human_size(bytes: u64) -> String {
    const K: f64 = 1024.0;
    let b = bytes as f64;
    if b < K {
        format!("{bytes} B")
    } else if b < K * K {
        format!("{:.0} KB", b / K)
    } else if b < K * K * K {
        format!("{:.1} MB", b / (K * K))
    } else {
        format!("{:.1} GB", b / (K * K * K))
    }
}

/// `claude-opus-4-1-20250805` → `opus-4.1`; `claude-3-5-sonnet-20241022`
/// → `sonnet-3.5`. Unknown shapes pass through.
pub fn short_model(model: &str) -> String {
    let rest = model.strip_prefix("claude-").unwrap_or(model);
    let mut names = Vec::new();
    let mut nums = Vec::new();
    for part in rest.split('-') {
        if part.len() == 8 && part.bytes().all(|b| b.is_ascii_digit()) {
            continue; // the release date
        }
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            nums.push(part);
        } else {
            names.push(part);
        }
    }
    match (names.is_empty(), nums.is_empty()) {
        (false, false) => format!("{}-{}", names.join("-"), nums.join(".")),
        (false, true) => names.join("-"),
        _ => model.to_owned(),
    }
}

/// `240` or `~240` when extrapolated.
pub fn message_count(s: &SessionInfo) -> String {
    if s.message_count_exact {
        s.message_count.to_string()
    } else {
        format!("~{}", s.message_count)
    }
}

/// Sanitised, on one line, cut or padded to `width` columns.
pub fn fit(s: &str, width: usize) -> String {
    let one = sanitize(s).replace(['\n', '\t'], " ");
    let mut out = crate::model::text::fit_end(&one, width);
    let used = unicode_width::UnicodeWidthStr::width(out.as_str());
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

/// The `ccv list` table, fitted to `width` columns: the title takes the
/// room the rest leaves, a project path loses its middle, and branch,
/// model and size go when even that does not fit.
pub fn write_table(
    out: &mut dyn Write,
    sessions: &[SessionInfo],
    now_ms: i64,
    width: usize,
) -> io::Result<()> {
    use crate::columns::{Column, Cut, render};
    // which agent wrote a session, when the list holds more than one
    let agents = sessions.iter().any(|s| s.agent() != sessions[0].agent());
    let mut cols = vec![
        Column::fixed(" ", false),
        Column::flex("PROJECT", 14, 40, Cut::Middle),
        Column::flex("TITLE", 24, 120, Cut::End),
        Column::fixed("ACTIVITY", false),
        Column::fixed("MSGS", true).dropped_at(2),
        Column::fixed("SIZE", true).dropped_at(3),
        Column::fixed("COST", true),
        Column::fixed("MODEL", false).dropped_at(4),
        Column::flex("BRANCH", 8, 24, Cut::Middle).dropped_at(5),
    ];
    if agents {
        cols.insert(1, Column::fixed("AGENT", false).dropped_at(1));
    }
    let rows: Vec<Vec<String>> = sessions
        .iter()
        .map(|s| {
            let mut row = vec![
                if s.live { "●" } else { " " }.to_owned(),
                crate::paths::tilde(&s.project),
                s.title.clone(),
                relative_time(now_ms, s.last_activity_ms),
                message_count(s),
                human_size(s.size),
                s.figures
                    .as_ref()
                    .and_then(|f| f.cost.label())
                    .unwrap_or_default(),
                s.model.as_deref().map(short_model).unwrap_or_default(),
                s.git_branch.clone().unwrap_or_default(),
            ];
            if agents {
                row.insert(1, s.agent().to_owned());
            }
            row
        })
        .collect();
    for line in render(&cols, &rows, width) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `ccv list | …`: a header, then a line per session of whole values,
/// tab-separated (for `cut`, `awk`, `column -t`).
pub fn write_tsv(out: &mut dyn Write, sessions: &[SessionInfo]) -> io::Result<()> {
    use crate::columns::tsv_field as f;
    writeln!(
        out,
        "project\ttitle\tlast_activity\tmessages\tsize\tcost_usd\tmodel\tbranch\tlive\tsession_id\tpath\tagent"
    )?;
    for s in sessions {
        let cost = s
            .figures
            .as_ref()
            .and_then(|f| f.cost_usd())
            .map(
                |c| match s.figures.as_ref().map_or(0, |f| f.cost.unpriced) {
                    0 => format!("{c}"),
                    _ => format!("{c}+?"),
                },
            )
            .unwrap_or_default();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f(&s.project),
            f(&s.title),
            format_iso(s.last_activity_ms),
            message_count(s),
            s.size,
            cost,
            f(s.model.as_deref().unwrap_or("")),
            f(s.git_branch.as_deref().unwrap_or("")),
            s.live,
            f(&s.session_id),
            f(&s.path.to_string_lossy()),
            s.agent(),
        )?;
    }
    Ok(())
}

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
        return json_lines(out, sessions);
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

fn json_lines<W: Write + ?Sized>(out: &mut W, sessions: &[SessionInfo]) -> io::Result<()> {
    for s in sessions {
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
        let row = JsonRow {
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
        };
        crate::json_out::to_writer(&mut *out, &row)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A row of `ccv list --json`, its keys in the order they are written.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names() {
        assert_eq!(short_model("claude-opus-4-1-20250805"), "opus-4.1");
        assert_eq!(short_model("claude-sonnet-4-20250514"), "sonnet-4");
        assert_eq!(short_model("claude-3-5-sonnet-20241022"), "sonnet-3.5");
        assert_eq!(short_model("claude-opus-4-6"), "opus-4.6");
        assert_eq!(short_model("gpt"), "gpt");
    }

    #[test]
    fn times_and_sizes() {
        let now = 1_000_000_000_000;
        assert_eq!(relative_time(now, now - 5_000), "just now");
        assert_eq!(relative_time(now, now - 120_000), "2 min ago");
        assert_eq!(relative_time(now, now - 30 * 3_600_000), "yesterday");
        assert_eq!(human_size(3_250_000), "3.1 MB");
        assert_eq!(human_size(900), "900 B");
    }

    #[test]
    fn fit_cuts_by_width_and_sanitizes() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("日本語", 4), "日… ");
        assert_eq!(fit("a\x1b[31mb", 3), "ab ");
    }
}
