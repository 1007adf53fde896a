//! The labelled transcript: `ccv export` and the TUI's copy share this.
//!
//! Text and markdown go to terminals and chats, so every byte that came from
//! the session passes through [`sanitize`]; JSON escapes control characters
//! itself.

use crate::model::item::{Detail, Item, Kind, ToolCall, ToolResult};
use crate::model::session::Session;
use crate::model::stored::{LineReader, Text};
use crate::model::text::{sanitize, string_of_bytes};
use crate::model::time::format_iso;
use crate::walk::{At, Filters, Visitor, Walk};
use serde::Serialize;
use serde_json::value::RawValue;
use std::io::{self, Write};

mod parallel;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
// (the page is written by `crate::html`; the others here)
pub enum Format {
    /// Labelled plain text: `[User]`, `[Assistant]`, `[Tool Call]`...
    #[default]
    Text,
    /// Markdown: a heading per entry, code and diffs in fences
    Markdown,
    /// JSON Lines: one object per entry (kind, text, time, call, file and line)
    Json,
    /// One self-contained HTML page, to share or archive
    Html,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub format: Format,
    pub no_thinking: bool,
    pub no_tools: bool,
    pub no_subagents: bool,
    /// Secrets replaced by `[REDACTED:kind]` (see [`crate::redact`]).
    pub redact: bool,
}

/// One row of the transcript as exported: an item, or the result of the
/// call just before it.
#[derive(Clone, Copy)]
pub enum Row<'a> {
    Item(&'a Item),
    Result(&'a Item, &'a ToolCall, &'a ToolResult),
}

impl<'a> Row<'a> {
    pub fn kind(&self) -> Kind {
        match self {
            Row::Item(i) => i.kind,
            Row::Result(..) => Kind::ToolResult,
        }
    }

    /// The file and line the row was read from.
    pub fn place(&self) -> (u16, u32) {
        match self {
            Row::Item(i) => (i.source, i.line),
            Row::Result(_, _, r) => (r.source, r.line),
        }
    }

    /// `User`, `Tool Call`, `Tool Error`...
    pub fn label(&self) -> &'static str {
        self.labelled().name
    }

    /// The label the viewer shows for this row too.
    pub fn labelled(&self) -> crate::model::label::Label {
        match self {
            Row::Item(i) => crate::model::label::of_item(i),
            Row::Result(_, _, r) => crate::model::label::of_result(r),
        }
    }

    /// The tool's name, for a call.
    pub fn tool_name(&self) -> Option<&'a str> {
        match self {
            Row::Item(i) => match &i.detail {
                Detail::Call(c) => Some(c.name.as_str()),
                _ => None,
            },
            Row::Result(..) => None,
        }
    }

    /// `[Tool Call] Read`, `[User]`: the first line of a text export row.
    pub fn heading(&self) -> String {
        if let Row::Item(
            i @ Item {
                detail: Detail::OrphanResult(_),
                ..
            },
        ) = self
        {
            return match i.flags.collision {
                Some(crate::model::item::Collision::Result) => {
                    format!("[{}] (a second result for its call)", self.label())
                }
                _ => format!("[{}] (its call is not in the file)", self.label()),
            };
        }
        if let Some(note) = self.labelled().note {
            return format!("[{}] ({note})", self.label());
        }
        match self.tool_name() {
            Some(n) => format!("[{}] {}", self.label(), sanitize(n).replace('\n', " ")),
            None => format!("[{}]", self.label()),
        }
    }

    /// The row's content as plain (unsanitized) text.
    /// A result left in its file (the viewer's session) is read back.
    pub fn text(&self, session: &'a Session) -> std::borrow::Cow<'a, str> {
        use std::borrow::Cow;
        match self {
            Row::Item(i) => match &i.detail {
                Detail::Call(_) => Cow::Owned(pretty_json(&session.call_input(i))),
                Detail::OrphanResult(r) => Cow::Borrowed(r.message()),
                _ if i.kind == Kind::Thinking && i.flags.redacted => {
                    Cow::Borrowed("redacted thinking")
                }
                _ if i.kind == Kind::Thinking && i.flags.thinking_hidden => {
                    Cow::Borrowed("(thinking not recorded)")
                }
                _ => session.item_text(i),
            },
            Row::Result(_, _, r) => session.result_message(r),
        }
    }
}

