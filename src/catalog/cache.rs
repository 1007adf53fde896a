//! The listing cache: one row per session file, keyed by path, size and
//! mtime (the rows in bytes: see [`super::cache_rows`]). A file whose size
//! or mtime changed is read again. Written atomically (temp file +
//! rename) so a crash never leaves half a cache, and a cache that cannot
//! be read is simply ignored.

use super::cache_rows::{path_of_row, push_row, read_row};
use super::scan::SessionInfo;
use rustc_hash::FxHashMap as HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The file's first bytes; bumped whenever `SessionInfo`, its bytes or the
/// scan rules change.
const MAGIC: &[u8] = b"ccv session cache 13\n";

/// After [`MAGIC`]: the price table the cached costs were computed with
/// (another table, from a changed config, drops the costs), as a row's
/// text is written.
fn prices() -> String {
    crate::model::price::PriceTable::active().fingerprint()
}
const FILE_NAME: &str = "sessions-v6.bin";
/// The caches of the ccvs before this one: taken away when this one is
/// written.
const OLD_FILE_NAMES: [&str; 3] = ["sessions-v3.jsonl", "sessions-v4.bin", "sessions-v5.bin"];
/// A cache past this size was not written by ccv for any real history
/// (2,000 sessions take ~2 MB): it is not read.
const MAX_FILE: u64 = 512 << 20;
/// The longest row read: a longer one is not ccv's, and nothing after it
/// can be told apart (the rows are told apart by their lengths).
const MAX_ROW: usize = 8 << 20;

/// `$XDG_CACHE_HOME/ccv/sessions-v6.bin`, else the platform cache dir.
pub fn default_cache_file() -> Option<PathBuf> {
    Some(crate::paths::cache_dir()?.join(FILE_NAME))
}

#[derive(Debug, Default)]
pub struct Cache {
    /// By the path's bytes: hashing 10,000 paths by their components, and
    /// comparing them so, was a tenth of a warm listing. Boxed: the table
    /// is grown as rows are read, and moving 10,000 rows at each growth
    /// touched as many fresh pages as the rows.
    entries: HashMap<std::ffi::OsString, Box<SessionInfo>>,
}

/// The cache file past its header, and whether its figures hold (priced
/// with the table in use); `None` for a missing, foreign, oversized or
/// older cache.
fn open_rows(file: &Path) -> Option<(std::fs::File, bool)> {
    let mut f = crate::model::session::open_regular(file).ok()?;
    if f.metadata().map_or(true, |m| m.len() > MAX_FILE) {
        return None;
    }
    let mut magic = [0; MAGIC.len()];
    io::Read::read_exact(&mut f, &mut magic).ok()?;
    let mut len = [0; 4];
    io::Read::read_exact(&mut f, &mut len).ok()?;
    let len = u32::from_le_bytes(len) as usize;
    if magic != MAGIC || len > 4096 {
        return None;
    }
    let mut written = vec![0; len];
    io::Read::read_exact(&mut f, &mut written).ok()?;
    Some((f, written == prices().as_bytes()))
}

