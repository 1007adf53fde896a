//! The index splits every entry of every real file into the words
//! tantivy's own analyzer finds (`SimpleTokenizer`, `LowerCaser`, then the
//! few letters a search ignoring case folds, a long word cut): an
//! index built before ccv had its own split, and every query, look the
//! words up the same way.

use crate::common;
use ccv::search::words::{MAX_WORD, Words, fold_char, long_head};
use tantivy::tokenizer::{LowerCaser, SimpleTokenizer, TextAnalyzer};

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
        .filter(LowerCaser)
        .build();
    // tantivy lowercases; ours then folds the few letters a search that
    // ignores case takes for others (see `words::fold_char`), and lists a
    // long word by its head
    let fold = |words: Vec<(String, usize, usize, usize)>| {
        words
            .into_iter()
            .map(|(w, from, to, at)| {
                let w: String = w.chars().map(fold_char).collect();
                let w = if to - from >= MAX_WORD {
                    long_head(&w).to_owned()
                } else {
                    w
                };
                (w, from, to, at)
            })
            .collect::<Vec<(String, usize, usize, usize)>>()
    };
    let mut ours = TextAnalyzer::from(Words::default());
    let (mut entries, mut bytes) = (0, 0);
    for f in files {
        let text = std::fs::read(&f).expect("read");
        for e in ccv::search::extract::entries(&text, 1, None) {
            assert_eq!(
                words(&mut ours, &e.text),
                fold(words(&mut theirs, &e.text)),
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

/// What the index lists of a line it does not decode: every word an
/// entry the model makes of the line read alone (as a query decodes it)
/// shows, every kind of entry, a time no entry is newer than. `None`:
/// the index decodes the line. The count of lines read off their bytes.
fn read_off_bytes_holds_on(path: &std::path::Path) -> (usize, usize) {
    use ccv::search::words::{Seen, list_more_json_words, list_more_words, start_list};
    let bytes = std::fs::read(path).expect("read");
    let (mut read, mut decoded) = (0, 0);
    let (mut list, mut seen, mut scratch) = (String::new(), Seen::default(), String::new());
    for (n, line) in (1..).zip(bytes.split(|&b| b == b'\n')) {
        start_list(&mut list, &mut seen);
        let each = &mut |t: ccv::source::ShownText<'_>| match t {
            ccv::source::ShownText::Plain(t) => list_more_words(t, &mut list, &mut seen),
            ccv::source::ShownText::Escaped(t) => list_more_json_words(t, &mut list, &mut seen),
        };
        let Some(shape) = ccv::source::shown_texts(line, &mut scratch, each) else {
            decoded += 1;
            continue;
        };
        read += 1;
        let listed: std::collections::HashSet<&str> = list.split(' ').collect();
        let shown = ccv::search::extract::Unshown::new(line)
            .shown()
            .into_owned();
        for e in ccv::search::extract::entries(&shown, n, None) {
            let mut words = String::new();
            // (a character a row shows as `<U+2028>` adds words the line's
            // bytes do not hold, which a first search does not find
            // either: not looked for, unless the line writes such a mark)
            let text = if line.windows(3).any(|w| w == b"<U+") {
                e.text.clone()
            } else {
                without_marks(&e.text)
            };
            ccv::search::words::list_words(&text, &mut words, &mut Seen::default());
            let missing: Vec<&str> = words
                .split(' ')
                .filter(|w| !w.is_empty() && !listed.contains(w))
                .collect();
            assert!(
                missing.is_empty(),
                "{}:{n}: {:?} shows {missing:?}",
                path.display(),
                e.kind
            );
            assert!(
                shape.kinds().any(|k| k == e.kind),
                "{}:{n}: {:?}",
                path.display(),
                e.kind
            );
            assert!(e.timestamp <= shape.time, "{}:{n}", path.display());
        }
    }
    (read, decoded)
}

/// `text` without the marks sanitizing writes for characters it will not
/// print (`<U+202E>`).
fn without_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<U+") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex >= 4 && after.as_bytes().get(hex) == Some(&b'>') {
            out.push(' ');
            rest = &after[hex + 1..];
        } else {
            out.push_str("<U+");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn every_word_a_line_shows_is_read_off_its_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    assert!(read_off_bytes_holds_on(&f).0 > 0);
    if let Some((_dir, file, _)) = common::generated(&["--size", "2M", "--seed", "4", "--corrupt"])
    {
        assert!(read_off_bytes_holds_on(&file).0 > 0);
    }
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut read, mut decoded) = (0, 0);
    for f in &files {
        let (r, d) = read_off_bytes_holds_on(f);
        (read, decoded) = (read + r, decoded + d);
    }
    eprintln!("corpus lines read off their bytes: {read}, decoded: {decoded}");
    assert!(read > decoded, "{read} read, {decoded} decoded");
}

