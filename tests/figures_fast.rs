//! A session read for its figures only (the lines that cannot change them
//! passed over undecoded) gives the figures of a whole load, on every real
//! file there is and on generated and damaged ones.

use crate::common;
use ccv::model::figures::Figures;
use std::path::Path;

fn same_figures(path: &Path) {
    let whole = ccv::source::load_with_subagents(path).expect("load");
    let fast = ccv::source::load_for_figures(path).expect("load for figures");
    let (a, b) = (Figures::of(&whole, 0), Figures::of(&fast, 0));
    assert_eq!(a, b, "{}", path.display());
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_every_corpus_file() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in &files {
        same_figures(f);
    }
    let codex = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus-codex"
    ));
    for e in std::fs::read_dir(codex).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "jsonl") {
            same_figures(&e.path());
        }
    }
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_fixtures_and_generated_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    same_figures(&f);
    for args in [
        &["--size", "3M", "--seed", "7"][..],
        &["--size", "2M", "--seed", "3", "--corrupt"][..],
        &[
            "--size",
            "2M",
            "--seed",
            "5",
            "--subagent-files",
            "--cc-version",
            "2.1.42",
        ][..],
        &["--size", "1M", "--seed", "9", "--cc-version", "2.0.14"][..],
    ] {
        let Some((_dir, file, _)) = common::generated(args) else {
            return;
        };
        same_figures(&file);
    }
}

#[test]
fn a_warm_listing_says_what_the_cold_one_said() {
    // costs read back from the cache are the costs computed (a float that
    // did not read back exactly once moved a cost by a millionth)
    let Some(files) = common::corpus_files() else {
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    for (i, f) in files.iter().enumerate() {
        let dir = root.join(format!("-p{}", i % 7));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::copy(f, dir.join(f.file_name().expect("name"))).expect("copy");
    }
    let list = || {
        let out = common::ccv_at(home.path())
            .args(["list", "--json"])
            .output()
            .expect("list");
        assert!(out.status.success());
        out.stdout
    };
    let cold = list();
    let warm = list();
    assert!(!cold.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&cold),
        String::from_utf8_lossy(&warm)
    );
}
