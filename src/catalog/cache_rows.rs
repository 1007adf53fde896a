//! A row of the listing cache in bytes ([`crate::packed`]): each field in
//! a fixed order. A warm listing of 10,000 sessions read them back as
//! JSON in a third of its time (a string looked at for escapes, each
//! number parsed from digits, each key matched); these are copied.
//!
//! A row is read whole or not at all: a check that does not hold (a
//! flipped bit), what [`Bytes`] does not believe, or a byte left over,
//! makes it no row (its session is read again).

use super::scan::SessionInfo;
use crate::model::breakdown::{self, Breakdown, Detail};
use crate::model::figures::{Figures, Slice, Tokens};
use crate::model::price::Cost;
use crate::packed::{self, Bytes, bytes, count, opt_text};

/// Appends the row of `info`, its length first (so a reader can pass over
/// it, or hand it whole to another thread).
pub(super) fn push_row(out: &mut Vec<u8>, info: &SessionInfo) {
    push_row_as(out, info, info.live);
}

/// [`push_row`] with `live` in place of the row's own.
pub(super) fn push_row_as(out: &mut Vec<u8>, info: &SessionInfo, live: bool) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    // every field named: a field added to `SessionInfo` and not written
    // here does not build
    let SessionInfo {
        project,
        session_id,
        path,
        title,
        first_prompt,
        last_activity_ms,
        message_count,
        message_count_exact,
        size,
        model,
        git_branch,
        subagents,
        subagent_files,
        mtime_ns,
        live: _,
        unreadable,
        figures,
        agent,
        spawned,
    } = info;
    // the path first: a search finds the rows it wants by it
    packed::path(out, path);
    for s in [project, session_id, title, first_prompt] {
        bytes(out, s.as_bytes());
    }
    packed::i64(out, *last_activity_ms);
    packed::u64(out, *message_count);
    packed::flag(out, *message_count_exact);
    packed::u64(out, *size);
    for s in [model, git_branch, agent] {
        opt_text(out, s.as_deref());
    }
    packed::u32(out, *subagents);
    packed::flag(out, subagent_files.is_some());
    if let Some((ns, n)) = subagent_files {
        packed::i64(out, *ns);
        packed::u32(out, *n);
    }
    packed::i64(out, *mtime_ns);
    packed::flag(out, live);
    packed::flag(out, *unreadable);
    count(out, spawned.len());
    for s in spawned {
        bytes(out, s.as_bytes());
    }
    packed::flag(out, figures.is_some());
    if let Some(f) = figures {
        push_figures(out, f);
    }
    // its check last: a row damaged is no row
    let sum = packed::check(&out[at + 4..]);
    packed::u64(out, sum);
    // a row past 4 GB is not ccv's (rows are checked far below that)
    let len = u32::try_from(out.len() - at - 4).unwrap_or(u32::MAX);
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

fn push_figures(out: &mut Vec<u8>, f: &Figures) {
    let Figures {
        tokens,
        cost,
        agent_tokens,
        agent_cost,
        prompts,
        tool_calls,
        detail,
        first_message,
    } = f;
    push_tokens(out, tokens);
    push_cost(out, cost);
    push_tokens(out, agent_tokens);
    push_cost(out, agent_cost);
    packed::u32(out, *prompts);
    packed::u32(out, *tool_calls);
    // read back and not asked for since: the bytes it was read from
    match detail.packed_bytes() {
        Some(b) => out.extend_from_slice(b),
        None => push_breakdown(out, &detail.get()),
    }
    packed::flag(out, first_message.is_some());
    if let Some(h) = first_message {
        packed::u64(out, *h);
    }
}

fn push_breakdown(out: &mut Vec<u8>, b: &Breakdown) {
    count(out, b.tools.len());
    for (name, n) in &b.tools {
        bytes(out, name.as_bytes());
        packed::u32(out, *n);
    }
    count(out, b.slices.len());
    for s in &b.slices {
        packed::i64(out, s.at_ms);
        bytes(out, s.model.as_bytes());
        push_cost(out, &s.cost);
        push_tokens(out, &s.tokens);
        packed::u32(out, s.prompts);
        packed::u32(out, s.tool_calls);
    }
}