/// Lines whose texts hold what sanitizing rewrites (escape sequences
/// written as `\u001b` or as a C1 character, backspaces, form feeds,
/// carriage returns, other controls, bidi characters) in every place a
/// row shows a text: what the index reads off their bytes holds every
/// word their entries show, and most of them are read off.
#[test]
fn texts_sanitizing_rewrites_are_read_off_as_shown() {
    let parts = [
        "word",
        "Error",
        "31m",
        "x",
        " ",
        "\\n",
        "\\r",
        "\\t",
        "\\\\",
        "\\\"",
        "\\u001b[",
        "\\u001b[31m",
        "\\u001b[0m",
        "\\u001b]0;title\\u0007",
        "\\u001b",
        "\\u009b",
        "\u{9b}",
        "\u{9b}1m",
        "\\b",
        "\\f",
        "\\u0007",
        "\\u0000",
        "\\u202e",
        "\\u00e9t\\u00e9",
        "é",
        "→",
        "[",
        "m",
        "K",
        ";",
        "1",
    ];
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let text = |rng: &mut common::Rng| {
        let mut t = String::new();
        for _ in 0..rng.below(14) {
            t.push_str(parts[rng.below(parts.len())]);
        }
        t
    };
    let mut file = String::new();
    for n in 0..3000 {
        let (a, b) = (text(&mut rng), text(&mut rng));
        let line = match n % 6 {
            0 => format!(r#"{{"type":"user","message":{{"role":"user","content":"{a}"}}}}"#),
            1 => format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{n}","content":"{a}","is_error":{}}}]}}}}"#,
                n % 4 == 1
            ),
            2 => format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{n}","content":[{{"type":"text","text":"{a}"}},{{"type":"text","text":"{b}"}}]}}]}}}}"#
            ),
            3 => format!(
                r#"{{"type":"assistant","message":{{"id":"m{n}","role":"assistant","content":[{{"type":"text","text":"{a}"}},{{"type":"thinking","thinking":"{b}","signature":"s"}}]}}}}"#
            ),
            4 => format!(
                r#"{{"type":"assistant","message":{{"id":"m{n}","role":"assistant","content":[{{"type":"tool_use","id":"t{n}","name":"Bash","input":{{"command":"{a}","description":"{b}"}}}}]}}}}"#
            ),
            _ => format!(
                r#"{{"type":"assistant","message":{{"id":"m{n}","role":"assistant","content":[{{"type":"tool_use","id":"t{n}","name":"mcp__x__{n}","input":{{"{b}":"{a}"}}}}]}}}}"#
            ),
        };
        file.push_str(&line);
        file.push('\n');
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("sanitized.jsonl");
    std::fs::write(&f, file).expect("write");
    let (read, decoded) = read_off_bytes_holds_on(&f);
    assert!(read > 5 * decoded, "{read} read off, {decoded} decoded");
}

