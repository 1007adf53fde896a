//! A line of a session's ends read for its headline without serde, once
//! the first prompt is known (no message's text is read after it). The
//! headline reads the head and tail of every file that the figures read
//! too: serde's pass over each line's strings was a fifth of a cold
//! listing of generated sessions.
//!
//! The answer reader's checks (`super::super::answer`), for any line: a
//! line read here is one serde reads into the same `ScanLine`, every
//! skipped value checked as serde checks it; a key written with escapes
//! or twice, a value of another type than serde takes, a block of a
//! message that is not an object, white space, a second object: `None`,
//! and serde reads the line as before (`tests` hold the two equal on the
//! corpus and on lines cut and bent at random).

use super::super::answer::{Others, Reader};
use super::{ScanLine, ScanMessage};

/// `text` (one line) as serde reads it into a [`ScanLine`], without its
/// message's text.
pub(super) fn read(text: &str) -> Option<ScanLine<'_>> {
    const KEYS: &[&str] = &[
        "type",
        "cwd",
        "sessionId",
        "gitBranch",
        "timestamp",
        "isMeta",
        "isSidechain",
        "isCompactSummary",
        "message",
        "aiTitle",
        "customTitle",
        "summary",
        "leafUuid",
    ];
    let mut r = Reader::new(text);
    let mut e = ScanLine::default();
    r.object(KEYS, Others::Any, &mut |r, key| {
        match key {
            0 => e.kind = r.str_or_null()?,
            1 => e.cwd = r.str_or_null()?,
            2 => e.session_id = r.str_or_null()?,
            3 => e.git_branch = r.str_or_null()?,
            4 => e.timestamp = r.str_or_null()?,
            5 => e.is_meta = r.bool_or_null()?,
            6 => e.is_sidechain = r.bool_or_null()?,
            7 => e.is_compact_summary = r.bool_or_null()?,
            8 => e.message = message(r)?,
            9 => e.ai_title = r.str_or_null()?,
            10 => e.custom_title = r.str_or_null()?,
            11 => e.summary = r.str_or_null()?,
            12 => e.leaf_uuid = r.str_or_null()?,
            _ => r.skip(2)?,
        }
        Some(())
    })?;
    r.at_end().then_some(e)
}

/// The message's model; its content checked as `PromptText` takes it,
/// not kept.
fn message<'a>(r: &mut Reader<'a>) -> Option<Option<ScanMessage<'a>>> {
    if r.literal("null").is_some() {
        return Some(None);
    }
    let mut m = ScanMessage {
        model: None,
        content: None,
    };
    r.object(&["model", "content"], Others::Any, &mut |r, key| {
        match key {
            0 => m.model = r.str_or_null()?,
            1 => content(r)?,
            _ => r.skip(3)?,
        }
        Some(())
    })?;
    Some(Some(m))
}

