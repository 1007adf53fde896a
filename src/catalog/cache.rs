//! The listing cache: one JSON line per session file, keyed by path, size
//! and mtime. A file whose size or mtime changed is read again. Written
//! atomically (temp file + rename) so a crash never leaves half a cache,
//! and a cache that cannot be read is simply ignored.

use super::scan::SessionInfo;
use rustc_hash::FxHashMap as HashMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Bumped whenever `SessionInfo` or the scan rules change.
const VERSION: &str = "{\"ccv_session_cache\":3";

/// The first line: the version, and the price table the cached costs were
/// computed with (another table, from a changed config, drops the costs).
fn header() -> String {
    format!(
        "{VERSION},\"prices\":\"{}\"}}",
        crate::model::price::PriceTable::active().fingerprint()
    )
}
const FILE_NAME: &str = "sessions-v3.jsonl";
/// A cache past this size was not written by ccv for any real history
/// (2,000 sessions take ~2 MB): it is not read.
const MAX_FILE: u64 = 512 << 20;
/// The longest row read; a longer one is skipped without being held.
const MAX_LINE: usize = 8 << 20;

/// The next line of `r` without its newline, in `buf`; a line longer than
/// [`MAX_LINE`] comes back empty (skipped), `None` at the end.
fn read_line<'b>(r: &mut impl BufRead, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return (!buf.is_empty() || too_long).then_some(&buf[..]);
        }
        let (take, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !too_long && buf.len() + take <= MAX_LINE {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            too_long = true;
            buf.clear();
        }
        r.consume(take + usize::from(done));
        if done {
            return Some(&buf[..]);
        }
    }
}

/// `$XDG_CACHE_HOME/ccv/sessions-v3.jsonl`, else the platform cache dir.
pub fn default_cache_file() -> Option<PathBuf> {
    Some(crate::paths::cache_dir()?.join(FILE_NAME))
}

#[derive(Debug, Default)]
pub struct Cache {
    /// By the path's bytes: hashing 10,000 paths by their components, and
    /// comparing them so, was a tenth of a warm listing.
    /// Boxed: the table is grown as rows are read, and moving 10,000
    /// rows at each growth touched as many fresh pages as the rows.
    entries: HashMap<std::ffi::OsString, Box<SessionInfo>>,
}

/// The cache file past its first line, and whether its figures hold
/// (priced with the table in use); `None` for a missing, foreign,
/// oversized or older cache.
fn open_rows(file: &Path) -> Option<(io::BufReader<std::fs::File>, bool)> {
    let f = crate::model::session::open_regular(file).ok()?;
    if f.metadata().map_or(true, |m| m.len() > MAX_FILE) {
        return None;
    }
    let mut r = io::BufReader::with_capacity(1 << 16, f);
    let mut line = Vec::new();
    let keep_figures = match read_line(&mut r, &mut line)? {
        h if h == header().as_bytes() => true,
        h if h.starts_with(VERSION.as_bytes())
            && memchr::memmem::find(h, b",\"prices\":").is_some() =>
        {
            false
        }
        _ => return None,
    };
    Some((r, keep_figures))
}

/// `"path":…` as a row writes it.
fn path_key(p: &Path) -> Option<Vec<u8>> {
    #[derive(serde::Serialize)]
    struct P<'a> {
        #[serde(with = "crate::json_out::os_path")]
        path: &'a Path,
    }
    let s = serde_json::to_vec(&P { path: p }).ok()?;
    Some(s.get(1..s.len().checked_sub(1)?)?.to_vec())
}

/// The `"path":…` member of a row's line: the first `"path":` outside a
/// string is the row's (inside one, quotes are escaped), its value a
/// string or `{"bytes":[…]}`.
fn path_of_line(line: &[u8]) -> Option<&[u8]> {
    // made once: a search looks at each of 10,000 rows
    static PATH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"path\":"));
    let at = PATH.find(line)?;
    let v = at + b"\"path\":".len();
    let end = match line.get(v)? {
        b'"' => {
            let mut i = v + 1;
            loop {
                i += memchr::memchr2(b'"', b'\\', line.get(i..)?)?;
                if line[i] == b'\\' {
                    i += 2;
                    continue;
                }
                break i + 1;
            }
        }
        b'{' => v + memchr::memchr(b'}', &line[v..])? + 1,
        _ => return None,
    };
    line.get(at..end)
}

