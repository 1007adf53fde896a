//! Tables that fit the terminal (`ccv list`, `ccv stats`, `ccv top`):
//! each column at its natural width when there is room; else the flexible
//! ones (titles, paths) shrink, a path losing its middle, and the least
//! wanted columns go. Piped, a listing prints whole values instead,
//! tab-separated ([`tsv_field`]).

use crate::model::text::{fit_clusters, fit_end, fit_middle, sanitize};
use unicode_width::UnicodeWidthStr;

/// Where a value too wide for its column is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// `Fix the parser th…`
    End,
    /// `~/work/…/payments`: both ends of a path tell it apart.
    Middle,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub head: &'static str,
    /// Narrowest it is worth showing at (flexible columns); 0: the
    /// natural width always.
    pub min: usize,
    /// Widest it gets, however long its values.
    pub max: usize,
    pub cut: Cut,
    pub right: bool,
    /// Dropped when even the flexible columns at their narrowest do not
    /// fit: the highest first; 0 never.
    pub drop: u8,
}

impl Column {
    /// A column as wide as its widest value (up to `max`), never cut.
    pub fn fixed(head: &'static str, right: bool) -> Column {
        Column {
            head,
            min: 0,
            max: usize::MAX,
            cut: Cut::End,
            right,
            drop: 0,
        }
    }

    /// A column that shrinks to `min` when room is short.
    pub fn flex(head: &'static str, min: usize, max: usize, cut: Cut) -> Column {
        Column {
            head,
            min,
            max,
            cut,
            right: false,
            drop: 0,
        }
    }

    pub fn dropped_at(mut self, priority: u8) -> Column {
        self.drop = priority;
        self
    }
}

/// Made safe and on one line, each cluster as the terminal draws it in
/// its room ([`fit_clusters`]: no joiner that would pull the next column
/// into its cell).
fn one_line(s: &str) -> String {
    fit_clusters(&sanitize(s)).replace(['\n', '\t', '\r'], " ")
}

/// The widths of `cols` for `rows` (cells by column) in `total` columns
/// with `gap` between two; 0 for a column left out.
pub fn widths(cols: &[Column], rows: &[Vec<String>], total: usize, gap: usize) -> Vec<usize> {
    let mut w: Vec<usize> = cols
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let widest = rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|v| one_line(v).width())
                .max()
                .unwrap_or(0);
            widest.max(c.head.width()).min(c.max)
        })
        .collect();
    let used = |w: &[usize]| -> usize {
        let shown: Vec<usize> = w.iter().copied().filter(|&x| x > 0).collect();
        shown.iter().sum::<usize>() + gap * shown.len().saturating_sub(1)
    };
    loop {
        let over = used(&w).saturating_sub(total);
        if over == 0 {
            return w;
        }
        // the flexible columns give up what they have above their minimum,
        // each in proportion to it
        let spare: usize = cols
            .iter()
            .zip(&w)
            .filter(|(c, x)| c.min > 0 && **x > 0)
            .map(|(c, x)| x.saturating_sub(c.min))
            .sum();
        if spare >= over {
            let mut left = over;
            for (i, c) in cols.iter().enumerate() {
                if c.min == 0 || w[i] == 0 {
                    continue;
                }
                let give = (w[i] - c.min.min(w[i])) * over / spare.max(1);
                let give = give.min(left);
                w[i] -= give;
                left -= give;
            }
            // what rounding left, from the widest
            while left > 0 {
                let Some(i) = (0..cols.len())
                    .filter(|&i| cols[i].min > 0 && w[i] > cols[i].min)
                    .max_by_key(|&i| w[i])
                else {
                    break;
                };
                w[i] -= 1;
                left -= 1;
            }
            return w;
        }
        for (i, c) in cols.iter().enumerate() {
            if c.min > 0 && w[i] > 0 {
                w[i] = c.min.min(w[i]);
            }
        }
        // then the least wanted column goes
        let Some(i) = (0..cols.len())
            .filter(|&i| cols[i].drop > 0 && w[i] > 0)
            .max_by_key(|&i| cols[i].drop)
        else {
            // nothing left to drop: the flexible columns go below their
            // minimum, the widest first, to 4 at least
            let mut over = used(&w).saturating_sub(total);
            while over > 0 {
                let Some(k) = (0..cols.len())
                    .filter(|&k| cols[k].min > 0 && w[k] > 4)
                    .max_by_key(|&k| w[k])
                else {
                    break;
                };
                w[k] -= 1;
                over -= 1;
            }
            return w;
        };
        w[i] = 0;
        // the room it leaves goes back to the flexible ones
        for (k, c) in cols.iter().enumerate() {
            if c.min > 0 && w[k] > 0 {
                let widest = rows
                    .iter()
                    .filter_map(|r| r.get(k))
                    .map(|v| one_line(v).width())
                    .max()
                    .unwrap_or(0);
                w[k] = widest.max(c.head.width()).min(c.max);
            }
        }
    }
}

/// `value` in a column `width` wide (cut or padded), made safe.
pub fn cell(value: &str, width: usize, col: &Column) -> String {
    let one = one_line(value);
    let cut = if one.width() <= width {
        one
    } else {
        match col.cut {
            Cut::End => fit_end(&one, width),
            Cut::Middle => fit_path(&one, width),
        }
    };
    let fill = " ".repeat(width.saturating_sub(cut.width()));
    if col.right {
        format!("{fill}{cut}")
    } else {
        format!("{cut}{fill}")
    }
}

