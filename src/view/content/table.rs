//! Markdown tables drawn with box characters, columns fitted to the width.

use super::wrap::{display_width, spans_width, wrap_spans};
use pulldown_cmark::Alignment;
use ratatui::style::Style;
use ratatui::text::Span;

pub(crate) type Cell = Vec<Span<'static>>;

/// Column widths for `natural` content widths within `budget` columns of
/// content: narrow columns keep their size, wide ones share what is left,
/// and none is narrower than its longest word (`least`) while the words
/// fit (a path broken in a narrow column, `src/viewer/stat` `e.rs`, while
/// a column of prose beside it had room to wrap).
fn fit(natural: &[usize], least: &[usize], budget: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= budget {
        return natural.to_vec();
    }
    // (words that cannot all fit: those within a fair share still do)
    let share = if least.iter().sum::<usize>() <= budget {
        usize::MAX
    } else {
        budget / natural.len().max(1)
    };
    let least: Vec<usize> = least
        .iter()
        .zip(natural)
        .map(|(&l, &n)| l.min(n).min(share))
        .collect();
    // Largest cap such that the capped columns fit.
    let width = |n: usize, l: usize, cap: usize| n.min(cap).max(l).max(1);
    let total = |cap: usize| {
        natural
            .iter()
            .zip(&least)
            .map(|(&n, &l)| width(n, l, cap))
            .sum::<usize>()
    };
    let (mut lo, mut hi) = (1, natural.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if total(mid) <= budget {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    let mut widths: Vec<usize> = natural
        .iter()
        .zip(&least)
        .map(|(&n, &l)| width(n, l, lo))
        .collect();
    let mut spare = budget.saturating_sub(widths.iter().sum());
    for (w, &n) in widths.iter_mut().zip(natural) {
        if spare > 0 && *w < n {
            *w += 1;
            spare -= 1;
        }
    }
    widths
}

/// `cell` wrapped to `width` columns, each line padded to it: a cell cut
/// to its column lost the words that mattered (`Overall status: PA…`).
fn wrap_cell(cell: &[Span<'static>], width: usize, align: Alignment) -> Vec<Vec<Span<'static>>> {
    // (most cells fit: wrapping them cost a table three times its drawing)
    let mut lines: Vec<Vec<Span<'static>>> = if spans_width(cell) <= width {
        vec![cell.to_vec()]
    } else {
        wrap_spans(cell, width, &[], &[])
            .into_iter()
            .map(|l| l.spans)
            .collect()
    };
    if lines.is_empty() {
        lines.push(Vec::new());
    }
    for spans in &mut lines {
        let pad = width.saturating_sub(spans_width(spans));
        let (left, right) = match align {
            Alignment::Right => (pad, 0),
            Alignment::Center => (pad / 2, pad - pad / 2),
            _ => (0, pad),
        };
        if left > 0 {
            spans.insert(0, Span::raw(" ".repeat(left)));
        }
        if right > 0 {
            spans.push(Span::raw(" ".repeat(right)));
        }
    }
    lines
}

fn rule(widths: &[usize], l: &str, m: &str, r: &str, style: Style) -> Vec<Span<'static>> {
    let mut s = String::from(l);
    for (i, w) in widths.iter().enumerate() {
        if i > 0 {
            s.push_str(m);
        }
        s.extend(std::iter::repeat_n('─', w + 2));
    }
    s.push_str(r);
    vec![Span::styled(s, style)]
}

/// The lines of a table (without any block prefix), or `None` when not
/// even one column per cell fits in `avail`.
pub(crate) fn render(
    rows: &[Vec<Cell>],
    header_rows: usize,
    aligns: &[Alignment],
    avail: usize,
    border: Style,
    header: Style,
) -> Option<Vec<Vec<Span<'static>>>> {
    let ncols = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let overhead = 1 + 3 * ncols;
    if overhead + ncols > avail {
        return None;
    }
    let mut natural = vec![1; ncols];
    let mut least = vec![1; ncols];
    for row in rows {
        for (c, cell) in row.iter().enumerate() {
            let w: usize = cell.iter().map(|s| display_width(&s.content)).sum();
            natural[c] = natural[c].max(w);
            // (a word may run across spans: `src/`**`main.rs`**)
            let text: String = cell.iter().map(|s| s.content.as_ref()).collect();
            let word = text
                .split_whitespace()
                .map(display_width)
                .max()
                .unwrap_or(0);
            least[c] = least[c].max(word);
        }
    }
    let widths = fit(&natural, &least, avail - overhead);
    let mut out = vec![rule(&widths, "┌", "┬", "┐", border)];
    let empty = Vec::new();
    let mut body_wraps = false;
    let mut grid: Vec<Vec<Vec<Vec<Span<'static>>>>> = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<_> = widths
            .iter()
            .enumerate()
            .map(|(c, w)| {
                let align = aligns.get(c).copied().unwrap_or(Alignment::None);
                wrap_cell(row.get(c).unwrap_or(&empty), *w, align)
            })
            .collect();
        body_wraps |= r >= header_rows && cells.iter().any(|c| c.len() > 1);
        grid.push(cells);
    }
    for (r, cells) in grid.into_iter().enumerate() {
        // rows of several lines each are told apart by a rule between them
        if (r == header_rows && r > 0) || (r > header_rows && body_wraps) {
            out.push(rule(&widths, "├", "┼", "┤", border));
        }
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for i in 0..height {
            let mut line = vec![Span::styled("│ ", border)];
            for (c, cell) in cells.iter().enumerate() {
                match cell.get(i) {
                    Some(spans) => line.extend(spans.iter().map(|s| {
                        if r < header_rows {
                            Span::styled(s.content.clone(), header.patch(s.style))
                        } else {
                            s.clone()
                        }
                    })),
                    None => line.push(Span::raw(" ".repeat(widths[c]))),
                }
                line.push(Span::styled(
                    if c + 1 == ncols { " │" } else { " │ " },
                    border,
                ));
            }
            out.push(line);
        }
    }
    out.push(rule(&widths, "└", "┴", "┘", border));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_shares_space_with_wide_columns() {
        assert_eq!(fit(&[3, 4], &[1, 1], 20), [3, 4]);
        assert_eq!(fit(&[3, 50, 40], &[1, 1, 1], 30), [3, 14, 13]);
        assert_eq!(fit(&[10, 10], &[1, 1], 5), [3, 2]);
        // a column of one long word keeps it whole; the prose wraps
        assert_eq!(fit(&[19, 8, 9, 67], &[19, 8, 6, 9], 47), [19, 8, 9, 11]);
        // words that cannot all fit: those within a fair share still do
        assert_eq!(fit(&[30, 30], &[30, 30], 20), [10, 10]);
        assert_eq!(fit(&[30, 6, 30], &[30, 6, 4], 21), [8, 6, 7]);
    }

    fn text(lines: &[Vec<Span<'static>>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn a_cell_wider_than_its_column_wraps_and_loses_nothing() {
        let cell = vec![Span::raw("Overall status: PASS")];
        assert_eq!(
            text(&wrap_cell(&cell, 15, Alignment::None)),
            ["Overall status:", "PASS           "]
        );
        let wide = vec![Span::raw("日本語")];
        assert_eq!(
            text(&wrap_cell(&wide, 4, Alignment::Right)),
            ["日本", "  語"]
        );
        assert_eq!(text(&wrap_cell(&[], 3, Alignment::None)), ["   "]);
    }

    #[test]
    fn rows_of_several_lines_have_rules_between_them() {
        let c = |s: &str| vec![Span::raw(s.to_string())];
        let rows = vec![
            vec![c("File"), c("Change")],
            vec![c("a.rs"), c("reads the whole line now")],
            vec![c("b.rs"), c("ok")],
        ];
        let lines = render(&rows, 1, &[], 20, Style::default(), Style::default());
        let got = text(&lines.unwrap_or_default());
        assert_eq!(
            got,
            [
                "┌──────┬───────────┐",
                "│ File │ Change    │",
                "├──────┼───────────┤",
                "│ a.rs │ reads the │",
                "│      │ whole     │",
                "│      │ line now  │",
                "├──────┼───────────┤",
                "│ b.rs │ ok        │",
                "└──────┴───────────┘",
            ]
        );
        let short = vec![rows[0].clone(), vec![c("a"), c("b")], vec![c("c"), c("d")]];
        let got = text(
            &render(&short, 1, &[], 40, Style::default(), Style::default()).unwrap_or_default(),
        );
        assert_eq!(got.len(), 6, "{got:#?}");
    }
}
