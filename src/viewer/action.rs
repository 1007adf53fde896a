//! Everything the user can ask the viewer to do.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Up(usize),
    Down(usize),
    Top,
    Bottom,
    PageDown,
    PageUp,
    HalfPageDown,
    HalfPageUp,
    PrevPrompt,
    NextPrompt,
    Toggle,
    /// `z`: show the selected output whole (no `… N more lines`).
    ShowAll,
    ExpandAll,
    CollapseAll,
    /// Open the search prompt.
    SearchStart,
    /// `:`: open the command line (`:LINE`, `:export PATH`, `:set …`).
    CommandStart,
    /// Typing in the open prompt (search or command line).
    PromptInput(char),
    PromptBackspace,
    /// Readline's keys in the open prompt (Ctrl-W, Ctrl-U, Alt-B, Up...).
    PromptEdit(crate::prompt::EditOp),
    PromptSubmit,
    PromptCancel,
    /// A key that waits for the next one: `m` a mark, `'` a mark, `c` a
    /// part of the call to copy.
    Pending(Pending),
    /// The key after a pending one.
    PendingKey(char),
    NextMatch,
    /// `x` / `X`: the next / previous error row.
    NextError,
    PrevError,
    PrevMatch,
    ToggleTools,
    ToggleThinking,
    ToggleMeta,
    /// `!`: show only error rows.
    ToggleErrors,
    Follow,
    /// `y`: copy the selected row, or the visual range.
    Copy,
    /// `Y`: copy the transcript as filtered.
    CopyAll,
    /// `v`: start (or cancel) a range selection.
    Visual,
    /// `E`: the selected row's line of the JSONL in `$VISUAL`/`$EDITOR`.
    EditLine,
    /// `F`: the selected call's file (at its line) in the editor, or the
    /// whole of its output when Claude Code saved it apart.
    EditFile,
    /// `#`: redact copies, then the screen too, then nothing.
    ToggleRedact,
    /// `M`: turn mouse capture off (the terminal's own selection) or on.
    ToggleMouse,
    /// `e`: write the transcript as filtered to a markdown file.
    ExportMarkdown,
    /// `>`: open the newer session of the project.
    OpenNewer,
    /// `<`: back to the session left for a newer one.
    GoBack,
    /// `R`: leave ccv and resume the session with `claude --resume`.
    Resume,
    Help,
    /// `i`: the session in figures (files, time, tokens, cost, lines).
    Info,
    /// Esc: as `Back`, but a search's highlights go first.
    Dismiss,
    /// `q`: close the overlay or prompt, else quit.
    Back,
    Quit,
    /// Mouse click on a screen row.
    Click(u16),
    ScrollUp,
    ScrollDown,
    Resize(u16, u16),
}

/// What a pending key waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// `m{a-z}`: remember the selected row as a mark.
    SetMark,
    /// `'{a-z}`: go to a mark.
    GotoMark,
    /// `c{c,o,p,s,l}`: copy a part of the selected call.
    CopyPart,
    /// `R` when the session's directory is gone: `y` resumes in the
    /// current directory.
    ConfirmResume,
}

/// The names a config's `[keys]` table uses, each with its action.
pub const NAMED: &[(&str, Action)] = &[
    ("down", Action::Down(1)),
    ("up", Action::Up(1)),
    ("top", Action::Top),
    ("bottom", Action::Bottom),
    ("half_page_down", Action::HalfPageDown),
    ("half_page_up", Action::HalfPageUp),
    ("page_down", Action::PageDown),
    ("page_up", Action::PageUp),
    ("prev_prompt", Action::PrevPrompt),
    ("next_prompt", Action::NextPrompt),
    ("toggle", Action::Toggle),
    ("show_all", Action::ShowAll),
    ("expand_all", Action::ExpandAll),
    ("collapse_all", Action::CollapseAll),
    ("search", Action::SearchStart),
    ("next_match", Action::NextMatch),
    ("prev_match", Action::PrevMatch),
    ("next_error", Action::NextError),
    ("prev_error", Action::PrevError),
    ("command_line", Action::CommandStart),
    ("set_mark", Action::Pending(Pending::SetMark)),
    ("goto_mark", Action::Pending(Pending::GotoMark)),
    ("toggle_tools", Action::ToggleTools),
    ("toggle_thinking", Action::ToggleThinking),
    ("toggle_meta", Action::ToggleMeta),
    ("toggle_errors", Action::ToggleErrors),
    ("follow", Action::Follow),
    ("copy", Action::Copy),
    ("copy_part", Action::Pending(Pending::CopyPart)),
    ("visual", Action::Visual),
    ("copy_all", Action::CopyAll),
    ("export_markdown", Action::ExportMarkdown),
    ("edit_line", Action::EditLine),
    ("edit_file", Action::EditFile),
    ("toggle_mouse", Action::ToggleMouse),
    ("toggle_redact", Action::ToggleRedact),
    ("open_newer", Action::OpenNewer),
    ("go_back", Action::GoBack),
    ("resume", Action::Resume),
    ("help", Action::Help),
    ("info", Action::Info),
    ("back", Action::Back),
    ("dismiss", Action::Dismiss),
    ("quit", Action::Quit),
];

impl Action {
    /// The action a config names (`toggle_meta`).
    pub fn named(name: &str) -> Option<Action> {
        NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a.clone())
    }

    /// Its name in a config, when it has one.
    pub fn name(&self) -> Option<&'static str> {
        NAMED.iter().find(|(_, a)| a == self).map(|(n, _)| *n)
    }
}
