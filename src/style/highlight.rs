//! Syntax highlighting with syntect and two-face's extra syntaxes/themes.
//!
//! Loading the syntax set takes a noticeable moment, so it happens once
//! (ideally in a background thread via [`warm_up`]) and results are
//! cached by content: redrawing the same code block is a hash lookup.

use crate::style::theme;
use ratatui::style::{Color, Modifier, Style};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme as SynTheme};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

/// One source line as styled pieces (no newline, not yet wrapped).
pub type StyledLine = Vec<(Style, String)>;

/// Above this size highlighting is skipped: it would stall the UI.
pub const MAX_BYTES: usize = 200_000;
/// A line this long is minified or data; regexes crawl on it.
pub const MAX_LINE: usize = 2_000;
const CACHE_ENTRIES: usize = 512;

struct Assets {
    syntaxes: SyntaxSet,
    theme: SynTheme,
}

static ASSETS: OnceLock<Assets> = OnceLock::new();
type Cache = Mutex<HashMap<u64, Arc<Vec<StyledLine>>>>;
static CACHE: OnceLock<Cache> = OnceLock::new();

fn assets() -> &'static Assets {
    ASSETS.get_or_init(|| Assets {
        syntaxes: two_face::syntax::extra_newlines(),
        theme: EmbeddedLazyThemeSet::theme_names()
            .iter()
            .find(|n| same_name(n.as_name(), theme::current().syntax_theme))
            .map_or_else(
                || {
                    two_face::theme::extra()
                        .get(EmbeddedThemeName::OneHalfDark)
                        .clone()
                },
                |n| two_face::theme::extra().get(*n).clone(),
            ),
    })
}

fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    norm(a) == norm(b)
}

/// Loads syntaxes and theme now. Call from a background thread at startup
/// (`std::thread::spawn(ccv::view::content::warm_up)`) so the first code
/// block does not wait. Does nothing under the monochrome theme.
pub fn warm_up() {
    if !highlighting_enabled() {
        return;
    }
    // Only the syntax set: compiling syntaxes ahead (it was done here)
    // costs memory for languages the session may not hold (TypeScript
    // alone takes ~60 MB of compiled regexes), and no frame waits for a
    // compile since highlighting runs in a worker thread.
    let _ = assets();
}

/// Whether the highlighter is loaded (a render would not block on it).
pub fn is_warm() -> bool {
    ASSETS.get().is_some()
}

fn highlighting_enabled() -> bool {
    let t = theme::current();
    t.color && !t.syntax_theme.is_empty()
}

/// The lines of `text` (already sanitized), without a phantom last line
/// after a final newline.
pub fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
}

fn plain_lines(text: &str) -> Vec<StyledLine> {
    split_lines(text)
        .map(|l| vec![(Style::default(), l.to_string())])
        .collect()
}

fn lang_alias(lang: &str) -> &str {
    match lang {
        "sh" | "shell" | "zsh" | "console" | "shellscript" | "bash" => "bash",
        "ts" | "typescript" => "ts",
        "tsx" => "tsx",
        "js" | "javascript" | "node" | "mjs" | "cjs" => "js",
        "jsonc" | "json5" | "jsonl" => "json",
        "yml" => "yaml",
        "c++" | "cc" | "hpp" => "cpp",
        "golang" => "go",
        "py3" | "python3" => "py",
        "patch" => "diff",
        "md" => "markdown",
        other => other,
    }
}

/// The syntax for `lang` (a token, a file name or path; a shebang when
/// empty), with its set: one rule for the viewer and the HTML export.
pub fn syntax_for(
    lang: &str,
    text: &str,
) -> Option<(&'static SyntaxSet, &'static SyntaxReference)> {
    let ss = &assets().syntaxes;
    find_syntax(ss, lang, text).map(|s| (ss, s))
}

