//! Search matches, highlighted in lines already rendered.

use crate::model::query::Query;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Splits spans so that every match of `query` (see [`Query::ranges`])
/// carries `style` on top of its own.
pub fn highlight(line: &Line<'static>, query: &Query, style: Style) -> Line<'static> {
    highlight_over(line, query, style, None)
}

/// [`highlight`], with `rest` (a selection) on top of what is not a
/// match: a match keeps its own colours on a selected row.
pub fn highlight_over(
    line: &Line<'static>,
    query: &Query,
    style: Style,
    rest: Option<Style>,
) -> Line<'static> {
    // every char of the line with the span it belongs to
    let chars: Vec<(usize, char)> = line
        .spans
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.content.chars().map(move |c| (i, c)))
        .collect();
    let joined: String = chars.iter().map(|&(_, c)| c).collect();
    let ranges = query.ranges(&joined);
    if ranges.is_empty() {
        return match rest {
            None => line.clone(),
            Some(r) => Line::from(
                line.spans
                    .iter()
                    .map(|s| Span::styled(s.content.clone(), s.style.patch(r)))
                    .collect::<Vec<_>>(),
            )
            .style(line.style)
            .alignment_opt(line.alignment),
        };
    }
    let mut hit = vec![false; chars.len()];
    let mut r = ranges.iter().peekable();
    for (k, (byte, _)) in joined.char_indices().enumerate() {
        while r.peek().is_some_and(|x| x.end <= byte) {
            r.next();
        }
        hit[k] = r.peek().is_some_and(|x| x.start <= byte);
    }
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut cur = String::new();
    let mut cur_key: Option<(usize, bool)> = None;
    for (k, &(si, c)) in chars.iter().enumerate() {
        let key = (si, hit[k]);
        if cur_key != Some(key) {
            if let Some((psi, ph)) = cur_key {
                spans.push(piece(
                    line,
                    psi,
                    ph,
                    std::mem::take(&mut cur),
                    (style, rest),
                ));
            }
            cur_key = Some(key);
        }
        cur.push(c);
    }
    if let Some((psi, ph)) = cur_key {
        spans.push(piece(line, psi, ph, cur, (style, rest)));
    }
    Line::from(spans)
        .style(line.style)
        .alignment_opt(line.alignment)
}

fn piece(
    line: &Line<'static>,
    span: usize,
    hit: bool,
    text: String,
    (style, rest): (Style, Option<Style>),
) -> Span<'static> {
    let base = line.spans.get(span).map_or(Style::default(), |s| s.style);
    let style = match (hit, rest) {
        (true, _) => base.patch(style),
        (false, Some(r)) => base.patch(r),
        (false, None) => base,
    };
    Span::styled(text, style)
}

trait AlignOpt {
    fn alignment_opt(self, a: Option<ratatui::layout::Alignment>) -> Self;
}

impl AlignOpt for Line<'static> {
    fn alignment_opt(self, a: Option<ratatui::layout::Alignment>) -> Self {
        match a {
            Some(a) => self.alignment(a),
            None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_every_match_across_spans() {
        let l = Line::from(vec![Span::raw("cargo te"), Span::raw("st and TEST")]);
        let h = highlight(
            &l,
            &Query::parse("test", false).expect("query"),
            Style::default().bg(ratatui::style::Color::Yellow),
        );
        let hits: Vec<String> = h
            .spans
            .iter()
            .filter(|s| s.style.bg.is_some())
            .map(|s| s.content.to_string())
            .collect();
        assert_eq!(hits, vec!["te", "st", "TEST"]);
    }
}
