//! ASCII in place of the symbols ccv draws (`--ascii`, `glyphs = "ascii"`).
//! A terminal set to draw East Asian "ambiguous" characters two columns
//! wide (a CJK locale's choice in iTerm2, Windows Terminal, tmux) draws
//! `●`, `│`, `…` or `·` wider than ratatui laid them out, and every cell
//! after one on its line lands a column off. Each such symbol becomes an
//! ASCII character of one column as the frame is finished, so the layout
//! stays as drawn; letters (Greek, Cyrillic) are left as they are.

use ratatui::buffer::Buffer;
use std::sync::atomic::{AtomicBool, Ordering};

static ASCII: AtomicBool = AtomicBool::new(false);

/// Draw ASCII from now on (or the symbols again).
pub fn set_ascii(on: bool) {
    ASCII.store(on, Ordering::Relaxed);
}

pub fn ascii() -> bool {
    ASCII.load(Ordering::Relaxed)
}

/// The frame's symbols as ASCII, when asked for.
pub fn fit_buffer(buf: &mut Buffer) {
    if ascii() {
        to_ascii(buf);
    }
}

fn to_ascii(buf: &mut Buffer) {
    for cell in buf.content.iter_mut() {
        let mut chars = cell.symbol().chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && !c.is_ascii()
            && let Some(a) = stand_in(c)
        {
            cell.set_char(a);
        }
    }
}

/// The ASCII character a symbol is drawn as (one column, as the symbol
/// was laid out), `None` for a character that is not one of them.
pub fn stand_in(c: char) -> Option<char> {
    Some(match c {
        // lines and corners of boxes, rules, bars
        '─' | '━' | '┄' | '┈' | '╌' | '⎯' | '▔' | '▁' => '-',
        '═' => '=',
        '│' | '┃' | '┆' | '┊' | '╎' | '▏' | '▕' | '▎' | '▍' | '▌' => '|',
        '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' | '╭' | '╮' | '╯' | '╰' | '╔' | '╗'
        | '╚' | '╝' | '╠' | '╣' | '╦' | '╩' | '╬' => '+',
        '█' | '▓' | '▒' | '▇' | '▆' | '▅' | '▄' | '▃' | '▂' => '#',
        '░' => ':',
        // bullets, marks, states
        '●' | '•' | '◆' | '◇' | '■' | '□' | '▪' | '▫' | '○' | '◯' | '◎' | '★' | '☆' | '⏺' => {
            '*'
        }
        '◐' | '◑' | '◒' | '◓' | '◌' => 'o',
        '·' | '∙' | '⋅' => '.',
        '…' | '⋯' => '~',
        '✓' | '✔' | '☑' | '☒' => 'v',
        '✗' | '✘' | '✕' | '✖' | '×' => 'x',
        '☐' => '_',
        '⚠' | '‼' => '!',
        '⏸' | '⏵' => '>',
        '↻' | '⟳' | '↺' => '@',
        '¤' | '§' | '¶' => '#',
        // arrows and pointers
        '❯' | '›' | '»' | '▸' | '▶' | '►' | '▹' | '→' | '⇒' | '⟶' | '➜' | '➔' => {
            '>'
        }
        '❮' | '‹' | '«' | '◂' | '◀' | '◄' | '◃' | '←' | '⇐' | '⟵' => '<',
        '▾' | '▼' | '▿' | '↓' | '⇓' | '⬇' => 'v',
        '▴' | '▲' | '▵' | '↑' | '⇑' | '⬆' => '^',
        '↔' | '⇔' => '-',
        '↕' => '|',
        '↵' | '⏎' => '/',
        // quotes and dashes of prose
        '‘' | '’' | '′' => '\'',
        '“' | '”' | '″' => '"',
        '–' | '—' | '―' | '−' => '-',
        '±' => '+',
        '°' => 'o',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn a_symbol_becomes_one_column_of_ascii_and_a_letter_stays() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 1));
        buf.set_string(0, 0, "● │ … · ✓ é Ж α 中", ratatui::style::Style::default());
        to_ascii(&mut buf);
        let line: String = buf.content.iter().map(|c| c.symbol()).collect();
        assert_eq!(line.trim_end(), "* | ~ . v é Ж α 中");
    }

    #[test]
    fn every_stand_in_is_one_column_for_one_column() {
        for c in ('\u{80}'..='\u{2fff}').chain('\u{2b00}'..='\u{2bff}') {
            if let Some(a) = stand_in(c) {
                assert!(a.is_ascii_graphic(), "{c:?} -> {a:?}");
                assert_eq!(c.to_string().width(), 1, "{c:?} is laid out in one column");
            }
        }
    }
}
