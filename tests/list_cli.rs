//! `ccv list` through the built binary, with CLAUDE_CONFIG_DIR and the
//! cache pointed at temp dirs (never the real ~/.claude).

use crate::common;

use assert_cmd::Command;
use std::fs;
use std::path::Path;

fn tree(config: &Path) {
    let proj = config.join("projects").join("-srv-app");
    fs::create_dir_all(proj.join("s1").join("subagents")).expect("mkdir");
    fs::write(
        proj.join("s1.jsonl"),
        concat!(
            r#"{"type":"user","cwd":"/srv/app","sessionId":"s1","gitBranch":"main","message":{"role":"user","content":"Make it \u001b[31mred\u001b[0m"},"timestamp":"2025-05-01T08:00:00.000Z"}"#,
            "\n",
            r#"{"type":"assistant","cwd":"/srv/app","sessionId":"s1","message":{"model":"claude-opus-4-1-20250805","role":"assistant","content":[]},"timestamp":"2025-05-01T08:00:09.000Z"}"#,
            "\n"
        ),
    )
    .expect("write");
    fs::write(
        proj.join("s1").join("subagents").join("agent-1.jsonl"),
        "{}\n",
    )
    .expect("write");
    fs::write(proj.join("s0.jsonl"), "not json\n").expect("write");
}

fn ccv(config: &Path, cache: &Path) -> Command {
    let mut cmd = common::ccv_at(cache);
    cmd.env("CLAUDE_CONFIG_DIR", config)
        .env("XDG_CACHE_HOME", cache);
    cmd
}

#[test]
fn list_json_has_one_object_per_session() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = tmp.path().join("claude");
    tree(&config);
    let out = ccv(&config, &tmp.path().join("cache"))
        .args(["list", "--json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(rows.len(), 2, "the session and the damaged file");
    let s1 = rows
        .iter()
        .find(|r| r["session_id"] == "s1")
        .expect("s1 listed");
    for key in [
        "project",
        "session_id",
        "path",
        "title",
        "first_prompt",
        "last_activity",
        "message_count",
        "size",
        "model",
        "git_branch",
        "subagents",
        "live",
    ] {
        assert!(s1.get(key).is_some(), "missing {key}");
    }
    assert_eq!(s1["project"], "/srv/app");
    assert_eq!(s1["last_activity"], "2025-05-01T08:00:09.000Z");
    assert_eq!(s1["message_count"], 2);
    assert_eq!(s1["model"], "claude-opus-4-1-20250805");
    assert_eq!(s1["git_branch"], "main");
    assert_eq!(s1["subagents"], 1);
    assert!(
        tmp.path()
            .join("cache")
            .join("ccv")
            .join("sessions-v6.bin")
            .exists(),
        "cache under XDG_CACHE_HOME"
    );
    // Newest first: the unreadable file's mtime (now) beats 2025-05-01.
    assert!(rows.first().is_some_and(|r| r["session_id"] == "s0"));
}

#[test]
fn list_table_is_sanitized_and_root_argument_works() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = tmp.path().join("claude");
    tree(&config);
    let out = ccv(&tmp.path().join("elsewhere"), &tmp.path().join("cache"))
        .arg("list")
        .arg(config.join("projects"))
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("Make it red"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no raw escape reaches the terminal"
    );
    // piped: whole values, tab-separated, under a header
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    assert_eq!(head[..3], ["project", "title", "last_activity"], "{text}");
    let row = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|r| r[1].contains("Make it red"))
        .expect("the session's line");
    assert_eq!(row.len(), head.len(), "{row:?}");
    assert_eq!(row[0], "/srv/app");
    assert_eq!(row[6], "claude-opus-4-1-20250805");
    assert_eq!(row[7], "main");
}