/// Calls `f` with each line of `r` (without its newline), read a part at
/// a time into one buffer; a line longer than [`MAX_LINE`] is passed over.
fn each_line(r: &mut impl io::Read, mut f: impl FnMut(&[u8])) {
    const PART: usize = 1 << 20;
    let mut buf: Vec<u8> = Vec::with_capacity(PART);
    // inside a line too long to hold, until its end
    let mut skipping = false;
    loop {
        let kept = buf.len();
        // a read that fails ends the lines there
        let n = io::Read::read_to_end(&mut io::Read::take(&mut *r, PART as u64), &mut buf)
            .unwrap_or_default();
        let mut at = 0;
        let mut from = kept;
        while let Some(i) = memchr::memchr(b'\n', &buf[from..]) {
            let end = from + i;
            if !skipping && end - at <= MAX_LINE {
                f(&buf[at..end]);
            }
            skipping = false;
            at = end + 1;
            from = at;
        }
        if n == 0 {
            if !skipping && at < buf.len() && buf.len() - at <= MAX_LINE {
                f(&buf[at..]);
            }
            return;
        }
        buf.drain(..at);
        if buf.len() > MAX_LINE {
            buf.clear();
            skipping = true;
        }
    }
}

/// The sane rows of whole lines of JSON.
fn parse_part(part: &[u8]) -> Vec<SessionInfo> {
    let mut rows = Vec::new();
    let mut at = 0;
    while at < part.len() {
        let end = memchr::memchr(b'\n', &part[at..]).map_or(part.len(), |i| at + i);
        let line = &part[at..end];
        at = end + 1;
        rows.extend(parse_row(line));
    }
    rows
}

/// A row of the cache if it reads as one and its figures can be true.
fn parse_row(line: &[u8]) -> Option<SessionInfo> {
    // checked as UTF-8 once, not string by string as it is parsed (a
    // tenth of reading the rows)
    let info = serde_json::from_str::<SessionInfo>(std::str::from_utf8(line).ok()?).ok()?;
    info.is_sane().then_some(info)
}

/// Calls `keep` with the sane rows of `r`, in the order of its lines:
/// its lines gathered into parts in a few buffers used again (a buffer of
/// the whole file, 20 MB for 10,000 rows, cost as much in fresh pages as
/// parsing it), each part parsed on one of `threads` threads while the
/// next is read, and its rows handed on as soon as the parts before it
/// are (gathered into one list first, they were a tenth of a warm
/// listing's fresh pages). A row longer than [`MAX_LINE`] is passed over,
/// as [`each_line`] does.
fn read_rows(r: &mut impl io::Read, threads: usize, mut keep: impl FnMut(SessionInfo)) {
    use std::sync::{Mutex, mpsc};
    const PART: usize = 256 << 10;
    let threads = threads.clamp(1, 8);
    let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Vec<u8>)>(threads);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<SessionInfo>)>();
    let (free_tx, free_rx) = mpsc::channel::<Vec<u8>>();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let (work_rx, done_tx, free_tx) = (&work_rx, done_tx.clone(), free_tx.clone());
            s.spawn(move || {
                loop {
                    let job = match work_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, mut buf)) = job else { return };
                    // a part that cannot be parsed costs its rows (read
                    // again), never the listing
                    let rows = crate::contain::contain(|| parse_part(&buf)).unwrap_or_default();
                    let _ = done_tx.send((seq, rows));
                    buf.clear();
                    let _ = free_tx.send(buf);
                }
            });
        }
        drop((done_tx, free_tx));
        // the parts parsed, by number, until those before them are in
        let mut early: std::collections::BTreeMap<usize, Vec<SessionInfo>> = Default::default();
        let mut next = 0;
        let mut take = |seq: usize, rows: Vec<SessionInfo>| {
            early.insert(seq, rows);
            while let Some(rows) = early.remove(&next) {
                rows.into_iter().for_each(&mut keep);
                next += 1;
            }
        };
        let fresh = || {
            free_rx
                .try_recv()
                .unwrap_or_else(|_| Vec::with_capacity(PART + (64 << 10)))
        };
        let mut part = fresh();
        let mut seq = 0;
        each_line(r, |line| {
            part.extend_from_slice(line);
            part.push(b'\n');
            if part.len() >= PART
                && work_tx
                    .send((seq, std::mem::replace(&mut part, fresh())))
                    .is_ok()
            {
                seq += 1;
            }
            while let Ok((seq, rows)) = done_rx.try_recv() {
                take(seq, rows);
            }
        });
        if !part.is_empty() {
            let _ = work_tx.send((seq, part));
        }
        drop(work_tx);
        for (seq, rows) in done_rx.iter() {
            take(seq, rows);
        }
    })
}

