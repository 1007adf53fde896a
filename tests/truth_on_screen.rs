//! What the viewer and the exports say must be true of the session: no
//! empty rows, no raw tags, no spinner in a session nobody is writing.

use ccv::app::{Action, State, perform_action};
use ccv::export::{Format, Options, export};
use ccv::model::Session;
use serde_json::{Value, json};

use crate::common;
use common::{
    assistant_line as assistant, screen_text as screen, session_of as session, user_line as user,
};

fn result(uuid: &str, tool: &str, text: &str, error: bool) -> Value {
    user(
        uuid,
        json!([{"type":"tool_result","tool_use_id":tool,"content":text,"is_error":error}]),
    )
}

fn text_export(s: &Session) -> String {
    let mut out = Vec::new();
    let opts = Options {
        format: Format::Text,
        ..Options::default()
    };
    export(s, &opts, &mut out).expect("export");
    String::from_utf8(out).expect("utf8")
}

#[test]
fn whitespace_only_text_and_empty_command_output_make_no_rows() {
    let s = session(&[
        user("u1", json!("hello")),
        assistant("a1", "m1", json!([{"type":"text","text":"\n\n"}])),
        assistant("a2", "m1", json!([{"type":"text","text":"Real answer"}])),
        user("u2", json!("<local-command-stdout></local-command-stdout>")),
    ]);
    let kinds: Vec<_> = s.main.items.iter().map(|i| i.kind).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert_eq!(s.stats.hidden, 2, "both counted as hidden");
    let text = text_export(&s);
    assert_eq!(text.matches("[Assistant]").count(), 1, "{text}");
    assert!(!text.contains("[Command]"), "{text}");
}

#[test]
fn errors_lose_their_tags_and_a_rejection_is_not_an_error() {
    let s = session(&[
        user("u1", json!("go")),
        assistant(
            "a1",
            "m1",
            json!([
                {"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/home/bob/app/x.rs"}},
                {"type":"tool_use","id":"t2","name":"Bash","input":{"command":"rm -rf build"}}
            ]),
        ),
        result(
            "r1",
            "t1",
            "<tool_use_error>File has not been read yet.</tool_use_error>",
            true,
        ),
        result(
            "r2",
            "t2",
            "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
            true,
        ),
    ]);
    let mut st = State::new(s);
    perform_action(&mut st, Action::ExpandAll);
    let shot = screen(&mut st, 120, 30);
    assert!(!shot.contains("tool_use_error"), "{shot}");
    assert!(shot.contains("File has not been read yet"), "{shot}");
    assert!(shot.contains("rm -rf build · rejected"), "{shot}");
    let text = text_export(&st.session);
    assert!(text.contains("[Tool Rejected]"), "{text}");
    assert!(
        text.contains("[Tool Error]\nFile has not been read yet."),
        "{text}"
    );
}

#[test]
fn empty_thinking_says_it_was_not_recorded() {
    let s = session(&[
        user("u1", json!("hi")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"thinking","thinking":"","signature":"abc"}]),
        ),
    ]);
    let mut st = State::new(s);
    let shot = screen(&mut st, 100, 10);
    assert!(shot.contains("thinking not recorded"), "{shot}");
    assert!(!shot.contains("thinking hidden"), "{shot}");
}

#[test]
fn todos_plans_and_questions_have_readable_bodies() {
    let s = session(&[
        user("u1", json!("plan")),
        assistant(
            "a1",
            "m1",
            json!([
                {"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[
                    {"content":"Write the parser","status":"completed","activeForm":"x"},
                    {"content":"Test it","status":"in_progress","activeForm":"x"},
                    {"content":"Ship","status":"pending","activeForm":"x"}]}},
                {"type":"tool_use","id":"t2","name":"ExitPlanMode","input":{"plan":"## The plan\n\n1. Parse\n2. Test"}},
                {"type":"tool_use","id":"t3","name":"AskUserQuestion","input":{"questions":[
                    {"question":"Which database?","header":"DB","multiSelect":false,
                     "options":[{"label":"Postgres","description":"robust"},{"label":"SQLite","description":"simple"}]}]}}
            ]),
        ),
        result("r1", "t1", "Todos have been modified successfully.", false),
        result("r2", "t2", "User has approved your plan.", false),
        result(
            "r3",
            "t3",
            "User has answered your questions: \"Which database?\"=\"SQLite\".",
            false,
        ),
    ]);
    let mut st = State::new(s);
    perform_action(&mut st, Action::ExpandAll);
    // open every row that folds
    for _ in 0..20 {
        let Some(r) = (0..st.rows.len()).find(|&r| {
            st.rows[r]
                .fold(&st.session)
                .is_some_and(|f| !st.expanded.contains(&f))
        }) else {
            break;
        };
        perform_action(&mut st, Action::Top);
        perform_action(&mut st, Action::Down(r));
        perform_action(&mut st, Action::Toggle);
    }
    let shot = screen(&mut st, 120, 60);
    assert!(shot.contains("3 todos · 1 done · 1 in progress"), "{shot}");
    assert!(shot.contains("☑ Write the parser"), "{shot}");
    assert!(shot.contains("◐ Test it"), "{shot}");
    assert!(shot.contains("☐ Ship"), "{shot}");
    assert!(shot.contains("The plan"), "{shot}");
    assert!(shot.contains("Which database?"), "{shot}");
    assert!(shot.contains("• SQLite: simple"), "{shot}");
    assert!(shot.contains("=\"SQLite\""), "the answer: {shot}");
}