/// A root that is not there is said to be missing, one that is a file
/// not a directory, by every command over a root; one without sessions
/// is said to have none.
#[test]
fn list_missing_root_fails_cleanly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = ccv(&tmp.path().join("none"), tmp.path())
        .args(["list"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ccv:"));
    let file = tmp.path().join("file");
    fs::write(&file, "{}\n").expect("write");
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).expect("mkdir");
    for args in [
        &["list"][..],
        &["stats"],
        &["search", "word"],
        &["export", "--all", "site"],
    ] {
        let said = |root: &Path, code: i32| {
            let out = ccv(tmp.path(), tmp.path())
                .current_dir(tmp.path())
                .args(args)
                .arg(root)
                .output()
                .expect("runs");
            assert_eq!(out.status.code(), Some(code), "{args:?} {out:?}");
            String::from_utf8_lossy(&out.stderr).into_owned()
        };
        let code = if args[0] == "search" { 2 } else { 1 };
        let err = said(&tmp.path().join("none"), code);
        assert!(err.contains("No such file or directory"), "{args:?}: {err}");
        // (list and stats read a file as one session: this one has none)
        let why = if matches!(args[0], "list" | "stats") {
            "no conversation in this file"
        } else {
            "not a directory"
        };
        assert!(said(&file, code).contains(why), "{args:?}");
        if matches!(args[0], "list" | "stats") {
            assert!(said(&empty, 0).contains("no sessions in"), "{args:?}");
        }
    }
}

