//! Content-aware classification (seed 000) and the wrappers Claude Code puts
//! around user strings.

use crate::model::item::{CommandInfo, Image};
use crate::model::text::strip_ansi;
use serde_json::Value;

/// The line-level display role of seed 000: a `tool_result` block wins over
/// a `tool_use` block, which wins over the top-level `type`. String content
/// takes the top-level type; no `type` gives `None`.
pub fn line_role(entry: &Value) -> Option<&str> {
    let top = entry.get("type")?.as_str()?;
    if let Some(blocks) = entry
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
    {
        let mut has_tool_use = false;
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("tool_result") => return Some("tool_result"),
                Some("tool_use") => has_tool_use = true,
                _ => {}
            }
        }
        if has_tool_use {
            return Some("tool_call");
        }
    }
    Some(top)
}

/// What a user text block turns out to be.
#[derive(Debug, PartialEq, Eq)]
pub enum UserText {
    Prompt,
    Meta,
    Command(CommandInfo),
}

/// Classifies a user string by the wrapper tags of section 6 of the format
/// notes. Anything not recognised is a typed prompt.
pub fn classify_user_text(text: &str) -> UserText {
    let t = text.trim_start();
    if t.starts_with("<command-name>")
        || t.starts_with("<command-message>")
        || t.starts_with("<command-args>")
    {
        return UserText::Command(parse_command(t));
    }
    if let Some(out) =
        tag_body(t, "local-command-stdout").or_else(|| tag_body(t, "local-command-stderr"))
    {
        return UserText::Command(CommandInfo {
            name: String::new(),
            args: String::new(),
            output: Some(strip_ansi(out.trim()).into_owned()),
        });
    }
    if let Some(cmd) = tag_body(t, "bash-input") {
        return UserText::Command(CommandInfo {
            name: "!".into(),
            args: cmd.trim().to_owned(),
            output: None,
        });
    }
    if t.starts_with("<bash-stdout>") || t.starts_with("<bash-stderr>") {
        let out = tag_body(t, "bash-stdout").unwrap_or("");
        let err = tag_body(t, "bash-stderr").unwrap_or("");
        let joined = match (out.trim(), err.trim()) {
            (o, "") => o.to_owned(),
            ("", e) => e.to_owned(),
            (o, e) => format!("{o}\n{e}"),
        };
        return UserText::Command(CommandInfo {
            name: "!".into(),
            args: String::new(),
            output: Some(strip_ansi(&joined).into_owned()),
        });
    }
    const META_PREFIXES: [&str; 7] = [
        "<local-command-caveat>",
        "Caveat: The messages below were generated",
        "<system-reminder>",
        "<task-notification>",
        "<teammate-message",
        "[Request interrupted by user",
        "<user-prompt-submit-hook>",
    ];
    if META_PREFIXES.iter().any(|p| t.starts_with(p)) {
        return UserText::Meta;
    }
    // what an IDE's extension adds as a block of its own before the
    // prompt (the file open, the lines selected): context, not typed
    if after_ide_context(t).is_some_and(|rest| rest.trim().is_empty()) {
        return UserText::Meta;
    }
    UserText::Prompt
}

/// The tags an IDE's extension (VS Code's, JetBrains') puts before a
/// prompt: `<ide_opened_file>The user opened the file … in the IDE. This
/// may or may not be related to the current task.</ide_opened_file>`.
const IDE_TAGS: [&str; 5] = [
    "ide_opened_file",
    "ide_selection",
    "ide_visible_files",
    "ide_cursor",
    "ide_diagnostics",
];

/// `t` past the IDE context it opens with (one tag or several, each
/// closed); `None` when it opens with none.
pub fn after_ide_context(t: &str) -> Option<&str> {
    let mut rest = t.trim_start();
    let mut any = false;
    while let Some(tag) = IDE_TAGS.iter().find(|tag| {
        rest.strip_prefix('<')
            .and_then(|r| r.strip_prefix(**tag))
            .is_some_and(|r| r.starts_with('>'))
    }) {
        let close = format!("</{tag}>");
        let end = rest.find(&close)? + close.len();
        rest = rest[end..].trim_start();
        any = true;
    }
    any.then_some(rest)
}

/// A message from another agent of a team (`<teammate-message
/// teammate_id="team-lead" summary="…">body</teammate-message>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeammateMessage {
    pub from: String,
    pub summary: Option<String>,
    pub body: String,
}

