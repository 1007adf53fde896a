//! The info overlay (`i`): the state's facts of the session, a label and
//! its text a line, the text wrapped under itself when it is long.

use crate::style::theme;
use crate::view::content::{display_width, wrap};
use crate::viewer::Fact;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Draws `facts` in a box over `area`; what does not fit scrolls (`scroll`
/// is clamped to what there is).
pub fn draw(f: &mut Frame<'_>, area: Rect, facts: &[Fact], scroll: &mut usize) {
    let th = theme::current();
    let label_w = facts.iter().map(|(l, _)| l.len()).max().unwrap_or(0) + 2;
    let text_w = facts
        .iter()
        .map(|(_, t)| display_width(t))
        .max()
        .unwrap_or(0);
    // as wide as the longest line, within the screen less a margin
    let room = area.width.saturating_sub(4).max(20) as usize;
    let inner_w = (1 + label_w + text_w + 1)
        .min(room)
        .min(area.width as usize);
    let wrap_w = inner_w.saturating_sub(1 + label_w + 1).max(8);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (label, text) in facts {
        let parts = wrap(&Line::raw(text.clone()), wrap_w as u16);
        for (i, part) in parts.into_iter().enumerate() {
            let head = if i == 0 { *label } else { "" };
            let mut spans = vec![Span::styled(format!(" {head:<label_w$}"), th.heading)];
            spans.extend(part.spans);
            lines.push(Line::from(spans));
        }
    }
    let r = super::frame::centered(
        area,
        inner_w as u16 + 2,
        (lines.len() as u16).saturating_add(2),
    );
    let shown = (r.height as usize).saturating_sub(2);
    *scroll = (*scroll).min(lines.len().saturating_sub(shown));
    let title = super::frame::overlay_title(
        " session · i or q closes ",
        "session",
        *scroll,
        *scroll + shown < lines.len(),
    );
    let lines: Vec<Line<'static>> = lines.into_iter().skip(*scroll).take(shown).collect();
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        r,
    );
}
