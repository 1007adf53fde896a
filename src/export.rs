//! The labelled transcript: `ccv export` and the TUI's copy share this.
//!
//! Text and markdown go to terminals and chats, so every byte that came from
//! the session passes through [`sanitize`]; JSON escapes control characters
//! itself.

use crate::model::classify::export_label;
use crate::model::item::{Detail, Item, Kind, ToolCall, ToolResult};
use crate::model::session::Session;
use crate::model::text::sanitize;
use crate::model::time::format_iso;
use crate::model::transcript::Transcript;
use serde::Serialize;
use serde_json::value::RawValue;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Markdown,
    Json,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub format: Format,
    pub no_thinking: bool,
    pub no_tools: bool,
    pub no_subagents: bool,
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

    /// `User`, `Tool Call`, `Tool Error`...
    pub fn label(&self) -> &'static str {
        match self {
            Row::Item(i) => match &i.detail {
                Detail::OrphanResult(r) => export_label(Kind::ToolResult, r.is_error, false),
                _ => export_label(i.kind, i.flags.error, i.flags.synthetic),
            },
            Row::Result(_, _, r) => export_label(Kind::ToolResult, r.is_error, false),
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
        match self.tool_name() {
            Some(n) => format!("[{}] {}", self.label(), sanitize(n).replace('\n', " ")),
            None => format!("[{}]", self.label()),
        }
    }

    /// The row's content as plain (unsanitized) text.
    pub fn text(&self) -> std::borrow::Cow<'a, str> {
        use std::borrow::Cow;
        match self {
            Row::Item(i) => match &i.detail {
                Detail::Call(c) => Cow::Owned(pretty_json(c.input.get())),
                Detail::OrphanResult(r) => Cow::Borrowed(r.text.as_str()),
                _ if i.kind == Kind::Thinking && i.flags.redacted => {
                    Cow::Borrowed("redacted thinking")
                }
                _ if i.kind == Kind::Thinking && i.flags.thinking_hidden => {
                    Cow::Borrowed("thinking hidden")
                }
                _ => Cow::Borrowed(i.text.as_str()),
            },
            Row::Result(_, _, r) => Cow::Borrowed(r.text.as_str()),
        }
    }
}

/// Visits the rows of a transcript in reading order: each call is followed
/// by its result, then (unless `no_subagents`) by its subagent's rows.
/// `agent` is the id of the subagent the rows belong to.
pub fn visit_rows<'a>(
    session: &'a Session,
    transcript: &'a Transcript,
    agent: Option<&'a str>,
    opts: &Options,
    f: &mut dyn FnMut(Row<'a>, Option<&'a str>),
) {
    for item in &transcript.items {
        visit_item(session, item, agent, opts, f);
    }
}

/// The rows of one item (a call brings its result and subagent along).
pub fn visit_item<'a>(
    session: &'a Session,
    item: &'a Item,
    agent: Option<&'a str>,
    opts: &Options,
    f: &mut dyn FnMut(Row<'a>, Option<&'a str>),
) {
    if opts.no_thinking && item.kind == Kind::Thinking {
        return;
    }
    if opts.no_tools && matches!(item.kind, Kind::ToolCall | Kind::ToolResult) {
        return;
    }
    f(Row::Item(item), agent);
    if let Detail::Call(c) = &item.detail {
        if let Some(r) = &c.result {
            f(Row::Result(item, c, r), agent);
        }
        if let (Some(a), false) = (c.agent, opts.no_subagents) {
            if let Some(sub) = session.agents.get(a as usize) {
                visit_rows(session, &sub.transcript, Some(&sub.id), opts, f);
            }
        }
    }
}

/// The whole session: the main transcript, then subagents no call links to.
pub fn visit_session<'a>(
    session: &'a Session,
    opts: &Options,
    f: &mut dyn FnMut(Row<'a>, Option<&'a str>),
) {
    visit_rows(session, &session.main, None, opts, f);
    if !opts.no_subagents {
        for a in session.unlinked_agents() {
            let sub = &session.agents[a as usize];
            visit_rows(session, &sub.transcript, Some(&sub.id), opts, f);
        }
    }
}

pub fn export(session: &Session, opts: &Options, out: &mut dyn Write) -> io::Result<()> {
    let mut err = Ok(());
    let mut first = true;
    visit_session(session, opts, &mut |row, agent| {
        if err.is_ok() {
            err = write_row(session, row, agent, opts.format, first, out);
            first = false;
        }
    });
    err?;
    out.flush()
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
        Format::Text => write_text(row, agent, first, out),
        Format::Markdown => write_markdown(row, agent, first, out),
        Format::Json => write_json(session, row, agent, out),
    }
}

fn write_text(
    row: Row<'_>,
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
    let text = row.text();
    let text = sanitize(&text);
    let text = text.trim_end_matches('\n');
    if !text.is_empty() {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

fn write_markdown(
    row: Row<'_>,
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
    match agent {
        Some(a) => writeln!(out, "### {label} *(subagent {})*\n", sanitize(a))?,
        None => writeln!(out, "### {label}\n")?,
    }
    let text = row.text();
    let text = sanitize(&text);
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
        None => writeln!(out, "{text}"),
    }
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
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_use_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
}

fn write_json(
    session: &Session,
    row: Row<'_>,
    agent: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let source_path = |s: u16| -> Option<&str> {
        if s == 0 {
            return None;
        }
        session.sources.get(s as usize)?.path.as_deref()?.to_str()
    };
    let text = row.text();
    let j = match row {
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
                text: &text,
                tool_name: call.map(|c| c.name.as_str()),
                tool_use_id: call.map(|c| c.id.as_str()),
                category: call.map(|c| c.category.as_str()),
                input: call.map(|c| c.input.as_ref()),
                is_error: match (i.kind, orphan) {
                    (_, Some(r)) => Some(r.is_error),
                    (Kind::System | Kind::Unreadable, _) if i.flags.error => Some(true),
                    _ => None,
                },
            }
        }
        Row::Result(_, c, r) => JsonRow {
            kind: Kind::ToolResult.as_str(),
            uuid: r.uuid.as_deref(),
            timestamp: r.timestamp.map(format_iso),
            line: r.line,
            file: source_path(r.source),
            agent,
            text: &text,
            tool_name: Some(c.name.as_str()),
            tool_use_id: Some(c.id.as_str()),
            category: Some(c.category.as_str()),
            input: None,
            is_error: Some(r.is_error),
        },
    };
    serde_json::to_writer(&mut *out, &j).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

fn pretty_json(raw: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| raw.to_owned()),
        Err(_) => raw.to_owned(),
    }
}