fn push_tokens(out: &mut Vec<u8>, t: &Tokens) {
    for n in [t.input, t.output, t.cache_creation, t.cache_read] {
        packed::u64(out, n);
    }
}

fn push_cost(out: &mut Vec<u8>, c: &Cost) {
    packed::f64(out, c.usd);
    packed::u32(out, c.unpriced);
}

/// The path a row (without its length) is of, as its bytes.
pub(super) fn path_of_row(row: &[u8]) -> Option<&[u8]> {
    Bytes(row).bytes()
}

/// The session of a row (without its length), if the row reads whole and
/// its check holds.
pub(super) fn read_row(row: &[u8]) -> Option<SessionInfo> {
    let (row, sum) = row.split_last_chunk::<8>()?;
    if packed::check(row) != u64::from_le_bytes(*sum) {
        return None;
    }
    let mut r = Bytes(row);
    let path = r.path()?;
    let project = r.text()?;
    let session_id = r.text()?;
    let title = r.text()?;
    let first_prompt = r.text()?;
    let last_activity_ms = r.i64()?;
    let message_count = r.u64()?;
    let message_count_exact = r.flag()?;
    let size = r.u64()?;
    let model = r.opt_text()?;
    let git_branch = r.opt_text()?;
    let agent = r.opt_text()?;
    let subagents = r.u32()?;
    let subagent_files = if r.flag()? {
        Some((r.i64()?, r.u32()?))
    } else {
        None
    };
    let mtime_ns = r.i64()?;
    let live = r.flag()?;
    let unreadable = r.flag()?;
    let n = r.count(4)?;
    let mut spawned = Vec::with_capacity(n);
    for _ in 0..n {
        spawned.push(r.text()?);
    }
    let figures = if r.flag()? {
        Some(Box::new(read_figures(&mut r)?))
    } else {
        None
    };
    // a byte left over: not a row this ccv wrote
    r.is_empty().then_some(SessionInfo {
        project,
        session_id,
        path,
        title,
        first_prompt,
        // (a row cached before its time was bounded by its file's)
        last_activity_ms: super::scan::last_activity(Some(last_activity_ms), mtime_ns),
        message_count,
        message_count_exact,
        size,
        model,
        git_branch,
        subagents,
        subagent_files,
        mtime_ns,
        live,
        unreadable,
        figures,
        agent,
        spawned,
    })
}

fn read_figures(r: &mut Bytes<'_>) -> Option<Figures> {
    let tokens = read_tokens(r)?;
    let cost = read_cost(r)?;
    let agent_tokens = read_tokens(r)?;
    let agent_cost = read_cost(r)?;
    let prompts = r.u32()?;
    let tool_calls = r.u32()?;
    let detail = check_breakdown(r)?;
    let first_message = if r.flag()? { Some(r.u64()?) } else { None };
    Some(Figures {
        tokens,
        cost,
        agent_tokens,
        agent_cost,
        prompts,
        tool_calls,
        detail,
        first_message,
    })
}

/// The breakdown's bytes, checked as [`Breakdown::is_sane`] would check
/// it decoded, kept packed: decoded only when asked for (a listing shows
/// none of it), and its unpriced models told on the way.
fn check_breakdown(r: &mut Bytes<'_>) -> Option<Detail> {
    let start = r.0;
    let tools = r.count(8)?;
    if tools > breakdown::MAX_TOOLS {
        return None;
    }
    for _ in 0..tools {
        name(r)?;
        r.u32()?;
    }
    let n = r.count(SLICE_BYTES)?;
    if n > breakdown::MAX_SLICES {
        return None;
    }
    let mut unpriced = std::collections::BTreeMap::new();
    for _ in 0..n {
        r.i64()?;
        let model = name(r)?;
        let cost = read_cost(r)?;
        let tokens = read_tokens(r)?;
        r.u32()?;
        r.u32()?;
        let sane = Slice {
            cost,
            tokens,
            ..Slice::default()
        };
        if !sane.is_sane() {
            return None;
        }
        if cost.unpriced > 0 {
            *unpriced.entry(breakdown::unpriced_name(model)).or_insert(0) += cost.unpriced;
        }
    }
    let bytes = start.get(..start.len() - r.0.len())?;
    Some(Detail::packed(bytes.into(), unpack, unpriced))
}

