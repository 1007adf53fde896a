//! Code and diffs as HTML: syntect's classed output (one stylesheet for
//! the page), plain past a size where highlighting would cost more than
//! the page is worth.

use super::esc;
use syntect::html::{ClassStyle, ClassedHTMLGenerator, css_for_theme_with_class_style};
use syntect::util::LinesWithEndings;

/// Blocks larger than this are shown plain.
const MAX_BYTES: usize = 256 * 1024;
/// Code highlighted in one page at most (the first blocks of a session,
/// where its code usually is): syntect reads ~1.3 MB a second, and a
/// 100 MB session's page must not take minutes; the rest is plain.
const BUDGET: usize = 256 << 10;

thread_local! {
    static SPENT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A new page: its highlighting budget is whole again.
pub fn new_page() {
    SPENT.with(|s| s.set(0));
}
const MAX_LINE: usize = 4096;
const CLASSES: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "s-" };

/// A `<pre class="code">` of `text` in `lang` (a token or a file path).
pub fn block(text: &str, lang: &str, out: &mut String) {
    out.push_str("<pre class=\"code\">");
    out.push_str(&highlighted(text, lang));
    out.push_str("</pre>");
}

/// The lines of `text` as classed spans, or escaped plain text.
pub fn highlighted(text: &str, lang: &str) -> String {
    // syntect escapes only what HTML needs
    let text = &*crate::model::text::sanitize(text);
    let plain = || esc(text).into_owned();
    if text.len() > MAX_BYTES || text.lines().any(|l| l.len() > MAX_LINE) {
        return plain();
    }
    if SPENT.with(|s| s.get()) + text.len() > BUDGET {
        return plain();
    }
    SPENT.with(|s| s.set(s.get() + text.len()));
    let Some((ss, syntax)) = crate::style::highlight::syntax_for(lang, text) else {
        return plain();
    };
    let mut g = ClassedHTMLGenerator::new_with_class_style(syntax, ss, CLASSES);
    for line in LinesWithEndings::from(text) {
        if g.parse_html_for_line_which_includes_newline(line).is_err() {
            return plain();
        }
    }
    g.finalize()
}

/// The stylesheet of the classes above, from the light syntax theme.
pub fn stylesheet() -> String {
    let theme = two_face::theme::extra()
        .get(two_face::theme::EmbeddedThemeName::OneHalfLight)
        .clone();
    css_for_theme_with_class_style(&theme, CLASSES).unwrap_or_default()
}

/// A unified diff of `old` → `new` (an Edit's strings), line by line.
pub fn diff(old: &str, new: &str, out: &mut String) {
    out.push_str("<pre class=\"diff\">");
    let (o, n): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    // common head and tail kept as context; the middle removed then added
    let head = o.iter().zip(&n).take_while(|(a, b)| a == b).count();
    let tail = o[head..]
        .iter()
        .rev()
        .zip(n[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let line = |out: &mut String, class: &str, sign: char, text: &str| {
        out.push_str(&format!(
            "<span class=\"{class}\">{sign} {}\n</span>",
            esc(text)
        ));
    };
    for l in &o[..head] {
        line(out, "ctx", ' ', l);
    }
    for l in &o[head..o.len() - tail] {
        line(out, "del", '-', l);
    }
    for l in &n[head..n.len() - tail] {
        line(out, "add", '+', l);
    }
    for l in &o[o.len() - tail..] {
        line(out, "ctx", ' ', l);
    }
    out.push_str("</pre>");
}

/// A structured patch's hunks (`@@`, ` `, `-`, `+` lines).
pub fn hunks(hunks: &[crate::model::patch::Hunk], out: &mut String) {
    out.push_str("<pre class=\"diff\">");
    for h in hunks {
        out.push_str(&format!(
            "<span class=\"hunk\">@@ -{},{} +{},{} @@\n</span>",
            h.old_start, h.old_lines, h.new_start, h.new_lines
        ));
        for l in &h.lines {
            let class = match l.chars().next() {
                Some('+') => "add",
                Some('-') => "del",
                _ => "ctx",
            };
            out.push_str(&format!("<span class=\"{class}\">{}\n</span>", esc(l)));
        }
    }
    out.push_str("</pre>");
}