/// A session file given to `ccv list` is listed as its own row, the row
/// its folder's listing gives it.
#[test]
fn a_session_file_is_listed_as_its_folders_listing_lists_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = tmp.path().join("claude");
    tree(&config);
    let proj = config.join("projects").join("-srv-app");
    let json = |root: &Path| {
        let out = ccv(&config, &tmp.path().join("cache"))
            .args(["list", "--json"])
            .arg(root)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let one = json(&proj.join("s1.jsonl"));
    assert_eq!(one.lines().count(), 1, "{one}");
    let of_folder = json(&proj);
    let same = of_folder
        .lines()
        .find(|l| l.contains(r#""session_id":"s1""#))
        .expect("s1 in its folder's listing");
    assert_eq!(one.trim_end(), same);
    let table = ccv(&config, &tmp.path().join("cache"))
        .args(["list"])
        .arg(proj.join("s1.jsonl"))
        .output()
        .expect("runs");
    assert!(table.status.success(), "{table:?}");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("/srv/app") && !text.contains('\u{1b}'),
        "{text}"
    );
}

/// `--json` carries a title whole, however long; `ccv list` and `ccv
/// stats` count the same sessions (a file of summary lines is neither).
#[test]
fn json_titles_are_whole_and_list_and_stats_count_alike() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    let proj = root.join("-srv-app");
    fs::create_dir_all(&proj).expect("mkdir");
    let long = "word ".repeat(120).trim_end().to_owned();
    let line = |uuid: &str, text: &str| {
        serde_json::json!({"type":"user","uuid":uuid,"sessionId":"x","cwd":"/srv/app","timestamp":"2025-05-01T08:00:00.000Z","message":{"role":"user","content":text}}).to_string() + "\n"
    };
    fs::write(proj.join("a.jsonl"), line("u1", &long)).expect("write");
    fs::write(proj.join("b.jsonl"), line("u2", "short")).expect("write");
    fs::write(
        proj.join("c.jsonl"),
        "{\"type\":\"summary\",\"summary\":\"elsewhere\",\"leafUuid\":\"z\"}\n",
    )
    .expect("write");
    let out = ccv(&tmp.path().join("none"), &tmp.path().join("cache"))
        .args(["list", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(rows.len(), 2, "the summary-only file is no session");
    let a = rows.iter().find(|r| r["session_id"] == "a").expect("a");
    assert_eq!(a["title"], long.as_str(), "whole, {} chars", long.len());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1 × file with no conversation"),
        "said on stderr"
    );
    let out = ccv(&tmp.path().join("none"), &tmp.path().join("cache"))
        .args(["stats", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stats json");
    assert_eq!(stats["sessions"], 2, "{stats}");
}

/// A warm listing counts a session's subagents again only when their
/// folder changed (its mtime moves with every file added, taken away or
/// renamed in it); the count it kept is the count there is.
#[test]
fn a_warm_listing_counts_subagents_as_their_folder_holds_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = tmp.path().join("claude");
    tree(&config);
    let agents = config.join("projects/-srv-app/s1/subagents");
    let cache = tmp.path().join("cache");
    // a folder last changed long before the listing, as most are
    let age = |secs: u64| {
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
        fs::File::open(&agents)
            .expect("open the folder")
            .set_modified(t)
            .expect("set its mtime");
    };
    let count = || {
        let out = ccv(&config, &cache)
            .args(["list", "--json"])
            .output()
            .expect("runs");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json line"))
            .find(|r| r["session_id"] == "s1")
            .expect("s1")["subagents"]
            .as_u64()
            .expect("a count")
    };
    age(3600);
    assert_eq!(count(), 1, "cold");
    assert_eq!(count(), 1, "warm, the folder as it was");
    fs::write(agents.join("agent-2.jsonl"), "{}\n").expect("write");
    assert_eq!(count(), 2, "a file added");
    age(3000);
    assert_eq!(count(), 2, "warm again");
    fs::write(agents.join("agent-3.jsonl"), "{}\n").expect("write");
    fs::remove_file(agents.join("agent-1.jsonl")).expect("remove");
    age(1800);
    assert_eq!(
        count(),
        2,
        "one added, one gone, the folder's time set back"
    );
    fs::rename(agents.join("agent-2.jsonl"), agents.join("agent-2.txt")).expect("rename");
    assert_eq!(count(), 1, "one renamed away");
    fs::remove_dir_all(&agents).expect("remove the folder");
    assert_eq!(count(), 0, "the folder gone");
}

/// A project folder given where a projects root goes is that project:
/// `ccv list`, `stats`, `search` and `top` read its sessions (and its
/// sessions' subagents), not its `<session>/` folders as projects.
#[test]
fn a_project_folder_is_read_as_its_sessions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    tree(tmp.path());
    let other = tmp.path().join("projects").join("-srv-other");
    fs::create_dir_all(&other).expect("mkdir");
    fs::write(
        other.join("o1.jsonl"),
        r#"{"type":"user","cwd":"/srv/other","sessionId":"o1","message":{"role":"user","content":"elsewhere red"},"timestamp":"2025-05-02T08:00:00.000Z"}"#.to_owned() + "\n",
    )
    .expect("write");
    let project = tmp.path().join("projects").join("-srv-app");
    let run = |args: &[&str]| {
        let out = ccv(&tmp.path().join("none"), &tmp.path().join("cache"))
            .args(args)
            .arg(&project)
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let rows: Vec<serde_json::Value> = run(&["list", "--json"])
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let mut ids: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["session_id"].as_str())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["s0", "s1"], "{rows:?}");
    let s1 = rows.iter().find(|r| r["session_id"] == "s1").expect("s1");
    assert_eq!(s1["subagents"], 1);
    let stats: serde_json::Value =
        serde_json::from_str(&run(&["stats", "--json"])).expect("stats json");
    assert_eq!(stats["prompts"], 1, "{stats}");
    let hits = run(&["search", "red"]);
    assert!(hits.contains("s1.jsonl") && !hits.contains("o1"), "{hits}");
    let top = run(&["top", "--minutes", "100000000"]);
    assert!(top.contains("s1.jsonl") && !top.contains("o1"), "{top}");
    // a stray session file in a projects root hides no project
    let root = tmp.path().join("projects");
    fs::copy(other.join("o1.jsonl"), root.join("stray.jsonl")).expect("copy");
    let out = ccv(&tmp.path().join("none"), &tmp.path().join("cache"))
        .args(["list", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    let mut ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|r| r["session_id"].as_str().map(str::to_owned))
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["o1", "s0", "s1", "stray"]);
}

