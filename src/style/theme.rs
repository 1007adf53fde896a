//! Every colour ccv draws with, in one place: a dark and a light theme
//! (chosen by the terminal's background when it answers), a config's own
//! themes and colours over them. `NO_COLOR` / `--no-color` switch to a
//! monochrome theme where labels and glyphs alone tell kinds apart (bold /
//! reversed / dim only).

use crate::model::Kind;
use ratatui::style::{Color, Modifier, Style};
use std::sync::OnceLock;

#[derive(Debug, Clone)]
pub struct Theme {
    pub color: bool,
    pub user: Style,
    pub assistant: Style,
    pub thinking: Style,
    pub tool_call: Style,
    pub tool_result: Style,
    pub tool_error: Style,
    pub system: Style,
    pub unknown: Style,
    pub dim: Style,
    pub selected: Style,
    pub search_match: Style,
    /// The match `n` / `N` went to: apart from the others and from the
    /// selection it sits on, in every theme and colour depth (bold and
    /// underlined too, where colours are few or none).
    pub current_match: Style,
    pub header: Style,
    pub status: Style,
    pub heading: Style,
    pub code: Style,
    pub quote: Style,
    pub link: Style,
    pub diff_add: Style,
    pub diff_remove: Style,
    pub diff_context: Style,
    /// Background of the code on an added / removed diff line.
    pub diff_add_line: Style,
    pub diff_remove_line: Style,
    pub line_number: Style,
    /// The `⚠` of a row that `ccv check` has a finding about.
    pub warning: Style,
    /// syntect theme name for code (two-face's bundled themes).
    pub syntax_theme: &'static str,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::colored()
    }
}

impl Theme {
    pub fn colored() -> Theme {
        let fg = |c: Color| Style::default().fg(c);
        Theme {
            color: true,
            user: fg(Color::Rgb(97, 175, 239)),
            assistant: fg(Color::Rgb(152, 195, 121)),
            thinking: fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            tool_call: fg(Color::Rgb(229, 152, 75)),
            tool_result: fg(Color::Rgb(198, 120, 221)),
            tool_error: fg(Color::Rgb(224, 108, 117)),
            system: fg(Color::Gray),
            unknown: fg(Color::DarkGray),
            dim: fg(Color::DarkGray),
            selected: Style::default().bg(Color::Rgb(45, 50, 62)),
            search_match: Style::default()
                .bg(Color::Rgb(229, 192, 123))
                .fg(Color::Black),
            current_match: Style::default()
                .bg(Color::Rgb(255, 95, 95))
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            header: Style::default().add_modifier(Modifier::BOLD),
            status: Style::default().bg(Color::Rgb(40, 44, 52)).fg(Color::Gray),
            heading: fg(Color::Rgb(97, 175, 239)).add_modifier(Modifier::BOLD),
            code: fg(Color::Rgb(209, 154, 102)),
            quote: fg(Color::Gray).add_modifier(Modifier::ITALIC),
            link: fg(Color::Rgb(86, 182, 194)).add_modifier(Modifier::UNDERLINED),
            diff_add: fg(Color::Rgb(152, 195, 121)),
            diff_remove: fg(Color::Rgb(224, 108, 117)),
            diff_context: fg(Color::Gray),
            diff_add_line: Style::default().bg(Color::Rgb(30, 48, 32)),
            diff_remove_line: Style::default().bg(Color::Rgb(58, 30, 34)),
            line_number: fg(Color::DarkGray),
            warning: fg(Color::Rgb(229, 192, 123)).add_modifier(Modifier::BOLD),
            syntax_theme: "OneHalfDark",
        }
    }

