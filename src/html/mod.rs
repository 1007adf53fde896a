//! `ccv export --format html`: one self-contained page. Inline CSS, no
//! script (a Content-Security-Policy forbids any, and every request out of
//! the page); rows coloured and labelled as in the viewer; tool groups,
//! calls, thinking, long outputs, subagents and abandoned branches folded
//! in `<details>`; code highlighted with classes; images embedded.
//!
//! Every string from the session is made safe for a screen (`sanitize`),
//! redacted when asked, then HTML-escaped, in that order, here or in
//! pulldown-cmark's renderer (whose raw-HTML events are turned to text).

mod code;
mod images;
mod markdown;
pub mod nav;

pub use nav::Nav;

use crate::export::Options;
use crate::model::call_facts;
use crate::model::item::{Detail, Item, Kind, ToolCall, ToolResult};
use crate::model::label::{self, Tone};
use crate::model::session::Session;
use crate::model::text::sanitize;
use crate::model::time::format_iso;
use crate::walk::{At, Filters, MAX_DEPTH, SessionExt, Visitor, Walk};
use std::borrow::Cow;
use std::io::{self, Write};

const STYLE: &str = include_str!("style.css");
/// Output lines past which a result is folded under its first lines.
const LONG: usize = 20;

/// Made safe for a terminal as every output is (the page is often printed
/// to one), then `&`, `<`, `>`, `"`, `'` escaped: safe in text and in
/// quoted attributes. Every text of the page goes through here.
pub fn esc(s: &str) -> Cow<'_, str> {
    match crate::model::text::sanitize(s) {
        Cow::Borrowed(s) => html_escape(s),
        Cow::Owned(s) => Cow::Owned(html_escape(&s).into_owned()),
    }
}

fn html_escape(s: &str) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    let special = |b: &u8| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'');
    let Some(first) = bytes.iter().position(special) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + s.len() / 8 + 16);
    let mut last = 0;
    for (i, b) in bytes.iter().enumerate().skip(first) {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        // the specials are ASCII: `i` is a char boundary
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

struct Page<'a> {
    session: &'a Session,
    opts: &'a Options,
    filters: Filters,
    images: images::Images,
    out: String,
    nav: &'a Nav,
    /// Prompts of the main transcript written so far (their anchors).
    prompts: usize,
    /// Inside a subagent's transcript (its prompts are not the session's).
    in_agent: u8,
    /// The groups, branches and subagents open in the page, innermost last.
    open: Vec<Open>,
    /// Each source's file as a row's line reference names it: made safe,
    /// redacted and escaped once, not for every row.
    files: Vec<Option<String>>,
    /// Where the page goes, a unit at a time, and the first error.
    sink: &'a mut dyn Write,
    err: io::Result<()>,
}

/// A `<details>` the walk opened, to close when it says.
#[derive(Clone, Copy)]
enum Open {
    Group,
    Branch,
    Agent,
}

/// Writes the page of `session`: the items `filters` show (`opts` says
/// the rest: redaction).
pub fn write(
    session: &Session,
    opts: &Options,
    filters: Filters,
    out: &mut dyn Write,
) -> io::Result<()> {
    write_page(session, opts, filters, &Nav::default(), out)
}

/// [`write`], with the links and script `nav` asks for (the archive's
/// pages).
pub fn write_page(
    session: &Session,
    opts: &Options,
    filters: Filters,
    nav: &Nav,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut p = Page {
        session,
        opts,
        filters,
        images: images::Images::of(session),
        out: String::with_capacity(1 << 16),
        nav,
        prompts: 0,
        in_agent: 0,
        open: Vec::new(),
        files: Vec::new(),
        sink: out,
        err: Ok(()),
    };
    code::new_page();
    p.head();
    p.unit_done();
    // a unit at a time: the page is never held whole
    Walk::new(session, filters).session(&mut p);
    p.out.push_str("</main>\n<footer>Exported by ccv ");
    p.out.push_str(env!("CARGO_PKG_VERSION"));
    if opts.redact {
        p.out.push_str(" · secrets redacted");
    }
    p.out.push_str("</footer>\n");
    if nav.script {
        p.out.push_str("<script>");
        p.out.push_str(nav::SCRIPT);
        p.out.push_str("</script>\n");
    }
    p.out.push_str("</body>\n</html>\n");
    p.unit_done();
    p.err?;
    p.sink.flush()
}