impl Options {
    /// What an export shows: everything but what its options leave out.
    pub fn filters(&self) -> Filters {
        Filters {
            tools: !self.no_tools,
            thinking: !self.no_thinking,
            subagents: !self.no_subagents,
            ..Filters::all()
        }
    }
}

/// The export's reader of the one walk ([`crate::walk`]): rows in
/// reading order, each call followed by its result, each labelled with the
/// id of the subagent it belongs to. Headings are not rows.
pub struct Flat<'a, 'f> {
    session: &'a Session,
    f: &'f mut dyn FnMut(Row<'a>, Option<&'a str>),
}

impl<'a, 'f> Flat<'a, 'f> {
    pub fn new(session: &'a Session, f: &'f mut dyn FnMut(Row<'a>, Option<&'a str>)) -> Self {
        Flat { session, f }
    }

    fn name(&self, agent: Option<u32>) -> Option<&'a str> {
        let session: &'a Session = self.session;
        agent
            .and_then(|a| session.agents.get(a as usize))
            .map(|a| a.id.as_str())
    }
}

impl<'a> Visitor<'a> for Flat<'a, '_> {
    fn item(&mut self, at: At, item: &'a Item) {
        let name = self.name(at.agent);
        (self.f)(Row::Item(item), name);
    }
    fn result(&mut self, at: At, call: &'a Item, c: &'a ToolCall, r: &'a ToolResult) {
        let name = self.name(at.agent);
        (self.f)(Row::Result(call, c, r), name);
    }
}

/// The whole session as `ccv export` writes it: the main transcript, then
/// subagents no call links to (throw-away "Warmup" runs are left out).
pub fn visit_session<'a>(
    session: &'a Session,
    opts: &Options,
    f: &mut dyn FnMut(Row<'a>, Option<&'a str>),
) {
    Walk::new(session, opts.filters()).session(&mut Flat::new(session, f));
}

/// Writes rows one after the other in `format`, as `ccv export` does.
/// Returns how many rows were written.
pub struct RowWriter<'s, 'w> {
    session: &'s Session,
    format: Format,
    out: &'w mut dyn Write,
    rows: usize,
    err: io::Result<()>,
    redact: bool,
}

impl<'s, 'w> RowWriter<'s, 'w> {
    pub fn new(session: &'s Session, format: Format, out: &'w mut dyn Write) -> Self {
        RowWriter {
            session,
            format,
            out,
            rows: 0,
            err: Ok(()),
            redact: false,
        }
    }

    /// Secrets in the rows replaced (see [`crate::redact`]).
    pub fn redacting(mut self, on: bool) -> Self {
        self.redact = on;
        self
    }

    pub fn row(&mut self, row: Row<'_>, agent: Option<&str>) {
        if self.err.is_ok() {
            self.err = write_row_redacted(
                self.session,
                row,
                agent,
                self.format,
                self.rows == 0,
                self.redact,
                self.out,
            );
            self.rows += 1;
        }
    }

    /// The number of rows written, or the first write error.
    pub fn finish(self) -> io::Result<usize> {
        self.err?;
        self.out.flush()?;
        Ok(self.rows)
    }
}

