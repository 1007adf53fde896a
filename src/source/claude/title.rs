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
                self.first_prompt = Some(one_line(typed));
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