    /// For a light background: the dark theme's hues, darker, and pale
    /// backgrounds.
    pub fn light() -> Theme {
        let fg = |r, g, b| Style::default().fg(Color::Rgb(r, g, b));
        let bg = |r, g, b| Style::default().bg(Color::Rgb(r, g, b));
        Theme {
            color: true,
            user: fg(1, 112, 178),
            assistant: fg(48, 118, 40),
            thinking: fg(128, 128, 128).add_modifier(Modifier::ITALIC),
            tool_call: fg(176, 94, 0),
            tool_result: fg(148, 36, 150),
            tool_error: fg(196, 22, 60),
            system: fg(96, 96, 96),
            unknown: fg(140, 140, 140),
            dim: fg(140, 140, 140),
            selected: bg(221, 228, 240),
            search_match: bg(255, 214, 102).fg(Color::Black),
            current_match: bg(255, 120, 60)
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            header: Style::default().add_modifier(Modifier::BOLD),
            status: bg(228, 228, 228).fg(Color::Rgb(50, 50, 50)),
            heading: fg(1, 112, 178).add_modifier(Modifier::BOLD),
            code: fg(152, 84, 1),
            quote: fg(96, 96, 96).add_modifier(Modifier::ITALIC),
            link: fg(0, 122, 140).add_modifier(Modifier::UNDERLINED),
            diff_add: fg(48, 118, 40),
            diff_remove: fg(196, 22, 60),
            diff_context: fg(90, 90, 90),
            diff_add_line: bg(218, 245, 218),
            diff_remove_line: bg(252, 222, 224),
            line_number: fg(150, 150, 150),
            warning: fg(152, 84, 1).add_modifier(Modifier::BOLD),
            syntax_theme: "OneHalfLight",
        }
    }

    /// A built-in theme by name: `dark`, `light`, `mono`.
    pub fn builtin(name: &str) -> Option<Theme> {
        match name {
            "dark" => Some(Theme::colored()),
            "light" => Some(Theme::light()),
            "mono" | "none" => Some(Theme::mono()),
            _ => None,
        }
    }

    /// Every style by the name a config gives it (`[colors]`,
    /// `[themes.NAME]`): the one list of them.
    pub fn styles_mut(&mut self) -> [(&'static str, &mut Style); 25] {
        [
            ("user", &mut self.user),
            ("assistant", &mut self.assistant),
            ("thinking", &mut self.thinking),
            ("tool_call", &mut self.tool_call),
            ("tool_result", &mut self.tool_result),
            ("tool_error", &mut self.tool_error),
            ("system", &mut self.system),
            ("unknown", &mut self.unknown),
            ("dim", &mut self.dim),
            ("selected", &mut self.selected),
            ("search_match", &mut self.search_match),
            ("current_match", &mut self.current_match),
            ("header", &mut self.header),
            ("status", &mut self.status),
            ("heading", &mut self.heading),
            ("code", &mut self.code),
            ("quote", &mut self.quote),
            ("link", &mut self.link),
            ("diff_add", &mut self.diff_add),
            ("diff_remove", &mut self.diff_remove),
            ("diff_context", &mut self.diff_context),
            ("diff_add_line", &mut self.diff_add_line),
            ("diff_remove_line", &mut self.diff_remove_line),
            ("line_number", &mut self.line_number),
            ("warning", &mut self.warning),
        ]
    }

    /// Sets the style called `name` (a config's colour); false when no
    /// style has that name.
    pub fn set(&mut self, name: &str, style: Style) -> bool {
        if name == "syntax_theme" {
            return false;
        }
        match self.styles_mut().into_iter().find(|(n, _)| *n == name) {
            Some((_, s)) => {
                *s = style;
                true
            }
            None => false,
        }
    }

    pub fn mono() -> Theme {
        let plain = Style::default();
        let bold = plain.add_modifier(Modifier::BOLD);
        let dim = plain.add_modifier(Modifier::DIM);
        Theme {
            color: false,
            user: bold,
            assistant: plain,
            thinking: dim,
            tool_call: plain,
            tool_result: plain,
            tool_error: bold,
            system: dim,
            unknown: dim,
            dim,
            selected: plain.add_modifier(Modifier::REVERSED),
            search_match: plain.add_modifier(Modifier::UNDERLINED),
            // bold, and out of the selection's reverse, so it shows on the row it is on
            current_match: plain
                .add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
                .remove_modifier(Modifier::REVERSED),
            header: bold,
            status: plain.add_modifier(Modifier::REVERSED),
            heading: bold,
            code: plain,
            quote: plain.add_modifier(Modifier::ITALIC),
            link: plain.add_modifier(Modifier::UNDERLINED),
            diff_add: bold,
            diff_remove: dim,
            diff_context: plain,
            diff_add_line: plain,
            diff_remove_line: plain,
            line_number: dim,
            warning: bold,
            syntax_theme: "",
        }
    }

    /// The style of a row label's tone.
    pub fn tone(&self, tone: crate::model::label::Tone) -> Style {
        use crate::model::label::Tone;
        match tone {
            Tone::User => self.user,
            Tone::Assistant => self.assistant,
            Tone::Thinking => self.thinking,
            Tone::ToolCall => self.tool_call,
            Tone::ToolResult => self.tool_result,
            Tone::Error => self.tool_error,
            Tone::System => self.system,
            Tone::Dim => self.dim,
            Tone::Unknown => self.unknown,
        }
    }

    pub fn kind(&self, kind: Kind, error: bool) -> Style {
        match kind {
            _ if error => self.tool_error,
            Kind::User => self.user,
            Kind::Assistant => self.assistant,
            Kind::Thinking => self.thinking,
            Kind::ToolCall => self.tool_call,
            Kind::ToolResult => self.tool_result,
            Kind::System | Kind::Command | Kind::Meta | Kind::Compaction => self.system,
            Kind::Unknown | Kind::Unreadable => self.unknown,
        }
    }
}

static THEME: OnceLock<Theme> = OnceLock::new();

/// Chooses the theme once, at startup (before the first draw).
pub fn init(color: bool) {
    install(if color {
        Theme::colored()
    } else {
        Theme::mono()
    });
}

/// Makes `theme` the one every draw uses (once, at startup).
pub fn install(theme: Theme) {
    let _ = THEME.set(theme);
}

/// The terminal's background, asked with OSC 11 (through
/// `terminal-colorsaurus`, which gives up at once on terminals that do
/// not answer), else from `COLORFGBG`; `None` when neither tells.
pub fn background_is_light() -> Option<bool> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        let mut opts = terminal_colorsaurus::QueryOptions::default();
        opts.timeout = std::time::Duration::from_millis(150);
        if let Ok(mode) = terminal_colorsaurus::theme_mode(opts) {
            return Some(mode == terminal_colorsaurus::ThemeMode::Light);
        }
    }
    // `COLORFGBG=15;0`: the background is the last number (0-6 and 8 dark)
    let v = std::env::var("COLORFGBG").ok()?;
    let bg: u8 = v.rsplit(';').next()?.parse().ok()?;
    Some(matches!(bg, 7 | 9..=15))
}

