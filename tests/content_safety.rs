//! Nothing from a session reaches the terminal raw, and no input panics.

use ccv::model::text::is_unsafe_char;
use ccv::source::claude::raw::Hunk;
use ccv::view::content::{
    ansi, code, diff, display_width, markdown, plain, read_result, spans_width,
};
use ratatui::style::Color;
use ratatui::text::Line;

const HOSTILE: &[&str] = &[
    "title \x1b]2;pwned\x07 after",
    "clip \x1b]52;c;aGVsbG8=\x07 after",
    "clear \x1b[2J screen",
    "alt \x1b[?1049h screen",
    "mouse \x1b[?1000h on",
    "progress 10%\r100%",
    "nul \0 byte",
    "c1 \u{9b}31m csi",
    "bidi \u{202e}txt.exe",
    "isolates \u{2066}x\u{2069} \u{200e}\u{200f}",
    "del \x7f bell \x07 bs a\x08b vt \x0b ff \x0c",
    "tab\tin\tthe\tmiddle",
    "osc unterminated \x1b]0;forever",
    "dcs \x1bPq#0;2;0;0;0\x1b\\ done",
    "c1 osc \u{9d}0;t\u{9c} done",
    "\x1b",
    "\r\r\r",
    "lone \u{85} nel and \u{2028} line sep",
];

fn assert_safe(what: &str, input: &str, lines: &[Line<'_>], width: u16) {
    for l in lines {
        for s in &l.spans {
            if let Some(c) = s
                .content
                .chars()
                .find(|&c| is_unsafe_char(c) || c.is_control())
            {
                panic!("{what}({input:?}) leaked {c:?} in {:?}", s.content);
            }
        }
        let w = spans_width(&l.spans);
        // code frames and tables keep a minimum size; text never overflows
        assert!(
            w <= usize::from(width).max(8),
            "{what}({input:?}) line of {w} > {width}: {l:?}"
        );
    }
}

fn all_renderers(input: &str, width: u16) {
    assert_safe("plain", input, &plain(input, width), width);
    assert_safe("ansi", input, &ansi(input, width, false), width);
    assert_safe("markdown", input, &markdown(input, width), width);
    assert_safe("code", input, &code(input, "rust", Some(1), width), width);
    assert_safe("code-sh", input, &code(input, "sh", None, width), width);
    let numbered = format!("     1→{input}\n     2→{input}");
    assert_safe(
        "read_result",
        input,
        &read_result(&numbered, "a.py", width),
        width,
    );
    let hunk = Hunk {
        old_start: 1,
        old_lines: 2,
        new_start: 1,
        new_lines: 2,
        lines: [
            format!(" {input}"),
            format!("-{input}"),
            format!("+{input}"),
            input.into(),
        ]
        .into_iter()
        .collect(),
    };
    assert_safe("diff", input, &diff(&[hunk], "a.rs", width), width);
}

#[test]
fn hostile_input_never_reaches_the_terminal() {
    for &h in HOSTILE {
        for width in [1, 7, 40, 120] {
            all_renderers(h, width);
            all_renderers(
                &format!(
                    "# {h}\n\n- {h}\n\n| {h} | x |\n|---|---|\n| {h} | y |\n\n```\n{h}\n```\n> {h}"
                ),
                width,
            );
        }
    }
}

#[test]
fn escape_sequences_are_removed_not_shown() {
    let text = |lines: Vec<Line<'_>>| -> String {
        lines
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect()
    };
    assert_eq!(text(plain("a\x1b]2;pwned\x07b", 40)), "ab");
    assert_eq!(text(ansi("a\x1b[2J\x1b[?1049hb", 40, false)), "ab");
    assert_eq!(text(ansi("50%\r100%", 40, false)), "100% ↻ 2 frames");
    assert_eq!(ansi("50%\r100%", 40, true).len(), 2);
    assert_eq!(text(markdown("x \x1b]52;c;aGk=\x07y", 40)), "x y");
    assert_eq!(text(plain("a\0b", 40)), "a^@b");
}

#[test]
fn ansi_colours_become_styles() {
    let out = ansi(
        "\x1b[1;31merror\x1b[0m: \x1b[38;5;208mwarn\x1b[38;2;1;2;3m rgb\x1b[39m",
        80,
        false,
    );
    assert_eq!(out.len(), 1);
    let spans = &out[0].spans;
    let style_of = |t: &str| {
        spans
            .iter()
            .find(|s| s.content.contains(t))
            .map(|s| s.style)
    };
    assert_eq!(style_of("error").and_then(|s| s.fg), Some(Color::Red));
    assert_eq!(
        style_of("warn").and_then(|s| s.fg),
        Some(Color::Indexed(208))
    );
    assert_eq!(
        style_of("rgb").and_then(|s| s.fg),
        Some(Color::Rgb(1, 2, 3))
    );
    assert_eq!(style_of(": ").and_then(|s| s.fg), None);
}

#[test]
fn wrapping_respects_wide_and_zero_width_text() {
    let samples = [
        "日本語のテキストと English words mixed 中文字符",
        "emoji 👨‍👩‍👧‍👦 family 🇯🇵🇫🇷 flags ❤️ hearts 👍🏽 skin",
        "combining e\u{301}e\u{301}e\u{301} a\u{308}o\u{308} zero\u{200b}width\u{200d}joiner\u{2060}",
        "ｶﾞｷﾞ halfwidth kana with dakuten",
    ];
    for s in samples {
        // from 3: one halfwidth kana + dakuten cluster is 3 columns to ratatui
        for width in 3..30u16 {
            for lines in [plain(s, width), markdown(s, width), ansi(s, width, false)] {
                for l in &lines {
                    let w = spans_width(&l.spans);
                    assert!(w <= usize::from(width), "{s:?} at {width}: {w} {l:?}");
                }
                // no text lost or duplicated apart from spaces at breaks
                let joined: String = lines
                    .iter()
                    .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
                    .collect::<String>()
                    .replace(' ', "");
                assert_eq!(joined, s.replace(' ', ""), "width {width}");
            }
        }
    }
    assert_eq!(display_width("👨‍👩‍👧‍👦"), 2);
}

/// xorshift64*: deterministic noise without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn random_input_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Bias towards bytes that drive the parsers: markdown punctuation,
    // escape introducers, newlines, UTF-8 lead bytes.
    let alphabet: &[u8] =
        b"#*_`~-+>|[]()!:\\ \n\t\r\x1b\x07\x00\x7fab1;m[]\xc2\x9b\xe2\x80\xae\xf0\x9f\x98\x80";
    for round in 0..400 {
        let len = (rng.next() % 300) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let r = rng.next();
                if r.is_multiple_of(4) {
                    (r >> 8) as u8
                } else {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                }
            })
            .collect();
        let s = String::from_utf8_lossy(&bytes);
        let width = (rng.next() % 100) as u16;
        all_renderers(&s, width);
        let _ = round;
    }
}