/// A file named with escape sequences is listed by a name that finds it:
/// its controls shown (`^[`), none sent raw, none dropped.
#[test]
fn a_file_named_with_escapes_is_listed_by_a_name_that_finds_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    let proj = root.join("-srv-app");
    fs::create_dir_all(&proj).expect("mkdir");
    fs::write(
        proj.join("x\u{1b}]0;pwn\u{7}.jsonl"),
        r#"{"type":"user","cwd":"/srv/app","sessionId":"x","message":{"role":"user","content":"hi"},"timestamp":"2025-05-02T08:00:00.000Z"}"#.to_owned() + "\n",
    )
    .expect("write");
    let out = ccv(&tmp.path().join("none"), &tmp.path().join("cache"))
        .arg("list")
        .arg(&root)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let row = text.lines().nth(1).expect("a row");
    let cells: Vec<&str> = row.split('\t').collect();
    assert_eq!(cells[9], "x^[]0;pwn^G", "{row}");
    assert!(cells[10].ends_with("/-srv-app/x^[]0;pwn^G.jsonl"), "{row}");
}

/// `ccv --redact` is the viewer's (and a piped PATH's): before a command
/// that does not redact it is refused, not ignored (`ccv --redact list`
/// listed every title as written).
#[test]
fn redact_before_a_command_is_refused_not_ignored() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    std::fs::create_dir_all(root.join("-p")).expect("mkdir");
    for cmd in [&["list"][..], &["stats"], &["search", "x"], &["export"]] {
        let out = common::ccv_at(home.path())
            .arg("--redact")
            .args(cmd)
            .arg(&root)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{cmd:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("ccv --redact [PATH]"),
            "{cmd:?}: {out:?}"
        );
    }
}

/// A list to share: `ccv list --redact` replaces the secrets of titles,
/// prompts and branches, as a table and as JSON; and `ccv --redact ROOT`
/// piped (which prints the list in the picker's place) does too, where it
/// printed them as written.
#[test]
fn a_list_redacted_shows_no_secret() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    std::fs::create_dir_all(root.join("-p")).expect("mkdir");
    // a key made here: none sits in the repository
    let body: String = (0..93)
        .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
        .collect();
    let key = format!("sk-ant-api03-{body}AA");
    let seen = &body[..24];
    let line = common::entry::user("u1", serde_json::json!(format!("use {key} now")))
        .session("s")
        .cwd("/p")
        .at("2025-01-01T10:00:00.000Z")
        .set("gitBranch", serde_json::json!(format!("leak-{key}")))
        .json();
    std::fs::write(root.join("-p/s.jsonl"), format!("{line}\n")).expect("write");
    let run = |args: &[&str]| {
        let out = common::ccv_at(home.path())
            .args(args)
            .arg(&root)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        run(&["list"]).contains(seen),
        "without --redact, as written"
    );
    for args in [
        &["list", "--redact"][..],
        &["list", "--redact", "--json"],
        &["--redact"],
    ] {
        let text = run(args);
        assert!(!text.contains(seen), "{args:?}: {text}");
        assert!(
            text.contains("[REDACTED:anthropic-api-key]"),
            "{args:?}: {text}"
        );
    }
}