#[test]
fn a_session_nobody_writes_shows_no_spinner_and_says_its_age() {
    let s = session(&[
        user("u1", json!("go")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]),
        ),
    ]);
    let mut st = State::new(s);
    st.live.attached = true;
    // written months before "now"
    let t0 = 1_735_725_601_000; // 2025-01-01T10:00:01Z
    st.live.last_write_ms = Some(t0);
    st.live.now_ms = t0 + 90 * 86_400_000;
    let shot = screen(&mut st, 120, 10);
    assert!(!shot.contains("● live"), "{shot}");
    assert!(shot.contains("last written"), "{shot}");
    assert!(shot.contains("make · no result"), "{shot}");
    assert!(!st.running_on_screen());
    // written a minute ago: live, and the call runs
    st.live.last_write_ms = Some(st.live.now_ms - 60_000);
    st.live.now_ms = t0 + 5_000;
    st.live.last_write_ms = Some(t0 + 4_000);
    crate::common::forget_lines();
    let shot = screen(&mut st, 120, 10);
    assert!(shot.contains("● live"), "{shot}");
    assert!(shot.contains("make · running"), "{shot}");
}

#[test]
fn read_with_an_offset_is_numbered_as_the_file() {
    let s = session(&[
        user("u1", json!("read")),
        assistant(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/home/bob/app/src/lib.rs","offset":605,"limit":2}}]),
        ),
        result(
            "r1",
            "t1",
            "   605→let a = 1;\n   606→let b = 2;\n\n<system-reminder>\nWhenever you read a file…\n</system-reminder>\n",
            false,
        ),
    ]);
    let (_, shot) = common::last_call_opened(s, 100, 20);
    assert!(shot.contains("605"), "{shot}");
    assert!(!shot.contains("605→"), "{shot}");
    assert!(shot.contains("let a = 1;"), "{shot}");
    assert!(!shot.contains("  1 "), "not numbered from 1: {shot}");
}

