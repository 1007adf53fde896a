//! A tool call: its one-line summary and, expanded, its input and result
//! rendered by tool (diff for edits, code for reads, command + output for
//! Bash, JSON + output for the rest).

use super::content;
use crate::model::call_facts;
use crate::model::item::CallState;
use crate::model::text::{first_line, sanitize};
use crate::model::time::human_duration;
use crate::model::{Item, Session, ToolCall};
use crate::style::theme;
use ratatui::text::Line;
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

/// Result lines shown before `… N more lines`.
pub const FOLD: usize = crate::rows::OUTPUT_FOLD;
const FOLD_DIFF: usize = 40;
const FOLD_INPUT: usize = 24;

/// `src/main.rs (+3 −1) · 1.2s`, `cargo test · exit 101`, in at most
/// `width` columns: paths under the session's `cwd` are shown relative to
/// it, and a summary too long loses its middle, never the figures after it
/// (see [`call_facts`]). `state`: [`crate::model::Session::call_state`].
/// `now` (ms) is set while the session is followed live (for how long a
/// running call has run).
pub fn line(
    session: &Session,
    item: &Item,
    c: &ToolCall,
    state: CallState,
    now: Option<i64>,
    width: usize,
) -> String {
    let summary = first_line(&sanitize(&call_facts::summary(session, item, c)), 400);
    let cwd = session.meta.cwd.as_deref();
    let mut s = match cwd.map(|d| d.trim_end_matches('/')).filter(|d| d.len() > 1) {
        Some(dir) => summary.replace(&format!("{dir}/"), ""),
        None => summary,
    };
    if let Some((add, del)) = call_facts::edit_counts(c) {
        s.push_str(&format!(" (+{add} −{del})"));
    }
    // (a redacted screen's session was redacted as it was read)
    let mut extra = call_facts::facts(session, item, c, false);
    if c.result.is_none() {
        extra.push(if state == CallState::Running {
            running_note(item, now)
        } else {
            "no result".into()
        });
    }
    fit_facts(&mut extra, s.width().min(width * 2 / 5), width);
    let tail: String = extra.iter().map(|e| format!(" · {e}")).collect();
    let room = width.saturating_sub(unicode_width::UnicodeWidthStr::width(tail.as_str()));
    let mut s = fit_summary(&c.name, &s, room.max(12));
    // (a call of no summary: its facts alone, `TaskList 5 tasks`)
    s.push_str(
        tail.strip_prefix(" · ")
            .filter(|_| s.is_empty())
            .unwrap_or(&tail),
    );
    s
}

/// Shortens the widest of a call's facts (the telling line of an error)
/// until `want` columns are left of `width` for its summary: the line
/// went past the screen's edge, the command squeezed to `cargo…palive`
/// and the time cut off behind it.
fn fit_facts(facts: &mut [String], want: usize, width: usize) {
    const LEAST: usize = 16;
    loop {
        let tail: usize = facts.iter().map(|f| 3 + f.width()).sum();
        let over = (tail + want).saturating_sub(width);
        let Some((i, w)) = facts
            .iter()
            .map(|f| f.width())
            .enumerate()
            .max_by_key(|&(_, w)| w)
        else {
            return;
        };
        if over == 0 || w <= LEAST {
            return;
        }
        let cut = crate::model::text::fit_end(&facts[i], w.saturating_sub(over).max(LEAST));
        if cut.width() >= w {
            // (a width counted otherwise by the cut than by the sum)
            return;
        }
        facts[i] = cut;
    }
}

/// Calls whose summary is a sentence (a query, a question, a task's
/// subject): cut at their end, as prose is. A path or a command loses its
/// middle instead, keeping the file name or the last argument.
const PROSE: [&str; 8] = [
    "WebSearch",
    "web_search",
    "ToolSearch",
    "AskUserQuestion",
    "ExitPlanMode",
    "TaskCreate",
    "TaskUpdate",
    "TodoWrite",
];

