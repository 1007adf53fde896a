//! What a call's result tells in a few words (`exit 1`, `3 lines`,
//! `lines 59–208 of 455`, `in background`, `→ Yes`, `1.2s`), and which
//! background task a wait for output is about: the viewer puts them on a
//! call's row, the HTML page on its summary line.

use super::item::{Item, ToolCall};
use super::patch::ToolUseResult;
use super::session::{Session, TaskNote};
use super::text::{first_line, sanitize};
use super::time::human_duration;
use std::borrow::Cow;

/// The lines an edit added and removed, as its result's patch says; none
/// when it changed no line.
pub fn edit_counts(c: &ToolCall) -> Option<(usize, usize)> {
    let p = c.result.as_ref()?.patch()?;
    let (add, del) = p
        .iter()
        .flat_map(|h| h.lines.iter())
        .fold((0, 0), |(a, d), l| {
            (
                a + l.starts_with('+') as usize,
                d + l.starts_with('-') as usize,
            )
        });
    (add + del > 0).then_some((add, del))
}

/// What the result of `c` tells, in the order a row shows them, each
/// made safe to print; empty when it has no result (whether it runs is
/// the caller's to say). `redact`: the result's words are redacted
/// before they are cut (a key cut first is no longer one its rule knows).
pub fn facts(session: &Session, item: &Item, c: &ToolCall, redact: bool) -> Vec<String> {
    let Some(r) = &c.result else {
        return Vec::new();
    };
    let mut facts: Vec<String> = Vec::new();
    if let Some(x) = &r.extra {
        if let Some(code) = x.exit_code.get().filter(|&c| c != 0) {
            facts.push(format!("exit {code}"));
        }
        if let Some(meaning) = x.meaning.text() {
            facts.push(meaning.into());
        }
        if x.interrupted {
            facts.push("interrupted".into());
        }
        // (a command said still running is left running too)
        if x.background && !x.still_running {
            facts.push("in background".into());
        }
        if x.still_running {
            facts.push("still running".into());
        }
        if let Some(n) = x.total_tool_use_count.get() {
            facts.push(format!("{n} tool call{}", plural(n as usize)));
        }
        if x.agent_id
            .as_deref()
            .is_some_and(|id| session.agent_not_found(id))
        {
            facts.push("transcript not found".into());
        }
        if let Some(found) = found(&c.name, x) {
            facts.push(found);
        }
        // a fetch that got no page: a redirect, an error status
        if x.http_status != 0 && !(200..300).contains(&x.http_status) {
            facts.push(format!("HTTP {}", x.http_status));
        }
    }
    if let Some(saved) = r.text.get().and_then(super::saved::saved_output) {
        facts.push(match saved.size {
            "" => "output saved apart".to_owned(),
            size => format!("{} saved apart", sanitize(size)),
        });
    }
    let redacted = |t: String| match redact {
        true => crate::redact::active().redact(&t).into_owned(),
        false => t,
    };
    if c.name == "AskUserQuestion"
        && let Some(answer) = r.text.get().and_then(|t| answered(t, &redacted))
    {
        facts.push(answer);
    }
    if r.rejected() {
        facts.push("rejected".into());
    } else if r.is_error {
        let clean = redacted(sanitize(r.message()).into_owned());
        // Claude Code heads a failed command's output with `Exit code N`
        let said = clean
            .strip_prefix("Exit code ")
            .and_then(|t| t.split(|c: char| !c.is_ascii_digit() && c != '-').next())
            .and_then(|n| n.parse::<i64>().ok());
        let exit = facts.iter().any(|e| e.starts_with("exit "));
        if let Some(code) = said.filter(|_| !exit) {
            facts.push(format!("exit {code}"));
        }
        // the line that tells what failed; else its first, unless the
        // exit code says it
        let telling = clean
            .lines()
            .find(|l| !l.starts_with("Exit code ") && l.to_lowercase().contains("error"));
        let msg = match telling {
            Some(line) => first_line(line, 60),
            None if !exit && said.is_none() => first_line(&clean, 60),
            None => String::new(),
        };
        if !msg.is_empty() {
            facts.push(msg);
        }
    }
    if let (Some(a), Some(b)) = (item.timestamp, r.timestamp)
        && b - a >= 1000
    {
        facts.push(human_duration((b - a) as u64));
    }
    facts
}

/// A call's summary as its row shows it: its first line, with the id of
/// a task it made (`#3 Ship it`), the subject of a task it names by its
/// id (`#3 completed · Ship it`), what the background task it waits on
/// was started for (`b7f3a1c (npm run dev)`). Not made safe yet.
pub fn summary(session: &Session, item: &Item, c: &ToolCall) -> String {
    summary_by(session, item, c, &|i| Cow::Borrowed(i.call_summary()))
}

/// [`summary`], a call's own summary (this one's, and that of the task it
/// waits on) as `own` makes it: an export that redacts makes it of the
/// redacted input, as a summary is cut (at 160 characters) and a key cut
/// there would no longer be one its rule knows.
pub fn summary_by<'s>(
    session: &'s Session,
    item: &'s Item,
    c: &ToolCall,
    own_of: &dyn Fn(&'s Item) -> Cow<'s, str>,
) -> String {
    let whole = own_of(item);
    let own = whole.lines().next().unwrap_or("");
    let mut s = match session.task_notes.get(&item.id) {
        Some(TaskNote::Made(id)) => format!("#{id} {own}"),
        Some(TaskNote::About(subject)) => format!("{own} · {subject}"),
        None => own.to_owned(),
    };
    if let Some(started) = task_started(session, c, own, own_of) {
        s.push_str(&format!(" ({started})"));
    }
    s
}

