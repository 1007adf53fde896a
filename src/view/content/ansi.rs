//! Tool output with ANSI colour: SGR sequences become ratatui styles,
//! every other escape sequence is dropped, the text is made safe.

use super::wrap::wrap_hanging;
use crate::model::text::{AnsiSegment, ansi_segments, is_unsafe_char, visible_escape};
use crate::style::theme;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The graphic state an SGR sequence changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sgr {
    pub fg: Option<Color>,
    pub bg: Option<Color>,
    pub mods: Modifier,
}

impl Sgr {
    pub fn style(self) -> Style {
        Style {
            fg: self.fg,
            bg: self.bg,
            ..Style::default()
        }
        .add_modifier(self.mods)
    }

    /// Applies the parameters of one `ESC [ ... m`. Colours are ignored
    /// when `color` is false (the monochrome theme).
    pub fn apply(&mut self, params: &str, color: bool) {
        // `:` separates sub-parameters (38:2::r:g:b); treat it like `;`,
        // dropping the empty colour-space slot of the ITU form.
        let mut nums: Vec<u16> = Vec::new();
        for p in params.split(';') {
            let subs: Vec<&str> = p.split(':').collect();
            if subs.len() >= 6 && subs.get(1) == Some(&"2") {
                // 38:2:<cs>:r:g:b
                nums.extend(
                    [subs[0], subs[1], subs[3], subs[4], subs[5]]
                        .iter()
                        .map(|s| num(s)),
                );
            } else {
                nums.extend(subs.iter().map(|s| num(s)));
            }
        }
        if nums.is_empty() {
            nums.push(0);
        }
        let mut i = 0;
        while i < nums.len() {
            let n = nums[i];
            i += 1;
            match n {
                0 => *self = Sgr::default(),
                1 => self.mods |= Modifier::BOLD,
                2 => self.mods |= Modifier::DIM,
                3 => self.mods |= Modifier::ITALIC,
                4 => self.mods |= Modifier::UNDERLINED,
                7 => self.mods |= Modifier::REVERSED,
                9 => self.mods |= Modifier::CROSSED_OUT,
                21 | 22 => self.mods -= Modifier::BOLD | Modifier::DIM,
                23 => self.mods -= Modifier::ITALIC,
                24 => self.mods -= Modifier::UNDERLINED,
                27 => self.mods -= Modifier::REVERSED,
                29 => self.mods -= Modifier::CROSSED_OUT,
                30..=37 => self.fg = Some(basic(n - 30, false)),
                90..=97 => self.fg = Some(basic(n - 90, true)),
                40..=47 => self.bg = Some(basic(n - 40, false)),
                100..=107 => self.bg = Some(basic(n - 100, true)),
                39 => self.fg = None,
                49 => self.bg = None,
                38 | 48 | 58 => {
                    let (c, used) = extended(nums.get(i..).unwrap_or(&[]));
                    i += used;
                    match (n, c) {
                        (38, Some(c)) => self.fg = Some(c),
                        (48, Some(c)) => self.bg = Some(c),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        if !color {
            self.fg = None;
            self.bg = None;
        }
    }
}

fn num(s: &str) -> u16 {
    s.parse().unwrap_or(if s.is_empty() { 0 } else { u16::MAX })
}

fn basic(n: u16, bright: bool) -> Color {
    use Color::*;
    let dark = [Black, Red, Green, Yellow, Blue, Magenta, Cyan, Gray];
    let light = [
        DarkGray,
        LightRed,
        LightGreen,
        LightYellow,
        LightBlue,
        LightMagenta,
        LightCyan,
        White,
    ];
    let table = if bright { light } else { dark };
    table.get(usize::from(n)).copied().unwrap_or(Reset)
}

/// `5;n` or `2;r;g;b` after a 38/48: the colour and how many numbers it took.
fn extended(rest: &[u16]) -> (Option<Color>, usize) {
    let byte = |i: usize| rest.get(i).and_then(|&v| u8::try_from(v).ok());
    match rest.first() {
        Some(5) => (byte(1).map(Color::Indexed), 2.min(rest.len())),
        Some(2) => {
            let c = match (byte(1), byte(2), byte(3)) {
                (Some(r), Some(g), Some(b)) => Some(Color::Rgb(r, g, b)),
                _ => None,
            };
            (c, 4.min(rest.len()))
        }
        Some(_) => (None, 1),
        None => (None, 0),
    }
}

/// Logical (unwrapped) lines of styled spans from ANSI text, every frame
/// of a `\r` progress line on a line of its own (as [`sanitize`] does).
/// Backspace removes the previous character.
///
/// [`sanitize`]: crate::model::text::sanitize
pub fn ansi_lines(text: &str) -> Vec<Vec<Span<'static>>> {
    ansi_lines_folded(text, false)
}

/// As [`ansi_lines`]; with `fold_frames`, a line redrawn with `\r` shows
/// its last non-empty frame followed by `↻ N frames` (what a terminal
/// would have left on screen, without hiding that there was more).
pub fn ansi_lines_folded(text: &str, fold_frames: bool) -> Vec<Vec<Span<'static>>> {
    let color = theme::current().color;
    let mut sgr = Sgr::default();
    let mut lines = Lines::new(fold_frames);
    let mut pending_cr = false;
    for seg in ansi_segments(text) {
        match seg {
            AnsiSegment::Sgr(p) => sgr.apply(p, color),
            AnsiSegment::Text(t) => {
                for c in t.chars() {
                    if c == '\n' {
                        pending_cr = false;
                        lines.end_line();
                        continue;
                    }
                    if std::mem::take(&mut pending_cr) {
                        lines.new_frame();
                    }
                    if c == '\r' {
                        pending_cr = true;
                    } else if c == '\u{8}' {
                        backspace(lines.current());
                    } else {
                        push_char(lines.current(), sgr.style(), c);
                    }
                }
            }
        }
    }
    lines.finish(text.ends_with('\n') || text.ends_with("\r"))
}

/// The lines being built, and the frames of the current one.
struct Lines {
    done: Vec<Vec<Span<'static>>>,
    line: Vec<Span<'static>>,
    fold: bool,
    /// Folding: the last non-empty frame before the current one, and how
    /// many frames the line had so far.
    last_frame: Vec<Span<'static>>,
    frames: usize,
}

impl Lines {
    fn new(fold: bool) -> Self {
        Lines {
            done: Vec::new(),
            line: Vec::new(),
            fold,
            last_frame: Vec::new(),
            frames: 0,
        }
    }

    fn current(&mut self) -> &mut Vec<Span<'static>> {
        &mut self.line
    }

    fn new_frame(&mut self) {
        if !self.fold {
            self.done.push(std::mem::take(&mut self.line));
            return;
        }
        self.frames += 1;
        if !self.line.is_empty() {
            self.last_frame = std::mem::take(&mut self.line);
        }
    }

    fn end_line(&mut self) {
        let mut line = std::mem::take(&mut self.line);
        if self.frames > 0 {
            if line.is_empty() {
                line = std::mem::take(&mut self.last_frame);
            }
            let n = self.frames + 1;
            line.push(Span::styled(format!(" ↻ {n} frames"), theme::current().dim));
            self.frames = 0;
            self.last_frame.clear();
        }
        self.done.push(line);
    }

    fn finish(mut self, ended_with_newline: bool) -> Vec<Vec<Span<'static>>> {
        let trailing_empty = self.line.is_empty() && self.frames == 0;
        if !(ended_with_newline && trailing_empty && !self.done.is_empty()) {
            self.end_line();
        }
        if self.done.is_empty() {
            self.done.push(Vec::new());
        }
        self.done
    }
}