/// A tool's or model's name: UTF-8, not too long.
fn name<'a>(r: &mut Bytes<'a>) -> Option<&'a str> {
    let b = r.bytes()?;
    (b.len() <= breakdown::MAX_NAME).then_some(std::str::from_utf8(b).ok()?)
}

/// The breakdown of bytes [`check_breakdown`] let through.
fn unpack(b: &[u8]) -> Breakdown {
    read_breakdown(&mut Bytes(b)).unwrap_or_default()
}

fn read_breakdown(r: &mut Bytes<'_>) -> Option<Breakdown> {
    let mut tools = std::collections::BTreeMap::new();
    for _ in 0..r.count(8)? {
        let name = r.text()?;
        tools.insert(name, r.u32()?);
    }
    let n = r.count(SLICE_BYTES)?;
    let mut slices = Vec::with_capacity(n);
    for _ in 0..n {
        slices.push(Slice {
            at_ms: r.i64()?,
            model: r.text()?,
            cost: read_cost(r)?,
            tokens: read_tokens(r)?,
            prompts: r.u32()?,
            tool_calls: r.u32()?,
        });
    }
    Some(Breakdown { tools, slices })
}

/// The fewest bytes a slice takes (its model empty).
const SLICE_BYTES: usize = 8 + 4 + 12 + 32 + 8;

fn read_tokens(r: &mut Bytes<'_>) -> Option<Tokens> {
    Some(Tokens {
        input: r.u64()?,
        output: r.u64()?,
        cache_creation: r.u64()?,
        cache_read: r.u64()?,
    })
}