/// A call's summary in `room` columns. A description in quotes at its end
/// (a subagent's `general-purpose "Check how the agent is doing"`, a
/// wait's `b7f3a1c ("watch the build")`) is cut inside its quotes: cut in
/// the middle, it read `general-purpose …ck how the agent is doing"`.
fn fit_summary(tool: &str, s: &str, room: usize) -> String {
    use crate::model::text::{fit_end, fit_middle};
    if s.width() <= room {
        return s.to_owned();
    }
    let closer = ["\")", "\""].into_iter().find(|c| s.ends_with(c));
    if let Some(closer) = closer {
        let body = &s[..s.len() - closer.len()];
        if let Some(open) = body.rfind('"') {
            let (head, inner) = body.split_at(open + 1);
            let fixed = head.width() + closer.width();
            // (at least a word of the description, or the middle goes)
            if fixed + 8 <= room && !inner.is_empty() {
                return format!("{head}{}{closer}", fit_end(inner, room - fixed));
            }
        }
    }
    if PROSE.contains(&tool) {
        fit_end(s, room)
    } else {
        fit_middle(s, room)
    }
}

/// A running call: for how long, in whole seconds (a figure that ticks by
/// tenths would flicker).
fn running_note(item: &Item, now: Option<i64>) -> String {
    match (now, item.timestamp) {
        (Some(now), Some(t)) => {
            let ms = (now - t).max(0) as u64;
            let d = if ms < 60_000 {
                format!("{}s", ms / 1000)
            } else {
                human_duration(ms)
            };
            format!("running… {d}")
        }
        _ => "running…".into(),
    }
}

/// How many lines a fold keeps: `n`, or all of them when shown whole.
pub fn limit(n: usize, full: bool) -> usize {
    if full { usize::MAX } else { n }
}

/// Keeps the first `n` lines and says how many were left out.
pub fn fold(lines: Vec<Line<'static>>, n: usize) -> Vec<Line<'static>> {
    fold_left(lines, n, 0, false)
}

/// The lines `render` makes of the head of `text` a row draws (see
/// [`content::clip`]; `full`: shown whole), folded to `n` lines unless
/// `full`, and a line that says what either left out.
pub fn drawn(
    text: &str,
    n: usize,
    full: bool,
    render: impl FnOnce(&str) -> Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    let c = content::clip(text, full);
    fold_left(render(c.text), limit(n, full), c.left, full)
}

/// [`fold`] of the lines of a text's head that left `left` bytes out.
fn fold_left(
    mut lines: Vec<Line<'static>>,
    n: usize,
    left: usize,
    full: bool,
) -> Vec<Line<'static>> {
    let size = || crate::model::item::human_bytes(left as u64);
    let note = if lines.len() > n.saturating_add(1) {
        let more = lines.len() - n;
        lines.truncate(n);
        if left > 0 {
            format!("… {more} more lines and {} more (z shows more)", size())
        } else {
            format!("… {more} more lines (z shows all)")
        }
    } else if left == 0 {
        return lines;
    } else if full {
        format!("… {} more, too long to draw (y copies it whole)", size())
    } else {
        format!("… {} more (z shows more)", size())
    };
    lines.push(Line::styled(note, theme::current().dim));
    lines
}

fn input(c: &ToolCall) -> Value {
    serde_json::from_str(c.input.shown()).unwrap_or(Value::Null)
}

