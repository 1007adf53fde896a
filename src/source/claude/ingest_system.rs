//! Ingest of system lines and of stream-json results.

use super::ingest::content_text;
use super::ingest_user::command_text;
use super::raw::RawEntry;
use crate::model::item::*;
use crate::model::session::{Outcome, Session, Target};

impl Session {
    pub(super) fn ingest_system(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
    ) -> Outcome {
        let subtype = e.subtype.as_deref().unwrap_or("");
        let text = e.content.as_ref().map(content_text).unwrap_or_default();
        let (kind, info, text) = match subtype {
            "init" => {
                self.meta.stream_json = true;
                if let Some(m) = e.model.as_deref() {
                    self.meta.model = Some(m.to_owned());
                }
                let tools = e.tools.as_ref().map_or(0, Vec::len);
                let info = SystemInfo::StreamInit {
                    model: e.model.as_deref().map(str::to_owned),
                    tools,
                    cwd: e.cwd.as_deref().map(str::to_owned),
                };
                let text = format!(
                    "Session started · {} · {} tools · {}",
                    e.model.as_deref().unwrap_or("?"),
                    tools,
                    e.cwd.as_deref().unwrap_or("?")
                );
                (Kind::System, info, text)
            }
            "compact_boundary" | "microcompact_boundary" => {
                let micro = subtype == "microcompact_boundary";
                let cm = e.compact_metadata.clone().unwrap_or_default();
                let info = SystemInfo::CompactBoundary {
                    trigger: cm.trigger,
                    pre_tokens: cm.pre_tokens,
                    micro,
                };
                let text = if text.is_empty() {
                    (if micro {
                        "Context microcompacted"
                    } else {
                        "Conversation compacted"
                    })
                    .to_owned()
                } else {
                    text
                };
                (Kind::System, info, text)
            }
            "turn_duration" => {
                let ms = e.duration_ms.unwrap_or(0.0).max(0.0) as u64;
                if let Some(t) = self.transcript_mut(target).turns.last_mut() {
                    t.duration_ms = Some(ms);
                }
                (
                    Kind::System,
                    SystemInfo::TurnDuration { ms },
                    format!("Turn took {}", crate::model::time::human_duration(ms)),
                )
            }
            "api_error" => {
                let info = SystemInfo::ApiError {
                    attempt: e.retry_attempt,
                    max: e.max_retries,
                    retry_in_ms: e.retry_in_ms,
                };
                let err = e
                    .error
                    .map(|r| r.get())
                    .filter(|r| *r != "{}" && *r != "null")
                    .unwrap_or("");
                let mut text = format!(
                    "API error · retry {}/{}",
                    e.retry_attempt.map_or("?".into(), |n| n.to_string()),
                    e.max_retries.map_or("?".into(), |n| n.to_string())
                );
                if let Some(ms) = e.retry_in_ms {
                    text.push_str(&format!(" in {:.0} ms", ms));
                }
                if !err.is_empty() {
                    text.push_str(&format!("\n{err}"));
                }
                (Kind::System, info, text)
            }
            "stop_hook_summary" => {
                let count = e.hook_count.unwrap_or(0);
                let errors = e.hook_errors.as_ref().map_or(0, Vec::len) as u64;
                let cmds: Vec<String> = e
                    .hook_infos
                    .iter()
                    .flatten()
                    .filter_map(|h| h.command.as_deref().map(str::to_owned))
                    .collect();
                for c in &cmds {
                    if !self.meta.hooks.iter().any(|h| h == c) {
                        self.meta.hooks.push(c.clone());
                    }
                }
                let mut text = format!("Stop hooks: {count} ran");
                if errors > 0 {
                    text.push_str(&format!(", {errors} failed"));
                }
                for c in cmds {
                    text.push_str(&format!("\n{c}"));
                }
                (Kind::System, SystemInfo::StopHooks { count, errors }, text)
            }
            "local_command" => {
                let c = super::classify::parse_command(&text);
                let mut item = self.envelope_item(Kind::Command, source, line, e);
                item.text = command_text(&c).into();
                item.detail = Detail::Command(Box::new(c));
                self.push(target, None, item);
                return Outcome::Shown;
            }
            _ => {
                let info = SystemInfo::Other {
                    subtype: e.subtype.as_deref().map(str::to_owned),
                    level: e.level.as_deref().map(str::to_owned),
                };
                (Kind::System, info, text)
            }
        };
        let mut item = self.envelope_item(kind, source, line, e);
        item.flags.error = e.level.as_deref() == Some("error");
        item.text = text.into();
        item.detail = Detail::System(Box::new(info));
        self.push(target, None, item);
        Outcome::Shown
    }

    pub(super) fn ingest_stream_result(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
    ) -> Outcome {
        self.meta.stream_json = true;
        self.meta.cost_usd = e.total_cost_usd.or(self.meta.cost_usd);
        let mut item = self.envelope_item(Kind::System, source, line, e);
        let mut text = format!(
            "Result: {}",
            if e.is_error == Some(true) {
                "error"
            } else {
                e.subtype.as_deref().unwrap_or("done")
            }
        );
        if let Some(n) = e.num_turns {
            text.push_str(&format!(" · {n} turns"));
        }
        if let Some(ms) = e.duration_ms_snake {
            text.push_str(&format!(
                " · {}",
                crate::model::time::human_duration(ms as u64)
            ));
        }
        if let Some(c) = e.total_cost_usd {
            text.push_str(&format!(" · ${c:.4}"));
        }
        if let Some(r) = e.result.as_deref().filter(|r| !r.is_empty()) {
            text.push('\n');
            text.push_str(r);
        }
        item.text = text.into();
        item.flags.error = e.is_error == Some(true);
        item.detail = Detail::System(Box::new(SystemInfo::StreamResult {
            cost_usd: e.total_cost_usd,
            duration_ms: e.duration_ms_snake,
            turns: e.num_turns,
        }));
        self.push(target, None, item);
        Outcome::Shown
    }
}