pub fn export(session: &Session, opts: &Options, out: &mut dyn Write) -> io::Result<()> {
    let mut err = Ok(());
    let mut first = true;
    if opts.format == Format::Markdown {
        out.write_all(title_block(session, opts.redact).as_bytes())?;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 {
        visit_session(session, opts, &mut |row, agent| {
            if err.is_ok() {
                err = write_row_redacted(session, row, agent, opts.format, first, opts.redact, out);
                first = false;
            }
        });
        err?;
        return out.flush();
    }
    parallel::write_session(session, opts, cores.min(4), out)?;
    out.flush()
}

/// [`write_row`], its secrets replaced when `redact`: the row is made
/// whole first, so no secret is cut between two writes.
pub fn write_row_redacted(
    session: &Session,
    row: Row<'_>,
    agent: Option<&str>,
    format: Format,
    first: bool,
    redact: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if !redact {
        return write_row(session, row, agent, format, first, out);
    }
    crate::redact::set_row(Some(row.place()));
    if format == Format::Json {
        // each string of the row redacted as it is, before it is encoded
        let mut reader = session.take_reader();
        let mut buf = Vec::new();
        push_json_redacted(session, &mut reader, row, agent, &mut buf);
        session.put_reader(reader);
        return out.write_all(&buf);
    }
    let r = crate::redact::active();
    if let Row::Item(
        i @ Item {
            detail: Detail::Call(_),
            ..
        },
    ) = row
    {
        // a call's input redacted as JSON, as the JSON export does: each
        // string read decoded (a key in JSON written in a command,
        // `{\"password\":\"…\"}`, shows escaped twice in its pretty
        // text), and not read again as text; its heading is
        let input = pretty_json(&r.redact_json(&session.call_input(i)));
        let mut head = Vec::new();
        write_row_text(row, "", agent, format, first, &mut head)?;
        let mut buf = Vec::new();
        write_row_text(row, &input, agent, format, first, &mut buf)?;
        let body = buf.get(head.len()..).unwrap_or_default();
        out.write_all(r.redact(&string_of_bytes(head)).as_bytes())?;
        return out.write_all(body);
    }
    let mut buf = Vec::new();
    write_row_text(
        row,
        &row.text(session),
        agent,
        format,
        first,
        &mut Fitted(&mut buf),
    )?;
    // (no copy: std's lossy walk was a twentieth of a redacted export)
    out.write_all(r.redact(&string_of_bytes(buf)).as_bytes())
}

/// A buffer rows are written into, grown to fit a write of megabytes
/// with a little room after it: grown as a `Vec` grows, a text of 50 MB
/// was fitted exactly and the newline after it doubled the buffer to
/// 100 MB. Smaller writes grow it by doubling, as a `Vec`.
pub(crate) struct Fitted<'b>(pub &'b mut Vec<u8>);

impl Write for Fitted<'_> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.write_all(b)?;
        Ok(b.len())
    }

    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        let v = &mut *self.0;
        if b.len() > v.capacity() - v.len() {
            v.reserve_exact(b.len().max(v.capacity()) + 4096);
        }
        v.extend_from_slice(b);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

pub fn write_row(
    session: &Session,
    row: Row<'_>,
    agent: Option<&str>,
    format: Format,
    first: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Json => write_json(session, row, agent, out),
        _ => write_row_text(row, &row.text(session), agent, format, first, out),
    }
}

/// A row of a text format, `text` its content.
fn write_row_text(
    row: Row<'_>,
    text: &str,
    agent: Option<&str>,
    format: Format,
    first: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        // a page is written whole (`crate::html`); a row alone, as markdown
        Format::Markdown | Format::Html => write_markdown(row, text, agent, first, out),
        _ => write_text(row, text, agent, first, out),
    }
}

