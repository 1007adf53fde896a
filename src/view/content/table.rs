//! Markdown tables drawn with box characters, columns fitted to the width.

use super::wrap::{display_width, grapheme_width};
use pulldown_cmark::Alignment;
use ratatui::style::Style;
use ratatui::text::Span;
use unicode_segmentation::UnicodeSegmentation;

pub(crate) type Cell = Vec<Span<'static>>;

/// Column widths for `natural` content widths within `budget` columns of
/// content: narrow columns keep their size, wide ones share what is left.
fn fit(natural: &[usize], budget: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= budget {
        return natural.to_vec();
    }
    // Largest cap such that the capped columns fit.
    let total = |cap: usize| natural.iter().map(|&n| n.min(cap)).sum::<usize>();
    let (mut lo, mut hi) = (1, natural.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if total(mid) <= budget {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    let mut widths: Vec<usize> = natural.iter().map(|&n| n.min(lo).max(1)).collect();
    let mut spare = budget.saturating_sub(widths.iter().sum());
    for (w, &n) in widths.iter_mut().zip(natural) {
        if spare > 0 && *w < n {
            *w += 1;
            spare -= 1;
        }
    }
    widths
}

/// `cell` cut to `width` columns (ending in `…` when cut) and padded.
fn fit_cell(cell: &[Span<'static>], width: usize, align: Alignment) -> Vec<Span<'static>> {
    let total: usize = cell.iter().map(|s| display_width(&s.content)).sum();
    let mut out: Vec<Span<'static>> = Vec::new();
    let used = if total <= width {
        out.extend(cell.iter().cloned());
        total
    } else {
        let mut used = 0;
        'outer: for s in cell {
            let mut piece = String::new();
            for g in s.content.graphemes(true) {
                let gw = grapheme_width(g);
                if used + gw + 1 > width {
                    if !piece.is_empty() {
                        out.push(Span::styled(piece, s.style));
                    }
                    break 'outer;
                }
                piece.push_str(g);
                used += gw;
            }
            out.push(Span::styled(piece, s.style));
        }
        out.push(Span::raw("…"));
        used + 1
    };
    let pad = width.saturating_sub(used);
    let (left, right) = match align {
        Alignment::Right => (pad, 0),
        Alignment::Center => (pad / 2, pad - pad / 2),
        _ => (0, pad),
    };
    if left > 0 {
        out.insert(0, Span::raw(" ".repeat(left)));
    }
    if right > 0 {
        out.push(Span::raw(" ".repeat(right)));
    }
    out
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
    for row in rows {
        for (c, cell) in row.iter().enumerate() {
            let w: usize = cell.iter().map(|s| display_width(&s.content)).sum();
            natural[c] = natural[c].max(w);
        }
    }
    let widths = fit(&natural, avail - overhead);
    let mut out = vec![rule(&widths, "┌", "┬", "┐", border)];
    let empty = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if r == header_rows && r > 0 {
            out.push(rule(&widths, "├", "┼", "┤", border));
        }
        let mut line = vec![Span::styled("│ ", border)];
        for (c, w) in widths.iter().enumerate() {
            let cell = row.get(c).unwrap_or(&empty);
            let align = aligns.get(c).copied().unwrap_or(Alignment::None);
            let mut spans = fit_cell(cell, *w, align);
            if r < header_rows {
                spans
                    .iter_mut()
                    .for_each(|s| s.style = header.patch(s.style));
            }
            line.extend(spans);
            line.push(Span::styled(
                if c + 1 == ncols { " │" } else { " │ " },
                border,
            ));
        }
        out.push(line);
    }
    out.push(rule(&widths, "└", "┴", "┘", border));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_shares_space_with_wide_columns() {
        assert_eq!(fit(&[3, 4], 20), [3, 4]);
        assert_eq!(fit(&[3, 50, 40], 30), [3, 14, 13]);
        assert_eq!(fit(&[10, 10], 5), [3, 2]);
    }

    #[test]
    fn cells_are_cut_with_ellipsis() {
        let cell = vec![Span::raw("abcdef")];
        let text: String = fit_cell(&cell, 4, Alignment::None)
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(text, "abc…");
        let wide = vec![Span::raw("日本語")];
        let text: String = fit_cell(&wide, 4, Alignment::Right)
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(text, " 日…");
    }
}
