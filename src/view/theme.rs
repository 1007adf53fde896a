//! Every colour ccv draws with, in one place. `NO_COLOR` / `--no-color`
//! switch to a monochrome theme where labels and glyphs alone tell kinds
//! apart (bold / reversed / dim only).

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
            search_match: plain.add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
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
    let _ = THEME.set(if color {
        Theme::colored()
    } else {
        Theme::mono()
    });
}

/// The theme in use (colours if `init` was never called, as in tests).
pub fn current() -> &'static Theme {
    THEME.get_or_init(Theme::colored)
}

/// Whether colour is wanted: `--no-color` or a non-empty `NO_COLOR` turn it off.
pub fn want_color(no_color_flag: bool) -> bool {
    !no_color_flag && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
