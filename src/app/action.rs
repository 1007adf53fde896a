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
    SearchInput(char),
    SearchBackspace,
    SearchSubmit,
    SearchCancel,
    NextMatch,
    /// `x` / `X`: the next / previous error row.
    NextError,
    PrevError,
    PrevMatch,
    ToggleTools,
    ToggleThinking,
    ToggleMeta,
    Follow,
    /// `y`: copy the selected row, or the visual range.
    Copy,
    /// `Y`: copy the transcript as filtered.
    CopyAll,
    /// `v`: start (or cancel) a range selection.
    Visual,
    /// `e`: write the transcript as filtered to a markdown file.
    ExportMarkdown,
    /// `>`: open the newer session of the project.
    OpenNewer,
    /// `<`: back to the session left for a newer one.
    GoBack,
    /// `R`: leave ccv and resume the session with `claude --resume`.
    Resume,
    Help,
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
