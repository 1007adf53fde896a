//! Colours for the terminal at hand: how many it shows (`COLORTERM`,
//! `TERM`), the nearest it has for a 24-bit one, and the style specs a
//! config writes (`"#61afef bold"`, `"black on yellow"`).

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use std::sync::atomic::{AtomicU8, Ordering};

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The 16 ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
    /// 24-bit colour.
    TrueColor,
}

impl Depth {
    /// From the environment: `COLORTERM=truecolor|24bit` (or a terminal
    /// known to have it), else `*256color*` in `TERM`, else 16.
    pub fn detect() -> Depth {
        let var = |k: &str| std::env::var(k).unwrap_or_default().to_ascii_lowercase();
        Depth::from_env(&var("COLORTERM"), &var("TERM"), &var("TERM_PROGRAM"))
    }

    pub fn from_env(colorterm: &str, term: &str, term_program: &str) -> Depth {
        let true_terms = ["iterm.app", "wezterm", "ghostty", "vscode", "kitty"];
        if matches!(colorterm, "truecolor" | "24bit")
            || term.contains("truecolor")
            || term.contains("direct")
            || term == "xterm-kitty"
            || term == "xterm-ghostty"
            || true_terms.contains(&term_program)
        {
            Depth::TrueColor
        } else if term.contains("256") {
            Depth::Ansi256
        } else {
            Depth::Ansi16
        }
    }
}

static DEPTH: AtomicU8 = AtomicU8::new(2);

/// Sets the depth every frame is fitted to (at startup).
pub fn set_depth(d: Depth) {
    DEPTH.store(d as u8, Ordering::Relaxed);
}

pub fn depth() -> Depth {
    match DEPTH.load(Ordering::Relaxed) {
        0 => Depth::Ansi16,
        1 => Depth::Ansi256,
        _ => Depth::TrueColor,
    }
}

/// Puts every cell's colours within what the terminal shows: the one
/// place a 24-bit colour (the theme's, a syntax theme's, a tool's own
/// output) becomes the nearest of 256 or 16. Costs one pass over the
/// screen's cells, and nothing on a true-colour terminal.
pub fn fit_buffer(buf: &mut Buffer) {
    let d = depth();
    if d == Depth::TrueColor {
        return;
    }
    for cell in buf.content.iter_mut() {
        cell.fg = fit(cell.fg, d);
        cell.bg = fit(cell.bg, d);
    }
}

/// `c` as the nearest colour `d` has.
pub fn fit(c: Color, d: Depth) -> Color {
    match (c, d) {
        (_, Depth::TrueColor) => c,
        (Color::Rgb(r, g, b), Depth::Ansi256) => Color::Indexed(nearest_256(r, g, b)),
        (Color::Rgb(r, g, b), Depth::Ansi16) => nearest_16(r, g, b),
        (Color::Indexed(i), Depth::Ansi16) if i >= 16 => {
            let (r, g, b) = rgb_of_256(i);
            nearest_16(r, g, b)
        }
        (Color::Indexed(i), Depth::Ansi16) => ANSI16[i as usize].0,
        _ => c,
    }
}

const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn dist(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    // weights for how the eye tells colours apart (red 2, green 4, blue 3)
    2 * d(a.0, b.0).pow(2) + 4 * d(a.1, b.1).pow(2) + 3 * d(a.2, b.2).pow(2)
}

fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    let level = |v: u8| {
        CUBE.iter()
            .enumerate()
            .min_by_key(|(_, l)| (i32::from(**l) - i32::from(v)).unsigned_abs())
            .map_or(0, |(i, _)| i)
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = (CUBE[ri], CUBE[gi], CUBE[bi]);
    let cube_index = 16 + 36 * ri + 6 * gi + bi;
    let avg = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let gi = ((avg.saturating_sub(8)) / 10).min(23) as u8;
    let grey = 8 + 10 * gi;
    if dist((r, g, b), (grey, grey, grey)) < dist((r, g, b), cube) {
        232 + gi
    } else {
        cube_index as u8
    }
}