impl TeammateMessage {
    /// What names it: a task assignment's subject, else the summary, else
    /// the body's first line.
    pub fn subject(&self) -> String {
        if let Some(a) = self.assignment()
            && let Some(s) = a.get("subject").and_then(Value::as_str)
            && !s.trim().is_empty()
        {
            return s.trim().to_owned();
        }
        if let Some(s) = self.summary.as_deref().filter(|s| !s.trim().is_empty()) {
            return s.trim().to_owned();
        }
        self.body
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    }

    /// The body as a person reads it: a task assignment's subject and
    /// description, else the body.
    pub fn text(&self) -> String {
        match self.assignment() {
            Some(a) => {
                let field = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("").trim();
                let id = match a.get("taskId") {
                    Some(Value::String(s)) => format!(" #{s}"),
                    Some(Value::Number(n)) => format!(" #{n}"),
                    _ => String::new(),
                };
                let mut t = format!("Task{id}: {}", field("subject"));
                if !field("description").is_empty() {
                    t.push_str("\n\n");
                    t.push_str(field("description"));
                }
                t
            }
            None => self.body.trim().to_owned(),
        }
    }

    fn assignment(&self) -> Option<serde_json::Map<String, Value>> {
        let b = self.body.trim();
        if !b.starts_with('{') {
            return None;
        }
        match serde_json::from_str::<Value>(b).ok()? {
            Value::Object(o)
                if o.get("type").and_then(Value::as_str) == Some("task_assignment") =>
            {
                Some(o)
            }
            _ => None,
        }
    }
}

/// The first teammate message of a user text that is one.
pub fn teammate_message(text: &str) -> Option<TeammateMessage> {
    let t = text.trim_start();
    let rest = t.strip_prefix("<teammate-message")?;
    let end = rest.find('>')?;
    let attrs = &rest[..end];
    let attr = |name: &str| -> Option<String> {
        let key = format!("{name}=\"");
        let at = attrs.find(&key)? + key.len();
        let len = attrs[at..].find('"')?;
        Some(attrs[at..at + len].to_owned())
    };
    let body = &rest[end + 1..];
    let body = body
        .find("</teammate-message>")
        .map_or(body, |e| &body[..e]);
    Some(TeammateMessage {
        from: attr("teammate_id").unwrap_or_default(),
        summary: attr("summary"),
        body: body.to_owned(),
    })
}

/// The body of the first `<tag>...</tag>` in `s` (to the end if unclosed).
pub fn tag_body<'a>(s: &'a str, tag: &str) -> Option<&'a str> {
    let (_, start) = find_tag(s, "<", tag)?;
    let end = s
        .get(start..)
        .and_then(|rest| find_tag(rest, "</", tag))
        .map_or(s.len(), |(e, _)| start + e);
    s.get(start..end)
}

/// Where `{lead}{tag}>` first is in `s`: its start and its end. Only the
/// `<`s are looked at: every user text is classified, most hold none, and
/// a search for each tag went over the whole text each time.
fn find_tag(s: &str, lead: &str, tag: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let n = lead.len() + tag.len();
    memchr::memchr_iter(b'<', b).find_map(|i| {
        let rest = b.get(i..)?;
        let found = rest.starts_with(lead.as_bytes())
            && rest.get(lead.len()..n) == Some(tag.as_bytes())
            && rest.get(n) == Some(&b'>');
        found.then_some((i, i + n + 1))
    })
}

pub fn parse_command(s: &str) -> CommandInfo {
    let name = tag_body(s, "command-name")
        .or_else(|| tag_body(s, "command-message"))
        .unwrap_or("")
        .trim();
    let name = if name.is_empty() || name.starts_with('/') {
        name.to_owned()
    } else {
        format!("/{name}")
    };
    let args = tag_body(s, "command-args").unwrap_or("").trim().to_owned();
    let output = tag_body(s, "local-command-stdout").map(|o| strip_ansi(o.trim()).into_owned());
    CommandInfo { name, args, output }
}

/// `@path` mentions in a prompt (a word starting with `@` that looks like a
/// path: it holds a `/` or a `.`).
pub fn mentioned_files(prompt: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // most prompts mention none: one look for an `@` rules them out
    // before they are split into words
    if memchr::memchr(b'@', prompt.as_bytes()).is_none() {
        return out;
    }
    for word in prompt.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '`') {
        if let Some(p) = word.strip_prefix('@') {
            let p = p.trim_end_matches([',', ';', ':', '!', '?', '.', '\'', '"']);
            if !p.is_empty() && (p.contains('/') || p.contains('.')) && !out.iter().any(|o| o == p)
            {
                out.push(p.to_owned());
            }
        }
    }
    out
}