/// Anything but a list is taken; a list's items are each `null` or a
/// block whose type and text are strings (or `null`), as `ScanBlock`.
fn content(r: &mut Reader<'_>) -> Option<()> {
    if r.peek()? != b'[' {
        return r.skip(3);
    }
    r.eat(b'[')?;
    if r.eat(b']').is_some() {
        return Some(());
    }
    loop {
        if r.literal("null").is_none() {
            // a list as a block is read by its fields' order: serde's
            r.object(&["type", "text", "content"], Others::Any, &mut |r, key| {
                match key {
                    0 | 1 => drop(r.str_or_null()?),
                    _ => r.skip(4)?,
                }
                Some(())
            })?;
        }
        if r.end_of(b']')? {
            return Some(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ScanLine;
    use super::read;

    /// What `absorb` reads of a line, comparable.
    fn fields(e: &ScanLine<'_>) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            e.kind,
            e.cwd,
            e.session_id,
            e.git_branch,
            e.timestamp,
            e.is_meta,
            e.is_sidechain,
            e.is_compact_summary,
            e.message.as_ref().map(|m| &m.model),
            e.ai_title,
            e.custom_title,
            e.summary,
            e.leaf_uuid
        )
    }

    /// `line` read here is read by serde, as one object, into the same
    /// fields; whether it was read here.
    fn agrees(line: &str) -> bool {
        let Some(fast) = read(line) else {
            return false;
        };
        let mut stream = serde_json::Deserializer::from_str(line).into_iter::<ScanLine<'_>>();
        let slow = match stream.next() {
            Some(Ok(e)) => e,
            _ => panic!("read, but serde refuses it: {line}"),
        };
        assert!(stream.next().is_none(), "one object: {line}");
        assert_eq!(fields(&fast), fields(&slow), "{line}");
        true
    }

    fn corpus_lines() -> Option<Vec<String>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
        let files = std::fs::read_dir(dir).ok()?;
        let mut out = Vec::new();
        for f in files.flatten() {
            if f.path().extension().is_some_and(|x| x == "jsonl") {
                let bytes = std::fs::read(f.path()).ok()?;
                let text = String::from_utf8_lossy(&bytes);
                out.extend(text.lines().map(str::to_owned));
            }
        }
        Some(out)
    }

    #[test]
    fn every_line_of_the_corpus_is_read_as_serde_reads_it() {
        let Some(lines) = corpus_lines() else {
            eprintln!("skipped: ../shared/corpus is not there");
            return;
        };
        let read = lines.iter().filter(|l| agrees(l)).count();
        // the common shape is most of them (the rest go to serde)
        assert!(read * 10 > lines.len() * 9, "{read} of {}", lines.len());
    }

    /// Lines of every kind, cut at every byte and bent at random: read
    /// here only where serde reads them, and as serde reads them.
    #[test]
    fn lines_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
        let samples = [
            r#"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/a","sessionId":"s1","version":"2.1.0","gitBranch":"main","type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"a \"b\" \n é","is_error":false}]},"uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","toolUseResult":{"stdout":"x","interrupted":false}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"model":"claude-x","id":"m","content":[{"type":"text","text":"hi \u00e9"},null],"usage":{"input_tokens":1}},"timestamp":"2026-01-01T00:00:01Z","isMeta":null}"#,
            r#"{"type":"summary","summary":"A \"title\"","leafUuid":"l1"}"#,
            r#"{"type":"custom-title","customTitle":"Mine","sessionId":"s"}"#,
            r#"{"type":"ai-title","aiTitle":"Theirs","isCompactSummary":true,"message":null}"#,
            r#"{"type":"user","message":{"content":"a prompt","model":null},"cwd":"C:\\x","gitBranch":""}"#,
            r#"{"type":"progress","data":{"type":"bash_progress","output":[1,2.5e3,-0,{"a":[true,false,null]}]},"message":{"content":{"k":"v"}}}"#,
        ];
        let bends: &[&[u8]] = &[
            "é".as_bytes(),
            b"\\",
            b"\"",
            b"\\u",
            b"\\ud83d",
            b"\x01",
            b" ",
            b",",
            b"}",
            b"]",
            b"{",
            b"[",
            b"0",
            b"-",
            b"null",
            b"tru",
            b"\"type\":\"user\",",
            b"\"cwd\":1,",
            b"[\"text\",\"x\"]",
            b"\"text\":5,",
            b"\"content\":[],",
        ];
        let mut rng = crate::model::test_rng::Rng::new(0x5eed_1ea4_u64);
        let mut next = |n: usize| rng.below(n);
        let (mut read, mut tried) = (0, 0);
        for s in samples {
            assert!(agrees(s), "{s}");
            let b = s.as_bytes();
            for cut in 0..b.len() {
                if let Ok(part) = std::str::from_utf8(&b[..cut]) {
                    agrees(part);
                }
            }
            for _ in 0..2000 {
                let mut m = b.to_vec();
                let at = next(m.len() + 1);
                let bend = bends[next(bends.len())];
                match next(3) {
                    0 => drop(m.splice(at..at, bend.iter().copied())),
                    1 => drop(m.splice(at..(at + bend.len()).min(m.len()), bend.iter().copied())),
                    _ => drop(m.drain(at..(at + 1 + next(4)).min(m.len()))),
                }
                if let Ok(t) = std::str::from_utf8(&m) {
                    tried += 1;
                    read += usize::from(agrees(t));
                }
            }
        }
        // the bent lines that still read are read here too
        assert!(read > tried / 10, "{read} of {tried}");
    }
}
