//! Project mode: noticing that a newer session started in the directory
//! (the user ran /clear, or started or resumed another session).

use super::is_session_file;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub(super) struct Project {
    dir: PathBuf,
    /// The sessions there at start, with their mtimes: a session counts as
    /// new when it is not in this listing or its mtime moved. (Comparing
    /// with the clock instead fails: file times are coarse.)
    baseline: HashMap<PathBuf, SystemTime>,
    /// Reported already (each once).
    seen: HashSet<PathBuf>,
}

impl Project {
    pub(super) fn new(session: &Path) -> Self {
        let dir = match session.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut p = Project {
            dir,
            baseline: HashMap::new(),
            seen: HashSet::new(),
        };
        p.baseline = p.listing().into_iter().collect();
        p
    }

    /// Session files of the directory with their mtimes.
    pub(super) fn listing(&self) -> Vec<(PathBuf, SystemTime)> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        rd.flatten()
            .filter_map(|e| {
                let p = e.path();
                if !is_session_file(&p) {
                    return None;
                }
                let m = e.metadata().ok().filter(|m| m.is_file())?.modified().ok()?;
                Some((p, m))
            })
            .collect()
    }

    /// Of `candidates`, the sessions written since the start, not older
    /// than the followed one and not reported yet, oldest first.
    pub(super) fn newer(
        &mut self,
        ours: &Path,
        candidates: Vec<(PathBuf, SystemTime)>,
    ) -> Vec<PathBuf> {
        let ours_m = std::fs::metadata(ours)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        let mut newer: Vec<(SystemTime, PathBuf)> = candidates
            .into_iter()
            .filter(|(p, m)| {
                p != ours
                    && !self.seen.contains(p)
                    && *m >= ours_m
                    && self.baseline.get(p) != Some(m)
            })
            .map(|(p, m)| (m, p))
            .collect();
        newer.sort();
        newer
            .into_iter()
            .map(|(_, p)| {
                self.seen.insert(p.clone());
                p
            })
            .collect()
    }
}