/// The theme in use (colours if `init` was never called, as in tests).
pub fn current() -> &'static Theme {
    THEME.get_or_init(Theme::colored)
}

/// Whether colour is wanted: `--no-color` or a non-empty `NO_COLOR` turn it off.
pub fn want_color(no_color_flag: bool) -> bool {
    !no_color_flag && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::color::{Depth, fit};

    /// The current match stands apart from the other matches and from
    /// the selection it sits on, whatever colours the terminal has.
    #[test]
    fn the_current_match_stands_out_at_every_depth() {
        for (name, th) in [
            ("dark", Theme::colored()),
            ("light", Theme::light()),
            ("mono", Theme::mono()),
        ] {
            let cur = th.current_match;
            assert!(
                cur.add_modifier
                    .contains(Modifier::BOLD | Modifier::UNDERLINED),
                "{name}: bold and underlined where colours fail"
            );
            if !th.color {
                assert!(
                    cur.sub_modifier.contains(Modifier::REVERSED)
                        && th.selected.add_modifier.contains(Modifier::REVERSED),
                    "{name}: out of the selection's reverse"
                );
                continue;
            }
            for d in [Depth::Ansi16, Depth::Ansi256, Depth::TrueColor] {
                let bg = |s: Style| s.bg.map(|c| fit(c, d));
                assert_ne!(bg(cur), bg(th.search_match), "{name} {d:?}: vs a match");
                assert_ne!(bg(cur), bg(th.selected), "{name} {d:?}: vs the selection");
                assert_ne!(
                    bg(th.search_match),
                    bg(th.selected),
                    "{name} {d:?}: a match on the selected row"
                );
            }
        }
    }
}
