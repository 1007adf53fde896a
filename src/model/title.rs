//! The one rule that names a session, used by the viewer's header, the
//! picker and `ccv list`: a title the user gave (`custom-title`) over one
//! Claude Code wrote (`ai-title`) over a `summary` of this session over the
//! first prompt, and the later over the earlier within each kind.

/// What names a session, as gathered from its lines.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TitleFacts {
    pub custom_title: Option<String>,
    pub ai_title: Option<String>,
    /// Every `summary` line: its text and `leafUuid`. Claude Code writes
    /// summaries of *other* sessions into a file too; only one whose leaf
    /// is a line of this file describes it.
    pub summaries: Vec<(String, Option<String>)>,
    /// A subagent's file opened on its own: the description of the call
    /// that started it.
    pub agent: Option<String>,
    /// The first prompt the user typed (or `[image]`).
    pub first_prompt: Option<String>,
    /// The first slash command, for sessions that start with one and hold
    /// no typed prompt.
    pub first_command: Option<String>,
}

impl TitleFacts {
    /// The title, given a test for "this uuid is a line of the file".
    pub fn title(&self, in_file: impl Fn(&str) -> bool) -> Option<&str> {
        let summary = self
            .summaries
            .iter()
            .rev()
            .find(|(_, leaf)| leaf.as_deref().is_none_or(&in_file))
            .map(|(s, _)| s.as_str());
        nonempty(self.custom_title.as_deref())
            .or(nonempty(self.ai_title.as_deref()))
            .or(nonempty(summary))
            .or(nonempty(self.agent.as_deref()))
            .or(nonempty(self.first_prompt.as_deref()))
            .or(nonempty(self.first_command.as_deref()))
    }

    pub fn set_custom(&mut self, t: &str) {
        set(&mut self.custom_title, t);
    }

    pub fn set_ai(&mut self, t: &str) {
        set(&mut self.ai_title, t);
    }

    pub fn add_summary(&mut self, t: &str, leaf: Option<&str>) {
        let t = one_line(t);
        if !t.is_empty() {
            self.summaries.push((t, leaf.map(str::to_owned)));
        }
    }
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.filter(|t| !t.trim().is_empty())
}

fn set(slot: &mut Option<String>, t: &str) {
    let t = one_line(t);
    if !t.is_empty() {
        *slot = Some(t);
    }
}

/// Longest title kept, in chars: any title a person wrote or Claude Code
/// made, whole (a listing's JSON carries it so); a pasted file as a first
/// prompt is cut.
pub const TITLE_MAX: usize = 4096;

/// Whitespace runs (newlines included) collapsed to one space, at most
/// `TITLE_MAX` chars and whole words.
pub fn one_line(s: &str) -> String {
    words_upto(s, TITLE_MAX)
}

/// Whitespace runs (newlines included) collapsed to one space, at most
/// `max` chars and whole words, `…` where it was cut.
pub fn words_upto(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    for word in s.split_whitespace() {
        let before = out.len();
        if !out.is_empty() {
            out.push(' ');
            n += 1;
        }
        let len = word.chars().count();
        if n + len > max {
            // a word that does not fit goes whole: a key cut here would be
            // one no rule knows, and its head would be left when a listing
            // is redacted
            out.truncate(before);
            out.push('…');
            break;
        }
        out.push_str(word);
        n += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_is_cut_between_words() {
        let key = format!("{}{}", "gh", "p_Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gHjK2L");
        let t = one_line(&format!("{}ab {key} end", "word ".repeat(815)));
        assert!(t.ends_with("ab…"), "{}", &t[t.len() - 20..]);
        assert!(t.chars().count() <= TITLE_MAX + 1);
        assert_eq!(one_line("  a\n\t b  "), "a b");
        assert_eq!(one_line(&"x".repeat(TITLE_MAX)).len(), TITLE_MAX);
        assert_eq!(one_line(&"x".repeat(TITLE_MAX + 1)), "…");
    }

    #[test]
    fn precedence_and_foreign_summaries() {
        let mut f = TitleFacts::default();
        assert_eq!(f.title(|_| true), None);
        f.note_user(
            "<command-name>/model</command-name><command-args>opus</command-args>",
            0,
        );
        assert_eq!(f.title(|_| true), Some("/model opus"));
        f.note_user("", 1);
        assert_eq!(f.title(|_| true), Some("[image]"));
        f.note_user("later prompt", 0);
        assert_eq!(f.title(|_| true), Some("[image]"));
        f.add_summary("Other session", Some("elsewhere"));
        assert_eq!(f.title(|u| u == "here"), Some("[image]"));
        f.add_summary("This session", Some("here"));
        f.add_summary("Another foreign one", Some("elsewhere"));
        assert_eq!(f.title(|u| u == "here"), Some("This session"));
        f.set_ai("AI one");
        f.set_ai("AI two");
        assert_eq!(f.title(|_| false), Some("AI two"));
        f.set_custom("Mine");
        assert_eq!(f.title(|_| false), Some("Mine"));
    }
}