/// The table: a header line then a line per row, each fitted to `total`
/// columns (trailing blanks trimmed).
pub fn render(cols: &[Column], rows: &[Vec<String>], total: usize) -> Vec<String> {
    let w = widths(cols, rows, total, 1);
    let line = |cells: Vec<String>| -> String {
        let parts: Vec<String> = cols
            .iter()
            .enumerate()
            .filter(|(i, _)| w[*i] > 0)
            .map(|(i, c)| cell(cells.get(i).map_or("", String::as_str), w[i], c))
            .collect();
        parts.join(" ").trim_end().to_owned()
    };
    let head = line(cols.iter().map(|c| c.head.to_owned()).collect());
    std::iter::once(head)
        .chain(rows.iter().map(|r| line(r.clone())))
        .collect()
}

/// A path in `width` columns that loses whole components from its
/// middle (`~/work/…/services/payments`), else characters
/// ([`fit_middle`]).
pub fn fit_path(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_owned();
    }
    let parts: Vec<&str> = s.split('/').collect();
    let n = parts.len();
    let shape =
        |i: usize, j: usize| format!("{}/…/{}", parts[..i].join("/"), parts[n - j..].join("/"));
    // the first component (`~`, or `/srv`) and the last, at least
    let first = if parts[0].is_empty() { 2 } else { 1 };
    if n < first + 2 {
        return fit_middle(s, width);
    }
    if shape(first, 1).width() > width {
        // the last component says most: `…/payments-retry`
        let last = format!("…/{}", parts[n - 1]);
        return if last.width() <= width {
            last
        } else {
            fit_middle(s, width)
        };
    }
    let (mut i, mut j) = (first, 1);
    loop {
        // the end tells a path apart most: it grows first
        if i + j < n && shape(i, j + 1).width() <= width {
            j += 1;
        } else if i + j < n && shape(i + 1, j).width() <= width {
            i += 1;
        } else {
            return shape(i, j);
        }
    }
}

/// `text` in lines of at most `width` columns, broken after a `sep`
/// (`a · b · c`) rather than in a word.
pub fn wrap_at(text: &str, sep: &str, width: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    let parts: Vec<&str> = text.split(sep).collect();
    for (i, part) in parts.iter().enumerate() {
        let piece = if i + 1 < parts.len() {
            format!("{part}{}", sep.trim_end())
        } else {
            (*part).to_owned()
        };
        let Some(last) = lines.last_mut() else { break };
        let extra = usize::from(!last.is_empty());
        if !last.is_empty() && last.width() + extra + piece.width() > width {
            lines.push(piece);
        } else {
            if extra == 1 {
                last.push(' ');
            }
            last.push_str(&piece);
        }
    }
    lines.join("\n")
}

/// A value for a tab-separated line: whole, made safe, its tabs and line
/// breaks as spaces.
pub fn tsv_field(s: &str) -> String {
    one_line(s)
}

/// The terminal's width when standard output is one; `None` when it is
/// piped (a listing then prints whole values, tab-separated).
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::size()
        .ok()
        .map(|(w, _)| usize::from(w))
        .filter(|&w| w > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols() -> Vec<Column> {
        vec![
            Column::flex("PROJECT", 12, 40, Cut::Middle),
            Column::flex("TITLE", 16, 200, Cut::End),
            Column::fixed("MSGS", true),
            Column::fixed("MODEL", false).dropped_at(1),
        ]
    }

    fn rows() -> Vec<Vec<String>> {
        vec![vec![
            "~/work/clients/acme/services/payments".into(),
            "Fix the flaky retry test in the payment reconciliation job".into(),
            "240".into(),
            "opus-4.6".into(),
        ]]
    }

    #[test]
    fn every_line_fits_and_the_title_gets_the_room() {
        for total in [30, 40, 60, 80, 120, 160] {
            let lines = render(&cols(), &rows(), total);
            for l in &lines {
                assert!(l.width() <= total, "{total}: {l:?}");
            }
            let w = widths(&cols(), &rows(), total, 1);
            if total >= 80 {
                assert!(w[1] > w[0], "{total}: the title is the widest: {w:?}");
            }
        }
        let wide = render(&cols(), &rows(), 160);
        assert!(wide[1].contains("payment reconciliation job"), "{wide:?}");
    }

    /// A title ending in a joiner would pull the next column into its
    /// cell on the terminal: the table carries none that joins nothing.
    #[test]
    fn no_cell_ends_in_a_joiner() {
        let mut rows = rows();
        rows[0][1] = "Fix it x\u{200d}".into();
        rows[0][0] = "~/a\u{200d}b".into();
        for total in [30, 80, 160] {
            for l in render(&cols(), &rows, total) {
                assert!(!l.contains('\u{200d}'), "{total}: {l:?}");
            }
        }
    }

    #[test]
    fn prose_lines_break_after_a_separator() {
        let t = "31 sessions · 35 prompts · 158 tool calls · 2025-07-08 → 2025-12-20";
        assert_eq!(wrap_at(t, " · ", 200), t);
        let w = wrap_at(t, " · ", 50);
        assert_eq!(
            w,
            "31 sessions · 35 prompts · 158 tool calls ·\n2025-07-08 → 2025-12-20"
        );
    }

    #[test]
    fn paths_lose_their_middle_and_columns_go_last() {
        assert_eq!(
            fit_path("~/work/clients/acme/services/payments", 24),
            "~/…/services/payments"
        );
        assert_eq!(fit_path("/srv/a/b/c/worktree-2", 18), "/srv/…/worktree-2");
        let lines = render(&cols(), &rows(), 60);
        assert!(lines[1].starts_with("~/"), "{lines:?}");
        assert!(lines[1].contains("payments"), "{lines:?}");
        let narrow = widths(&cols(), &rows(), 40, 1);
        assert_eq!(narrow[3], 0, "the model goes first: {narrow:?}");
        assert!(narrow[1] >= 16, "{narrow:?}");
    }
}
