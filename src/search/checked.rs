//! Which of the index's files were found whole: each segment file's
//! checksum (tantivy writes one in its footer, and reads it only when
//! asked) was checked once, and the file is known by what changes with
//! any write to it (size, times, inode). A search opens the index only
//! when every file it would read is so known, or checks whole now; a file
//! changed since (a disk's damage, a hand that wrote in the cache) is no
//! index, and the files answer while it is built again. tantivy believes
//! its files: a damaged length in a store's index asked for 4 PB and the
//! process was aborted (no panic to contain), and a damaged fast field
//! gave a file's lines another's place.
//!
//! `meta.json`, which has no checksum, is known the same way, by what it
//! was when ccv last committed: one written since by another hand is no
//! index either.

use crate::packed::{self, Bytes};
use std::io;
use std::path::{Path, PathBuf};
use tantivy::Index;

/// The record, beside the index's files.
pub(super) const CHECKED: &str = "checked.bin";
const MAGIC: &[u8] = b"ccv index checked 1\n";
/// A record past this size was not written by ccv.
const MAX_FILE: u64 = 16 << 20;
/// tantivy's list of segments and settings.
const META: &str = "meta.json";

/// What changes when a file is written: its size, its times (`ctime`
/// cannot be set back by hand) and which file it is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Known {
    name: Vec<u8>,
    size: u64,
    mtime_ns: i64,
    ctime_ns: i64,
    inode: u64,
}

fn known(dir: &Path, name: &Path) -> Option<Known> {
    let m = std::fs::symlink_metadata(dir.join(name)).ok()?;
    if !m.is_file() {
        return None;
    }
    #[cfg(unix)]
    let (mtime_ns, ctime_ns, inode) = {
        use std::os::unix::fs::MetadataExt;
        (
            // (a time set past 2262 is still a time, not an overflow)
            m.mtime()
                .saturating_mul(1_000_000_000)
                .saturating_add(m.mtime_nsec()),
            m.ctime()
                .saturating_mul(1_000_000_000)
                .saturating_add(m.ctime_nsec()),
            m.ino(),
        )
    };
    #[cfg(not(unix))]
    let (mtime_ns, ctime_ns, inode) = (
        m.modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i64),
        0,
        0,
    );
    Some(Known {
        name: name.as_os_str().as_encoded_bytes().to_vec(),
        size: m.len(),
        mtime_ns,
        ctime_ns,
        inode,
    })
}

/// The files a search of `index` reads: `meta.json`, then every file of
/// its segments (`<segment id>.<part>`; a segment has no file of the
/// parts it lacks, such as deletes).
fn files(dir: &Path, index: &Index) -> io::Result<Vec<PathBuf>> {
    let metas = index
        .searchable_segment_metas()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut out = vec![PathBuf::from(META)];
    for m in &metas {
        let id = m.id().uuid_string();
        out.extend(
            names
                .iter()
                .filter(|n| n.strip_prefix(&id).is_some_and(|r| r.starts_with('.')))
                .map(PathBuf::from),
        );
    }
    Ok(out)
}

/// Whether every file a search of `index` (in `dir`) reads is whole:
/// known from the record, or its checksum checked now. `meta.json` must
/// be as recorded. (A search writes nothing: the next update records
/// what was checked here.)
pub(super) fn whole(dir: &Path, index: &Index) -> bool {
    let record = read(dir).unwrap_or_default();
    let Ok(names) = files(dir, index) else {
        return false;
    };
    names.iter().all(|name| {
        known(dir, name).is_some_and(|k| {
            record.contains(&k)
                || (name.as_os_str() != META
                    && index.directory().validate_checksum(name).unwrap_or(false))
        })
    })
}

/// Checks every file of `index` that the record does not know, and
/// writes the record of them all, `meta.json` as it is now: after a
/// commit of ccv's, or on an index ccv opened for an update (found whole,
/// or made new). A file whose checksum fails is left out (the next search
/// finds the index damaged).
pub(super) fn record(dir: &Path, index: &Index) -> io::Result<()> {
    let record = read(dir).unwrap_or_default();
    let mut now = Vec::new();
    for name in files(dir, index)? {
        let Some(k) = known(dir, &name) else {
            continue;
        };
        let sound = record.contains(&k)
            || name.as_os_str() == META
            || index.directory().validate_checksum(&name).unwrap_or(false);
        if sound {
            now.push(k);
        }
    }
    if now == record {
        return Ok(());
    }
    write(dir, &now)
}

fn write(dir: &Path, files: &[Known]) -> io::Result<()> {
    let mut out = Vec::with_capacity(64 + files.len() * 64);
    out.extend_from_slice(MAGIC);
    let body = out.len();
    packed::count(&mut out, files.len());
    for k in files {
        packed::bytes(&mut out, &k.name);
        packed::u64(&mut out, k.size);
        packed::i64(&mut out, k.mtime_ns);
        packed::i64(&mut out, k.ctime_ns);
        packed::u64(&mut out, k.inode);
    }
    let sum = packed::check(&out[body..]);
    packed::u64(&mut out, sum);
    crate::writes::write_file(&dir.join(CHECKED), true, |w| io::Write::write_all(w, &out)).map(drop)
}

/// The record in `dir`, when it reads whole and its check holds.
fn read(dir: &Path) -> Option<Vec<Known>> {
    let bytes = packed::read_file(&dir.join(CHECKED), MAX_FILE)?;
    let body = bytes.strip_prefix(MAGIC)?;
    let (body, sum) = body.split_last_chunk::<8>()?;
    if packed::check(body) != u64::from_le_bytes(*sum) {
        return None;
    }
    let mut r = Bytes(body);
    // a name, four numbers: at least 36 bytes a file
    let n = r.count(36)?;
    let mut files = Vec::with_capacity(n);
    for _ in 0..n {
        files.push(Known {
            name: r.bytes()?.to_vec(),
            size: r.u64()?,
            mtime_ns: r.i64()?,
            ctime_ns: r.i64()?,
            inode: r.u64()?,
        });
    }
    r.is_empty().then_some(files)
}