/// `2026-11-24 14:03:07 UTC`: a page is read anywhere, so in UTC, said.
pub fn readable_time(ms: i64) -> String {
    let iso = format_iso(ms);
    match (iso.get(..10), iso.get(11..19)) {
        (Some(d), Some(t)) => format!("{d} {t} UTC"),
        _ => iso,
    }
}

pub use crate::model::text::thousands;

impl Page<'_> {
    /// Session text, made safe and redacted (not yet escaped).
    fn clean<'s>(&self, s: &'s str) -> Cow<'s, str> {
        let safe = sanitize(s);
        if !self.opts.redact {
            return safe;
        }
        match crate::redact::active().redact(&safe) {
            Cow::Borrowed(_) => safe,
            Cow::Owned(o) => Cow::Owned(o),
        }
    }

    /// Session text as escaped HTML.
    fn text(&self, s: &str) -> String {
        esc(&self.clean(s)).into_owned()
    }

    fn head(&mut self) {
        crate::redact::set_row(Some((0, 0)));
        let s = self.session;
        // (a project's folder is named after its working directory, which
        // may hold a token: counted once, as the page's head)
        self.files = s
            .sources
            .iter()
            .map(|src| {
                let p = src.path.as_deref()?;
                Some(esc(&self.clean(&p.to_string_lossy())).into_owned())
            })
            .collect();
        let m = &s.meta;
        let title = s
            .title()
            .map(|t| self.text(t))
            .unwrap_or_else(|| "Session".into());
        let fig = crate::model::figures::Figures::of(s, m.last_activity.unwrap_or(0));
        let mut fields: Vec<(&str, String)> = Vec::new();
        let mut field = |name, v: Option<String>| {
            if let Some(v) = v.filter(|v| !v.is_empty()) {
                fields.push((name, v));
            }
        };
        field("Project", m.cwd.as_deref().map(|c| self.text(c)));
        field("Branch", m.git_branch.as_deref().map(|b| self.text(b)));
        field("Session", m.session_ids.last().map(|i| self.text(i)));
        field("Model", m.model.as_deref().map(|x| self.text(x)));
        field("Started", m.started.map(readable_time));
        field("Last activity", m.last_activity.map(readable_time));
        let t = &fig.tokens;
        if t.total() > 0 {
            field(
                "Tokens",
                Some(format!(
                    "{} in · {} out · {} cache write · {} cache read",
                    thousands(t.input),
                    thousands(t.output),
                    thousands(t.cache_creation),
                    thousands(t.cache_read)
                )),
            );
        }
        // sub-cent costs as `$0.0012`; what has no price is said
        // (its unpriced part names the session's models, as written)
        field(
            "Cost",
            fig.cost
                .describe(&fig.unpriced_models())
                .map(|c| self.text(&c)),
        );
        field(
            "Prompts · tool calls",
            Some(format!("{} · {}", fig.prompts, fig.tool_calls)),
        );
        // counted as the page shows them: a key past the cut is on the
        // page once, in the body (it was counted for the contents too)
        let toc_lines = shown_counted(self.opts.redact, || {
            nav::prompts(s, &self.filters)
                .iter()
                .map(|l| crate::redact::cut_whole(&self.clean(l), nav::TOC_CHARS))
                .collect()
        });
        let nav = self.nav;
        let o = &mut self.out;
        o.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        // nothing leaves the page; a script runs only when it is ours (its hash)
        let script = if nav.script {
            format!("; script-src {}", nav::script_hash())
        } else {
            String::new()
        };
        o.push_str(&format!("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'{script}\">\n"));
        o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        o.push_str(&format!("<title>{title} — ccv</title>\n<style>\n{STYLE}\n"));
        o.push_str(&code::stylesheet());
        o.push_str("</style>\n</head>\n<body>\n<header>\n");
        if !nav.up.is_empty() {
            o.push_str("<nav class=\"up\">");
            for (k, (href, label)) in nav.up.iter().enumerate() {
                if k > 0 {
                    o.push_str(" › ");
                }
                o.push_str(&format!("<a href=\"{}\">{}</a>", esc(href), esc(label)));
            }
            o.push_str("</nav>\n");
        }
        // (the title's second showing: each marker counted as shown)
        if self.opts.redact {
            crate::redact::count_markers(&title);
        }
        o.push_str(&format!("<h1>{title}</h1>\n<dl>\n"));
        for (name, v) in fields {
            o.push_str(&format!("<dt>{name}</dt><dd>{v}</dd>\n"));
        }
        o.push_str("</dl>\n");
        o.push_str(&nav::toc(&toc_lines));
        if nav.script {
            o.push_str(nav::TOOLS);
        }
        o.push_str("</header>\n<main>\n");
    }

    /// A tool group's heading, from the one summary of a group (the
    /// screen's).
    fn write_group(&mut self, at: At, k: u32) {
        let Some(t) = self.session.transcript_checked(at.agent) else {
            return;
        };
        let g = self.session.group_summary(t, k as usize, None);
        let mut summary = format!(
            "{} tool call{}",
            g.calls,
            if g.calls == 1 { "" } else { "s" }
        );
        for (n, k) in &g.tools {
            let n = self.text(n);
            summary.push_str(&if *k > 1 {
                format!(" · {n} ×{k}")
            } else {
                format!(" · {n}")
            });
        }
        if g.failed > 0 {
            summary.push_str(&format!(
                " · <span class=\"err\">{} error{}</span>",
                g.failed,
                if g.failed == 1 { "" } else { "s" }
            ));
        }
        if g.declined > 0 {
            summary.push_str(&format!(" · {} declined", g.declined));
        }
        if g.no_result > 0 {
            summary.push_str(&format!(" · {} without result", g.no_result));
        }
        let time = t
            .items
            .get(at.index as usize)
            .map(|i| self.time(i))
            .unwrap_or_default();
        self.out.push_str(&format!(
            "<details class=\"group\"><summary><span class=\"meta\">{time}<span class=\"label\">▸ Tools</span></span>{summary}</summary>\n<div class=\"members\">\n"
        ));
    }

    fn time(&self, item: &Item) -> String {
        match item.timestamp {
            Some(ms) => {
                let iso = format_iso(ms);
                let hm = iso.get(11..16).unwrap_or("").to_owned();
                format!("<time datetime=\"{iso}\" title=\"{iso}\">{hm}</time>")
            }
            None => "<time></time>".into(),
        }
    }

    fn write_item(&mut self, item: &Item, depth: u8) {
        crate::redact::set_row(Some((item.source, item.line)));
        let l = label::of_item(item);
        let class = tone_class(l.tone);
        let time = self.time(item);
        let note = l
            .note
            .map(|n| format!(" <span class=\"note\">({n})</span>"))
            .unwrap_or_default();
        let line = self.line_ref(item.source, item.line);
        let head = format!(
            "<span class=\"meta\">{time}<span class=\"label\">{} {}</span></span>{note}{line}",
            l.glyph, l.name
        );
        if let Detail::Call(c) = &item.detail {
            self.call(item, c, &head, depth);
            return;
        }
        // a prompt of the session: the table of contents links here
        let anchor = if item.kind == Kind::User && self.in_agent == 0 {
            self.prompts += 1;
            format!(" id=\"prompt-{}\"", self.prompts)
        } else {
            String::new()
        };
        let mut text = self.session.item_text(item);
        // a compaction says how big the conversation was, as on screen
        if let Detail::System(info) = &item.detail
            && let crate::model::item::SystemInfo::CompactBoundary {
                trigger,
                pre_tokens: Some(pre),
                ..
            } = &**info
        {
            let how = trigger
                .as_deref()
                .map(|t| format!("{t}, "))
                .unwrap_or_default();
            text = Cow::Owned(format!("{text} ({how}{} tokens before)", thousands(*pre)));
        }
        let folded = matches!(
            item.kind,
            Kind::Thinking | Kind::Compaction | Kind::Meta | Kind::Unknown | Kind::Unreadable
        ) || matches!(item.kind, Kind::System | Kind::Command)
            && text.trim().contains('\n');
        let body = self.body(item, &text);
        if folded {
            // cut before escaping: an entity cut in two would show
            let first = self.clean(text.lines().find(|l| !l.trim().is_empty()).unwrap_or(""));
            let first: String = first.chars().take(120).collect();
            let first = esc(&first);
            self.out.push_str(&format!(
                "<details class=\"row {class}\"{anchor}><summary>{head}<span class=\"first\">{first}</span></summary><div class=\"body\">{body}</div></details>\n"
            ));
        } else {
            self.out.push_str(&format!(
                "<div class=\"row {class}\"{anchor}>{head}<div class=\"body\">{body}</div></div>\n"
            ));
        }
        if let Detail::OrphanResult(r) = &item.detail {
            self.write_result(r);
        }
    }

    fn body(&mut self, item: &Item, text: &str) -> String {
        let mut b = String::new();
        let text = self.clean(text);
        match item.kind {
            Kind::Assistant | Kind::Thinking | Kind::Compaction if !item.flags.synthetic => {
                markdown::to_html(&text, &mut b)
            }
            _ => markdown::plain(&text, &mut b),
        }
        b.push_str(
            &self
                .images
                .html_for(item.source, item.line, self.opts.redact),
        );
        b
    }

    fn call(&mut self, item: &Item, c: &ToolCall, head: &str, depth: u8) {
        let state = match &c.result {
            None => "no result",
            Some(r) if r.rejected() => "declined",
            Some(r) if r.is_error => "failed",
            Some(_) => "",
        };
        let err = if state == "failed" { " failed" } else { "" };
        let name = self.text(&c.name);
        let summary = self.text(&self.call_summary(item, c));
        let edits = call_facts::edit_counts(c)
            .map(|(add, del)| format!(" (+{add} −{del})"))
            .unwrap_or_default();
        // what the result tells, as the viewer's row says it ("declined"
        // says it was rejected)
        let facts = shown_counted(self.opts.redact, || {
            call_facts::facts(self.session, item, c, self.opts.redact)
        });
        let facts: String = facts
            .iter()
            .filter(|f| *f != "rejected")
            .map(|f| format!(" · {}", self.text(f)))
            .collect();
        // (a call of no summary: its facts alone)
        let facts = match facts.strip_prefix(" · ") {
            Some(alone) if summary.is_empty() => alone.to_owned(),
            _ => facts,
        };
        let mut state_html = String::new();
        if !facts.is_empty() {
            state_html.push_str(&format!(" <span class=\"facts\">{facts}</span>"));
        }
        if !state.is_empty() {
            state_html.push_str(&format!(" <span class=\"state\">{state}</span>"));
        }
        // a call and its subagent link to each other (the walk brings the
        // subagent when it is under its depth and holds anything)
        let to_agent = c
            .agent
            .filter(|_| self.filters.subagents && depth < MAX_DEPTH)
            .and_then(|a| self.session.agents.get(a as usize))
            .filter(|a| !a.transcript.items.is_empty())
            .map(|a| {
                format!(
                    " <a class=\"to\" href=\"#agent-{}\">subagent ↓</a>",
                    nav::id(&a.id)
                )
            })
            .unwrap_or_default();
        let call_id = nav::id(&c.id);
        self.out.push_str(&format!(
            "<details class=\"call{err}\" id=\"call-{call_id}\"><summary>{head} <b>{name}</b> <code>{summary}</code>{edits}{state_html}{to_agent}</summary>\n<div class=\"input\">"
        ));
        self.input(item, c);
        // its result and subagent follow; the walk closes it
        self.out.push_str("</div>\n");
    }

    /// A call's summary; when redacting, made of its redacted input (a
    /// summary is cut, and a key cut first is no longer one).
    fn call_summary(&self, item: &Item, c: &ToolCall) -> String {
        if !self.opts.redact {
            return call_facts::summary(self.session, item, c);
        }
        let session = self.session;
        let s = shown_counted(true, || {
            vec![call_facts::summary_by(
                session,
                item,
                c,
                &|i| match &i.detail {
                    Detail::Call(c) => {
                        let input = session.call_input(i);
                        let input = crate::redact::active().redact_json(&input);
                        Cow::Owned(crate::source::claude::summary::call_summary(
                            &c.name, &input,
                        ))
                    }
                    _ => Cow::Borrowed(i.call_summary()),
                },
            )]
        });
        s.concat()
    }

    /// `L123`, with `ccv FILE:123` to paste in a tooltip: where the row is
    /// in its file.
    fn line_ref(&self, source: u16, line: u32) -> String {
        match self.files.get(source as usize) {
            Some(Some(f)) if line > 0 => {
                format!(" <span class=\"ln\" title=\"ccv {f}:{line}\">L{line}</span>")
            }
            _ => String::new(),
        }
    }

    /// What the call was asked: a command, a diff, a file's content, else
    /// its JSON.
    fn input(&mut self, item: &Item, c: &ToolCall) {
        let v: serde_json::Value =
            serde_json::from_str(&self.session.call_input(item)).unwrap_or_default();
        let s = |k: &str| v.get(k).and_then(|x| x.as_str());
        let path = crate::model::item::named_file(&v).unwrap_or("");
        let mut html = String::new();
        if let Some(cmd) = s("command") {
            // a command reads as it is; highlighting each would cost more
            // than the rest of the page
            html.push_str("<pre class=\"code\">");
            html.push_str(&esc(&self.clean(cmd)));
            html.push_str("</pre>");
        } else if let (Some(old), Some(new)) = (s("old_string"), s("new_string")) {
            match c.result.as_ref().and_then(|r| r.patch()) {
                Some(h) if !self.opts.redact => code::hunks(h, &mut html),
                _ => code::diff(&self.clean(old), &self.clean(new), &mut html),
            }
        } else if let Some(content) = s("content") {
            code::block(&self.clean(content), path, &mut html);
        } else if let Ok(pretty) = serde_json::to_string_pretty(&v) {
            // wrapped: a subagent's prompt is one long string
            html.push_str("<pre class=\"code wrap\">");
            html.push_str(&esc(&self.clean(&pretty)));
            html.push_str("</pre>");
        }
        self.out.push_str(&html);
    }

    fn write_result(&mut self, r: &ToolResult) {
        crate::redact::set_row(Some((r.source, r.line)));
        let class = if r.is_error && !r.rejected() {
            "result error"
        } else {
            "result"
        };
        let message = self.session.result_message(r);
        // saved apart: what Claude read, headed as the viewer heads it
        let saved = crate::model::saved::saved_output(&message);
        if let Some(s) = &saved {
            let note = self.text(&s.note());
            self.out
                .push_str(&format!("<div class=\"note\">{note}</div>\n"));
        }
        let shown = match &saved {
            Some(s) if s.cut => Cow::Owned(format!("{}\n…", s.preview)),
            Some(s) => Cow::Borrowed(s.preview),
            None => Cow::Borrowed(&*message),
        };
        let text = self.clean(&shown).into_owned();
        let lines = text.lines().count();
        if lines > LONG {
            // the first lines, then the rest when opened (not all again)
            let first: String = text.lines().take(3).collect::<Vec<_>>().join("\n");
            let rest: String = text.lines().skip(3).collect::<Vec<_>>().join("\n");
            let (mut head, mut more) = (String::new(), String::new());
            markdown::plain(&first, &mut head);
            markdown::plain(&rest, &mut more);
            more.push_str(&self.images.html_for(r.source, r.line, self.opts.redact));
            let n = thousands((lines - 3) as u64);
            self.out.push_str(&format!(
                "<div class=\"{class}\">{head}<details class=\"long\"><summary>{n} more lines</summary>{more}</details></div>\n"
            ));
        } else {
            let mut body = String::new();
            markdown::plain(&text, &mut body);
            body.push_str(&self.images.html_for(r.source, r.line, self.opts.redact));
            self.out
                .push_str(&format!("<div class=\"{class}\">{body}</div>\n"));
        }
    }

    fn write_agent(&mut self, a: u32) {
        let Some(agent) = self.session.agents.get(a as usize) else {
            return;
        };
        let label = self.text(&agent.label(self.session));
        let back = agent
            .call_of(self.session)
            .map(|c| {
                format!(
                    " <a class=\"to\" href=\"#call-{}\">↑ its call</a>",
                    nav::id(&c.id)
                )
            })
            .unwrap_or_default();
        self.out.push_str(&format!(
            "<details class=\"agent\" id=\"agent-{}\"><summary>{label}{back}</summary>\n<div class=\"members\">\n",
            nav::id(&agent.id)
        ));
    }
}