fn write_text(
    row: Row<'_>,
    text: &str,
    agent: Option<&str>,
    first: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if !first {
        out.write_all(b"\n")?;
    }
    match agent {
        Some(a) => writeln!(out, "{} (subagent {})", row.heading(), sanitize(a))?,
        None => writeln!(out, "{}", row.heading())?,
    }
    let text = sanitize(text);
    let text = text.trim_end_matches('\n');
    if !text.is_empty() {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

fn write_markdown(
    row: Row<'_>,
    text: &str,
    agent: Option<&str>,
    first: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if !first {
        out.write_all(b"\n")?;
    }
    let label = match row.tool_name() {
        Some(n) => format!("{}: {}", row.label(), sanitize(n)),
        None => row.label().to_owned(),
    };
    // `##` for every row: the title block is the only `#`, and the
    // assistant's own headings are shifted below the rows' (see
    // `shift_headings`), so the outline holds
    match agent {
        Some(a) => writeln!(out, "## {label} *(subagent {})*\n", sanitize(a))?,
        None => writeln!(out, "## {label}\n")?,
    }
    let text = sanitize(text);
    let text = text.trim_end_matches('\n');
    if text.is_empty() {
        return Ok(());
    }
    let fenced = match row {
        Row::Item(i) => match i.kind {
            Kind::ToolCall => Some("json"),
            Kind::ToolResult | Kind::Unknown | Kind::Unreadable | Kind::Command => Some(""),
            _ => None,
        },
        Row::Result(..) => Some(""),
    };
    match fenced {
        Some(lang) => {
            let fence = fence_for(text);
            writeln!(out, "{fence}{lang}\n{text}\n{fence}")
        }
        None => writeln!(out, "{}", shift_headings(text, 2)),
    }
}

/// The head of a markdown export: the session's title as the one `#`
/// heading, then what identifies it; its secrets replaced when `redact`
/// (a title or a directory can hold one as well as any row).
pub fn title_block(session: &Session, redact: bool) -> String {
    if redact {
        // line 0: the title block, which no line of the file is
        crate::redact::set_row(Some((0, 0)));
    }
    // a title, a directory or a branch is text, not markdown: a prompt's
    // `<img …>` or `[x](javascript:…)` is shown as written, not rendered.
    // Redacted first: an escape inside a secret hid it from its rule.
    let clean = |s: &str| {
        let words = sanitize(s).split_whitespace().collect::<Vec<_>>().join(" ");
        if redact {
            markdown_literal(&crate::redact::active().redact(&words))
        } else {
            markdown_literal(&words)
        }
    };
    let m = &session.meta;
    let title = session
        .title()
        .map(clean)
        .unwrap_or_else(|| "Session".into());
    let mut out = format!("# {title}\n\n");
    let mut field = |name: &str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            out.push_str(&format!("- **{name}:** {v}\n"));
        }
    };
    field("Session", m.session_ids.last().map(|s| clean(s)));
    field("Directory", m.cwd.as_deref().map(clean));
    field("Branch", m.git_branch.as_deref().map(clean));
    field("Model", m.model.as_deref().map(clean));
    field("Started", m.started.map(format_iso));
    field("Last activity", m.last_activity.map(format_iso));
    out.push('\n');
    out
}