/// A size estimate from the base64 text length.
pub fn image_from_base64_len(media_type: Option<&str>, b64_len: usize) -> Image {
    Image {
        media_type: media_type.unwrap_or("image").to_owned(),
        bytes: (b64_len as u64 * 3) / 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tag_body_is_what_a_search_for_its_tags_finds() {
        let by_search = |s: &str, tag: &str| -> Option<String> {
            let open = format!("<{tag}>");
            let start = s.find(&open)? + open.len();
            let close = format!("</{tag}>");
            let end = s[start..].find(&close).map_or(s.len(), |e| start + e);
            Some(s[start..end].to_owned())
        };
        let texts = [
            "",
            "<",
            "no tags",
            "<a>",
            "<a>body</a>",
            "<a>body",
            "x <ab>no</ab> <a>yes</a> <a>second</a>",
            "<</a>>",
            "<a><a></a></a>",
            "é<a>ü</a>é",
            "<a/> <a >x</a> <a>y</a >",
            "</a><a>z</a>",
        ];
        for t in texts {
            assert_eq!(
                tag_body(t, "a").map(str::to_owned),
                by_search(t, "a"),
                "{t:?}"
            );
        }
    }

    // Seed 000's nine cases.
    #[test]
    fn user_string_content_is_user() {
        assert_eq!(
            line_role(&json!({"type":"user","message":{"role":"user","content":"Hello"}})),
            Some("user")
        );
    }
    #[test]
    fn user_text_array_is_user() {
        let v = json!({"type":"user","message":{"content":[{"type":"text","text":"Hello"}]}});
        assert_eq!(line_role(&v), Some("user"));
    }
    #[test]
    fn tool_result_is_tool_result() {
        let v = json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"1","content":"r"}]}});
        assert_eq!(line_role(&v), Some("tool_result"));
    }
    #[test]
    fn assistant_text_is_assistant() {
        let v = json!({"type":"assistant","message":{"content":[{"type":"text","text":"Hi"}]}});
        assert_eq!(line_role(&v), Some("assistant"));
    }
    #[test]
    fn tool_use_is_tool_call() {
        let v = json!({"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{}}]}});
        assert_eq!(line_role(&v), Some("tool_call"));
    }
    #[test]
    fn mixed_text_and_tool_use_is_tool_call() {
        let v = json!({"type":"assistant","message":{"content":[{"type":"text","text":"x"},{"type":"tool_use","name":"Read","input":{}}]}});
        assert_eq!(line_role(&v), Some("tool_call"));
    }
    #[test]
    fn tool_result_beats_tool_use() {
        let v = json!({"type":"user","message":{"content":[{"type":"tool_use","name":"Read","input":{}},{"type":"tool_result","tool_use_id":"1","content":"r"}]}});
        assert_eq!(line_role(&v), Some("tool_result"));
    }
    #[test]
    fn missing_type_is_none() {
        assert_eq!(line_role(&json!({"message":{"content":"Hello"}})), None);
    }
    #[test]
    fn empty_content_array_falls_back_to_type() {
        assert_eq!(
            line_role(&json!({"type":"assistant","message":{"content":[]}})),
            Some("assistant")
        );
    }

    #[test]
    fn user_wrappers() {
        assert_eq!(classify_user_text("fix the tests"), UserText::Prompt);
        assert_eq!(
            classify_user_text("<system-reminder>x</system-reminder>"),
            UserText::Meta
        );
        assert_eq!(
            classify_user_text("[Request interrupted by user for tool use]"),
            UserText::Meta
        );
        assert_eq!(
            classify_user_text("Caveat: The messages below were generated by the user"),
            UserText::Meta
        );
        assert_eq!(
            classify_user_text("<teammate-message teammate_id=\"a\">hi</teammate-message>"),
            UserText::Meta
        );
        let UserText::Command(c) = classify_user_text(
            "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>",
        ) else {
            panic!("not a command")
        };
        assert_eq!((c.name.as_str(), c.args.as_str()), ("/model", "opus"));
        let UserText::Command(c) = classify_user_text(
            "<local-command-stdout>\x1b[1mSet model\x1b[22m</local-command-stdout>",
        ) else {
            panic!("not a command")
        };
        assert_eq!(c.output.as_deref(), Some("Set model"));
        let UserText::Command(c) = classify_user_text("<bash-input>ls -la</bash-input>") else {
            panic!()
        };
        assert_eq!((c.name.as_str(), c.args.as_str()), ("!", "ls -la"));
    }

    #[test]
    fn mentions() {
        assert_eq!(
            mentioned_files("look at @src/main.rs and @README.md, not @alice"),
            vec!["src/main.rs".to_string(), "README.md".to_string()]
        );
    }
}
