//! What names a Claude Code session, from its user messages: the first
//! prompt typed (or `[image]`), a teammate's task, the first slash command.

use super::classify::{UserText, classify_user_text};
use crate::model::title::{TitleFacts, one_line};

impl TitleFacts {
    /// A user message of the main conversation: its text and how many
    /// images it holds. The first that can name the session does.
    pub fn note_user(&mut self, text: &str, images: usize) {
        if self.first_prompt.is_some() {
            return;
        }
        match classify_user_text(text) {
            UserText::Prompt if !text.trim().is_empty() => {
                // a prompt written after an IDE's context is named by what
                // was typed
                let typed = super::classify::after_ide_context(text).unwrap_or(text);
                // a prompt file sent whole (an older Codex's custom prompt)
                // is named by what it says it is, not by its fence
                let named = front_matter_named(typed).unwrap_or(typed);
                self.first_prompt = Some(one_line(named));
            }
            UserText::Prompt if images > 0 => self.first_prompt = Some("[image]".into()),
            // a teammate's session starts with its task from the team lead
            UserText::Meta => {
                if let Some(m) = super::classify::teammate_message(text) {
                    let subject = m.subject();
                    if !subject.is_empty() {
                        self.first_prompt = Some(one_line(&subject));
                    }
                }
            }
            UserText::Command(c) if self.first_command.is_none() && c.name.starts_with('/') => {
                let t = if c.args.trim().is_empty() {
                    c.name
                } else {
                    format!("{} {}", c.name, c.args.trim())
                };
                self.first_command = Some(one_line(&t));
            }
            _ => {}
        }
    }
}

/// Lines of front matter looked through for its closing fence.
const FRONT_MATTER_LINES: usize = 64;

/// A text that opens with front matter (`---`, `key: value` lines,
/// `---`): its `description`, else what follows it. `None` when the
/// text does not open so, the fence is not closed, or a line between
/// the fences is no YAML's (a prompt with rules drawn in it).
fn front_matter_named(text: &str) -> Option<&str> {
    let rest = text.trim_start();
    let mut lines = rest.split_inclusive('\n');
    let mut at = lines.next()?.len();
    if rest[..at].trim_end() != "---" {
        return None;
    }
    let mut description = None;
    for line in lines.take(FRONT_MATTER_LINES) {
        at += line.len();
        let line = line.trim_end();
        if line == "---" {
            let body = rest[at..].trim();
            return description.or((!body.is_empty()).then_some(body));
        }
        if !is_yaml_line(line) {
            return None;
        }
        if let Some(v) = line.strip_prefix("description:") {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(v)
                .trim();
            // (`|` and `>` start a block on the lines below)
            if !v.is_empty() && !v.starts_with(['|', '>']) {
                description = Some(v);
            }
        }
    }
    None
}

/// A line front matter may hold: a `key:`, an indented or listed value,
/// a comment, nothing.
fn is_yaml_line(line: &str) -> bool {
    line.is_empty()
        || line.starts_with([' ', '\t', '#', '-'])
        || line.split_once(':').is_some_and(|(key, _)| {
            !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_file_sent_whole_is_named_by_its_description() {
        let named = |t: &str| {
            let mut f = TitleFacts::default();
            f.note_user(t, 0);
            f.first_prompt
        };
        assert_eq!(
            named(
                "---\ndescription: Create or update the spec.\n---\n\nThe user input: $ARGUMENTS"
            )
            .as_deref(),
            Some("Create or update the spec.")
        );
        assert_eq!(
            named("---\r\ndescription: \"Quoted\"\r\nargument-hint: x\r\n---\r\nbody").as_deref(),
            Some("Quoted")
        );
        // a block below the key: what follows the front matter
        assert_eq!(
            named("---\ndescription: >\n  folded\n  text\nmodel: x\n---\nRun it").as_deref(),
            Some("Run it")
        );
        // no description: what follows the front matter
        assert_eq!(
            named("---\nmodel: x\n---\nFix the build\nnow").as_deref(),
            Some("Fix the build now")
        );
        // not front matter: the prompt as typed
        for t in [
            "--- not a fence\ndescription: x\n---\ny",
            "---\ndescription: never closed\nbody",
            "a rule:\n---\ndescription: x\n---",
            "---\n---",
            "---",
            // rules drawn in a prompt
            "---\nHere is my plan\n---\nDo it",
            "---\ndescription: x\nThen some prose.\n---\nbody",
        ] {
            assert_eq!(named(t).as_deref(), Some(one_line(t).as_str()), "{t:?}");
        }
    }
}