/// `s` as markdown that renders as `s`: every character that can open
/// or close an inline construct (emphasis, code, links, images, HTML,
/// tables, entities) escaped with a backslash.
pub fn markdown_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '!' | '&' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Markdown with its ATX headings moved `by` levels down (at most `######`),
/// code blocks left alone, and a code fence or an HTML block that runs to
/// its end tag (`<!--`, `<script>`, `<pre>`, `<?php`, `<![CDATA[`...) left
/// open at its end closed: an answer cut off inside a code block
/// (interrupted, or out of tokens) made every row after it in the file one
/// code block.
pub fn shift_headings(text: &str, by: usize) -> std::borrow::Cow<'_, str> {
    if !text.contains(['#', '`', '~', '<']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut fence: Option<(char, usize)> = None;
    let mut html: Option<&'static str> = None;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&markdown_line(line, by, &mut fence, &mut html));
    }
    if fence.is_some() || html.is_some() {
        // closed only where a row after it would be swallowed and the
        // closing mends that, as a renderer reads it (a fence in a list
        // item ends with the item: a closing fence after it would open one)
        let mut closed = out.clone();
        if let Some((c, k)) = fence {
            closed.push('\n');
            closed.extend(std::iter::repeat_n(c, k));
        }
        if let Some(end) = html {
            closed.push('\n');
            closed.push_str(end);
        }
        if swallows_what_follows(&out) && !swallows_what_follows(&closed) {
            out = closed;
        }
    }
    if out == text {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a heading written after `text` (a blank line between) would
/// not be read as one: `text` leaves a block open that takes it in.
fn swallows_what_follows(text: &str) -> bool {
    use pulldown_cmark::{Event, HeadingLevel, Parser, TagEnd};
    let probe = format!("{text}\n\n## next\n");
    !matches!(
        Parser::new(&probe).last(),
        Some(Event::End(TagEnd::Heading(HeadingLevel::H2)))
    )
}

/// The HTML blocks of CommonMark that run on past blank lines, to a line
/// that holds their end (kinds 1 to 5): how one starts, and what ends it.
/// A `<script>`, `<pre>`, `<style>` or `<textarea>` ends at the end tag of
/// any of the four (its own is what closes it here).
const HTML_BLOCKS: [(&str, &str); 8] = [
    ("<!--", "-->"),
    ("<![CDATA[", "]]>"),
    ("<?", "?>"),
    ("<script", "</script>"),
    ("<pre", "</pre>"),
    ("<style", "</style>"),
    ("<textarea", "</textarea>"),
    ("<!", ">"),
];

/// The end of the HTML block `t` (a line, its indent taken off) starts,
/// when it starts one.
fn html_block_start(t: &str) -> Option<(usize, &'static str)> {
    // (most lines: no copy made to look at their case)
    if !t.starts_with('<') {
        return None;
    }
    // tag names in any case; `<![CDATA[` as it is
    let head = t.get(..12).unwrap_or(t);
    let lower = head.to_ascii_lowercase();
    HTML_BLOCKS.iter().find_map(|&(start, end)| {
        let seen = if start == "<![CDATA[" { head } else { &lower };
        let rest = seen.strip_prefix(start)?;
        let fits = match start {
            // a tag's name ends at a space, `>` or the line's end
            "<script" | "<pre" | "<style" | "<textarea" => rest
                .chars()
                .next()
                .is_none_or(|c| c == '>' || c.is_ascii_whitespace()),
            "<!" => rest.starts_with(|c: char| c.is_ascii_alphabetic()),
            _ => true,
        };
        fits.then_some((start.len(), end))
    })
}

/// Whether `line` ends the HTML block that `end` closes.
fn html_block_ends(line: &str, end: &str) -> bool {
    if end.starts_with("</") {
        let lower = line.to_ascii_lowercase();
        ["</script>", "</pre>", "</style>", "</textarea>"]
            .iter()
            .any(|e| lower.contains(e))
    } else {
        line.contains(end)
    }
}

/// One line of [`shift_headings`], given the code fence and the HTML block
/// open before it (CommonMark's rules, at the top level).
fn markdown_line<'t>(
    line: &'t str,
    by: usize,
    fence: &mut Option<(char, usize)>,
    html: &mut Option<&'static str>,
) -> std::borrow::Cow<'t, str> {
    let t = line.trim_start_matches(' ');
    let indent = line.len() - t.len();
    if let Some(end) = *html {
        if html_block_ends(line, end) {
            *html = None;
        }
        return line.into();
    }
    let run = |c: char| t.chars().take_while(|&x| x == c).count();
    let (ticks, tildes) = (run('`'), run('~'));
    if indent < 4 && (ticks >= 3 || tildes >= 3) {
        let (c, k) = if ticks >= 3 {
            ('`', ticks)
        } else {
            ('~', tildes)
        };
        let info = &t[k..];
        match *fence {
            // a closing fence: as long, of the same mark, nothing after
            Some((open, len)) if open == c && k >= len && info.trim().is_empty() => *fence = None,
            Some(_) => {}
            // a backtick fence's info string holds no backtick (else it
            // is code inline: ```a```)
            None if c == '`' && info.contains('`') => {}
            None => *fence = Some((c, k)),
        }
        return line.into();
    }
    if fence.is_some() || indent >= 4 {
        return line.into();
    }
    if let Some((at, end)) = html_block_start(t) {
        // (a type-1 tag's end may be on its own line: `<pre></pre>`)
        let rest = if end.starts_with("</") { t } else { &t[at..] };
        *html = (!html_block_ends(rest, end)).then_some(end);
        return line.into();
    }
    let hashes = run('#');
    let is_heading = (1..=6).contains(&hashes)
        && t[hashes..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t');
    if !is_heading {
        return line.into();
    }
    let mut out = String::with_capacity(line.len() + by);
    out.push_str(&line[..indent]);
    out.push_str(&"#".repeat((hashes + by).min(6)));
    out.push_str(&t[hashes..]);
    out.into()
}