/// A title is a first prompt cut at 4,096 characters: a key cut there
/// before the list was redacted was one no rule knew, and its head was
/// listed. A word that does not fit goes whole, and a private key's head
/// without its end is one.
#[test]
fn a_key_at_a_long_titles_cut_leaves_no_piece() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    std::fs::create_dir_all(root.join("-p")).expect("mkdir");
    let noise = |n: usize, seed: usize| -> String {
        (0..n)
            .map(|i| (b'a' + ((i * 7 + seed) * 13 % 26) as u8) as char)
            .collect()
    };
    let key = format!("{}{}", "gh", "p_Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gHjK2L");
    let pem_lines: Vec<String> = (0..20).map(|i| format!("MIIE{}", noise(60, i))).collect();
    let pem = format!(
        "-----BEGIN {}-----\n{}\n-----END {}-----",
        "RSA PRIVATE KEY",
        pem_lines.join("\n"),
        "RSA PRIVATE KEY"
    );
    let prompts = [
        // the key's first 20 characters within the title
        format!("{}ab {key} thanks", "word ".repeat(815)),
        // the key's head and 10 of its lines within it
        format!("{}please keep\n{pem}\nsafe", "word ".repeat(680)),
    ];
    for (i, p) in prompts.iter().enumerate() {
        let line = common::entry::user("u1", serde_json::json!(p))
            .session("s")
            .cwd("/p")
            .at("2025-01-01T10:00:00.000Z")
            .json();
        std::fs::write(root.join(format!("-p/s{i}.jsonl")), format!("{line}\n")).expect("write");
    }
    let mut pieces: Vec<String> = key
        .chars()
        .collect::<Vec<_>>()
        .windows(12)
        .map(|w| w.iter().collect())
        .collect();
    pieces.extend(pem_lines.iter().map(|l| l[4..20].to_owned()));
    for args in [&["list", "--redact"][..], &["list", "--redact", "--json"]] {
        let out = common::ccv_at(home.path())
            .args(args)
            .arg(&root)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        for piece in &pieces {
            assert!(!text.contains(piece.as_str()), "{args:?}: {piece} listed");
        }
        assert!(text.contains("[REDACTED:private-key]"), "{args:?}: {text}");
    }
}

/// A session whose entries are dated after its file was last written (a
/// clock set wrong where it was written): dated by its file, so it is not
/// first in the list for ever, "just now" on every look; cold and warm.
/// One a second after its file's time (kept in whole seconds) is not.
#[test]
fn an_entry_dated_after_its_file_is_dated_by_the_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = tmp.path().join("claude");
    let proj = config.join("projects").join("-srv-app");
    fs::create_dir_all(&proj).expect("mkdir");
    let line = |id: &str, at: &str| {
        format!(
            r#"{{"type":"user","cwd":"/srv/app","sessionId":"{id}","message":{{"role":"user","content":"hello {id}"}},"timestamp":"{at}"}}"#
        ) + "\n"
    };
    let ahead = proj.join("ahead.jsonl");
    let today = proj.join("today.jsonl");
    let close = proj.join("close.jsonl");
    fs::write(&ahead, line("ahead", "2099-01-01T00:00:00.000Z")).expect("write");
    fs::write(&today, line("today", "2020-06-01T10:00:00.000Z")).expect("write");
    fs::write(&close, line("close", "2020-05-10T00:00:00.900Z")).expect("write");
    let day = |d: u64| std::time::UNIX_EPOCH + std::time::Duration::from_secs(d * 86_400);
    // written in 2020 (day 18,400 is 2020-05-18), the other on 2020-06-01;
    // the third's time kept in whole seconds, just before its entry's
    for (f, t) in [
        (&ahead, day(18_400)),
        (&today, day(18_414) + std::time::Duration::from_secs(40_000)),
        (&close, day(18_392)),
    ] {
        fs::File::options()
            .append(true)
            .open(f)
            .and_then(|f| f.set_modified(t))
            .expect("set mtime");
    }
    let cache = tmp.path().join("cache");
    for pass in ["cold", "warm"] {
        let out = ccv(&config, &cache)
            .args(["list", "--json"])
            .output()
            .expect("runs");
        let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect();
        let ids: Vec<&str> = rows
            .iter()
            .filter_map(|r| r["session_id"].as_str())
            .collect();
        assert_eq!(ids, ["today", "ahead", "close"], "{pass}: {rows:?}");
        assert_eq!(
            rows[2]["last_activity"], "2020-05-10T00:00:00.900Z",
            "{pass}"
        );
        assert_eq!(
            rows[1]["last_activity"], "2020-05-18T00:00:00.000Z",
            "{pass}"
        );
        assert_eq!(
            rows[0]["last_activity"], "2020-06-01T10:00:00.000Z",
            "{pass}"
        );
    }
}