/// Calls `f` with each row of `r` (without its length), read a part at a
/// time into one buffer. A length past [`MAX_ROW`] ends the rows there
/// (what follows cannot be told apart), as does a row cut short.
fn each_row(r: &mut impl io::Read, mut f: impl FnMut(&[u8])) {
    // a quarter of a MB: its buffer's fresh pages were a fifth of what a
    // search spends on the rows of its hits at 1 MB (a longer row grows it)
    const PART: u64 = 256 << 10;
    let mut buf: Vec<u8> = Vec::with_capacity(PART as usize * 2);
    loop {
        let mut at = 0;
        while let Some(len) = buf.get(at..at + 4) {
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            if len > MAX_ROW {
                return;
            }
            let Some(row) = buf.get(at + 4..at + 4 + len) else {
                break;
            };
            f(row);
            at += 4 + len;
        }
        buf.drain(..at);
        // a read that fails ends the rows there
        match io::Read::read_to_end(&mut io::Read::take(&mut *r, PART), &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

/// The sane rows of a part: rows, each after its length. Boxed where
/// they are made: a row is 300 bytes, and each move of 10,000 of them
/// into fresh memory cost a tenth of a warm listing's page faults.
#[allow(clippy::vec_box)] // the boxes move on into the cache's map
fn parse_part(mut part: &[u8]) -> Vec<Box<SessionInfo>> {
    let mut rows = Vec::new();
    // read where they are (through a reader, each part was copied whole
    // into a buffer of its own)
    while let Some((len, rest)) = part.split_first_chunk::<4>() {
        let len = u32::from_le_bytes(*len) as usize;
        let Some((row, rest)) = rest.split_at_checked(len).filter(|_| len <= MAX_ROW) else {
            break;
        };
        rows.extend(parse_row(row).map(Box::new));
        part = rest;
    }
    rows
}

/// A row of the cache if it reads whole and its figures can be true.
fn parse_row(row: &[u8]) -> Option<SessionInfo> {
    read_row(row).filter(SessionInfo::is_sane)
}

/// Calls `keep` with the sane rows of `r`, in their order: gathered into
/// parts in a few buffers used again (a buffer of the whole file cost as
/// much in fresh pages as reading it), each part read on one of `threads`
/// threads while the next is gathered, and its rows handed on as soon as
/// the parts before it are (gathered into one list first, they were a
/// tenth of a warm listing's fresh pages).
fn read_rows(r: &mut impl io::Read, threads: usize, mut keep: impl FnMut(Box<SessionInfo>)) {
    use std::sync::{Mutex, mpsc};
    const PART: usize = 256 << 10;
    let threads = threads.clamp(1, 8);
    let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Vec<u8>)>(threads);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<Box<SessionInfo>>)>();
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
                    // a part that cannot be read costs its rows (read
                    // again), never the listing
                    let rows = crate::contain::contain(|| parse_part(&buf)).unwrap_or_default();
                    let _ = done_tx.send((seq, rows));
                    buf.clear();
                    let _ = free_tx.send(buf);
                }
            });
        }
        drop((done_tx, free_tx));
        // the parts read, by number, until those before them are in
        let mut early: std::collections::BTreeMap<usize, Vec<Box<SessionInfo>>> =
            Default::default();
        let mut next = 0;
        let mut take = |seq: usize, rows: Vec<Box<SessionInfo>>| {
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
        each_row(r, |row| {
            part.extend_from_slice(&(row.len() as u32).to_le_bytes());
            part.extend_from_slice(row);
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
        // 10,000 rows are 10 MB: read on every core
        read_rows(&mut r, crate::catalog::threads(), |mut info| {
            if !keep_figures {
                info.figures = None;
            }
            entries.insert(info.path.clone().into_os_string(), info);
        });
        Cache { entries }
    }

    /// Loads only the rows of `wanted` from `file` (a search names the
    /// sessions of its hits): the other lines are passed over by the path
    /// they hold, not parsed.
    pub fn load_only(file: &Path, wanted: &[PathBuf]) -> Cache {
        let mut entries = HashMap::default();
        let needles: rustc_hash::FxHashSet<&[u8]> = wanted
            .iter()
            .map(|p| p.as_os_str().as_encoded_bytes())
            .collect();
        if needles.is_empty() {
            return Cache { entries };
        }
        let Some((mut r, keep_figures)) = open_rows(file) else {
            return Cache { entries };
        };
        // looked at where they are read, a part at a time (not copied row
        // by row)
        each_row(&mut r, |bytes| {
            if !path_of_row(bytes).is_some_and(|k| needles.contains(k)) {
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
        self.save_with(file, &[])
    }

    /// [`Self::replace_root`] with `rows`, then [`Self::save`], without a
    /// copy of each row (a cold listing of 2,000 sessions spent 5-8 ms
    /// copying its rows into the cache, after every file was read): the
    /// rows are written from where they are, the cache keeps only those
    /// of other folders.
    pub fn save_replacing(
        &mut self,
        file: &Path,
        scope: &[PathBuf],
        rows: &[SessionInfo],
    ) -> io::Result<()> {
        self.entries
            .retain(|p, _| !super::files::in_scope(scope, Path::new(p)));
        self.save_with(file, rows)
    }

    /// The cache's rows and `rows` (not live, as [`Self::replace_root`]
    /// keeps them; of two rows of one path the one read back is the last,
    /// as the map keeps it).
    fn save_with(&self, file: &Path, rows: &[SessionInfo]) -> io::Result<()> {
        let dir = file.parent().unwrap_or(Path::new("."));
        crate::writes::private_dir(dir)?;
        // No fsync: a cache lost in a crash costs one slow listing.
        crate::writes::write_file(file, true, |w| {
            let prices = prices();
            w.write_all(MAGIC)?;
            w.write_all(&(prices.len() as u32).to_le_bytes())?;
            w.write_all(prices.as_bytes())?;
            let mut row = Vec::new();
            for info in self.entries.values() {
                row.clear();
                push_row(&mut row, info);
                w.write_all(&row)?;
            }
            for info in rows {
                row.clear();
                super::cache_rows::push_row_as(&mut row, info, false);
                w.write_all(&row)?;
            }
            Ok(())
        })?;
        // the cache this one replaced, if it is a plain file (never what a
        // link names)
        for old in OLD_FILE_NAMES.map(|n| dir.join(n)) {
            if old != file && std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_file()) {
                let _ = std::fs::remove_file(old);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_read(bytes: &[u8], threads: usize) -> Vec<SessionInfo> {
        let mut rows = Vec::new();
        read_rows(&mut &*bytes, threads, |r| rows.push(*r));
        rows
    }

    fn row(path: &str, title: &str) -> SessionInfo {
        SessionInfo {
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
            subagent_files: None,
            mtime_ns: 1,
            live: false,
            unreadable: false,
            figures: None,
            agent: None,
            spawned: Vec::new(),
        }
    }

    /// Rows read a part at a time come in their order, a row cut between
    /// parts whole, a damaged one left out: as reading the whole at once.
    #[test]
    fn rows_read_in_parts_are_the_rows_of_the_whole() {
        let mut bytes = Vec::new();
        let mut want = Vec::new();
        for i in 0..3000 {
            // long enough that rows are cut between parts
            let r = row(&format!("/t/{}.jsonl", i % 2500), &"x".repeat(i % 700));
            if i % 997 == 0 {
                // a row that does not read (a path and no more): no row
                bytes.extend_from_slice(&11u32.to_le_bytes());
                bytes.extend_from_slice(&7u32.to_le_bytes());
                bytes.extend_from_slice(b"/t/x.js");
            }
            push_row(&mut bytes, &r);
            want.push(r);
        }
        for threads in [1, 2, 3] {
            let rows = rows_read(&bytes, threads);
            let whole: Vec<SessionInfo> = parse_part(&bytes).into_iter().map(|b| *b).collect();
            assert_eq!(rows, whole, "{threads} threads");
            assert_eq!(rows, want, "{threads} threads");
        }
    }

    /// A length past the longest row ends the rows there (what follows
    /// cannot be told apart), in one pass, holding nothing of it; a last
    /// row cut short is no row.
    #[test]
    fn a_length_past_any_row_ends_the_rows() {
        let mut bytes = Vec::new();
        push_row(&mut bytes, &row("/t/a.jsonl", "before"));
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        push_row(&mut bytes, &row("/t/b.jsonl", "after"));
        let titles: Vec<String> = rows_read(&bytes, 2).into_iter().map(|r| r.title).collect();
        assert_eq!(titles, ["before"]);
        let mut cut = Vec::new();
        push_row(&mut cut, &row("/t/a.jsonl", "whole"));
        push_row(&mut cut, &row("/t/b.jsonl", "cut"));
        cut.pop();
        let titles: Vec<String> = rows_read(&cut, 1).into_iter().map(|r| r.title).collect();
        assert_eq!(titles, ["whole"]);
    }

    /// Each row is seen once, whatever the parts cut, rows of up to the
    /// longest held among them.
    #[test]
    fn each_row_sees_every_row_once() {
        let mut bytes = Vec::new();
        let mut want = Vec::new();
        for i in 0..5000usize {
            let r = if i == 2000 {
                vec![7u8; MAX_ROW]
            } else {
                format!("{i}:{}", "z".repeat(i % 1500)).into_bytes()
            };
            bytes.extend_from_slice(&(r.len() as u32).to_le_bytes());
            bytes.extend_from_slice(&r);
            want.push(r);
        }
        let mut seen = Vec::new();
        each_row(&mut &*bytes, |r| seen.push(r.to_vec()));
        assert!(seen == want, "{} rows of {}", seen.len(), want.len());
    }

    /// A cache written is read back; with another price table its rows
    /// keep no figures; a file of another kind or version is no cache.
    #[test]
    fn a_cache_reads_back_and_knows_its_prices() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("ccv").join(FILE_NAME);
        let mut r = row("/t/a.jsonl", "a");
        r.figures = Some(Box::default());
        let mut cache = Cache::default();
        cache.replace_root(&[PathBuf::from("/t")], std::iter::once(&r));
        cache.save(&file).expect("save");
        let back = Cache::load(&file);
        assert_eq!(back.get(&r.path, 1, 1), Some(&r));
        let bytes = std::fs::read(&file).expect("read");
        let mut other = bytes.clone();
        // the price table's text, changed
        other[MAGIC.len() + 4] ^= 1;
        std::fs::write(&file, &other).expect("write");
        let back = Cache::load(&file);
        assert_eq!(
            back.get(&r.path, 1, 1).map(|r| r.figures.is_none()),
            Some(true)
        );
        let mut older = bytes.clone();
        older[MAGIC.len() - 2] = b'2';
        std::fs::write(&file, &older).expect("write");
        assert!(Cache::load(&file).is_empty());
        std::fs::write(&file, b"{\"ccv_session_cache\":3}\n").expect("write");
        assert!(Cache::load(&file).is_empty());
        // only the rows asked for
        std::fs::write(&file, &bytes).expect("write");
        assert_eq!(
            Cache::load_only(&file, std::slice::from_ref(&r.path)).len(),
            1
        );
        assert!(Cache::load_only(&file, &[PathBuf::from("/t/b.jsonl")]).is_empty());
    }

    /// Saved with the rows of a folder in place of its old ones, a cache
    /// reads back as the one whose rows were copied in first: rows of
    /// other folders kept, the folder's old rows gone, none live, of two
    /// rows of one path the last.
    #[test]
    fn rows_saved_in_place_read_back_as_rows_copied_in() {
        let dir = tempfile::tempdir().expect("tempdir");
        let scope = [PathBuf::from("/t")];
        let mut start = Cache::default();
        start.replace_root(
            &[PathBuf::from("/")],
            [row("/t/gone.jsonl", "gone"), row("/u/kept.jsonl", "kept")].iter(),
        );
        let mut live = row("/t/a.jsonl", "a");
        live.live = true;
        live.figures = Some(Box::default());
        let rows = [
            live,
            row("/t/b.jsonl", "first"),
            row("/t/b.jsonl", "second"),
        ];
        let (copied, in_place) = (dir.path().join("copied"), dir.path().join("in-place"));
        let mut a = Cache::load(&copied);
        a.entries = start.entries.clone();
        a.replace_root(&scope, rows.iter());
        a.save(&copied).expect("save");
        let mut b = Cache {
            entries: start.entries.clone(),
        };
        b.save_replacing(&in_place, &scope, &rows).expect("save");
        let sorted = |c: Cache| {
            let mut v: Vec<SessionInfo> = c.entries.into_values().map(|b| *b).collect();
            v.sort_by(|x, y| x.path.cmp(&y.path));
            v
        };
        let (a, b) = (sorted(Cache::load(&copied)), sorted(Cache::load(&in_place)));
        assert_eq!(a, b);
        let titles: Vec<&str> = b.iter().map(|r| r.title.as_str()).collect();
        assert_eq!(titles, ["a", "second", "kept"]);
        assert!(b.iter().all(|r| !r.live));
    }

    /// Writing this cache takes away the one of the ccv before (a plain
    /// file of ccv's own), never what a link of that name names.
    #[cfg(unix)]
    #[test]
    fn the_older_cache_goes_when_this_one_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join(FILE_NAME);
        for name in OLD_FILE_NAMES {
            std::fs::write(dir.path().join(name), "{}").expect("write");
        }
        Cache::default().save(&file).expect("save");
        assert!(file.exists());
        for name in OLD_FILE_NAMES {
            assert!(!dir.path().join(name).exists(), "{name}");
        }
        let old = dir.path().join(OLD_FILE_NAMES[1]);
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").expect("write");
        std::os::unix::fs::symlink(&victim, &old).expect("symlink");
        Cache::default().save(&file).expect("save");
        assert!(std::fs::symlink_metadata(&old).is_ok());
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
    }
}