/// A backtick fence longer than any run of backticks in `text`.
pub fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

#[derive(Serialize)]
struct JsonRow<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    uuid: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp: Option<String>,
    line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<&'a str>,
    text: &'a str,
    /// `text` is a JSON string as `crate::json_out` writes it, quotes
    /// included.
    #[serde(skip)]
    written: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_use_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<JsonText<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
    /// A result whose call is not in the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    orphan: bool,
}

fn write_json(
    session: &Session,
    row: Row<'_>,
    agent: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    let mut reader = session.take_reader();
    push_json(session, &mut reader, row, agent, &mut line);
    session.put_reader(reader);
    out.write_all(&line)
}

/// Appends a JSON row (and its newline) to `out`, reading texts left in
/// the files with `reader`.
fn push_json(
    session: &Session,
    reader: &mut LineReader,
    row: Row<'_>,
    agent: Option<&str>,
    out: &mut Vec<u8>,
) {
    // a text left in the file is copied as written when json_out writes
    // it so: not decoded, nor escaped again
    let (source, text) = json_text_of(row);
    let written = text.and_then(|t| session.written_json(reader, source, t));
    if let Some(w) = written {
        return json_row(session, None, row, agent, Some(w)).write(out);
    }
    // every text through `reader`: the session's own reader for this
    // thread is the one checked out
    let input = match row {
        Row::Item(
            i @ Item {
                detail: Detail::Call(c),
                ..
            },
        ) => Some(session.text_back_in(reader, (i.source, i.line), &c.input)),
        _ => None,
    };
    let text = match (text, &input) {
        (Some(t), _) => session.text_back_in(reader, (source, row_line(row)), t),
        (None, Some(input)) => std::borrow::Cow::Owned(pretty_json(input)),
        (None, None) => row.text(session),
    };
    let mut j = json_row(session, input.as_deref(), row, agent, None);
    j.text = &text;
    out.reserve(j.text.len() + 256);
    j.write(out);
}

/// [`push_json`] with every string that comes from the session redacted:
/// the text, the call's input (its values and keys, and the value of a
/// key that names a secret), the agent's name.
pub(super) fn push_json_redacted(
    session: &Session,
    reader: &mut LineReader,
    row: Row<'_>,
    agent: Option<&str>,
    out: &mut Vec<u8>,
) {
    let r = crate::redact::active();
    let (source, text) = json_text_of(row);
    // a short text no rule would search is copied as it is written
    // a text is redacted where it is written when it can be: neither
    // decoded nor encoded again
    let written = text.and_then(|t| session.written_json(reader, source, t));
    let agent = agent.map(|a| r.redact(a));
    if let Some(w) = written {
        if let Some(red) = r.redact_json_string(w) {
            return json_row(session, None, row, agent.as_deref(), Some(&red)).write(out);
        }
        // escapes (colour codes, mostly): read as text to be redacted, and
        // copied as written when it holds no secret
        if let Ok(t) = serde_json::from_str::<String>(w) {
            return match r.redact(&t) {
                std::borrow::Cow::Borrowed(_) => {
                    json_row(session, None, row, agent.as_deref(), Some(w)).write(out)
                }
                std::borrow::Cow::Owned(red) => {
                    let mut j = json_row(session, None, row, agent.as_deref(), None);
                    j.text = &red;
                    j.write(out)
                }
            };
        }
    }
    let input = match row {
        Row::Item(
            i @ Item {
                detail: Detail::Call(c),
                ..
            },
        ) => Some(session.text_back_in(reader, (i.source, i.line), &c.input)),
        _ => None,
    };
    // a call's input is redacted once, as JSON; its text is made of that
    let input = input.map(|i| r.redact_json(&i).into_owned());
    let text = match (text, &input) {
        (Some(t), _) => {
            let t = session.text_back_in(reader, (source, row_line(row)), t);
            std::borrow::Cow::Owned(r.redact(&t).into_owned())
        }
        (None, Some(input)) => {
            let t = pretty_json(input);
            crate::redact::count_markers(&t);
            std::borrow::Cow::Owned(t)
        }
        (None, None) => std::borrow::Cow::Owned(r.redact(&row.text(session)).into_owned()),
    };
    let mut j = json_row(session, input.as_deref(), row, agent.as_deref(), None);
    j.text = &text;
    j.write(out);
}

