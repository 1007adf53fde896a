//! Source code with an optional line-number gutter, and Read results.

use super::wrap::wrap_code;
use crate::model::text::sanitize;
use crate::style::highlight::{StyledLine, highlight};
use crate::style::theme;
use ratatui::text::{Line, Span};

pub(crate) fn spans_of(line: &StyledLine) -> Vec<Span<'static>> {
    line.iter()
        .map(|(style, t)| Span::styled(t.clone(), *style))
        .collect()
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Renders highlighted lines, with a gutter when `numbers` is given (one
/// entry per line; `None` leaves that line's gutter blank).
pub(crate) fn render(
    lines: &[StyledLine],
    numbers: Option<&[Option<u64>]>,
    width: usize,
) -> Vec<Line<'static>> {
    let style = theme::current().line_number;
    let num_w = numbers.map(|ns| digits(ns.iter().flatten().copied().max().unwrap_or(1)));
    let blank = num_w.map(|w| vec![Span::styled(format!("{:w$} │ ", ""), style)]);
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let spans = spans_of(line);
        match (num_w, &blank) {
            (Some(w), Some(blank)) => {
                let n = numbers.and_then(|ns| ns.get(i).copied().flatten());
                let first = match n {
                    Some(n) => vec![Span::styled(format!("{n:>w$} │ "), style)],
                    None => blank.clone(),
                };
                out.extend(wrap_code(&spans, width, &first, blank));
            }
            _ => out.extend(wrap_code(&spans, width, &[], &[])),
        }
    }
    out
}

/// See [`super::code`].
pub fn code(text: &str, lang: &str, first_line: Option<u64>, width: u16) -> Vec<Line<'static>> {
    let text = sanitize(text);
    let lines = highlight(&text, lang);
    let numbers: Option<Vec<Option<u64>>> = first_line.map(|f| {
        (0..lines.len() as u64)
            .map(|i| Some(f.saturating_add(i)))
            .collect()
    });
    render(&lines, numbers.as_deref(), usize::from(width))
}

/// Splits a `cat -n` style line (`     1→code` or `     1\tcode`) into
/// its number and text.
pub fn split_numbered(line: &str) -> Option<(u64, &str)> {
    let t = line.trim_start_matches(' ');
    let digits_end = t.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 {
        return None;
    }
    let n = t[..digits_end].parse().ok()?;
    let rest = &t[digits_end..];
    let text = rest.strip_prefix('→').or_else(|| rest.strip_prefix('\t'))?;
    Some((n, text))
}

/// A Read tool result: the `N→` prefixes become a gutter and the code is
/// highlighted for `path`. Anything after the numbered block (a system
/// note, a truncation message) is shown as plain text.
pub fn read_result(text: &str, path: &str, width: u16) -> Vec<Line<'static>> {
    let text = sanitize(text);
    let mut numbers = Vec::new();
    let mut code_text = String::with_capacity(text.len());
    let mut rest_at = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        match split_numbered(body) {
            Some((n, t)) if rest_at.is_none() => {
                numbers.push(Some(n));
                code_text.push_str(t);
                code_text.push('\n');
            }
            _ if rest_at.is_none() => rest_at = Some(offset),
            _ => {}
        }
        offset += line.len();
    }
    if numbers.is_empty() {
        return super::plain(&text, width);
    }
    let lines = highlight(&code_text, path);
    let mut out = render(&lines, Some(&numbers), usize::from(width));
    if let Some(at) = rest_at {
        let rest = text[at..].trim_matches('\n');
        if !rest.is_empty() {
            let dim = theme::current().dim;
            out.extend(
                super::plain(rest, width)
                    .into_iter()
                    .map(|l| l.patch_style(dim)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn gutter_numbers_align() {
        let out = code("a\nb\nc\n", "text", Some(9), 40);
        assert_eq!(texts(&out), [" 9 │ a", "10 │ b", "11 │ c"]);
    }

    #[test]
    fn wrapped_code_keeps_gutter_blank() {
        let out = code("aaaa bbbb", "text", Some(1), 9);
        assert_eq!(texts(&out), ["1 │ aaaa", "  │ bbbb"]);
    }

    #[test]
    fn wrapped_code_hangs_at_its_indentation() {
        let out = code("fn f() {\n    let total = a + b;\n}", "text", Some(1), 16);
        assert_eq!(
            texts(&out),
            [
                "1 │ fn f() {",
                "2 │     let",
                "  │     total =",
                "  │     a + b;",
                "3 │ }"
            ]
        );
    }

    #[test]
    fn read_result_strips_arrows() {
        let text = "     1→fn main() {\n     2→\tprintln!(\"hi\");\n     3→}\n\n<system-reminder>note</system-reminder>\n";
        let out = texts(&read_result(text, "src/main.rs", 60));
        assert_eq!(
            out,
            [
                "1 │ fn main() {",
                "2 │     println!(\"hi\");",
                "3 │ }",
                "<system-reminder>note</system-reminder>"
            ]
        );
    }

    #[test]
    fn read_result_without_numbers_is_plain() {
        let out = texts(&read_result("File does not exist.", "x.rs", 40));
        assert_eq!(out, ["File does not exist."]);
    }

    #[test]
    fn split_numbered_forms() {
        assert_eq!(split_numbered("    12→x"), Some((12, "x")));
        assert_eq!(split_numbered("3\tx"), Some((3, "x")));
        assert_eq!(split_numbered("  →x"), None);
        assert_eq!(split_numbered("abc"), None);
    }
}
