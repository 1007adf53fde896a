//! The picker's full-text queries on a heavy history (default
//! `/tmp/ccv-bench/tree10k`: `gen-session --tree DIR --projects 200
//! --sessions 10000 --seed 1`, or `CCV_TREE`), indexed, one after another
//! in one process as the picker asks them: with the files and the opened
//! index kept between queries while nothing moved (what the picker does,
//! see `search::kept`) against the tree walked and the index opened for
//! every query (what each `ccv search` does), alternated in one run,
//! medians of 15; both answers are held equal. The index is
//! `CCV_INDEX_DIR` when set (the one `ccv index` made for the tree), else
//! one built here in a temporary folder (half a minute at 10,000
//! sessions). Skipped when the tree is absent.
//!
//! Usage: cargo bench --bench picker_queries

use ccv::model::query::Query;
use ccv::search::kept::Kept;
use ccv::search::{self, Filter, Options};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let tree = PathBuf::from(
        std::env::var_os("CCV_TREE").unwrap_or_else(|| "/tmp/ccv-bench/tree10k".into()),
    );
    if !tree.is_dir() {
        println!("SKIP: {} absent (see the usage above)", tree.display());
        return;
    }
    let made;
    let index = match std::env::var_os("CCV_INDEX_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            made = tempfile::tempdir().expect("a temporary folder");
            let dir = made.path().join("index");
            let t = Instant::now();
            search::update_index(&tree, &dir, ccv::catalog::threads()).expect("an index");
            println!("index built in {:.1} s", t.elapsed().as_secs_f64());
            dir
        }
    };
    let opts = Options {
        index: Some(index),
        ..Options::standard()
    };
    let t = Instant::now();
    let kept = Arc::new(Kept::start(&tree));
    let ready = kept.ready_within(std::time::Duration::from_secs(60), || true);
    println!(
        "every folder watched in {:.0} ms ({})",
        t.elapsed().as_secs_f64() * 1000.0,
        if ready { "ready" } else { "no watcher" }
    );
    let watched = Options {
        kept: Some(kept),
        ..opts.clone()
    };
    let filter = Filter::default();
    let only_kept = std::env::var_os("CCV_KEPT_ONLY").is_some();
    for word in ["zebra", "error", "deploy it"] {
        let query = Query::words(word, false).expect("a query");
        let mut kept = Vec::new();
        let mut walked = Vec::new();
        let mut hits = 0;
        for _ in 0..15 {
            let mut answers: Vec<Vec<search::Hit>> = Vec::new();
            for (o, times) in [(&watched, &mut kept), (&opts, &mut walked)] {
                // `CCV_KEPT_ONLY`: the picker's way alone (to profile it)
                if only_kept && o.kept.is_none() {
                    times.push(f64::NAN);
                    answers.push(answers[0].clone());
                    continue;
                }
                let t = Instant::now();
                let found = search::search(&tree, &query, &filter, o).expect("a search");
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                answers.push(found.hits);
            }
            assert_eq!(answers[0], answers[1], "the same hits both ways");
            hits = answers[0].len();
        }
        let (k, w) = (median(&mut kept), median(&mut walked));
        println!(
            "{word:<10} files kept {k:6.1} ms | walked each query {w:6.1} ms | {:.2}x ({} hits)",
            k / w,
            hits
        );
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
