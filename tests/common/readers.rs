//! What the tests of the line readers held to serde share
//! (`source::claude::{results, prompts, notes, progress}`): a line one
//! reads is read by serde into the same fields, and the decoder of lines,
//! which tries the readers, keeps it whole.

use ccv::source::claude::answer::read_by;
use ccv::source::claude::decode::decode_clean_without_copies;
use ccv::source::claude::raw::{Content, JsonStr, RawEntry, RawMessage};

/// A reader's entry point (`read_into`).
pub type ReadInto = for<'a> fn(&'a str, &mut RawEntry<'a>) -> bool;

/// `line` read by `read_into` is read by serde into the same `fields`;
/// whether the reader answered.
pub fn agrees(read_into: ReadInto, fields: fn(&RawEntry<'_>) -> String, line: &str) -> bool {
    let Some(fast) = read_by(read_into, line) else {
        return false;
    };
    let serde: Result<RawEntry<'_>, _> = serde_json::from_str(line.trim_ascii());
    let serde = serde.unwrap_or_else(|e| panic!("read, but serde refuses it ({e}): {line}"));
    assert_eq!(fields(&fast), fields(&serde), "{line}");
    let mut entries = Vec::new();
    assert!(
        decode_clean_without_copies(line.as_bytes(), &mut entries),
        "{line}"
    );
    assert_eq!(entries.len(), 1, "{line}");
    assert_eq!(fields(&entries[0].0), fields(&serde), "{line}");
    true
}

/// Keys a reader passes over (`others`) are keys serde does not know: a
/// field serde knows refuses a second one (or a number); a key it does
/// not know is passed over both times.
pub fn others_unknown_to_serde(others: &[&str]) {
    for k in others {
        let line = format!(r#"{{"{0}":0,"{0}":0}}"#, k);
        assert!(serde_json::from_str::<RawEntry<'_>>(&line).is_ok(), "{k}");
    }
}

/// Lines of `text` whose JSON `kind` picks.
pub fn lines_of(text: &str, kind: fn(&serde_json::Value) -> bool) -> Vec<&str> {
    text.lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| kind(&v)))
        .collect()
}

/// Every line of the corpus `kind` picks is read as serde reads it (at
/// least `share` of them by the reader, `agrees` says which), and no
/// other line is read by it (those go to serde). Skipped without the
/// corpus.
pub fn corpus_agrees(
    kind: fn(&serde_json::Value) -> bool,
    share: f64,
    agrees: impl Fn(&str) -> bool,
) {
    let Some(files) = super::corpus_files() else {
        return;
    };
    let (mut lines, mut read, mut any) = (0, 0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in lines_of(&text, kind) {
            lines += 1;
            read += usize::from(agrees(l));
        }
        any += text.lines().filter(|l| agrees(l)).count();
    }
    // the common shape is most of them (the rest go to serde)
    assert!(read as f64 > lines as f64 * share, "{read} of {lines}");
    assert_eq!(any, read, "a line of another kind was read");
}

/// Lines of the fixtures (40) and of a generated session (20) that
/// `kind` picks, and `written` (each of which the reader must read),
/// cut at every byte and bent at random with `more` (see
/// `common::cut_and_bent`): the reader answers only where serde reads,
/// and as serde reads (`agrees` asserts it).
pub fn cut_and_bent(
    kind: fn(&serde_json::Value) -> bool,
    written: &[&str],
    more: &[&[u8]],
    seed: u64,
    agrees: impl Fn(&str) -> bool,
) {
    let fixtures = String::from_utf8_lossy(super::fixtures()).into_owned();
    let mut samples: Vec<String> = lines_of(&fixtures, kind)
        .into_iter()
        .take(40)
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = super::generated(&["--size", "400K", "--seed", "5"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(
            lines_of(&text, kind)
                .into_iter()
                .take(20)
                .map(str::to_owned),
        );
    }
    // each of these is the common shape: read
    for w in written {
        assert!(agrees(w), "{w}");
    }
    samples.extend(written.iter().map(|w| (*w).to_owned()));
    let (whole, read) = super::cut_and_bent(&samples, more, seed, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}

fn json_str(t: &Option<JsonStr<'_>>) -> String {
    match t {
        Some(JsonStr::Token(t)) => format!("token {t}"),
        Some(JsonStr::Text(t)) => format!("text {t:?}"),
        None => "none".to_owned(),
    }
}

fn content(c: &Content<'_>) -> String {
    match c {
        Content::Text(t) => json_str(&Some(t.clone())),
        Content::Other => "other".to_owned(),
        Content::Blocks(bs) => bs
            .iter()
            .map(|b| {
                format!(
                    "[{:?} {:?} {} {} {:?} {:?} {:?} {} {:?} {} {:?} {:?} {:?} {:?}]",
                    b.kind,
                    b.tool_use_id,
                    json_str(&b.text),
                    json_str(&b.thinking),
                    b.id,
                    b.name,
                    b.input.map(|i| i.get()),
                    b.content.as_deref().map_or("none".to_owned(), content),
                    b.is_error,
                    b.source.is_some(),
                    b.source.as_ref().map(|s| (&s.kind, &s.media_type, &s.url)),
                    b.source
                        .as_ref()
                        .and_then(|s| s.data.map(|d| d.get().len())),
                    b.tool_name,
                    b.title
                )
            })
            .collect(),
    }
}

/// Every field of an entry that a line of results may fill, comparable;
/// and a sample of those it never fills, which must be empty.
pub fn fields(e: &RawEntry<'_>) -> String {
    let mut out = envelope(e);
    out += &format!("{:?} {:?} | ", e.is_meta, e.tool_use_result);
    out += &format!(
        "{:?} {:?} {:?} {:?} {} {} {} {:?} {:?} {:?} | ",
        e.subtype,
        e.session_id_snake,
        e.parent_tool_use_id,
        e.is_compact_summary,
        e.content.is_some(),
        e.error.is_some(),
        e.usage.is_some(),
        e.level,
        e.logical_parent_uuid,
        e.is_api_error_message
    );
    if let Some(m) = &e.message {
        out += &message_head(m);
        out += &m.content.as_ref().map_or("none".to_owned(), content);
    }
    out
}

/// The envelope of an entry (the keys every reader reads first), comparable.
pub fn envelope(e: &RawEntry<'_>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} ",
        e.kind,
        e.uuid,
        e.parent_uuid,
        e.session_id,
        e.timestamp,
        e.cwd,
        e.version,
        e.git_branch,
        e.agent_id,
        e.is_sidechain
    )
}

/// A message's members but its content, comparable.
pub fn message_head(m: &RawMessage<'_>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} | ",
        m.id, m.model, m.role, m.stop_reason, m.usage
    )
}
