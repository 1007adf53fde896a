//! What several test files share.

use std::path::PathBuf;

/// The real session files of `../shared/corpus`, sorted; `None` (after
/// saying so) when `../shared` is not beside the repo.
pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!(
            "skipping: {} is absent (the corpus lives beside the repo)",
            dir.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Some(files)
}