impl Cache {
    /// Loads `file`; missing, foreign, damaged or oversized caches load
    /// as empty, and a row whose figures cannot be true is skipped: the
    /// sessions are read again, which costs time, never a wrong figure.
    pub fn load(file: &Path) -> Cache {
        let mut entries = HashMap::default();
        let Some((mut r, keep_figures)) = open_rows(file) else {
            return Cache { entries };
        };
        // 10,000 rows are 20 MB of JSON: parsed on every core
        read_rows(&mut r, crate::catalog::threads(), |mut info| {
            if !keep_figures {
                info.figures = None;
            }
            entries.insert(info.path.clone().into_os_string(), Box::new(info));
        });
        Cache { entries }
    }

    /// Loads only the rows of `wanted` from `file` (a search names the
    /// sessions of its hits): the other lines are passed over by the path
    /// they hold, not parsed.
    pub fn load_only(file: &Path, wanted: &[PathBuf]) -> Cache {
        let mut entries = HashMap::default();
        let needles: std::collections::HashSet<Vec<u8>> =
            wanted.iter().filter_map(|p| path_key(p)).collect();
        if needles.is_empty() {
            return Cache { entries };
        }
        let Some((mut r, keep_figures)) = open_rows(file) else {
            return Cache { entries };
        };
        // looked at where they are read, a part at a time (not copied line
        // by line)
        each_line(&mut r, |bytes| {
            if !path_of_line(bytes).is_some_and(|k| needles.contains(k)) {
                return;
            }
            if let Some(mut info) = parse_row(bytes) {
                if !keep_figures {
                    info.figures = None;
                }
                entries.insert(info.path.clone().into_os_string(), Box::new(info));
            }
        });
        Cache { entries }
    }

    /// Takes out the row for `path` if the file has not changed since (a
    /// listing re-inserts what it keeps: no copy of every row).
    pub fn take(&mut self, path: &Path, size: u64, mtime_ns: i64) -> Option<SessionInfo> {
        match self.entries.get(path.as_os_str()) {
            Some(i) if i.size == size && i.mtime_ns == mtime_ns => {
                self.entries.remove(path.as_os_str()).map(|b| *b)
            }
            _ => None,
        }
    }

    /// How many rows are of files in `scope`'s folders.
    pub fn count_in(&self, scope: &[PathBuf]) -> usize {
        self.entries
            .keys()
            .filter(|p| super::files::in_scope(scope, Path::new(p)))
            .count()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The cached row for `path` if the file has not changed since.
    pub fn get(&self, path: &Path, size: u64, mtime_ns: i64) -> Option<&SessionInfo> {
        self.entries
            .get(path.as_os_str())
            .filter(|i| i.size == size && i.mtime_ns == mtime_ns)
            .map(|b| &**b)
    }

    /// Replaces every row in `scope`'s folders by `rows`; rows of other
    /// folders stay.
    pub fn replace_root<'a>(
        &mut self,
        scope: &[PathBuf],
        rows: impl Iterator<Item = &'a SessionInfo>,
    ) {
        self.entries
            .retain(|p, _| !super::files::in_scope(scope, Path::new(p)));
        for r in rows {
            let mut r = r.clone();
            r.live = false;
            self.entries
                .insert(r.path.clone().into_os_string(), Box::new(r));
        }
    }