fn rgb_of_256(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI16[i as usize].1,
        16..=231 => {
            let n = i - 16;
            (
                CUBE[(n / 36) as usize],
                CUBE[(n / 6 % 6) as usize],
                CUBE[(n % 6) as usize],
            )
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

/// The 16 ANSI colours with xterm's values.
const ANSI16: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

/// The 16-colour version: by hue, not by distance (a pastel red is
/// nearer grey than red by distance, but reads as red); greys by how light.
fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    if max - min < 40 {
        return match max {
            0..=23 => Color::Black,
            24..=159 => Color::DarkGray,
            160..=223 => Color::Gray,
            _ => Color::White,
        };
    }
    let (rf, gf, bf) = (f32::from(r), f32::from(g), f32::from(b));
    let c = f32::from(max - min);
    let hue = if max == r {
        60.0 * (((gf - bf) / c).rem_euclid(6.0))
    } else if max == g {
        60.0 * ((bf - rf) / c + 2.0)
    } else {
        60.0 * ((rf - gf) / c + 4.0)
    };
    let bright = max > 200;
    let pick = |dark: Color, light: Color| if bright { light } else { dark };
    match hue as u32 {
        30..=89 => pick(Color::Yellow, Color::LightYellow),
        90..=149 => pick(Color::Green, Color::LightGreen),
        150..=209 => pick(Color::Cyan, Color::LightCyan),
        210..=269 => pick(Color::Blue, Color::LightBlue),
        270..=329 => pick(Color::Magenta, Color::LightMagenta),
        _ => pick(Color::Red, Color::LightRed),
    }
}

/// Reads a style as a config writes it: `"FG"`, `"FG on BG"`, `"on BG"`,
/// with any of `bold dim italic underlined reversed`; a colour is a name
/// (`red`, `lightblue`, `darkgray`), `#rrggbb` or a palette index 0-255.
pub fn parse_style(spec: &str) -> Result<Style, String> {
    let mut style = Style::default();
    let mut words = spec.split_whitespace().peekable();
    let mut fg_seen = false;
    while let Some(w) = words.next() {
        let lower = w.to_ascii_lowercase();
        let modifier = match lower.as_str() {
            "bold" => Some(Modifier::BOLD),
            "dim" => Some(Modifier::DIM),
            "italic" => Some(Modifier::ITALIC),
            "underlined" | "underline" => Some(Modifier::UNDERLINED),
            "reversed" | "reverse" => Some(Modifier::REVERSED),
            _ => None,
        };
        if let Some(m) = modifier {
            style = style.add_modifier(m);
        } else if lower == "on" {
            let bg = words
                .next()
                .ok_or_else(|| format!("`{spec}`: a colour after `on`"))?;
            style = style.bg(parse_color(bg)?);
        } else if !fg_seen {
            style = style.fg(parse_color(w)?);
            fg_seen = true;
        } else {
            return Err(format!(
                "`{spec}`: `{w}` is not a colour or bold/dim/italic/underlined/reversed"
            ));
        }
    }
    Ok(style)
}

fn parse_color(w: &str) -> Result<Color, String> {
    w.parse::<Color>()
        .map_err(|_| format!("`{w}` is not a colour (red, lightblue, darkgray, #61afef, 0-255)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_from_the_environment() {
        assert_eq!(
            Depth::from_env("truecolor", "xterm-256color", ""),
            Depth::TrueColor
        );
        assert_eq!(Depth::from_env("", "tmux-256color", ""), Depth::Ansi256);
        assert_eq!(Depth::from_env("", "xterm", ""), Depth::Ansi16);
        assert_eq!(
            Depth::from_env("", "xterm-256color", "iterm.app"),
            Depth::TrueColor
        );
    }

    #[test]
    fn colours_fit_the_terminal() {
        assert_eq!(
            fit(Color::Rgb(255, 0, 0), Depth::Ansi256),
            Color::Indexed(196)
        );
        assert_eq!(
            fit(Color::Rgb(40, 44, 52), Depth::Ansi256),
            Color::Indexed(235)
        );
        assert_eq!(
            fit(Color::Rgb(224, 108, 117), Depth::Ansi16),
            Color::LightRed
        );
        assert_eq!(fit(Color::Rgb(10, 10, 10), Depth::Ansi16), Color::Black);
        // a dark background stays visible on a black terminal
        assert_eq!(fit(Color::Rgb(45, 50, 62), Depth::Ansi16), Color::DarkGray);
        assert_eq!(
            fit(Color::Rgb(229, 152, 75), Depth::Ansi16),
            Color::LightYellow
        );
        assert_eq!(fit(Color::Indexed(196), Depth::Ansi16), Color::LightRed);
        assert_eq!(fit(Color::Blue, Depth::Ansi16), Color::Blue);
        assert_eq!(
            fit(Color::Rgb(1, 2, 3), Depth::TrueColor),
            Color::Rgb(1, 2, 3)
        );
    }

    #[test]
    fn styles_read_as_configs_write_them() {
        assert_eq!(
            parse_style("#61afef bold"),
            Ok(Style::default()
                .fg(Color::Rgb(0x61, 0xaf, 0xef))
                .add_modifier(Modifier::BOLD))
        );
        assert_eq!(
            parse_style("black on yellow"),
            Ok(Style::default().fg(Color::Black).bg(Color::Yellow))
        );
        assert_eq!(
            parse_style("on 236"),
            Ok(Style::default().bg(Color::Indexed(236)))
        );
        assert!(parse_style("blurple").is_err());
        assert!(parse_style("red green").is_err());
        assert!(parse_style("red on").is_err());
    }
}
