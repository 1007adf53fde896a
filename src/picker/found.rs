//! The picker's full-text mode (Ctrl-F): a query typed over every
//! session, hits grouped by session with their snippets, updated as the
//! user types. The search itself runs on a worker of the app; this holds
//! what it found and what is selected, and draws it (no I/O).

use super::format::{fit, relative_time};
use super::scan::SessionInfo;
use crate::search::{Found, Hit, Via};
use crate::style::theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where Enter on a hit goes: the session, and in it the entry's file and
/// line, with the query to highlight and step through (`n` / `N`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jump {
    pub session: PathBuf,
    pub file: PathBuf,
    pub line: u32,
    pub query: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum FoundRow {
    /// A session heading (index of its first hit).
    Session(usize),
    Hit(usize),
}

#[derive(Debug, Default)]
pub struct FullText {
    pub query: crate::prompt::LineEdit,
    hits: Vec<Hit>,
    rows: Vec<FoundRow>,
    /// Index into `rows`; always a `FoundRow::Hit`.
    selected: Option<usize>,
    scroll: std::cell::Cell<usize>,
    /// A search for `query` is under way.
    pub busy: bool,
    pub more: bool,
    pub via: Option<Via>,
    pub error: Option<String>,
    /// Why the index was not used (see `search::Found::note`).
    pub note: Option<String>,
}

impl FullText {
    pub fn new(query: String) -> FullText {
        FullText {
            busy: !query.trim().is_empty(),
            query: crate::prompt::LineEdit::new(&query),
            ..FullText::default()
        }
    }

    pub fn hits(&self) -> &[Hit] {
        &self.hits
    }

    /// Takes what a search found, if it is for the query on screen.
    pub fn apply(&mut self, query: &str, found: Result<Found, String>) {
        if query != self.query.as_str() {
            return;
        }
        self.busy = false;
        let keep = self.selected_hit().map(|h| (h.file.clone(), h.line));
        match found {
            Ok(f) => {
                self.hits = f.hits;
                self.more = f.more;
                self.via = Some(f.via);
                self.note = f.note;
                self.error = None;
            }
            Err(e) => {
                self.hits.clear();
                self.error = Some(e);
            }
        }
        self.group();
        self.selected = keep
            .and_then(|(file, line)| {
                self.rows.iter().position(|r| {
                    matches!(r, FoundRow::Hit(i) if self.hits.get(*i).is_some_and(|h| h.file == file && h.line == line))
                })
            })
            .or_else(|| self.rows.iter().position(|r| matches!(r, FoundRow::Hit(_))));
        self.scroll.set(0);
    }

    /// Hits of one session together, sessions by their newest hit.
    fn group(&mut self) {
        let mut order: Vec<(&Path, Vec<usize>)> = Vec::new();
        let mut at: HashMap<&Path, usize> = HashMap::new();
        for (i, h) in self.hits.iter().enumerate() {
            let g = *at.entry(h.session.as_path()).or_insert_with(|| {
                order.push((h.session.as_path(), Vec::new()));
                order.len() - 1
            });
            order[g].1.push(i);
        }
        let mut rows = Vec::new();
        for (_, members) in order {
            rows.push(FoundRow::Session(members[0]));
            rows.extend(members.into_iter().map(FoundRow::Hit));
        }
        self.rows = rows;
    }

    pub fn selected_hit(&self) -> Option<&Hit> {
        match self.rows.get(self.selected?)? {
            FoundRow::Hit(i) => self.hits.get(*i),
            FoundRow::Session(_) => None,
        }
    }

    pub fn jump(&self) -> Option<Jump> {
        let h = self.selected_hit()?;
        Some(Jump {
            session: h.session.clone(),
            file: h.file.clone(),
            line: h.line,
            query: self.query.as_str().to_owned(),
        })
    }

    pub fn move_by(&mut self, delta: isize) {
        let Some(cur) = self.selected else { return };
        let step = delta.signum();
        let mut target = cur as isize;
        let mut left = delta.unsigned_abs();
        let mut i = target;
        while left > 0 {
            i += step;
            match self.rows.get(i.max(0) as usize) {
                _ if i < 0 => break,
                None => break,
                Some(FoundRow::Hit(_)) => {
                    target = i;
                    left -= 1;
                }
                Some(FoundRow::Session(_)) => {}
            }
        }
        self.selected = Some(target as usize);
    }