fn str_field<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The expanded call: input, then result.
/// `lost` as for [`line`].
pub fn body(c: &ToolCall, w: u16, lost: bool, full: bool) -> Vec<Line<'static>> {
    let th = theme::current();
    let v = input(c);
    let mut out = Vec::new();
    let path = str_field(&v, "file_path");
    let result_text = c.result.as_ref().and_then(|r| r.text.get()).unwrap_or("");
    match c.name.as_str() {
        "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => {
            match c
                .result
                .as_ref()
                .and_then(|r| r.patch())
                .filter(|p| !p.is_empty())
            {
                Some(p) => {
                    let (lines, left) = content::diff_most(p, path, w, content::budget(full));
                    let mut lines = fold(lines, limit(FOLD_DIFF, full));
                    if left > 0 {
                        let more = if full {
                            "too long to draw"
                        } else {
                            "z shows more"
                        };
                        lines.push(Line::styled(
                            format!("… {left} more lines of the diff ({more})"),
                            theme::current().dim,
                        ));
                    }
                    out.extend(lines);
                }
                None if c.name == "Write" => {
                    out.extend(drawn(str_field(&v, "content"), FOLD_DIFF, full, |t| {
                        content::code(t, path, Some(1), w)
                    }));
                }
                None => out.extend(json(c, &v, w, full)),
            }
            if c.result.as_ref().is_some_and(|r| r.is_error) {
                out.extend(result(c, w, lost, full));
            }
            return out;
        }
        "Read" => {
            if c.result.as_ref().is_some_and(|r| !r.is_error) {
                let (text, first, rest) = strip_line_numbers(result_text);
                if first.is_some() {
                    // numbered as the file is (`605→` with an offset)
                    out.extend(drawn(&text, FOLD, full, |t| {
                        content::code(t, path, first, w)
                    }));
                    if !rest.trim().is_empty() {
                        out.extend(styled_dim(drawn(rest.trim(), usize::MAX, full, |t| {
                            content::plain(t, w)
                        })));
                    }
                    return out;
                }
            }
        }
        "Bash" => {
            out.extend(drawn(str_field(&v, "command"), FOLD_INPUT, full, |t| {
                content::code(t, "sh", None, w)
            }));
        }
        "Task" | "Agent" => {
            out.extend(drawn(str_field(&v, "prompt"), FOLD, full, |t| {
                content::markdown(t, w)
            }));
        }
        "TodoWrite" => out.extend(checklist(&v, w)),
        "ExitPlanMode" => out.extend(drawn(str_field(&v, "plan"), FOLD_DIFF, full, |t| {
            content::markdown(t, w)
        })),
        "AskUserQuestion" => out.extend(questions(&v, w)),
        _ => out.extend(json(c, &v, w, full)),
    }
    if let Some(r) = &c.result {
        // named as a copy of it is: `[Tool Error]`, `[Tool Rejected]`...
        let l = crate::model::label::of_result(r);
        let style = if r.is_error { th.tone(l.tone) } else { th.dim };
        out.push(Line::styled(format!("─ {}", l.name.to_lowercase()), style));
    }
    out.extend(result(c, w, lost, full));
    out
}

fn result(c: &ToolCall, w: u16, lost: bool, full: bool) -> Vec<Line<'static>> {
    let th = theme::current();
    match &c.result {
        None if lost => vec![Line::styled("(no result)", th.dim)],
        None => vec![Line::styled("(no result yet)", th.dim)],
        Some(r) if r.text.is_blank() => vec![Line::styled("(no output)", th.dim)],
        // in the file: read back before the next frame (see `list::row_lines`)
        Some(r) if r.text.missing() => vec![Line::styled("…", th.dim)],
        Some(r) if let Some(saved) = crate::model::saved::saved_output(r.message()) => {
            saved_lines(&saved, "; F opens the whole", w, full)
        }
        Some(r) => {
            let lines = if c.name == "Task" || c.name == "Agent" {
                drawn(r.text.or_marker(), FOLD, full, |t| content::markdown(t, w))
            } else if let Some(json) = one_line_json(r.message(), w, crate::redact::screen()) {
                fold(content::code(&json, "json", None, w), limit(FOLD, full))
            } else {
                drawn(r.message(), FOLD, full, |t| content::ansi(t, w, full))
            };
            if r.is_error && !r.rejected() {
                lines
                    .into_iter()
                    .map(|l| l.patch_style(th.tool_error))
                    .collect()
            } else {
                lines
            }
        }
    }
}