fn backspace(line: &mut Vec<Span<'static>>) {
    while let Some(last) = line.last_mut() {
        if last.content.to_mut().pop().is_some() {
            if last.content.is_empty() {
                line.pop();
            }
            return;
        }
        line.pop();
    }
}

fn push_char(line: &mut Vec<Span<'static>>, style: Style, c: char) {
    let mut buf = String::new();
    if is_unsafe_char(c) {
        visible_escape(c, &mut buf);
    } else {
        buf.push(c);
    }
    let piece = buf.as_str();
    match line.last_mut() {
        Some(last) if last.style == style => last.content.to_mut().push_str(piece),
        _ => line.push(Span::styled(piece.to_string(), style)),
    }
}

/// See [`super::ansi`].
pub fn ansi(text: &str, width: u16, fold_frames: bool) -> Vec<Line<'static>> {
    ansi_lines_folded(text, fold_frames)
        .iter()
        .flat_map(|l| wrap_hanging(l, usize::from(width)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgr(p: &str) -> Sgr {
        let mut s = Sgr::default();
        s.apply(p, true);
        s
    }

    #[test]
    fn colours_map() {
        assert_eq!(sgr("31").fg, Some(Color::Red));
        assert_eq!(sgr("1;92").fg, Some(Color::LightGreen));
        assert_eq!(sgr("1;92").mods, Modifier::BOLD);
        assert_eq!(sgr("44").bg, Some(Color::Blue));
        assert_eq!(sgr("38;5;208").fg, Some(Color::Indexed(208)));
        assert_eq!(sgr("38;2;10;20;30").fg, Some(Color::Rgb(10, 20, 30)));
        assert_eq!(sgr("38:2::10:20:30").fg, Some(Color::Rgb(10, 20, 30)));
        assert_eq!(sgr("48;5;17;1").bg, Some(Color::Indexed(17)));
        assert_eq!(sgr("48;5;17;1").mods, Modifier::BOLD);
        assert_eq!(sgr("31;0"), Sgr::default());
        assert_eq!(sgr("31;39").fg, None);
        assert_eq!(sgr("1;2;3;4;7;22;23;24;27").mods, Modifier::empty());
        assert_eq!(sgr("38;2;300;1;1").fg, None);
        assert_eq!(sgr("38;5").fg, None);
    }

    #[test]
    fn mono_drops_colour_keeps_bold() {
        let mut s = Sgr::default();
        s.apply("1;4;31;42", false);
        assert_eq!(s.fg, None);
        assert_eq!(s.bg, None);
        assert_eq!(s.mods, Modifier::BOLD | Modifier::UNDERLINED);
    }

    #[test]
    fn styled_spans_and_carriage_returns() {
        let lines = ansi_lines("\x1b[31mred\x1b[0m ok\n50%\r100%\nab\x08c\x1b]2;pwned\x07!\r\n");
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert_eq!(text, ["red ok", "50%", "100%", "ac!"]);
        assert_eq!(lines[0][0].style.fg, Some(Color::Red));
        assert_eq!(lines[0][1].style.fg, None);
    }

    #[test]
    fn progress_frames_fold_to_the_last_with_a_marker() {
        let text = |ls: Vec<Vec<Span<'static>>>| -> Vec<String> {
            ls.iter()
                .map(|l| l.iter().map(|s| s.content.as_ref()).collect())
                .collect()
        };
        let out = ansi_lines_folded("start\n10%\r50%\r100%\r\ndone\na\rb\rc", true);
        assert_eq!(
            text(out),
            ["start", "100% ↻ 3 frames", "done", "c ↻ 3 frames"]
        );
        // a trailing \r before the end: the last frame stays visible
        let out = ansi_lines_folded("x\ry\r", true);
        assert_eq!(text(out), ["y ↻ 2 frames"]);
        assert_eq!(text(ansi_lines("a\rb\rc")), ["a", "b", "c"]);
    }
}