    /// The lines of the list, `height` of them from the scroll, keeping
    /// the selection in view.
    pub fn lines(
        &self,
        width: usize,
        height: usize,
        sessions: &HashMap<&Path, &SessionInfo>,
        now_ms: i64,
    ) -> Vec<Line<'static>> {
        let th = theme::current();
        let mut scroll = self.scroll.get();
        if let Some(sel) = self.selected {
            // the session heading above the first hit stays in view
            let top = sel.saturating_sub(1);
            if top < scroll {
                scroll = top;
            } else if sel >= scroll + height.max(1) {
                scroll = sel + 1 - height.max(1);
            }
        }
        self.scroll.set(scroll);
        let mut out = Vec::with_capacity(height);
        for (r, row) in self.rows.iter().enumerate().skip(scroll).take(height) {
            let selected = self.selected == Some(r);
            out.push(match row {
                FoundRow::Session(i) => {
                    let Some(h) = self.hits.get(*i) else { continue };
                    let info = sessions.get(h.session.as_path());
                    let shown = crate::picker::ui::shown;
                    let title = info.map_or_else(
                        || h.session.display().to_string(),
                        |s| shown(&s.title).into_owned(),
                    );
                    let project =
                        info.map_or_else(String::new, |s| crate::paths::tilde(&shown(&s.project)));
                    let when = info
                        .map_or_else(String::new, |s| relative_time(now_ms, s.last_activity_ms));
                    let tail = format!("  {project} · {when}");
                    let tail_w =
                        unicode_width::UnicodeWidthStr::width(tail.as_str()).min(width / 2);
                    Line::from(vec![
                        Span::styled(
                            fit(&format!(" {title}"), width.saturating_sub(tail_w)),
                            th.heading,
                        ),
                        Span::styled(fit(&tail, tail_w), th.dim),
                    ])
                }
                FoundRow::Hit(i) => match self.hits.get(*i) {
                    Some(h) => hit_line(h, width, selected),
                    None => Line::raw(""),
                },
            });
        }
        out
    }
}

fn hit_line(h: &Hit, width: usize, selected: bool) -> Line<'static> {
    let th = theme::current();
    let base = if selected {
        th.selected
    } else {
        Style::default()
    };
    let marker = if selected { "▸" } else { " " };
    let lead = format!("{marker}  {:<13} ", h.kind.label());
    let lead_w = unicode_width::UnicodeWidthStr::width(lead.as_str());
    let room = width.saturating_sub(lead_w);
    // a snippet redacted is shown whole, unmarked (its marks were set on
    // the letters as written)
    let redacted = crate::picker::ui::shown(&h.snippet);
    if let std::borrow::Cow::Owned(text) = redacted {
        let text = fit(&text, room).trim_end().to_owned();
        return Line::from(vec![
            Span::styled(lead, base.patch(th.dim)),
            Span::styled(text, base),
        ]);
    }
    let s = &h.snippet;
    let (a, m) = (
        s.get(..h.mark.start).unwrap_or(""),
        s.get(h.mark.clone()).unwrap_or(""),
    );
    // keep the match in view: cut the words before it when they are long
    let a_w = unicode_width::UnicodeWidthStr::width(a);
    let a = if a_w > room / 3 {
        let keep = room / 3;
        let cut: String = a
            .chars()
            .rev()
            .take(keep.saturating_sub(1))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("…{cut}")
    } else {
        a.to_owned()
    };
    let a = fit(&a, room).trim_end().to_owned() + if a.ends_with(' ') { " " } else { "" };
    let used = unicode_width::UnicodeWidthStr::width(a.as_str());
    let m = fit(m, room.saturating_sub(used)).trim_end().to_owned();
    let mut used = used + unicode_width::UnicodeWidthStr::width(m.as_str());
    let mut spans = vec![
        Span::styled(lead, base.patch(th.dim)),
        Span::styled(a, base),
        Span::styled(m, base.patch(th.search_match)),
    ];
    // every later match marked too, as `ccv search` prints them: the
    // snippet is cut at the marks, each piece then made safe
    let mut at = h.mark.end;
    let end = s.len()..s.len();
    let first_end = h.mark.end;
    for r in h
        .marks
        .iter()
        .filter(|r| r.start >= first_end)
        .chain([&end])
    {
        let (Some(plain), Some(hit)) = (s.get(at..r.start), s.get(r.clone())) else {
            continue;
        };
        for (text, style) in [(plain, base), (hit, base.patch(th.search_match))] {
            let left = room.saturating_sub(used);
            if text.is_empty() || left == 0 {
                continue;
            }
            let safe = crate::model::text::sanitize(text).replace(['\n', '\t'], " ");
            let cut = crate::model::text::fit_end(&safe, left);
            used += unicode_width::UnicodeWidthStr::width(cut.as_str());
            spans.push(Span::styled(cut, style));
        }
        at = r.end;
    }
    spans.push(Span::styled(" ".repeat(room.saturating_sub(used)), base));
    Line::from(spans)
}
