//! Diffs from `structuredPatch` hunks: old/new line numbers, coloured
//! signs, the code itself highlighted for the file's language.

use super::wrap::{spans_width, wrap_code, wrap_spans};
use crate::model::patch::Hunk;
use crate::model::text::sanitize;
use crate::style::highlight::{StyledLine, highlight};
use crate::style::theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Lines added and removed over all hunks.
pub fn diff_stats(hunks: &[Hunk]) -> (usize, usize) {
    let mut added = 0;
    let mut removed = 0;
    for l in hunks.iter().flat_map(|h| &h.lines) {
        match l.as_bytes().first() {
            Some(b'+') => added += 1,
            Some(b'-') => removed += 1,
            _ => {}
        }
    }
    (added, removed)
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// See [`super::diff`].
pub fn diff(hunks: &[Hunk], path: &str, width: u16) -> Vec<Line<'static>> {
    diff_most(hunks, path, width, (usize::MAX, usize::MAX)).0
}

/// [`diff`] of the hunks' first lines, up to `most` (lines, bytes), and
/// how many lines it left out (see [`super::clip`]).
pub fn diff_most(
    hunks: &[Hunk],
    path: &str,
    width: u16,
    (most, mut bytes): (usize, usize),
) -> (Vec<Line<'static>>, usize) {
    let total: usize = hunks.iter().map(|h| h.lines.len()).sum();
    let mut budget = most;
    let t = theme::current();
    let width = usize::from(width);
    let max_no = hunks
        .iter()
        .map(|h| {
            h.old_start
                .saturating_add(h.old_lines)
                .max(h.new_start.saturating_add(h.new_lines))
        })
        .max()
        .unwrap_or(1);
    let w = digits(max_no);
    let blank_gutter = format!("{:w$} {:w$} ", "", "");
    let mut out = Vec::new();
    for h in hunks {
        if budget == 0 || bytes == 0 {
            break;
        }
        let header = format!(
            "@@ -{},{} +{},{} @@",
            h.old_start, h.old_lines, h.new_start, h.new_lines
        );
        out.extend(wrap_spans(&[Span::styled(header, t.dim)], width, &[], &[]));

        // Highlight the hunk's code as one text so multi-line constructs
        // (strings, comments) keep their state from line to line.
        let mut code = String::new();
        let mut rows = Vec::with_capacity(h.lines.len());
        for l in h.lines.into_iter().take(budget) {
            if bytes == 0 {
                break;
            }
            budget -= 1;
            bytes = bytes.saturating_sub(l.len() + 1);
            let l = sanitize(l);
            let mut chars = l.chars();
            let sign = chars.next().unwrap_or(' ');
            let rest = chars.as_str();
            if sign == '\\' {
                rows.push((sign, l.to_string(), None));
            } else {
                code.push_str(rest);
                code.push('\n');
                rows.push((sign, String::new(), Some(rows.len())));
            }
        }
        let highlighted = highlight(&code, path);
        let mut code_line = 0;
        let (mut old, mut new) = (h.old_start, h.new_start);
        for (sign, note, has_code) in rows {
            if has_code.is_none() {
                let first = [Span::styled(blank_gutter.clone(), t.line_number)];
                let note = [Span::styled(note, t.dim)];
                out.extend(wrap_spans(&note, width, &first, &first));
                continue;
            }
            let styled: Option<&StyledLine> = highlighted.get(code_line);
            code_line += 1;
            let (gutter, sign_style, text_style, line_bg) = match sign {
                '+' => {
                    new = new.saturating_add(1);
                    let g = format!("{:w$} {:>w$} ", "", new - 1);
                    (g, t.diff_add, t.diff_add, t.diff_add_line)
                }
                '-' => {
                    old = old.saturating_add(1);
                    let g = format!("{:>w$} {:w$} ", old - 1, "");
                    (g, t.diff_remove, t.diff_remove, t.diff_remove_line)
                }
                _ => {
                    old = old.saturating_add(1);
                    new = new.saturating_add(1);
                    let g = format!("{:>w$} {:>w$} ", old - 1, new - 1);
                    (g, t.diff_context, Style::default(), Style::default())
                }
            };
            let spans: Vec<Span<'static>> = styled
                .map(|l| {
                    l.iter()
                        .map(|(s, text)| {
                            Span::styled(text.clone(), text_style.patch(*s).patch(line_bg))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let shown_sign = if matches!(sign, '+' | '-') { sign } else { ' ' };
            let first = [
                Span::styled(gutter, t.line_number),
                Span::styled(shown_sign.to_string(), sign_style.patch(line_bg)),
            ];
            let rest = [
                Span::styled(blank_gutter.clone(), t.line_number),
                Span::styled(" ", line_bg),
            ];
            for mut line in wrap_code(&spans, width, &first, &rest) {
                // Tint the whole row, not just the text, like a diff viewer.
                if line_bg != Style::default() {
                    let used = spans_width(&line.spans);
                    if used < width {
                        line.spans
                            .push(Span::styled(" ".repeat(width - used), line_bg));
                    }
                }
                out.push(line);
            }
        }
    }
    (out, total - (most - budget))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(old: u64, new: u64, lines: &[&str]) -> Hunk {
        Hunk {
            old_start: old,
            old_lines: lines.iter().filter(|l| !l.starts_with(['+', '\\'])).count() as u64,
            new_start: new,
            new_lines: lines.iter().filter(|l| !l.starts_with(['-', '\\'])).count() as u64,
            lines: lines.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .map(|s| s.trim_end().to_string())
            .collect()
    }

    #[test]
    fn numbers_follow_old_and_new_sides() {
        let h = hunk(
            8,
            8,
            &[" a", "-b", "+c", "+d", " e", "\\ No newline at end of file"],
        );
        let out = texts(&diff(&[h], "x.txt", 40));
        assert_eq!(
            out,
            [
                "@@ -8,3 +8,4 @@",
                " 8  8  a",
                " 9    -b",
                "    9 +c",
                "   10 +d",
                "10 11  e",
                "      \\ No newline at end of file",
            ]
        );
    }

    #[test]
    fn wrapped_lines_keep_their_indentation_and_tint() {
        let h = hunk(1, 1, &["+    let total = a + b;"]);
        let out = diff(&[h], "x.txt", 20);
        assert_eq!(
            texts(&out),
            ["@@ -1,0 +1,1 @@", "  1 +    let total =", "         a + b;"]
        );
        for row in &out[1..] {
            assert_eq!(spans_width(&row.spans), 20);
            assert!(
                row.spans
                    .iter()
                    .skip(1)
                    .all(|s| s.style.bg == theme::current().diff_add_line.bg)
            );
        }
    }

    #[test]
    fn stats_count_signs() {
        let h = hunk(1, 1, &[" a", "-b", "+c", "+d"]);
        assert_eq!(diff_stats(&[h.clone(), h]), (4, 2));
        assert_eq!(diff_stats(&[]), (0, 0));
    }

    #[test]
    fn added_rows_are_tinted_to_full_width() {
        let h = hunk(1, 1, &["+let x = 1;"]);
        let out = diff(&[h], "a.rs", 30);
        let row = &out[1];
        assert_eq!(spans_width(&row.spans), 30);
        assert!(
            row.spans
                .iter()
                .skip(1)
                .all(|s| s.style.bg == theme::current().diff_add_line.bg)
        );
    }

    #[test]
    fn empty_and_odd_hunks_do_not_panic() {
        let h = Hunk {
            old_start: u64::MAX,
            new_start: u64::MAX,
            lines: ["", "+"].into_iter().collect(),
            ..Default::default()
        };
        let _ = diff(&[h, Hunk::default()], "", 0);
    }
}
