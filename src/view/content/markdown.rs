//! Assistant markdown as styled, wrapped lines.
//!
//! A single pass over pulldown-cmark events. Containers (block quotes,
//! list items) form a stack; each contributes a prefix to the lines of
//! the blocks inside it: the first line of an item gets its bullet, the
//! following ones a hanging indent of the same width.

use super::wrap::{self, display_width, spans_width, wrap_code, wrap_spans};
use super::{code, table};
use crate::model::text::sanitize;
use crate::style::highlight::highlight;
use crate::style::theme::{self, Theme};
use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

enum Container {
    Quote,
    List { next: Option<u64> },
    Item { marker: String, used: bool },
}

struct Table {
    aligns: Vec<Alignment>,
    rows: Vec<Vec<table::Cell>>,
    header_rows: usize,
    row: Vec<table::Cell>,
    cell: table::Cell,
}

struct Md {
    t: &'static Theme,
    width: usize,
    out: Vec<Line<'static>>,
    stack: Vec<Container>,
    inline: Vec<Span<'static>>,
    styles: Vec<Style>,
    links: Vec<(String, usize)>,
    blank_pending: bool,
    code: Option<(String, String)>,
    table: Option<Table>,
    html_block: bool,
    /// Where in `inline` the soft breaks of the text are (see
    /// [`Md::join_cjk`]).
    soft_breaks: Vec<usize>,
}

/// See [`super::markdown`].
pub fn markdown(text: &str, width: u16) -> Vec<Line<'static>> {
    let text = sanitize(text);
    let mut md = Md {
        t: theme::current(),
        width: usize::from(width).max(1),
        out: Vec::new(),
        stack: Vec::new(),
        inline: Vec::new(),
        styles: Vec::new(),
        links: Vec::new(),
        blank_pending: false,
        code: None,
        table: None,
        html_block: false,
        soft_breaks: Vec::new(),
    };
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for ev in Parser::new_ext(&text, opts) {
        md.event(ev);
    }
    md.flush();
    if let Some((lang, body)) = md.code.take() {
        md.code_block(&lang, &body);
    }
    if md.out.is_empty() {
        md.out.push(Line::default());
    }
    md.out
}

impl Md {
    fn style(&self) -> Style {
        let base = if self.stack.iter().any(|c| matches!(c, Container::Quote)) {
            self.t.quote
        } else {
            Style::default()
        };
        self.styles.iter().fold(base, |acc, s| acc.patch(*s))
    }

    fn push(&mut self, text: impl Into<String>, style: Style) {
        let text: String = text.into();
        match &mut self.table {
            // a cell is one paragraph, wrapped to its column: no breaks or tabs
            Some(tb) => tb
                .cell
                .push(Span::styled(text.replace(['\n', '\t'], " "), style)),
            None => self.inline.push(Span::styled(text, style)),
        }
    }