/// The text a JSON row of `row` holds when it is a text of the model as it
/// is (a result keeps its `<tool_use_error>` wrapper here), and the source
/// it is of; else the row's text is made ([`Row::text`]).
fn json_text_of<'a>(row: Row<'a>) -> (u16, Option<&'a Text>) {
    match row {
        Row::Result(_, _, r) => (r.source, Some(&r.text)),
        Row::Item(i) => match &i.detail {
            Detail::OrphanResult(r) => (r.source, Some(&r.text)),
            Detail::Call(_) => (i.source, None),
            _ if i.kind == Kind::Thinking && (i.flags.redacted || i.flags.thinking_hidden) => {
                (i.source, None)
            }
            _ => (i.source, Some(&i.text)),
        },
    }
}

fn row_line(row: Row<'_>) -> u32 {
    match row {
        Row::Result(_, _, r) => r.line,
        Row::Item(Item {
            detail: Detail::OrphanResult(r),
            ..
        }) => r.line,
        Row::Item(i) => i.line,
    }
}

/// The JSON row of `row` with `input` (a call's), and its text as written
/// when given (else set by the caller).
fn json_row<'a>(
    session: &'a Session,
    input: Option<&'a str>,
    row: Row<'a>,
    agent: Option<&'a str>,
    written: Option<&'a str>,
) -> JsonRow<'a> {
    let source_path = |s: u16| -> Option<&str> {
        if s == 0 {
            return None;
        }
        session.sources.get(s as usize)?.path.as_deref()?.to_str()
    };
    let text = written.unwrap_or("");
    let written = written.is_some();
    match row {
        Row::Item(i) => {
            let call = match &i.detail {
                Detail::Call(c) => Some(c.as_ref()),
                _ => None,
            };
            let orphan = match &i.detail {
                Detail::OrphanResult(r) => Some(r.as_ref()),
                _ => None,
            };
            JsonRow {
                kind: i.kind.as_str(),
                uuid: i.uuid.as_deref(),
                timestamp: i.timestamp.map(format_iso),
                line: i.line,
                file: source_path(i.source),
                agent,
                text,
                written,
                tool_name: call.map(|c| c.name.as_str()),
                tool_use_id: call.map(|c| c.id.as_str()).or(orphan
                    .map(|r| r.tool_use_id.as_str())
                    .filter(|id| !id.is_empty())),
                category: call.map(|c| c.category.as_str()),
                input: input.filter(|_| call.is_some()).map(JsonText),
                is_error: match (i.kind, orphan) {
                    (_, Some(r)) => Some(r.is_error),
                    (Kind::System | Kind::Unreadable, _) if i.flags.error => Some(true),
                    _ => None,
                },
                orphan: orphan.is_some(),
            }
        }
        Row::Result(_, c, r) => JsonRow {
            kind: Kind::ToolResult.as_str(),
            uuid: r.uuid.as_deref(),
            timestamp: r.timestamp.map(format_iso),
            line: r.line,
            file: source_path(r.source),
            agent,
            text,
            written,
            tool_name: Some(c.name.as_str()),
            tool_use_id: Some(c.id.as_str()),
            category: Some(c.category.as_str()),
            input: None,
            is_error: Some(r.is_error),
            orphan: false,
        },
    }
}

