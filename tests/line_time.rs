//! The time a search reads off a line without decoding it is never older
//! than an entry the model makes of that line: on every line of every
//! real file (Claude Code's and Codex's), fixtures and generated damaged
//! files. A search passes over lines by that time, so an entry newer than
//! it could be missed. Nor does a line a search passes over as making no
//! entry (a command's progress) make one.

use crate::common;
use std::path::Path;

fn holds_on(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("read");
    let mut dated = 0;
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if ccv::source::makes_no_entry(line) {
            let made = ccv::search::extract::entries(line, n as u32 + 1, None);
            assert!(made.is_empty(), "{}:{}: {made:?}", path.display(), n + 1);
            dated += 1;
            continue;
        }
        let Some(own) = ccv::source::own_time(line) else {
            continue;
        };
        dated += 1;
        for e in ccv::search::extract::entries(line, n as u32 + 1, None) {
            assert!(
                e.timestamp <= own,
                "{}:{}: an entry at {:?} after the line's {:?}",
                path.display(),
                n + 1,
                e.timestamp,
                own
            );
        }
    }
    dated
}

#[test]
fn no_entry_is_newer_than_its_lines_own_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    assert!(holds_on(&f) > 0);
    if let Some((_dir, file, _)) = common::generated(&["--size", "1M", "--seed", "4", "--corrupt"])
    {
        assert!(holds_on(&file) > 0);
    }
    let Some(files) = common::corpus_files() else {
        return;
    };
    let dated: usize = files.iter().map(|f| holds_on(f)).sum();
    assert!(dated > 1000, "{dated} lines dated");
    let codex = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus-codex"
    ));
    for e in std::fs::read_dir(codex).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "jsonl") {
            holds_on(&e.path());
        }
    }
}

/// What a search takes for unshown (a tool result's structured copy) is
/// shown by no entry: with it replaced by `null`, a line makes the same
/// entries, with the same texts. Returns how many lines had one.
fn unshown_holds_on(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("read");
    let mut lines = 0;
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let Some(span) = ccv::source::unshown_span(line) else {
            continue;
        };
        lines += 1;
        let mut without = line[..span.start].to_vec();
        without.extend_from_slice(b"null");
        without.extend_from_slice(&line[span.end..]);
        let made = |l: &[u8]| ccv::search::extract::entries(l, n as u32 + 1, None);
        assert_eq!(
            made(line),
            made(&without),
            "{}:{}: an entry shows what the search passes over",
            path.display(),
            n + 1
        );
    }
    lines
}

/// `check` on the fixtures, on a generated `--corrupt` session (where it
/// must find something) and on every corpus file: the corpus's sum,
/// `None` without the corpus.
fn on_every_sample(seed: &str, check: impl Fn(&Path) -> usize) -> Option<usize> {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    check(&f);
    if let Some((_dir, file, _)) = common::generated(&["--size", "2M", "--seed", seed, "--corrupt"])
    {
        assert!(check(&file) > 0);
    }
    Some(common::corpus_files()?.iter().map(|f| check(f)).sum())
}

#[test]
fn what_a_search_passes_over_as_unshown_no_entry_shows() {
    if let Some(lines) = on_every_sample("5", unshown_holds_on) {
        assert!(lines > 1000, "{lines} lines with a structured copy");
    }
}

/// A whole file read as an index build reads it (its calls and results
/// paired, its agents linked) makes the same entries with every
/// structured copy replaced by `null`. Returns how many bytes went.
fn shown_piece_holds_on(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("read");
    let shown = ccv::search::extract::shown_piece(&bytes);
    let made = |b: &[u8]| ccv::search::extract::entries(b, 1, None);
    assert_eq!(
        made(&bytes),
        made(&shown),
        "{}: an entry shows what an index build passes over",
        path.display()
    );
    bytes.len() - shown.len()
}

#[test]
fn what_an_index_build_passes_over_no_entry_shows() {
    if let Some(gone) = on_every_sample("6", shown_piece_holds_on) {
        assert!(gone > 1_000_000, "{gone} bytes of structured copies");
    }
}
