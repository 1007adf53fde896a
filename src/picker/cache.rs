//! The listing cache: one JSON line per session file, keyed by path, size
//! and mtime. A file whose size or mtime changed is read again. Written
//! atomically (temp file + rename) so a crash never leaves half a cache,
//! and a cache that cannot be read is simply ignored.

use super::scan::SessionInfo;
use std::collections::HashMap;
use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Bumped whenever `SessionInfo` or the scan rules change.
const VERSION: &str = "{\"ccv_session_cache\":1";

/// The first line: the version, and the price table the cached costs were
/// computed with (another table, from a changed config, drops the costs).
fn header() -> String {
    format!(
        "{VERSION},\"prices\":\"{}\"}}",
        crate::model::price::PriceTable::active().fingerprint()
    )
}
const FILE_NAME: &str = "sessions-v3.jsonl";

/// `$XDG_CACHE_HOME/ccv/sessions-v3.jsonl`, else the platform cache dir.
pub fn default_cache_file() -> Option<PathBuf> {
    Some(crate::paths::cache_dir()?.join(FILE_NAME))
}

#[derive(Debug, Default)]
pub struct Cache {
    entries: HashMap<PathBuf, SessionInfo>,
}

impl Cache {
    /// Loads `file`; missing, foreign or damaged caches load as empty
    /// (damaged lines are skipped).
    pub fn load(file: &Path) -> Cache {
        let mut entries = HashMap::new();
        let Ok(f) = fs::File::open(file) else {
            return Cache { entries };
        };
        let mut lines = io::BufReader::with_capacity(1 << 16, f).lines();
        let keep_figures = match lines.next() {
            Some(Ok(h)) if h == header() => true,
            Some(Ok(h)) if h.starts_with(VERSION) && h.contains(",\"prices\":") => false,
            _ => return Cache { entries },
        };
        for line in lines {
            let Ok(line) = line else { break };
            if let Ok(mut info) = serde_json::from_str::<SessionInfo>(&line) {
                if !keep_figures {
                    info.figures = None;
                }
                entries.insert(info.path.clone(), info);
            }
        }
        Cache { entries }
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

    /// Whether the cache holds rows under `root` other than `current`
    /// (files deleted since), which are worth dropping.
    pub fn stale_under(&self, root: &Path, current: &[SessionInfo]) -> bool {
        self.entries.keys().filter(|p| p.starts_with(root)).count() != current.len()
    }

    /// Replaces every row under `root` by `rows`; rows of other roots stay.
    pub fn replace_root<'a>(&mut self, root: &Path, rows: impl Iterator<Item = &'a SessionInfo>) {
        self.entries.retain(|p, _| !p.starts_with(root));
        for r in rows {
            let mut r = r.clone();
            r.live = false;
            self.entries.insert(r.path.clone(), r);
        }
    }

    pub fn save(&self, file: &Path) -> io::Result<()> {
        let dir = file.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{FILE_NAME}.{}.tmp", std::process::id()));
        let result = (|| {
            let mut w = io::BufWriter::with_capacity(1 << 16, fs::File::create(&tmp)?);
            writeln!(w, "{}", header())?;
            for info in self.entries.values() {
                serde_json::to_writer(&mut w, info)?;
                w.write_all(b"\n")?;
            }
            // No fsync: a cache lost in a crash costs one slow listing.
            w.flush()
        })();
        match result {
            Ok(()) => fs::rename(&tmp, file),
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}