fn read_cost(r: &mut Bytes<'_>) -> Option<Cost> {
    Some(Cost {
        usd: r.f64()?,
        unpriced: r.u32()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn full() -> SessionInfo {
        let slice = |at_ms, model: &str| Slice {
            at_ms,
            model: model.into(),
            cost: Cost {
                usd: 0.145_362_749_999_999_99,
                unpriced: 2,
            },
            tokens: Tokens {
                input: 1,
                output: 2,
                cache_creation: 3,
                // the most a sane slice holds
                cache_read: crate::model::figures::MAX_TOTAL_TOKENS - 7,
            },
            prompts: 4,
            tool_calls: 5,
        };
        SessionInfo {
            project: "/home/ann/app".into(),
            session_id: "27a3ca51".into(),
            path: PathBuf::from("/t/-home-ann-app/27a3ca51.jsonl"),
            title: "Fix \"it\"\n日本語 🦀".into(),
            first_prompt: "\u{1b}[31mred\u{7}".into(),
            last_activity_ms: -1,
            message_count: 25,
            message_count_exact: true,
            size: u64::MAX,
            model: Some("claude-opus-4-6".into()),
            git_branch: None,
            subagents: 2,
            subagent_files: Some((i64::MAX, 2)),
            mtime_ns: i64::MIN,
            live: true,
            unreadable: true,
            figures: Some(Box::new(Figures {
                tokens: Tokens {
                    input: 100,
                    output: 2440,
                    cache_creation: 10879,
                    cache_read: 225_555,
                },
                cost: Cost {
                    usd: 1e-300,
                    unpriced: 0,
                },
                agent_tokens: Tokens::default(),
                agent_cost: Cost {
                    usd: 0.048_682_649_999_999_994,
                    unpriced: 7,
                },
                prompts: 3,
                tool_calls: 13,
                detail: Detail::new(Breakdown {
                    tools: [("Bash".to_owned(), 1), ("Read".to_owned(), 6)].into(),
                    slices: vec![slice(1, "claude-sonnet-4-5"), slice(2, "")],
                }),
                first_message: Some(2_923_692_664_709_193_030),
            })),
            agent: Some("codex".into()),
            spawned: vec!["a".into(), String::new()],
        }
    }

    fn rows_of(info: &SessionInfo) -> Vec<u8> {
        let mut out = Vec::new();
        push_row(&mut out, info);
        out
    }

    /// Every field comes back as it was written, the path first; without
    /// figures, agent or sub-agents too.
    #[test]
    fn a_row_reads_back_as_written() {
        let mut bare = full();
        bare.figures = None;
        bare.agent = None;
        bare.spawned.clear();
        bare.model = None;
        for info in [full(), bare] {
            let b = rows_of(&info);
            let row = &b[4..];
            assert_eq!(
                u32::from_le_bytes(b[..4].try_into().expect("4")) as usize,
                row.len()
            );
            assert_eq!(
                path_of_row(row),
                Some(info.path.as_os_str().as_encoded_bytes())
            );
            let back = read_row(row).expect("reads");
            assert_eq!(back, info);
            // kept in its bytes, told as decoded, written back as read
            let (f, g) = (back.figures.as_deref(), info.figures.as_deref());
            if let (Some(f), Some(g)) = (f, g) {
                assert!(f.detail.packed_bytes().is_some());
                assert_eq!(*f.detail.get(), *g.detail.get());
                assert_eq!(f.unpriced_models(), g.unpriced_models());
                assert_eq!(f.unpriced_models().len(), 2);
            }
            assert_eq!(rows_of(&back), b);
            let mut decoded = back.clone();
            if let Some(f) = decoded.figures.as_deref_mut() {
                f.detail.get_mut();
                assert!(f.detail.packed_bytes().is_none());
            }
            assert_eq!(rows_of(&decoded), b);
        }
    }

    /// A breakdown that cannot be true (a cost not finite, a name too
    /// long) is no row, as it was when rows were decoded whole.
    #[test]
    fn a_breakdown_that_cannot_be_true_is_no_row() {
        let bad_slice = |f: &mut dyn FnMut(&mut Slice)| {
            let mut info = full();
            if let Some(fig) = info.figures.as_deref_mut() {
                f(&mut fig.detail.get_mut().slices[0]);
            }
            rows_of(&info)
        };
        for b in [
            bad_slice(&mut |s| s.cost.usd = f64::NAN),
            bad_slice(&mut |s| s.cost.usd = -1.0),
            bad_slice(&mut |s| s.tokens.input = u64::MAX),
            bad_slice(&mut |s| s.model = "m".repeat(breakdown::MAX_NAME + 1)),
        ] {
            assert_eq!(read_row(&b[4..]), None);
        }
        let mut info = full();
        if let Some(fig) = info.figures.as_deref_mut() {
            let name = "t".repeat(breakdown::MAX_NAME + 1);
            fig.detail.get_mut().tools.insert(name, 1);
        }
        assert_eq!(read_row(&rows_of(&info)[4..]), None);
    }

    /// A row cut anywhere, or with a byte added, or any one byte changed,
    /// reads as no row or as some row: never a crash, never a count
    /// believed past the bytes there.
    #[test]
    fn a_damaged_row_is_no_row_never_a_crash() {
        let b = rows_of(&full());
        let row = &b[4..];
        for cut in 0..row.len() {
            assert_eq!(read_row(&row[..cut]), None, "cut at {cut}");
        }
        let mut longer = row.to_vec();
        longer.push(0);
        assert_eq!(read_row(&longer), None);
        for at in 0..row.len() {
            for v in [0u8, 1, 2, 0x7f, 0x80, 0xff] {
                let mut bad = row.to_vec();
                if bad[at] == v {
                    continue;
                }
                bad[at] = v;
                // damaged: never read, whatever it now says
                assert_eq!(read_row(&bad), None, "byte {at} made {v}");
                let _ = path_of_row(&bad);
            }
        }
    }
}