/// The page is a reader of the one walk: each step written as it comes,
/// each heading a `<details>` closed when the walk says.
impl<'a> Visitor<'a> for Page<'_> {
    fn item(&mut self, at: At, item: &'a Item) {
        self.write_item(item, at.depth);
    }
    fn result(&mut self, _at: At, _call: &'a Item, _c: &'a ToolCall, r: &'a ToolResult) {
        self.write_result(r);
    }
    fn item_done(&mut self, _at: At, item: &'a Item) {
        if matches!(item.detail, Detail::Call(_)) {
            self.out.push_str("</details>\n");
        }
    }
    fn group(&mut self, at: At, group: u32) {
        self.write_group(at, group);
        self.open.push(Open::Group);
    }
    fn branch(&mut self, _at: At, count: u32) {
        self.out.push_str(&format!(
            "<details class=\"branch\"><summary>{} message{} on an earlier branch (rewound or edited)</summary>\n",
            count,
            if count == 1 { "" } else { "s" }
        ));
        self.open.push(Open::Branch);
    }
    fn agent(&mut self, _at: At, agent: u32) {
        self.write_agent(agent);
        self.in_agent += 1;
        self.open.push(Open::Agent);
    }
    fn close(&mut self) {
        match self.open.pop() {
            Some(Open::Group) => self.out.push_str("</div></details>\n"),
            Some(Open::Branch) => self.out.push_str("</details>\n"),
            Some(Open::Agent) => {
                self.in_agent = self.in_agent.saturating_sub(1);
                self.out.push_str("</div></details>\n");
            }
            None => {}
        }
    }
    fn unit_done(&mut self) {
        if self.err.is_ok() {
            self.err = self.sink.write_all(self.out.as_bytes());
        }
        self.out.clear();
    }
}

fn tone_class(t: Tone) -> &'static str {
    match t {
        Tone::User => "user",
        Tone::Assistant => "assistant",
        Tone::Thinking => "thinking",
        Tone::ToolCall => "call",
        Tone::ToolResult => "toolresult",
        Tone::Error => "error",
        Tone::System => "system",
        Tone::Dim => "dim",
        Tone::Unknown => "unknown",
    }
}

/// Texts made of what was redacted whole, then cut (`redact`): counted as
/// the page shows them, each of their markers once, not as their whole
/// was (a key in the part cut off is on the page once, in the body).
fn shown_counted(redact: bool, make: impl FnOnce() -> Vec<String>) -> Vec<String> {
    if !redact {
        return make();
    }
    use crate::redact::{add, count_markers, take_counts, take_log};
    let before = (take_counts(), take_log());
    let made = make();
    let _ = (take_counts(), take_log());
    add(before.0, before.1);
    for t in &made {
        count_markers(t);
    }
    made
}