    /// Prefixes for the next block's first and following lines. Marks the
    /// innermost unused item marker as used. Deep nesting is capped at
    /// half the width so text always has room.
    fn prefixes(&mut self, consume: bool) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        let mut used_w = 0;
        let cap = self.width / 2;
        for c in &mut self.stack {
            let (f, r) = match c {
                Container::Quote => {
                    let s = Span::styled("│ ", self.t.quote);
                    (s.clone(), s)
                }
                Container::List { .. } => continue,
                Container::Item { marker, used } => {
                    let pad = Span::raw(" ".repeat(display_width(marker)));
                    if *used || !consume {
                        (pad.clone(), pad)
                    } else {
                        *used = true;
                        (
                            Span::styled(marker.clone(), self.t.dim.add_modifier(Modifier::BOLD)),
                            pad,
                        )
                    }
                }
            };
            used_w += display_width(&r.content);
            if used_w > cap {
                break;
            }
            first.push(f);
            rest.push(r);
        }
        (first, rest)
    }

    fn blank(&mut self) {
        if std::mem::take(&mut self.blank_pending) && !self.out.is_empty() {
            let (_, rest) = self.prefixes(false);
            let mut spans: Vec<Span<'static>> = rest
                .into_iter()
                .filter(|s| !s.content.trim().is_empty())
                .collect();
            if let Some(last) = spans.last_mut() {
                last.content = last.content.trim_end().to_string().into();
            }
            self.out.push(Line::from(spans));
        }
    }

    /// Emits the pending inline text as a wrapped block.
    fn flush(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        self.join_cjk();
        let inline = std::mem::take(&mut self.inline);
        self.blank();
        let (first, rest) = self.prefixes(true);
        self.out
            .extend(wrap_spans(&inline, self.width, &first, &rest));
    }

    fn event(&mut self, ev: Event<'_>) {
        if let Some((_, body)) = &mut self.code {
            match ev {
                Event::Text(t) => body.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    if let Some((lang, body)) = self.code.take() {
                        self.code_block(&lang, &body);
                    }
                }
                _ => {}
            }
            return;
        }
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                let t = if self.html_block {
                    t.trim_end_matches('\n')
                } else {
                    &t
                };
                self.push(t.to_string(), self.style())
            }
            Event::Code(t) => self.push(t.to_string(), self.style().patch(self.t.code)),
            Event::Html(t) | Event::InlineHtml(t) => {
                let t = if self.html_block {
                    t.trim_end_matches('\n')
                } else {
                    &t
                };
                let sep = if self.html_block && !self.inline.is_empty() {
                    "\n"
                } else {
                    ""
                };
                self.push(format!("{sep}{t}"), self.style().patch(self.t.dim))
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => self.push(t.to_string(), self.style()),
            Event::FootnoteReference(t) => self.push(format!("[^{t}]"), self.t.dim),
            Event::SoftBreak => {
                if self.table.is_none() {
                    self.soft_breaks.push(self.inline.len());
                }
                self.push(" ", self.style())
            }
            Event::HardBreak => self.push("\n", self.style()),
            Event::Rule => {
                self.flush();
                self.blank();
                let (first, _) = self.prefixes(true);
                let avail = self.width.saturating_sub(spans_width(&first)).max(1);
                let mut spans = first;
                spans.push(Span::styled("─".repeat(avail), self.t.dim));
                self.out.push(Line::from(spans));
                self.blank_pending = true;
            }
            Event::TaskListMarker(done) => {
                self.push(if done { "[x] " } else { "[ ] " }, self.t.dim)
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let inline_style = |s: Style| Some(s);
        let pushed = match tag {
            Tag::Emphasis => inline_style(Style::default().add_modifier(Modifier::ITALIC)),
            Tag::Strong => inline_style(Style::default().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => {
                inline_style(Style::default().add_modifier(Modifier::CROSSED_OUT))
            }
            Tag::Link { ref dest_url, .. } => {
                self.links.push((dest_url.to_string(), self.inline_len()));
                inline_style(self.t.link)
            }
            Tag::Image { ref dest_url, .. } => {
                self.push("[image: ", self.t.dim);
                self.links.push((dest_url.to_string(), usize::MAX));
                inline_style(self.t.link)
            }
            _ => None,
        };
        if let Some(s) = pushed {
            self.styles.push(s);
            return;
        }
        // Every other tag starts a block: finish the text before it.
        self.flush();
        match tag {
            Tag::Heading { level, .. } => {
                let n = level as usize;
                self.styles.push(self.t.heading);
                self.push(
                    format!("{} ", "#".repeat(n)),
                    self.t.heading.add_modifier(Modifier::DIM),
                );
            }
            Tag::BlockQuote(_) => {
                // the gap before a quote belongs to the outer level
                self.blank();
                self.stack.push(Container::Quote)
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                        .next()
                        .unwrap_or("")
                        .to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::HtmlBlock => self.html_block = true,
            Tag::List(start) => {
                self.blank();
                self.stack.push(Container::List { next: start })
            }
            Tag::Item => {
                let depth = self
                    .stack
                    .iter()
                    .filter(|c| matches!(c, Container::List { .. }))
                    .count();
                let marker = match self.stack.iter_mut().rev().find_map(|c| match c {
                    Container::List { next } => Some(next),
                    _ => None,
                }) {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n = n.saturating_add(1);
                        m
                    }
                    _ => ["• ", "◦ ", "▪ "][depth.saturating_sub(1) % 3].to_string(),
                };
                self.stack.push(Container::Item {
                    marker,
                    used: false,
                });
            }
            Tag::Table(aligns) => {
                self.table = Some(Table {
                    aligns,
                    rows: Vec::new(),
                    header_rows: 0,
                    row: Vec::new(),
                    cell: Vec::new(),
                })
            }
            _ => {}
        }
    }

    /// A line break in the source between two Chinese or Japanese
    /// characters joins them with nothing, not with the space it is
    /// elsewhere (as browsers do): those languages put no space between
    /// words, and a paragraph written over several lines showed one at each
    /// line's end.
    fn join_cjk(&mut self) {
        let breaks = std::mem::take(&mut self.soft_breaks);
        for at in breaks {
            let before = self.inline.get(..at).and_then(|s| {
                s.iter()
                    .rev()
                    .find_map(|span| span.content.chars().next_back())
            });
            let after = self
                .inline
                .get(at + 1..)
                .and_then(|s| s.iter().find_map(|span| span.content.chars().next()));
            if before.is_some_and(wrap::cjk_breaks)
                && after.is_some_and(wrap::cjk_breaks)
                && let Some(span) = self.inline.get_mut(at)
                && span.content == " "
            {
                span.content = "".into();
            }
        }
    }

    fn inline_len(&self) -> usize {
        match &self.table {
            Some(tb) => tb.cell.len(),
            None => self.inline.len(),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link => {
                self.styles.pop();
                if let Some((url, from)) = self.links.pop() {
                    let spans = match &self.table {
                        Some(tb) => &tb.cell,
                        None => &self.inline,
                    };
                    let text: String = spans
                        .iter()
                        .skip(from)
                        .map(|s| s.content.as_ref())
                        .collect();
                    if !url.is_empty() && text != url && !url.starts_with('#') {
                        self.push(format!(" ({url})"), self.t.dim);
                    }
                }
            }
            TagEnd::Image => {
                self.styles.pop();
                if let Some((url, _)) = self.links.pop() {
                    self.push(format!("] {url}"), self.t.dim);
                }
            }
            TagEnd::Paragraph => {
                self.flush();
                self.blank_pending = true;
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.styles.pop();
                self.blank_pending = true;
            }
            TagEnd::HtmlBlock => {
                self.flush();
                self.html_block = false;
                self.blank_pending = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.pop_container(|c| matches!(c, Container::Quote));
                self.blank_pending = true;
            }
            TagEnd::List(_) => {
                self.flush();
                self.pop_container(|c| matches!(c, Container::List { .. }));
                if !self
                    .stack
                    .iter()
                    .any(|c| matches!(c, Container::List { .. }))
                {
                    self.blank_pending = true;
                }
            }
            TagEnd::Item => {
                self.flush();
                self.pop_container(|c| matches!(c, Container::Item { .. }));
            }
            TagEnd::TableCell => {
                if let Some(tb) = &mut self.table {
                    let cell = std::mem::take(&mut tb.cell);
                    tb.row.push(cell);
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(tb) = &mut self.table {
                    let row = std::mem::take(&mut tb.row);
                    tb.rows.push(row);
                    if tag == TagEnd::TableHead {
                        tb.header_rows = tb.rows.len();
                    }
                }
            }
            TagEnd::Table => {
                if let Some(tb) = self.table.take() {
                    self.table(tb);
                }
            }
            _ => self.flush(),
        }
    }

    fn pop_container(&mut self, is: impl Fn(&Container) -> bool) {
        if self.stack.last().is_some_and(&is) {
            self.stack.pop();
        }
    }

    fn code_block(&mut self, lang: &str, body: &str) {
        self.blank();
        let (first, rest) = self.prefixes(true);
        let avail = self.width.saturating_sub(spans_width(&rest)).max(4);
        let dim = self.t.dim;
        let label = if lang.is_empty() {
            String::new()
        } else {
            format!(" {lang} ")
        };
        let label_w = display_width(&label);
        let mut top = first;
        top.push(Span::styled("┌", dim));
        if label_w + 1 < avail {
            top.push(Span::styled(label, dim));
            top.push(Span::styled("─".repeat(avail - 1 - label_w), dim));
        } else {
            top.push(Span::styled("─".repeat(avail - 1), dim));
        }
        self.out.push(Line::from(top));
        let mut bar = rest.clone();
        bar.push(Span::styled("│ ", dim));
        for line in highlight(body, lang).iter() {
            let spans = code::spans_of(line);
            self.out.extend(wrap_code(&spans, self.width, &bar, &bar));
        }
        let mut bottom = rest;
        bottom.push(Span::styled(format!("└{}", "─".repeat(avail - 1)), dim));
        self.out.push(Line::from(bottom));
        self.blank_pending = true;
    }

    fn table(&mut self, tb: Table) {
        self.blank();
        let (first, rest) = self.prefixes(true);
        let avail = self.width.saturating_sub(spans_width(&rest));
        let header = Style::default().add_modifier(Modifier::BOLD);
        match table::render(
            &tb.rows,
            tb.header_rows,
            &tb.aligns,
            avail,
            self.t.dim,
            header,
        ) {
            Some(lines) => {
                for (i, spans) in lines.into_iter().enumerate() {
                    let mut line = if i == 0 { first.clone() } else { rest.clone() };
                    line.extend(spans);
                    self.out.push(Line::from(line));
                }
            }
            None => {
                // Too narrow for a grid: one wrapped line per row.
                for (i, row) in tb.rows.into_iter().enumerate() {
                    let mut spans: Vec<Span<'static>> = Vec::new();
                    for (c, cell) in row.into_iter().enumerate() {
                        if c > 0 {
                            spans.push(Span::styled(" │ ", self.t.dim));
                        }
                        spans.extend(cell);
                    }
                    let f = if i == 0 { &first } else { &rest };
                    self.out.extend(wrap_spans(&spans, self.width, f, &rest));
                }
            }
        }
        self.blank_pending = true;
    }
}
