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
    entries: HashMap<PathBuf, SessionInfo>,
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
    let at = memchr::memmem::find(line, b"\"path\":")?;
    let v = at + b"\"path\":".len();
    let end = match line.get(v)? {
        b'"' => {
            let mut i = v + 1;
            loop {
                i += memchr::memchr2(b'"', b'\\', &line[i..])?;
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

/// The sane rows of whole lines of JSON, parsed on `threads` threads (in
/// parts cut at line ends).
fn parse_rows(bytes: &[u8], threads: usize) -> Vec<SessionInfo> {
    let parse = |part: &[u8]| -> Vec<SessionInfo> {
        part.split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .filter_map(|l| serde_json::from_slice::<SessionInfo>(l).ok())
            .filter(SessionInfo::is_sane)
            .collect()
    };
    let threads = threads.clamp(1, 8);
    if threads == 1 || bytes.len() < (1 << 20) {
        return parse(bytes);
    }
    let mut parts = Vec::with_capacity(threads);
    let mut at = 0;
    for k in 1..=threads {
        let want = (bytes.len() * k / threads).max(at);
        let end = if k == threads {
            bytes.len()
        } else {
            memchr::memchr(b'\n', &bytes[want..]).map_or(bytes.len(), |i| want + i + 1)
        };
        parts.push(&bytes[at..end]);
        at = end;
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = parts.iter().map(|p| s.spawn(move || parse(p))).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
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
        let mut rest = Vec::new();
        if io::Read::read_to_end(&mut r, &mut rest).is_err() {
            return Cache { entries };
        }
        // 10,000 rows are 20 MB of JSON: parsed on every core
        let rows = parse_rows(&rest, crate::catalog::threads());
        entries.reserve(rows.len());
        for mut info in rows {
            if !keep_figures {
                info.figures = None;
            }
            entries.insert(info.path.clone(), info);
        }
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
        let mut line = Vec::new();
        while let Some(bytes) = read_line(&mut r, &mut line) {
            if !path_of_line(bytes).is_some_and(|k| needles.contains(k)) {
                continue;
            }
            if let Ok(mut info) = serde_json::from_slice::<SessionInfo>(bytes)
                && info.is_sane()
            {
                if !keep_figures {
                    info.figures = None;
                }
                entries.insert(info.path.clone(), info);
            }
        }
        Cache { entries }
    }

    /// Takes out the row for `path` if the file has not changed since (a
    /// listing re-inserts what it keeps: no copy of every row).
    pub fn take(&mut self, path: &Path, size: u64, mtime_ns: i64) -> Option<SessionInfo> {
        match self.entries.get(path) {
            Some(i) if i.size == size && i.mtime_ns == mtime_ns => self.entries.remove(path),
            _ => None,
        }
    }

    /// How many rows are of files in `scope`'s folders.
    pub fn count_in(&self, scope: &[PathBuf]) -> usize {
        self.entries
            .keys()
            .filter(|p| super::files::in_scope(scope, p))
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
            .get(path)
            .filter(|i| i.size == size && i.mtime_ns == mtime_ns)
    }

    /// Replaces every row in `scope`'s folders by `rows`; rows of other
    /// folders stay.
    pub fn replace_root<'a>(
        &mut self,
        scope: &[PathBuf],
        rows: impl Iterator<Item = &'a SessionInfo>,
    ) {
        self.entries
            .retain(|p, _| !super::files::in_scope(scope, p));
        for r in rows {
            let mut r = r.clone();
            r.live = false;
            self.entries.insert(r.path.clone(), r);
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
