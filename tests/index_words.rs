//! The index splits every entry of every real file into the words
//! tantivy's own analyzer finds (`SimpleTokenizer`, `RemoveLongFilter`,
//! `LowerCaser`): an index built before ccv had its own split, and every
//! query, look the words up the same way.

use crate::common;
use ccv::search::words::{MAX_WORD, Words};
use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};

fn words(a: &mut TextAnalyzer, text: &str) -> Vec<(String, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut s = a.token_stream(text);
    while s.advance() {
        let t = s.token();
        out.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
    }
    out
}

#[test]
fn every_entry_of_the_corpus_splits_as_tantivy_splits_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut theirs = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_WORD))
        .filter(LowerCaser)
        .build();
    let mut ours = TextAnalyzer::from(Words::default());
    let (mut entries, mut bytes) = (0, 0);
    for f in files {
        let text = std::fs::read(&f).expect("read");
        for e in ccv::search::extract::entries(&text, 1, None) {
            assert_eq!(
                words(&mut ours, &e.text),
                words(&mut theirs, &e.text),
                "{}:{}",
                f.display(),
                e.line
            );
            entries += 1;
            bytes += e.text.len();
        }
    }
    assert!(entries > 10_000, "{entries} entries, {bytes} bytes");
}