impl JsonRow<'_> {
    /// The row as one line: the bytes `json_out::to_writer` writes for it
    /// (its `Serialize`), and a newline. Written by hand because strings are
    /// most of an export and [`crate::json_out::push_str`] writes them in
    /// one pass.
    fn write(&self, out: &mut Vec<u8>) {
        use crate::json_out::{push_raw, push_str};
        let mut sep = b'{';
        // the names, and the values of ccv's own making (a kind, a
        // category, a time), need no escape: they are copied, not scanned
        let plain = |out: &mut Vec<u8>, s: &str| {
            debug_assert!(
                s.bytes()
                    .all(|c| c.is_ascii_graphic() && c != b'"' && c != b'\\')
            );
            out.push(b'"');
            out.extend_from_slice(s.as_bytes());
            out.push(b'"');
        };
        let mut field = |out: &mut Vec<u8>, name: &str| {
            out.push(std::mem::replace(&mut sep, b','));
            plain(out, name);
            out.push(b':');
        };
        field(out, "kind");
        plain(out, self.kind);
        if let Some(v) = self.uuid {
            field(out, "uuid");
            push_str(out, v);
        }
        if let Some(v) = &self.timestamp {
            field(out, "timestamp");
            plain(out, v);
        }
        field(out, "line");
        let _ = write!(out, "{}", self.line);
        for (name, v) in [("file", self.file), ("agent", self.agent)] {
            if let Some(v) = v {
                field(out, name);
                push_str(out, v);
            }
        }
        field(out, "text");
        if self.written {
            out.extend_from_slice(self.text.as_bytes());
        } else {
            push_str(out, self.text);
        }
        for (name, v) in [
            ("tool_name", self.tool_name),
            ("tool_use_id", self.tool_use_id),
        ] {
            if let Some(v) = v {
                field(out, name);
                push_str(out, v);
            }
        }
        if let Some(v) = self.category {
            field(out, "category");
            plain(out, v);
        }
        if let Some(JsonText(raw)) = self.input {
            field(out, "input");
            push_raw(out, raw);
        }
        if let Some(e) = self.is_error {
            field(out, "is_error");
            out.extend_from_slice(if e { b"true" } else { b"false" });
        }
        if self.orphan {
            field(out, "orphan");
            out.extend_from_slice(b"true");
        }
        out.extend_from_slice(b"}\n");
    }
}

/// A JSON text written as it is (a call's `input`).
#[derive(Clone, Copy)]
struct JsonText<'a>(&'a str);

impl Serialize for JsonText<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // the writer above copies it; this is its definition (see the tests)
        match RawValue::from_string(self.0.to_owned()) {
            Ok(raw) => raw.serialize(s),
            Err(_) => s.serialize_none(),
        }
    }
}

fn pretty_json(raw: &str) -> String {
    crate::json_pretty::pretty_any(raw).unwrap_or_else(|| raw.to_owned())
}

#[cfg(test)]
mod tests {
    use super::{JsonRow, JsonText};
    use serde_json::value::RawValue;

    /// The hand-written row is the row serde writes: every field present
    /// and absent, and strings holding every character that is escaped.
    #[test]
    fn a_json_row_is_written_as_serde_writes_it() {
        let awkward =
            "q\"b\\s\n\r\t\u{8}\u{c}\u{0}\u{1b}[31m\u{7f}\u{85}\u{9b}\u{202e}é👇 plain text";
        let input = RawValue::from_string(format!("{{\"k\":{}}}", serde_json::json!(awkward)))
            .expect("raw");
        let full = JsonRow {
            kind: "tool_call",
            uuid: Some(awkward),
            timestamp: Some("2025-01-01T00:00:00.000Z".into()),
            line: 4_000_000_000,
            file: Some(awkward),
            agent: Some(awkward),
            text: awkward,
            written: false,
            tool_name: Some(awkward),
            tool_use_id: Some(awkward),
            category: Some("shell"),
            input: Some(JsonText(input.get())),
            is_error: Some(false),
            orphan: true,
        };
        let bare = JsonRow {
            kind: "user",
            uuid: None,
            timestamp: None,
            line: 0,
            file: None,
            agent: None,
            text: "",
            written: false,
            tool_name: None,
            tool_use_id: None,
            category: None,
            input: None,
            is_error: Some(true),
            orphan: false,
        };
        for row in [full, bare] {
            let mut fast = Vec::new();
            row.write(&mut fast);
            let mut slow = Vec::new();
            crate::json_out::to_writer(&mut slow, &row).expect("write");
            slow.push(b'\n');
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&slow)
            );
        }
    }
}