#[test]
fn e_writes_under_the_state_dir_privately() {
    let dir = tempfile::tempdir().expect("tempdir");
    let state = ("XDG_STATE_HOME", dir.path().as_os_str());
    if alone!(&[state]) {
        return;
    }
    let dir = std::path::PathBuf::from(std::env::var_os(state.0).expect("set by the parent"));
    let s = session(&[user("u1", json!("hello"))]);
    let path = ccv::clipboard::export_markdown_file(&s, ccv::walk::Filters::all(), None, false)
        .expect("export");
    assert!(
        path.starts_with(dir.join("ccv").join("exports")),
        "{}",
        path.display()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// Prompts typed while Claude works exist only as `queued_command`
/// attachments: they are user rows, marked queued; other attachments stay
/// hidden and counted.
#[test]
fn queued_prompts_are_shown_as_user_rows() {
    let s = session(&[
        user("u1", json!("start the build")),
        json!({"type":"attachment","uuid":"q1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T10:00:03.000Z",
            "attachment":{"type":"queued_command","commandMode":"prompt","prompt":"also run the linter"}}),
        json!({"type":"attachment","uuid":"q2","parentUuid":"q1","sessionId":"s",
            "attachment":{"type":"task_reminder","content":[]}}),
    ]);
    let users: Vec<_> = s
        .main
        .items
        .iter()
        .filter(|i| i.kind == ccv::model::Kind::User)
        .map(|i| (i.text.or_marker(), i.flags.queued))
        .collect();
    assert_eq!(
        users,
        vec![("start the build", false), ("also run the linter", true)]
    );
    assert_eq!(s.stats.hidden, 1);
    let text = common::exported(&s, ccv::export::Format::Text);
    assert!(
        text.contains("[User] (queued while Claude worked)\nalso run the linter"),
        "{text}"
    );
    let mut st = State::new(s);
    let shot = screen(&mut st, 100, 10);
    assert!(
        shot.contains("User       queued · also run the linter"),
        "{shot}"
    );
}

/// A session that goes on another day (resumed the next morning, a tool
/// that ran overnight) says so above the first row of that day, in the
/// viewer's zone: the time column shows the hour alone. Not above the
/// first row, nor between rows of one day.
#[test]
fn a_row_of_another_day_than_the_row_before_says_the_day() {
    use crate::common::entry;
    let s = session(&[
        entry::user("u1", json!("start"))
            .at("2025-01-01T22:00:00.000Z")
            .json(),
        entry::assistant("a1", "m1", json!([{"type":"text","text":"late"}]))
            .at("2025-01-01T23:59:00.000Z")
            .json(),
        entry::user("u2", json!("next morning"))
            .at("2025-01-02T08:30:00.000Z")
            .json(),
        entry::assistant("a2", "m2", json!([{"type":"text","text":"good morning"}]))
            .at("2025-01-02T08:31:00.000Z")
            .json(),
    ]);
    let mut st = crate::common::utc_state(s);
    let shot = screen(&mut st, 100, 12);
    let lines: Vec<&str> = shot.lines().collect();
    let at = |text: &str| lines.iter().position(|l| l.contains(text));
    let days = lines.iter().filter(|l| l.contains(" ── ")).count();
    assert_eq!(days, 1, "{shot}");
    let day = at("── Thu 2 Jan 2025 ──").expect("the day");
    assert_eq!(at("next morning"), Some(day + 1), "{shot}");
    assert!(at("late") < Some(day), "{shot}");
    // in another zone, midnight falls elsewhere: no new day there
    st.tz = jiff::tz::TimeZone::fixed(jiff::tz::offset(-10));
    crate::common::forget_lines();
    let shot = screen(&mut st, 100, 12);
    assert!(!shot.contains(" ── "), "{shot}");
}

/// A day opened by lines the filters hide (a resumed session's context,
/// a command's caveat) is still said: above the first row of that day
/// that is drawn, whichever it is, once.
#[test]
fn a_day_opened_by_hidden_lines_is_said_above_its_first_row_drawn() {
    use crate::common::entry;
    let s = session(&[
        entry::user("u1", json!("evening"))
            .at("2025-01-01T22:00:00.000Z")
            .json(),
        entry::assistant("a1", "m1", json!([{"type":"text","text":"late"}]))
            .at("2025-01-01T23:59:00.000Z")
            .json(),
        entry::user("c1", json!("Caveat: the context of a resumed session"))
            .set("isMeta", json!(true))
            .at("2025-01-02T08:29:00.000Z")
            .json(),
        entry::user("u2", json!("next morning"))
            .at("2025-01-02T08:30:00.000Z")
            .json(),
    ]);
    let mut st = crate::common::utc_state(s);
    for meta_shown in [false, true] {
        let shot = screen(&mut st, 100, 12);
        let lines: Vec<&str> = shot.lines().collect();
        let at = |text: &str| lines.iter().position(|l| l.contains(text));
        assert_eq!(
            lines.iter().filter(|l| l.contains(" ── ")).count(),
            1,
            "{shot}"
        );
        let day = at("── Thu 2 Jan 2025 ──").expect("the day");
        let first = if meta_shown { "Caveat" } else { "next morning" };
        assert_eq!(at(first), Some(day + 1), "{shot}");
        assert!(at("late") < Some(day), "{shot}");
        perform_action(&mut st, Action::ToggleMeta);
    }
}

/// `No response requested.` is Claude Code's own line where a turn ended
/// unanswered (written as a `<synthetic>` answer, `isApiErrorMessage`
/// false): no API error, no row, counted hidden. An API error written so
/// is still one.
#[test]
fn no_response_requested_is_no_api_error() {
    let synthetic = |uuid: &str, text: &str, api_error: bool| {
        let mut v = assistant(uuid, uuid, json!([{"type": "text", "text": text}]));
        v["message"]["model"] = json!("<synthetic>");
        v["isApiErrorMessage"] = json!(api_error);
        v
    };
    // a prompt interrupted, then Claude Code's line in the model's place
    let mut lines = vec![
        user("u1", json!("go")),
        user(
            "u2",
            json!([{"type": "text", "text": "[Request interrupted by user]"}]),
        ),
        synthetic("a1", "No response requested.", false),
    ];
    let alone = session(&lines);
    lines.push(synthetic("a2", "API Error: 529 Overloaded", true));
    let s = session(&lines);
    let text = text_export(&s);
    assert!(!text.contains("No response requested"), "{text}");
    assert_eq!(text.matches("[API Error]").count(), 1, "{text}");
    assert!(text.contains("API Error: 529"), "{text}");
    assert_eq!(
        s.stats.hidden_by_reason.values().sum::<u64>(),
        s.stats.hidden
    );
    assert!(
        s.stats
            .hidden_by_reason
            .keys()
            .any(|r| r.contains("no response requested")),
        "{:?}",
        s.stats.hidden_by_reason
    );
    // the turn was interrupted, not failed
    let now = ccv::model::time::parse_timestamp("2025-01-01T10:00:05.000Z").unwrap_or(0);
    let state = ccv::model::activity::of(&alone, now, now, Default::default());
    assert_eq!(state.name(), "interrupted", "{state:?}");
}