/// `CCV_INDEX_WORDS_DIR=DIR`: every `.jsonl` under DIR (a tree of damaged
/// or unusual sessions made for the occasion) held to the same rule.
#[test]
fn every_word_a_line_shows_is_read_off_its_bytes_under_ccv_index_words_dir() {
    let Ok(dir) = std::env::var("CCV_INDEX_WORDS_DIR") else {
        eprintln!("skipped: CCV_INDEX_WORDS_DIR is not set");
        return;
    };
    let (mut files, mut read, mut decoded) = (0, 0, 0);
    for p in common::jsonl_under(std::path::Path::new(&dir)) {
        let (r, d) = read_off_bytes_holds_on(&p);
        (files, read, decoded) = (files + 1, read + r, decoded + d);
    }
    eprintln!("{files} files: {read} lines read off their bytes, {decoded} decoded");
}

/// The user and assistant lines of the fixtures (and of a few corpus
/// files, when `../shared` is there) bent at random: bytes that bend
/// JSON put in or written over, bytes taken out, a known type or key
/// misspelt. Whatever the index reads off a bent line holds every word
/// the entries the model makes of it show. `CCV_INDEX_WORDS_ROUNDS`
/// bends each line more times (4), from `CCV_INDEX_WORDS_SEED`.
#[test]
fn bent_lines_read_off_miss_no_word_they_show() {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let rounds = env("CCV_INDEX_WORDS_ROUNDS").unwrap_or(4);
    let mut rng = common::Rng(env("CCV_INDEX_WORDS_SEED").unwrap_or(0x51ed_270b).max(1));
    let mut text = common::fixtures().to_vec();
    if let Some(files) = common::corpus_files() {
        for f in files.iter().step_by(9) {
            text.extend(std::fs::read(f).expect("read"));
        }
    }
    let misspelt: &[(&[u8], &[u8])] = &[
        (b"\"tool_result\"", b"\"tool_resut\""),
        (b"\"text\":", b"\"txt\":"),
        (b"\"type\":\"text\"", b"\"type\":\"texts\""),
        (b"\"thinking\"", b"\"thinkin\""),
        (b"\"tool_use\"", b"\"tool_used\""),
        (b"\"content\":", b"\"contents\":"),
        (b"\"input\":", b"\"inputs\":"),
        (b"\"name\":", b"\"nam\":"),
        (b"\"source\":", b"\"src\":"),
    ];
    let mut bent = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        if !(line.starts_with(b"{")
            && (line.windows(6).any(|w| w == b"\"user\"")
                || line.windows(11).any(|w| w == b"\"assistant\"")))
        {
            continue;
        }
        for _ in 0..rounds {
            let mut b = line.to_vec();
            for _ in 0..1 + rng.below(2) {
                let at = rng.below(b.len() + 1);
                match rng.below(4) {
                    0 => {
                        let bend = common::BENDS[rng.below(common::BENDS.len())];
                        b.splice(at..at, bend.iter().copied());
                    }
                    1 if at < b.len() => {
                        let end = (at + 1 + rng.below(8)).min(b.len());
                        b.drain(at..end);
                    }
                    2 if at < b.len() => b[at] = b"{}[]\",:x\\"[rng.below(9)],
                    _ => {
                        let (from, to) = misspelt[rng.below(misspelt.len())];
                        if let Some(p) = b.windows(from.len()).position(|w| w == from) {
                            b.splice(p..p + from.len(), to.iter().copied());
                        }
                    }
                }
            }
            if std::str::from_utf8(&b).is_ok() && !b.contains(&b'\n') {
                bent.extend_from_slice(&b);
                bent.push(b'\n');
            }
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("bent.jsonl");
    std::fs::write(&f, &bent).expect("write");
    let (read, decoded) = read_off_bytes_holds_on(&f);
    eprintln!("bent lines read off: {read}, decoded: {decoded}");
    // (the fixtures alone, without ../shared: some 50 lines read off)
    assert!(read > 20, "{read} read off, {decoded} decoded");
}
