//! The floors of a search index's build over a tree's sessions, without
//! the index: what the build's reading threads do before the writer
//! records a word, each file read whole and its lines walked as
//! `ccv index` walks them (`ccv::source::shown_texts`), on N threads.
//!
//! - `texts`: every text a row may show, found in its line (the build's
//!   reading and decoding);
//! - `words`: and each text's words found, lowercased and listed once per
//!   span of 128 KB (`ccv::search::words`: what the writer is handed).
//!
//! `benches/search_tree.sh` prints them beside the build and a cold
//! listing: a build within 1.5× the listing would have to record every
//! word in less than what is left, if anything is.
//!
//! `cargo run --release --example index_floor -- texts|words THREADS DIR`;
//! prints the lines walked, the lines left to the model (other shapes)
//! and the words listed.

// the allocator ccv's binary runs on
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use ccv::search::words::{Seen, list_more_json_words, list_more_words, start_list};
use ccv::source::{ShownText, shown_texts};

#[path = "support/tree.rs"]
mod tree;

/// The lines walked and left, and the words listed, of one file.
fn walk(bytes: &[u8], words: bool) -> (usize, usize, usize) {
    const SPAN: usize = ccv::search::index::SPAN;
    let (mut walked, mut left, mut listed) = (0, 0, 0);
    let (mut scratch, mut list, mut seen) = (String::new(), String::new(), Seen::default());
    let mut span_start = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
        let Some(line) = bytes.get(start..end) else {
            break;
        };
        if start - span_start >= SPAN || start == 0 {
            listed += list.split(' ').filter(|w| !w.is_empty()).count();
            start_list(&mut list, &mut seen);
            span_start = start;
        }
        start = end + 1;
        if line.is_empty() {
            continue;
        }
        let each = &mut |t: ShownText<'_>| match (words, t) {
            (false, ShownText::Plain(t) | ShownText::Escaped(t)) => {
                std::hint::black_box(t.len());
            }
            (true, ShownText::Plain(t)) => list_more_words(t, &mut list, &mut seen),
            (true, ShownText::Escaped(t)) => list_more_json_words(t, &mut list, &mut seen),
        };
        match shown_texts(line, &mut scratch, each) {
            Some(_) => walked += 1,
            None => left += 1,
        }
    }
    listed += list.split(' ').filter(|w| !w.is_empty()).count();
    (walked, left, listed)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "index_floor texts|words THREADS DIR";
    let words = match args.next().as_deref() {
        Some("texts") => false,
        Some("words") => true,
        _ => {
            eprintln!("usage: {usage}");
            std::process::exit(2);
        }
    };
    let (threads, dir) = tree::threads_and_dir(args, usage);
    let files = tree::sessions(&dir);
    let [a, b, c] = tree::on_threads(&files, threads, |bytes| {
        let (a, b, c) = walk(bytes, words);
        [a, b, c]
    });
    println!("{a} lines walked, {b} left to the model, {c} words listed");
}