/// Whether [`summary`] says more than the call's own summary: a search
/// reads it then.
pub fn summary_adds(session: &Session, item: &Item, c: &ToolCall) -> bool {
    session.task_notes.contains_key(&item.id) || WAITS.contains(&c.name.as_str()) || c.name == TYPES
}

/// Codex's call that types into a running command: its summary ends with
/// the command's id (`"y⏎" → 4242`), which names the command as a wait's
/// does.
const TYPES: &str = "write_stdin";

/// The tools that wait on, read or stop a background task by its id.
const WAITS: [&str; 5] = [
    "TaskOutput",
    "TaskStop",
    "BashOutput",
    "KillBash",
    "KillShell",
];

/// What the background task a call waits on, reads or stops was started
/// for, as its starting call's summary says (`go test ./...`, a
/// subagent's `"Review the PR"`), made safe; `summary` is the call's, which
/// for these tools is the task's id (a typing's ends with it).
fn task_started<'s>(
    session: &'s Session,
    c: &ToolCall,
    summary: &str,
    own_of: &dyn Fn(&'s Item) -> Cow<'s, str>,
) -> Option<String> {
    let id = match c.name.as_str() {
        TYPES => summary.rsplit_once(" → ")?.1.trim(),
        name if WAITS.contains(&name) => summary.trim(),
        _ => return None,
    };
    let call = match session.background_tasks.get(id) {
        Some(call) => Some(*call),
        None => session
            .agent_by_id(id)
            .and_then(|a| session.agents.get(a as usize)?.call),
    }?;
    let t = match call.holder {
        super::session::Target::Main => &session.main,
        super::session::Target::Agent(a) => &session.agents.get(a as usize)?.transcript,
    };
    let started = t.items.get(t.index_of(call.item)?)?;
    let said = first_line(&sanitize(&own_of(started)), 200);
    // a subagent's: its description, not its type too (`Explore "…"`)
    let of_agent = matches!(&started.detail,
        super::item::Detail::Call(c) if matches!(c.name.as_str(), "Task" | "Agent"));
    let said = match said.find('"') {
        Some(at) if of_agent && at > 0 && said.ends_with('"') => said[at..].to_owned(),
        _ => said,
    };
    (!said.is_empty()).then_some(said)
}

/// What a read, a search, a glob or a write did, as its result says: a
/// read's lines (which, of a part of its file), a search's lines
/// (`content` mode), matches (`count`) or files, `+` where it stopped at
/// its limit; a write's new file.
fn found(tool: &str, x: &ToolUseResult) -> Option<String> {
    let more = if x.cut { "+" } else { "" };
    let (n, what) = match tool {
        "Read" => {
            let n = x.num_lines.get()?;
            // a part of the file: which lines, of how many
            if let (Some(from), Some(all)) = (x.start_line.get(), x.total_lines.get())
                && n > 0
                && (from > 1 || n < all)
            {
                let to = from.saturating_add(n - 1);
                return Some(format!("lines {from}–{to} of {all}"));
            }
            (n, "line")
        }
        "Glob" => (x.num_files.get()?, "file"),
        "Grep" => match (x.num_matches.get(), x.num_lines.get(), x.num_files.get()) {
            (Some(0), ..) | (None, Some(0), _) | (None, None, Some(0)) => {
                return Some("no matches".into());
            }
            (Some(m), _, files) => {
                let files = files.map_or(String::new(), |f| {
                    format!(" in {f} file{}", plural(f as usize))
                });
                return Some(format!(
                    "{m}{more} match{}{files}",
                    if m == 1 { "" } else { "es" }
                ));
            }
            (None, Some(l), _) => (l, "line"),
            (None, None, f) => (f?, "file"),
        },
        "WebSearch" => {
            return Some(match x.num_matches.get()? {
                0 => "no results".into(),
                n => format!("{n} result{}", plural(n as usize)),
            });
        }
        // a language server's answer: its results, in how many files
        "LSP" => {
            let n = x.num_matches.get()?;
            let files = match x.num_files.get() {
                Some(f) if n > 0 => format!(" in {f} file{}", plural(f as usize)),
                _ => String::new(),
            };
            return Some(match n {
                0 => "no results".into(),
                n => format!("{n} result{}{files}", plural(n as usize)),
            });
        }
        "TaskList" => {
            return Some(match x.num_matches.get()? {
                0 => "no tasks".into(),
                n => format!("{n} task{}", plural(n as usize)),
            });
        }
        "Write" if x.created => return Some("new file".into()),
        _ => return None,
    };
    Some(format!("{n}{more} {what}{}", plural(n as usize)))
}

/// The user's answer to a question, as Claude Code tells it to Claude
/// (`User has answered your questions: "Q"="A", "Q2"="B". You can…`):
/// `→ A`, and how many more.
fn answered(text: &str, redacted: &dyn Fn(String) -> String) -> Option<String> {
    let rest = text.strip_prefix("User has answered your questions: ")?;
    let at = rest.find("\"=\"")?;
    let after = &rest[at + 3..];
    let answer = &after[..after.find('"').unwrap_or(after.len())];
    let more = rest.matches("\"=\"").count() - 1;
    let answer = first_line(&redacted(sanitize(answer).into_owned()), 60);
    Some(match more {
        0 => format!("→ {answer}"),
        n => format!("→ {answer} (+{n} more)"),
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