/// A result that is one line of JSON wider than the screen (what MCP
/// servers answer: an issue, a pull request, a page of search hits),
/// pretty-printed: wrapped as text it read as a wall of `{"id":"…","title"`.
/// JSON already on lines of its own is left as written. `redact`: the
/// screen is redacted (`#`).
fn one_line_json(text: &str, w: u16, redact: bool) -> Option<String> {
    /// Past this, a result is shown as written: highlighted whole, it
    /// would cost the frame that opens it twice what its text costs
    /// (`cargo bench --bench content`, `json_result_*`: 4 ms for 20 KB).
    const MOST: usize = 256 << 10;
    let t = text.trim();
    let framed = matches!(
        (t.as_bytes().first(), t.as_bytes().last()),
        (Some(b'{'), Some(b'}')) | (Some(b'['), Some(b']'))
    );
    if !framed || t.len() <= usize::from(w) || t.len() > MOST || t.contains('\n') {
        return None;
    }
    let pretty = crate::json_pretty::pretty_any(t)?;
    // (the text was redacted as read, but a key written with `\u`
    // escapes comes out of them here)
    Some(if redact {
        crate::redact::active().redact(&pretty).into_owned()
    } else {
        pretty
    })
}

/// An output saved apart, opened: the note that Claude read only the part
/// below (`hint` after it), then that part, folded, and `…` where it was
/// cut. A call's result and a result without its call alike.
pub fn saved_lines(
    saved: &crate::model::saved::SavedOutput<'_>,
    hint: &str,
    w: u16,
    full: bool,
) -> Vec<Line<'static>> {
    let th = theme::current();
    let mut out = vec![Line::styled(format!("{}{hint}", saved.note()), th.dim)];
    out.extend(drawn(saved.preview, FOLD, full, |t| {
        content::ansi(t, w, full)
    }));
    if saved.cut {
        out.push(Line::styled("…", th.dim));
    }
    out
}

/// TodoWrite's list as a checklist: `☑ done`, `◐ in progress`, `☐ to do`.
fn checklist(v: &Value, w: u16) -> Vec<Line<'static>> {
    let th = theme::current();
    let mut out = Vec::new();
    for t in v
        .get("todos")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let status = str_field(t, "status");
        let (mark, style) = match status {
            "completed" => ("☑ ", th.dim),
            "in_progress" => ("◐ ", th.heading),
            _ => ("☐ ", ratatui::style::Style::default()),
        };
        let text = format!("{mark}{}", str_field(t, "content"));
        out.extend(
            content::plain(&text, w)
                .into_iter()
                .map(|l| l.patch_style(style)),
        );
    }
    out
}

/// AskUserQuestion: each question with its options (the answer is the
/// result, shown after).
fn questions(v: &Value, w: u16) -> Vec<Line<'static>> {
    let th = theme::current();
    let mut out = Vec::new();
    for q in v
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(
            content::plain(str_field(q, "question"), w)
                .into_iter()
                .map(|l| l.patch_style(th.heading)),
        );
        for o in q
            .get("options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let label = str_field(o, "label");
            let desc = str_field(o, "description");
            let text = if desc.is_empty() {
                format!("  • {label}")
            } else {
                format!("  • {label}: {desc}")
            };
            out.extend(content::plain(&text, w));
        }
    }
    out
}

/// A call's input as JSON, folded to [`FOLD_INPUT`] lines unless `full`.
fn json(c: &ToolCall, v: &Value, w: u16, full: bool) -> Vec<Line<'static>> {
    let raw = c.input.shown();
    let code = |t: &str| content::code(t, "json", None, w);
    if v.is_null() && raw.trim() != "null" {
        // an input serde will not read (nested deeper than it goes) is
        // shown as written, not as the `null` it was read as
        return drawn(raw, FOLD_INPUT, full, code);
    }
    let s = serde_json::to_string_pretty(v).unwrap_or_default();
    drawn(&s, FOLD_INPUT, full, code)
}