/// Finds a syntax by language token (`rust`, `rs`, `py`), file name or
/// path (`src/main.rs`, `Makefile`), or a shebang when `lang` is empty.
fn find_syntax<'a>(ss: &'a SyntaxSet, lang: &str, text: &str) -> Option<&'a SyntaxReference> {
    let lang = lang.trim();
    let token = lang.split_whitespace().next().unwrap_or("");
    let token = token.trim_start_matches('.').to_ascii_lowercase();
    if token.is_empty() {
        return text
            .starts_with("#!")
            .then(|| ss.find_syntax_by_first_line(text))
            .flatten();
    }
    if matches!(
        token.as_str(),
        "text" | "txt" | "plain" | "plaintext" | "output" | "log"
    ) {
        return None;
    }
    let file = lang.rsplit(['/', '\\']).next().unwrap_or(lang);
    let ext = file.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    ss.find_syntax_by_token(lang_alias(&token))
        .or_else(|| {
            ext.as_deref()
                .and_then(|e| ss.find_syntax_by_token(lang_alias(e)))
        })
        .or_else(|| ss.find_syntax_by_extension(file))
}

fn too_big(text: &str) -> bool {
    text.len() > MAX_BYTES || split_lines(text).any(|l| l.len() > MAX_LINE)
}

/// Highlights sanitized `text` for `lang` (a token or a path). Returns
/// one styled line per source line; plain when colour is off, the
/// language is unknown or the text is too big, and, with
/// [`highlight_in_background`] on, while a big block waits for the worker.
pub fn highlight(text: &str, lang: &str) -> Arc<Vec<StyledLine>> {
    if !highlighting_enabled() || too_big(text) {
        return Arc::new(plain_lines(text));
    }
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        lang.hash(&mut h);
        h.finish()
    };
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    if let Some(bg) = BACKGROUND.get() {
        // Highlighting costs ~0.1 ms a line, and a syntax compiles each of
        // its regexes the first time a text reaches it (up to 150 ms): no
        // frame waits for that.
        bg.submit(key, text, lang);
        return Arc::new(plain_lines(text));
    }
    compute(key, text, lang)
}

/// Highlights and caches.
fn compute(key: u64, text: &str, lang: &str) -> Arc<Vec<StyledLine>> {
    let a = assets();
    let lines = match find_syntax(&a.syntaxes, lang, text) {
        Some(syntax) => highlight_with(a, syntax, text),
        None => plain_lines(text),
    };
    let lines = Arc::new(lines);
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= CACHE_ENTRIES {
        map.clear();
    }
    map.insert(key, lines.clone());
    lines
}

/// The worker that highlights big blocks off the UI thread.
struct Background {
    tx: Mutex<std::sync::mpsc::Sender<(u64, String, String)>>,
    pending: Mutex<std::collections::HashSet<u64>>,
}

static BACKGROUND: OnceLock<Background> = OnceLock::new();

impl Background {
    fn submit(&self, key: u64, text: &str, lang: &str) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.insert(key) {
            let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner());
            if tx.send((key, text.to_owned(), lang.to_owned())).is_err() {
                pending.remove(&key);
            }
        }
    }
}

/// From now on, code is highlighted by a worker thread, so that no frame
/// waits for it: a block shows plain first (for a frame or two), and
/// `ready` is called when its highlighted lines can be drawn (the app
/// redraws). Without this (tests, benches), highlighting is done in place.
pub fn highlight_in_background(ready: impl Fn() + Send + 'static) {
    let (tx, rx) = std::sync::mpsc::channel::<(u64, String, String)>();
    let bg = Background {
        tx: Mutex::new(tx),
        pending: Mutex::new(Default::default()),
    };
    if BACKGROUND.set(bg).is_err() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("ccv-highlight".into())
        .spawn(move || {
            // the newest request first: it is what the user looks at now
            while let Ok(first) = rx.recv() {
                let mut jobs = vec![first];
                jobs.extend(rx.try_iter());
                for (key, text, lang) in jobs.into_iter().rev() {
                    compute(key, &text, &lang);
                    if let Some(bg) = BACKGROUND.get() {
                        bg.pending
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .remove(&key);
                    }
                    ready();
                }
            }
        });
}

