//! What the load benchmarks share: their generated sessions, and the
//! baseline they compare with, a typed serde_json parse of every line on
//! one thread (the envelope's fields and `message` as a RawValue), the least
//! any reader of sessions does.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Every directory ccv may use, under `home` (the tests' own sandbox):
/// benchmarks never read the real ~/.claude, config or cache.
#[path = "../../tests/common/mod.rs"]
mod common;
pub use common::sandbox;

/// `path`, made by `../shared/bench/gen-session --size SIZE --seed SEED`
/// unless it exists; `None` (said on stderr) without the generator.
pub fn generated(path: &Path, size: &str, seed: &str) -> Option<PathBuf> {
    if path.exists() {
        return Some(path.to_owned());
    }
    let dir = path.parent()?;
    let Some(mut generator) = common::gen_session(dir) else {
        eprintln!("skipping {size}: no {}", path.display());
        return None;
    };
    std::fs::create_dir_all(dir).ok()?;
    let ok = generator
        .args(["--size", size, "--seed", seed, "-q", "-o"])
        .arg(path)
        .status()
        .ok()?
        .success();
    ok.then(|| path.to_owned())
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a> {
    #[serde(rename = "type")]
    kind: Option<&'a str>,
    uuid: Option<&'a str>,
    parent_uuid: Option<&'a str>,
    session_id: Option<&'a str>,
    timestamp: Option<&'a str>,
    is_sidechain: Option<bool>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
}

/// The time to read and parse `path`, and how many lines parsed.
pub fn typed_parse(path: &Path) -> (Duration, usize) {
    let t = Instant::now();
    let data = std::fs::read(path).expect("read bench file");
    let n = data
        .split(|&b| b == b'\n')
        .filter(|l| serde_json::from_slice::<Envelope<'_>>(l).is_ok())
        .count();
    (t.elapsed(), n)
}