    pub fn save(&self, file: &Path) -> io::Result<()> {
        let dir = file.parent().unwrap_or(Path::new("."));
        crate::writes::private_dir(dir)?;
        // No fsync: a cache lost in a crash costs one slow listing.
        crate::writes::write_file(file, true, |w| {
            writeln!(w, "{}", header())?;
            for info in self.entries.values() {
                serde_json::to_writer(&mut *w, info)?;
                w.write_all(b"\n")?;
            }
            Ok(())
        })
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row cut inside its path after a backslash (a damaged cache) is
    /// no row, never a crash.
    #[test]
    fn a_row_cut_after_a_backslash_has_no_path() {
        for line in [
            &br#"{"path":"/a\"#[..],
            br#"{"path":"\"#,
            br#"{"path":"/a\\"#,
        ] {
            assert_eq!(path_of_line(line), None, "{line:?}");
        }
        assert_eq!(
            path_of_line(br#"{"path":"/a\"b","x":1}"#),
            Some(&br#""path":"/a\"b""#[..])
        );
    }

    fn rows_read(text: &str, threads: usize) -> Vec<SessionInfo> {
        let mut rows = Vec::new();
        read_rows(&mut text.as_bytes(), threads, |r| rows.push(r));
        rows
    }

    fn row(path: &str, title: &str) -> String {
        let info = SessionInfo {
            project: "/p".into(),
            session_id: "s".into(),
            path: PathBuf::from(path),
            title: title.into(),
            first_prompt: String::new(),
            last_activity_ms: 1,
            message_count: 1,
            message_count_exact: true,
            size: 1,
            model: None,
            git_branch: None,
            subagents: 0,
            mtime_ns: 1,
            live: false,
            unreadable: false,
            figures: None,
            agent: None,
            spawned: Vec::new(),
        };
        serde_json::to_string(&info).expect("row")
    }

    /// Rows read a part at a time come in the order of their lines, a
    /// line cut between parts whole, a damaged one left out, the last one
    /// without its newline read too: as parsing the whole file at once.
    #[test]
    fn rows_read_in_parts_are_the_rows_of_the_whole() {
        let mut text = String::new();
        for i in 0..3000 {
            // long enough that lines are cut between parts
            text += &row(&format!("/t/{}.jsonl", i % 2500), &"x".repeat(i % 700));
            text += "\n";
            if i % 997 == 0 {
                text += "{not json\n\n";
            }
        }
        text += &row("/t/last.jsonl", "no newline");
        for threads in [1, 2, 3] {
            let rows = rows_read(&text, threads);
            let whole = parse_part(text.as_bytes());
            assert_eq!(rows, whole, "{threads} threads");
            assert_eq!(rows.len(), 3001);
        }
    }

    /// A row too long to be ccv's is passed over in one pass (a damaged
    /// or hostile cache of one endless line), the rows around it read.
    #[test]
    fn an_endless_row_is_passed_over() {
        let mut text = row("/t/a.jsonl", "before");
        text += "\n";
        text += &"x".repeat(3 * MAX_LINE);
        text += "\n";
        text += &row("/t/b.jsonl", "after");
        let rows = rows_read(&text, 2);
        let titles: Vec<&str> = rows.iter().map(|r| r.title.as_str()).collect();
        assert_eq!(titles, ["before", "after"]);
    }

    /// Each line is seen once, where it is, whatever the parts cut; a line
    /// past the longest held is passed over.
    #[test]
    fn each_line_sees_every_line_once() {
        let long = "y".repeat(MAX_LINE + 10);
        let mut text = String::new();
        let mut want = Vec::new();
        for i in 0..5000 {
            let l = format!("{i}:{}", "z".repeat(i % 1500));
            text += &l;
            text += "\n";
            want.push(l);
            if i == 2000 {
                text += &long;
                text += "\n";
            }
        }
        text += "tail";
        want.push("tail".into());
        let mut seen = Vec::new();
        each_line(&mut text.as_bytes(), |l| {
            seen.push(String::from_utf8(l.to_vec()).expect("utf-8"))
        });
        assert_eq!(seen.len(), want.len());
        for (i, (a, b)) in seen.iter().zip(&want).enumerate() {
            assert!(a == b, "line {i}: {} vs {}", a.len(), b.len());
        }
    }
}
