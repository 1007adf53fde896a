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
/// text does not open so, or the fence is not closed.
fn front_matter_named(text: &str) -> Option<&str> {
    let mut lines = text.trim_start().split_inclusive('\n');
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut description = None;
    let mut used = 0;
    for line in lines.by_ref().take(FRONT_MATTER_LINES) {
        used += 1;
        let line = line.trim_end();
        if line == "---" {
            let rest = text.trim_start();
            // what follows the closing fence
            let after = rest
                .split_inclusive('\n')
                .skip(used + 1)
                .map(str::len)
                .sum::<usize>();
            let body = rest[rest.len() - after..].trim();
            return description.or((!body.is_empty()).then_some(body));
        }
        if let Some(v) = line.strip_prefix("description:") {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(v)
                .trim();
            if !v.is_empty() {
                description = Some(v);
            }
        }
    }
    None
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
        ] {
            assert_eq!(named(t).as_deref(), Some(one_line(t).as_str()), "{t:?}");
        }
    }
}