fn highlight_with(a: &Assets, syntax: &SyntaxReference, text: &str) -> Vec<StyledLine> {
    let mut h = HighlightLines::new(syntax, &a.theme);
    let mut out = Vec::new();
    let mut line_buf = String::new();
    let mut failed = false;
    for line in split_lines(text) {
        if failed {
            out.push(vec![(Style::default(), line.to_string())]);
            continue;
        }
        line_buf.clear();
        line_buf.push_str(line);
        line_buf.push('\n');
        match h.highlight_line(&line_buf, &a.syntaxes) {
            Ok(regions) => out.push(
                regions
                    .into_iter()
                    .map(|(s, t)| (convert(s), t.trim_end_matches('\n').to_string()))
                    .filter(|(_, t)| !t.is_empty())
                    .collect(),
            ),
            Err(_) => {
                failed = true;
                out.push(vec![(Style::default(), line.to_string())]);
            }
        }
    }
    out
}

/// syntect style to ratatui. Like bat, alpha 0 encodes an ANSI palette
/// index in `r` and alpha 1 the terminal default (the `ansi` theme).
fn convert(s: syntect::highlighting::Style) -> Style {
    let c = s.foreground;
    let mut style = match c.a {
        0 => Style::default().fg(Color::Indexed(c.r)),
        1 => Style::default(),
        _ => Style::default().fg(Color::Rgb(c.r, c.g, c.b)),
    };
    if s.font_style.contains(FontStyle::BOLD) {
        style = style.add_modifier(Modifier::BOLD);
    }
    if s.font_style.contains(FontStyle::ITALIC) {
        style = style.add_modifier(Modifier::ITALIC);
    }
    if s.font_style.contains(FontStyle::UNDERLINE) {
        style = style.add_modifier(Modifier::UNDERLINED);
    }
    style
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(lang: &str) -> Option<String> {
        find_syntax(&assets().syntaxes, lang, "").map(|s| s.name.clone())
    }

    #[test]
    fn languages_by_token_and_path() {
        assert_eq!(name("rust").as_deref(), Some("Rust"));
        assert_eq!(name("rs").as_deref(), Some("Rust"));
        assert_eq!(name("src/main.rs").as_deref(), Some("Rust"));
        assert_eq!(name("py").as_deref(), Some("Python"));
        assert_eq!(name("python").as_deref(), Some("Python"));
        assert_eq!(name("bash").as_deref(), Some("Bourne Again Shell (bash)"));
        assert_eq!(name("sh").as_deref(), Some("Bourne Again Shell (bash)"));
        assert_eq!(name("json").as_deref(), Some("JSON"));
        assert_eq!(name("ts").as_deref(), Some("TypeScript"));
        assert_eq!(name("/a/b/app.tsx").as_deref(), Some("TypeScriptReact"));
        assert_eq!(name("Cargo.toml").as_deref(), Some("TOML"));
        assert_eq!(name("text"), None);
        assert_eq!(name("no-such-language"), None);
    }

    #[test]
    fn rust_gets_colours_and_cache_hits() {
        let src = "fn main() {\n    let x = 1;\n}\n";
        let a = highlight(src, "rust");
        assert_eq!(a.len(), 3);
        let styles: std::collections::HashSet<_> = a.iter().flatten().map(|(s, _)| s.fg).collect();
        assert!(styles.len() > 1, "expected several colours: {styles:?}");
        let text: String = a[1].iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(text, "    let x = 1;");
        let b = highlight(src, "rust");
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn huge_lines_fall_back_to_plain() {
        let long = "x".repeat(MAX_LINE + 1);
        let out = highlight(&long, "rust");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0], vec![(Style::default(), long)]);
    }

    #[test]
    fn theme_names_match_loosely() {
        assert!(same_name("OneHalfDark", "one-half-dark"));
        assert!(!same_name("Nord", "OneHalfDark"));
    }
}
