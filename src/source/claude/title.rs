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
                let plain = one_line(&without_marks(named));
                self.first_prompt = Some(match plain.is_empty() {
                    true => one_line(named),
                    false => plain,
                });
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

/// A line of a prompt without a fence (`None`), a quote's `>` or a
/// heading's `#`s.
fn line_words(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.starts_with("```") || t.starts_with("~~~") {
        return None;
    }
    let t = t.trim_start_matches('>').trim_start();
    let hashes = t.bytes().take_while(|&c| c == b'#').count();
    Some(match t.as_bytes().get(hashes) {
        Some(b' ' | b'\t') if (1..=6).contains(&hashes) => &t[hashes..],
        _ => t,
    })
}

/// A prompt without the marks of markdown that a title on one line shows
/// as noise (`## Context`, a fence and its language, `**`, backticks, a
/// quote's `>`): its words as they read.
fn without_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(8192));
    let mut words = 0;
    for t in text.lines().filter_map(line_words) {
        // `**` and backticks left out a character at a time, up to a
        // title's length: a prompt of one line of 50 MB was copied whole
        // twice for a title of 4,096 characters
        let mut star = false;
        for c in t.chars() {
            match c {
                '*' => {
                    // (a pair goes, as `replace("**", "")` takes it)
                    star = !star;
                    continue;
                }
                // (a backtick between two stars keeps them: it goes after)
                '`' => {
                    if std::mem::take(&mut star) {
                        out.push('*');
                    }
                }
                c => {
                    if std::mem::take(&mut star) {
                        out.push('*');
                    }
                    out.push(c);
                    words += usize::from(!c.is_whitespace());
                }
            }
            if words > crate::model::title::TITLE_MAX {
                break;
            }
        }
        if star {
            out.push('*');
        }
        out.push('\n');
        // (what is past a title's length is not read)
        if words > crate::model::title::TITLE_MAX {
            break;
        }
    }
    out
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

    /// The marks left out a character at a time, as `replace("**", "")`
    /// and a filter of backticks left them out of each whole line, on
    /// lines of stars, backticks and words mixed; and a prompt of one
    /// giant line is named by its head without being copied.
    #[test]
    fn marks_left_out_as_a_whole_line_lost_them() {
        fn before(text: &str) -> String {
            let mut out = String::new();
            for t in text.lines().filter_map(line_words) {
                out.extend(t.replace("**", "").chars().filter(|&c| c != '`'));
                out.push('\n');
            }
            out
        }
        let abc = ['*', '*', '`', 'a', ' ', '\n', '#', '>', 'é'];
        let mut x = 7u64;
        for _ in 0..20_000 {
            let n = (x % 24) as usize;
            let text: String = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    abc[(x % abc.len() as u64) as usize]
                })
                .collect();
            assert_eq!(without_marks(&text), before(&text), "{text:?}");
        }
        let huge = format!("fix **this** {}", "x".repeat(1 << 20));
        let out = without_marks(&huge);
        assert!(
            out.len() < 3 * crate::model::title::TITLE_MAX,
            "{}",
            out.len()
        );
        let mut f = TitleFacts::default();
        f.note_user(&huge, 0);
        assert_eq!(f.first_prompt.as_deref(), Some("fix this…"));
    }

    #[test]
    fn a_prompt_is_named_by_its_words_not_its_marks() {
        let named = |t: &str| {
            let mut f = TitleFacts::default();
            f.note_user(t, 0);
            f.first_prompt.unwrap_or_default()
        };
        assert_eq!(
            named(
                "Implement the following plan:\n\n# Plan: `entire wingman` Command\n\n## Context\nWingman **hardcodes** it"
            ),
            "Implement the following plan: Plan: entire wingman Command Context Wingman hardcodes it"
        );
        assert_eq!(
            named("## User Input\n\n```text\nfix the bug\n```\n> quoted line"),
            "User Input fix the bug quoted line"
        );
        // what is no mark stays: an issue's number, a hashtag, `#` alone
        assert_eq!(
            named("fix #242 and #[derive] in C#"),
            "fix #242 and #[derive] in C#"
        );
        assert_eq!(named("####### seven"), "####### seven");
        // marks alone: the prompt as typed
        assert_eq!(named("```\n```"), "``` ```");
    }
}
