//! Timing traces for benchmarks: `CCV_TRACE_STARTUP` (time to the first
//! frame) and `CCV_TRACE_LIVE` (what is on screen after each append).

use crate::model::Session;
use std::time::Duration;

/// `CCV_TRACE_STARTUP=1` prints to stderr after the terminal is restored;
/// any other value names a file to write. A line each: the first frame,
/// the first frame with the whole session loaded, the peak resident
/// memory (where the system says).
pub fn report_startup(trace: &str, first: Option<Duration>, loaded: Option<Duration>) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut text = String::new();
    if let Some(d) = first {
        text += &format!("ccv: first frame in {:.1} ms\n", ms(d));
    }
    if let Some(d) = loaded {
        text += &format!("ccv: loaded in {:.1} ms\n", ms(d));
    }
    if let Some(kb) = peak_rss_kb() {
        text += &format!("ccv: peak RSS {kb} KB\n");
    }
    if trace == "1" || trace.is_empty() {
        crate::say::err(format_args!("{text}"));
    } else if let Err(e) = crate::writes::write_file(std::path::Path::new(trace), true, |w| {
        std::io::Write::write_all(w, text.as_bytes())
    }) {
        crate::say_err!("ccv: CCV_TRACE_STARTUP: {trace}: {e}");
    }
}

/// `VmHWM` of `/proc/self/status` (Linux).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `CCV_TRACE_LIVE=FILE`: after each frame drawn after appends, the wall
/// clock (µs since the epoch) and how many bytes of the session file are
/// on screen. A writer that logs its own write times measures write-to-drawn
/// latency through a real terminal with it (`benches/live_tmux.sh`).
pub struct LiveTrace {
    out: std::fs::File,
}

impl LiveTrace {
    pub fn from_env() -> Option<LiveTrace> {
        let path = std::env::var_os("CCV_TRACE_LIVE").filter(|p| !p.is_empty())?;
        let out = crate::writes::create_streaming(std::path::Path::new(&path), true).ok()?;
        Some(LiveTrace { out })
    }

    pub fn drawn(&mut self, session: &Session) {
        use std::io::Write;
        let Some(bytes) = session.sources.first().map(|s| s.bytes_read()) else {
            return;
        };
        let us = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros());
        let _ = writeln!(self.out, "{us} {bytes}");
    }
}