/// Read results come as `   605→text`; the renderer numbers lines itself,
/// from the file's own first number. Returns the text without the numbers,
/// that first number (`None` if the result is not numbered), and what
/// follows the numbered lines (a `<system-reminder>` Claude Code appends).
fn strip_line_numbers(text: &str) -> (String, Option<u64>, &str) {
    let mut out = String::with_capacity(text.len());
    let mut first = None;
    let mut pos = 0;
    for l in text.split_inclusive('\n') {
        let body = l.trim_end_matches(['\n', '\r']);
        let t = body.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let rest = t[digits..]
            .strip_prefix('→')
            .or_else(|| t[digits..].strip_prefix('\t'));
        match rest {
            Some(rest) if digits > 0 => {
                if first.is_none() {
                    first = t[..digits].parse().ok();
                }
                out.push_str(rest);
                out.push('\n');
            }
            _ if body.is_empty() && first.is_none() => {}
            _ => break,
        }
        pos += l.len();
    }
    if first.is_none() {
        return (text.to_owned(), None, "");
    }
    (out, first, &text[pos..])
}

fn styled_dim(lines: Vec<Line<'static>>) -> Vec<Line<'static>> {
    let th = theme::current();
    lines.into_iter().map(|l| l.patch_style(th.dim)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_description_is_cut_at_its_end_and_a_path_in_its_middle() {
        let task = "general-purpose \"Check how the agent is doing\"";
        assert_eq!(
            fit_summary("Task", task, 36),
            "general-purpose \"Check how the age…\""
        );
        let wait = "b7f3a1c (\"watch the build for errors\")";
        assert_eq!(
            fit_summary("TaskOutput", wait, 26),
            "b7f3a1c (\"watch the bui…\")"
        );
        // too little room for a word of it: the middle goes
        assert_eq!(fit_summary("Task", task, 20), "general-…t is doing\"");
        assert_eq!(
            fit_summary("Read", "src/view/content/table.rs", 16),
            "src/vi…/table.rs"
        );
        assert_eq!(
            fit_summary("WebSearch", "ratatui scroll a list by lines", 16),
            "ratatui scroll …"
        );
        assert_eq!(fit_summary("Task", task, 80), task);
    }

    #[test]
    fn a_long_error_gives_way_to_the_command_and_the_time() {
        let mut facts = vec![
            "exit 2".to_owned(),
            "error[E0433]: failed to resolve: use of undeclared crate or module `io`".to_owned(),
            "6.3s".to_owned(),
        ];
        fit_facts(&mut facts, 27, 80);
        let tail: usize = facts.iter().map(|f| 3 + f.width()).sum();
        assert_eq!(tail + 27, 80, "{facts:?}");
        assert_eq!(facts[2], "6.3s");
        assert!(facts[1].ends_with('…'), "{facts:?}");
        // a width the cut counts otherwise (an emoji and its selector)
        // still ends
        let mut facts = vec!["done ✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️✔️".to_owned()];
        fit_facts(&mut facts, 30, 40);
        assert!(facts[0].width() < 45, "{facts:?}");
    }

    #[test]
    fn a_key_escaped_in_json_is_redacted_once_pretty_printed() {
        let raw = r#"{"t":"\u0067hp_R8x2kQ9vLm3nP7sT1wY4zA6bC0dE5fG8hJ2k","pad":"a wide line"}"#;
        let shown = one_line_json(raw, 20, true).unwrap_or_default();
        assert!(shown.contains("[REDACTED:github-token]"), "{shown}");
        assert!(!shown.contains("R8x2kQ9v"), "{shown}");
    }

    #[test]
    fn read_numbers_are_stripped() {
        let (t, f, r) = strip_line_numbers("    10→fn main() {\n    11→}\n");
        assert_eq!(t, "fn main() {\n}\n");
        assert_eq!((f, r), (Some(10), ""));
        let (t, f, _) = strip_line_numbers("not numbered");
        assert_eq!((t.as_str(), f), ("not numbered", None));
        // an offset read with Claude Code's reminder after it
        let (t, f, r) = strip_line_numbers(
            "   605→let a = 1;\n   606→let b = 2;\n\n<system-reminder>\nx\n</system-reminder>\n",
        );
        assert_eq!(t, "let a = 1;\nlet b = 2;\n");
        assert_eq!(f, Some(605));
        assert!(r.contains("system-reminder"));
    }
}
