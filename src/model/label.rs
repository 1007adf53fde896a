//! What a row is called: the one rule the viewer and every export use, so
//! what is copied is labelled as what is seen.

use super::item::{Detail, Item, Kind, SystemInfo, ToolResult};

/// A row's label: its name (`[Tool Error]` in exports, the label column on
/// screen), its glyph and the tone the theme colours it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub name: &'static str,
    pub glyph: &'static str,
    pub tone: Tone,
    /// Said after the name (`[User] (queued while Claude worked)`).
    pub note: Option<&'static str>,
}

/// The colour family of a row; the theme maps each to a style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    User,
    Assistant,
    Thinking,
    ToolCall,
    ToolResult,
    Error,
    System,
    Dim,
    Unknown,
}

const fn label(name: &'static str, glyph: &'static str, tone: Tone) -> Label {
    Label {
        name,
        glyph,
        tone,
        note: None,
    }
}

/// The label of an item's row.
pub fn of_item(item: &Item) -> Label {
    let error = item.flags.error;
    match item.kind {
        Kind::User if item.flags.queued => Label {
            note: Some("queued while Claude worked"),
            ..label("User", "❯", Tone::User)
        },
        Kind::User if item.flags.from_lead => Label {
            note: Some("from the team lead"),
            ..label("User", "❯", Tone::User)
        },
        Kind::User => label("User", "❯", Tone::User),
        Kind::Assistant if item.flags.synthetic => label("API Error", "!", Tone::Error),
        Kind::Assistant => label("Assistant", "●", Tone::Assistant),
        Kind::Thinking => label("Thinking", "∴", Tone::Thinking),
        Kind::Compaction => label("Compaction", "≡", Tone::System),
        Kind::System => match &item.detail {
            Detail::System(info) if matches!(**info, SystemInfo::ApiError { .. }) => {
                label("API Retry", "!", Tone::Error)
            }
            _ if item.flags.synthetic => label("API Error", "!", Tone::Error),
            _ if error => label("Error", "!", Tone::Error),
            _ => label("System", "·", Tone::System),
        },
        Kind::Command => label("Command", "/", Tone::System),
        Kind::Meta => label("Meta", "·", Tone::System),
        Kind::ToolResult => match &item.detail {
            Detail::OrphanResult(r) => of_result(r),
            _ if error => label("Tool Error", "✗", Tone::Error),
            _ => label("Tool Result", "↳", Tone::ToolResult),
        },
        Kind::ToolCall => label("Tool Call", "⚙", Tone::ToolCall),
        Kind::Unknown => label("Unknown", "?", Tone::Unknown),
        Kind::Unreadable => label("Unreadable", "!", Tone::Error),
    }
}

/// The label of a tool result, on its own row or under its call.
pub fn of_result(r: &ToolResult) -> Label {
    if r.rejected() {
        label("Tool Rejected", "⊘", Tone::Dim)
    } else if r.is_error {
        label("Tool Error", "✗", Tone::Error)
    } else {
        label("Tool Result", "↳", Tone::ToolResult)
    }
}

/// An error row: a failed call (its result failed, not declined), an API
/// error, an error notice, an unreadable line. `x` / `X` go from one to
/// the next.
pub fn is_error(item: &Item) -> bool {
    if of_item(item).tone == Tone::Error {
        return true;
    }
    match &item.detail {
        super::item::Detail::Call(c) => c
            .result
            .as_ref()
            .is_some_and(|r| of_result(r).tone == Tone::Error),
        _ => false,
    }
}
