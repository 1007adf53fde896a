//! `ccv search` through the built binary, over a tree with a word planted
//! in each kind of row (subagents in all three layouts), before and after
//! the index exists, and while a session grows. Every directory is a temp
//! dir (never the real ~/.claude).

use crate::common;
use crate::common::entry;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;

fn line(v: Value) -> String {
    format!("{v}\n")
}

fn user(uuid: &str, ts: &str, content: Value) -> Value {
    entry::user(uuid, content)
        .session("s1")
        .cwd("/srv/app")
        .at(ts)
        .json()
}

fn assistant(uuid: &str, ts: &str, blocks: Value) -> Value {
    entry::assistant(uuid, &format!("m-{uuid}"), blocks)
        .model("claude-sonnet-4-5-20250929")
        .session("s1")
        .at(ts)
        .json()
}

/// (word, file relative to the root, line, kind)
const PLANTED: &[(&str, &str, u32, &str)] = &[
    ("zebraprompt", "-srv-app/s1.jsonl", 1, "user"),
    // capitals, typed in lower case with a final sigma: one word to a
    // search that ignores case, with the index and without
    ("ζεβρας", "-srv-app/s1.jsonl", 1, "user"),
    ("zebrathink", "-srv-app/s1.jsonl", 2, "thinking"),
    ("zebraanswer", "-srv-app/s1.jsonl", 3, "assistant"),
    ("zebrainput", "-srv-app/s1.jsonl", 4, "tool_call"),
    ("zebraoutput", "-srv-app/s1.jsonl", 5, "tool_result"),
    ("zebrasummary", "-srv-app/s1.jsonl", 6, "compaction"),
    ("zebrainline", "-srv-app/s1.jsonl", 7, "assistant"),
    ("zebraodd", "-srv-app/s1.jsonl", 8, "tool_result"),
    (
        "zebrafolder",
        "-srv-app/s1/subagents/agent-a1.jsonl",
        2,
        "assistant",
    ),
    ("zebraflat", "-srv-app/agent-b2.jsonl", 1, "user"),
    ("zebraweb", "-srv-web/s2.jsonl", 1, "user"),
];

fn tree(root: &Path) {
    let app = root.join("-srv-app");
    fs::create_dir_all(app.join("s1/subagents")).expect("mkdir");
    let mut s1 = String::new();
    s1 += &line(user(
        "u1",
        "2025-03-01T10:00:00Z",
        json!("please find zebraprompt and ΖΕΒΡΑΣ"),
    ));
    s1 += &line(assistant(
        "a1",
        "2025-03-01T10:00:01Z",
        json!([{"type":"thinking","thinking":"hmm zebrathink","signature":"zebrasig"}]),
    ));
    s1 += &line(assistant(
        "a2",
        "2025-03-01T10:00:02Z",
        json!([{"type":"text","text":"the \u{1b}[1mzebraanswer\u{1b}[0m is here"}]),
    ));
    s1 += &line(assistant(
        "a3",
        "2025-03-01T10:00:03Z",
        json!([{"type":"tool_use","id":"t1","name":"Bash",
            "input":{"command":"echo zebrainput","zebrakey":"x"}}]),
    ));
    s1 += &line(user(
        "u2",
        "2025-03-01T10:00:04Z",
        json!([{"type":"tool_result","tool_use_id":"t1","content":"zebraoutput\n"},
               {"type":"image","source":{"type":"base64","media_type":"image/png","data":"zebrabase64AAAA"}}]),
    ));
    let mut summary = user(
        "u3",
        "2025-03-01T10:00:05Z",
        json!("This session is being continued: zebrasummary"),
    );
    summary["isCompactSummary"] = json!(true);
    s1 += &line(summary);
    let mut inline = assistant(
        "i1",
        "2025-03-01T10:00:06Z",
        json!([{"type":"text","text":"zebrainline found"}]),
    );
    inline["isSidechain"] = json!(true);
    s1 += &line(inline);
    // a result of another shape shows its JSON, keys and all
    s1 += &line(user(
        "u4",
        "2025-03-01T10:00:06Z",
        json!([{"type":"tool_result","tool_use_id":"t1","content":{"zebraodd":1}}]),
    ));
    fs::write(app.join("s1.jsonl"), s1).expect("write");

    let mut a = user("x1", "2025-03-01T10:00:07Z", json!("agent task"));
    a["isSidechain"] = json!(true);
    a["agentId"] = json!("a1");
    let mut b = assistant(
        "x2",
        "2025-03-01T10:00:08Z",
        json!([{"type":"text","text":"zebrafolder done"}]),
    );
    b["isSidechain"] = json!(true);
    b["agentId"] = json!("a1");
    fs::write(app.join("s1/subagents/agent-a1.jsonl"), line(a) + &line(b)).expect("write");
    let mut flat = user("y1", "2025-03-01T10:00:09Z", json!("old layout zebraflat"));
    flat["isSidechain"] = json!(true);
    flat["agentId"] = json!("b2");
    fs::write(app.join("agent-b2.jsonl"), line(flat)).expect("write");

    let web = root.join("-srv-web");
    fs::create_dir_all(&web).expect("mkdir");
    let mut w = user(
        "w1",
        "2025-03-02T09:00:00Z",
        json!("Zebraweb in the web project"),
    );
    w["cwd"] = json!("/srv/web");
    w["sessionId"] = json!("s2");
    fs::write(web.join("s2.jsonl"), line(w)).expect("write");
}

use common::{ccv_no_index as ccv, search_json as search};

fn every_planted_word_is_found(home: &Path, root: &Path, how: &str) {
    for (word, file, line, kind) in PLANTED {
        let (code, hits) = search(home, root, &[word]);
        assert_eq!(code, 0, "{how}: {word} not found");
        assert_eq!(hits.len(), 1, "{how}: {word}: {hits:?}");
        let h = &hits[0];
        assert_eq!(h["path"], json!(root.join(file)), "{how}: {word}");
        assert_eq!(h["line"], json!(line), "{how}: {word}");
        assert_eq!(h["kind"], json!(kind), "{how}: {word}");
        let snippet = h["snippet"].as_str().expect("snippet");
        let m = &h["match"];
        let chars: Vec<char> = snippet.chars().collect();
        let (a, b) = (
            m[0].as_u64().expect("start") as usize,
            m[1].as_u64().expect("end") as usize,
        );
        let marked: String = chars[a..b].iter().collect();
        assert_eq!(marked.to_lowercase(), *word, "{how}: {snippet}");
    }
    // the session a subagent belongs to
    let (_, hits) = search(home, root, &["zebrafolder"]);
    assert_eq!(
        hits[0]["session_path"],
        json!(root.join("-srv-app/s1.jsonl"))
    );
    // JSON keys, signatures and images are not text a person reads
    for word in ["zebrakey", "zebrasig", "zebrabase64AAAA", "sessionId"] {
        let (code, hits) = search(home, root, &[word]);
        assert_eq!((code, hits.len()), (1, 0), "{how}: {word}: {hits:?}");
    }
}

#[test]
fn finds_a_word_in_every_kind_of_row_with_and_without_the_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    every_planted_word_is_found(tmp.path(), &root, "scan");
    let done = ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let said = String::from_utf8_lossy(&done.get_output().stdout).into_owned();
    assert!(said.starts_with("indexed 4 files"), "{said}");
    every_planted_word_is_found(tmp.path(), &root, "index");
}

#[test]
fn query_rules_and_filters() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    for indexed in [false, true] {
        if indexed {
            ccv(tmp.path()).arg("index").arg(&root).assert().success();
        }
        let n = |args: &[&str]| search(tmp.path(), &root, args).1.len();
        // words in any order, within one entry
        assert_eq!(n(&["find please"]), 1, "indexed: {indexed}");
        assert_eq!(n(&["please zebrathink"]), 0);
        // a phrase is matched as written
        assert_eq!(n(&["\"please find\""]), 1);
        assert_eq!(n(&["\"find please\""]), 0);
        assert_eq!(n(&["\"please find\" zebraprompt"]), 1);
        assert_eq!(n(&["zebraprompt \"please f\""]), 1);
        // smart case
        assert_eq!(n(&["zebraweb"]), 1);
        assert_eq!(n(&["Zebraweb"]), 1);
        assert_eq!(n(&["ZEBRAWEB"]), 0);
        // a word is found where it starts
        assert_eq!(n(&["zebraans"]), 1);
        assert_eq!(n(&["ebraanswer"]), 0);
        // filters
        assert_eq!(n(&["--kind", "tool", "zebraoutput"]), 1);
        assert_eq!(n(&["--kind", "user", "zebraoutput"]), 0);
        assert_eq!(n(&["--project", "web", "zebra"]), 1);
        assert_eq!(n(&["--since", "2025-03-02", "zebra"]), 1);
        // a date past the last instant a clock holds: nothing is since
        assert_eq!(n(&["--since", "9999-12-31", "zebra"]), 0);
        assert_eq!(n(&["--regex", "zebra(web|flat)"]), 2);
        // newest first
        let (_, hits) = search(tmp.path(), &root, &["zebra"]);
        assert_eq!(hits[0]["session_id"], "s2");
        let zebras = PLANTED.iter().filter(|p| p.0.starts_with("zebra"));
        assert_eq!(hits.len(), zebras.count());
    }
    let bad = ccv(tmp.path())
        .args(["search", "--kind", "nonsense", "x"])
        .arg(&root)
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    // one hit shown of more: said in the singular
    let one = ccv(tmp.path())
        .args(["search", "--limit", "1", "zebra"])
        .arg(&root)
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&one.stderr);
    assert!(said.contains("showing the newest hit;"), "{said}");
    // no hit at all is asked for nothing: refused, not read as 1
    let none = ccv(tmp.path())
        .args(["search", "--limit", "0", "zebra"])
        .arg(&root)
        .output()
        .expect("runs");
    assert_eq!(none.status.code(), Some(2));
    assert!(none.stdout.is_empty());
    assert!(String::from_utf8_lossy(&none.stderr).contains("--limit"));
}

#[test]
fn a_growing_session_is_searched_as_it_grows() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let (code, _) = search(tmp.path(), &root, &["zebralater"]);
    assert_eq!(code, 1);
    let s1 = root.join("-srv-app/s1.jsonl");
    let mut text = fs::read_to_string(&s1).expect("read");
    text += &line(user("u9", "2025-03-03T10:00:00Z", json!("and zebralater")));
    fs::write(&s1, text).expect("append");
    let (code, hits) = search(tmp.path(), &root, &["zebralater"]);
    assert_eq!(code, 0);
    assert_eq!(hits[0]["line"], 9);
    // the index read only what was appended: the old words are still
    // there once, not twice
    assert_eq!(search(tmp.path(), &root, &["zebraprompt"]).1.len(), 1);
    // a file rewritten shorter is read again
    fs::write(
        &s1,
        line(user("u1", "2025-03-01T10:00:00Z", json!("zebranew"))),
    )
    .expect("rewrite");
    assert_eq!(search(tmp.path(), &root, &["zebraprompt"]).1.len(), 0);
    assert_eq!(search(tmp.path(), &root, &["zebranew"]).1.len(), 1);
    // and the index can be deleted at any time
    fs::remove_dir_all(tmp.path().join("cache/ccv")).expect("rm");
    assert_eq!(search(tmp.path(), &root, &["zebranew"]).1.len(), 1);
}

/// A subagents' folder known unchanged is not read again, but a file
/// added to it (which moves its mtime) is found by the next search, with
/// the index and without; what is kept of the folders is ccv's own file.
#[test]
fn a_subagent_file_added_is_found_by_the_next_search() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let sub = root.join("-srv-app/s1/subagents");
    let settled = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    let age = |t| {
        fs::File::open(&sub)
            .and_then(|f| f.set_modified(t))
            .expect("mtime")
    };
    age(settled);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let known = tmp.path().join("cache/ccv/folders-v1.bin");
    assert!(known.is_file(), "the folders are kept");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&known).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(search(tmp.path(), &root, &["zebrafolder"]).1.len(), 1);
    let mut c = user("z1", "2025-03-04T10:00:00Z", json!("zebranewagent task"));
    c["isSidechain"] = json!(true);
    c["agentId"] = json!("c3");
    fs::write(sub.join("agent-c3.jsonl"), line(c)).expect("write");
    let (code, hits) = search(tmp.path(), &root, &["zebranewagent"]);
    assert_eq!((code, hits.len()), (0, 1), "{hits:?}");
    // settled again: kept, and still found
    age(settled + std::time::Duration::from_secs(1));
    assert_eq!(search(tmp.path(), &root, &["zebranewagent"]).1.len(), 1);
    assert_eq!(search(tmp.path(), &root, &["zebrafolder"]).1.len(), 1);
    // a file of folders that is not believed is the same as none
    fs::write(&known, b"ccv subagent folders 1\ngarbage").expect("damage");
    assert_eq!(search(tmp.path(), &root, &["zebranewagent"]).1.len(), 1);
    fs::remove_dir_all(tmp.path().join("cache/ccv")).expect("rm");
    assert_eq!(search(tmp.path(), &root, &["zebranewagent"]).1.len(), 1);
}

/// What a walk meets besides sessions: a FIFO as a session and as a
/// subagent's file (never opened: it would block for ever), a link to a
/// session (searched as what it names), a dangling link, a link to a
/// folder where a session's folder would be (not walked as one), and a
/// folder that cannot be read. With the index and without.
#[cfg(unix)]
#[test]
fn a_walk_passes_fifos_links_and_unreadable_folders() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let app = root.join("-srv-app");
    let fifo = |p: &Path| {
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: mkfifo on a NUL-terminated path
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) == 0 }
    };
    if !fifo(&app.join("trap.jsonl")) || !fifo(&app.join("s1/subagents/agent-f1.jsonl")) {
        eprintln!("skipping: no FIFOs here");
        return;
    }
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).expect("mkdir");
    let mut linked = user("l1", "2025-03-05T10:00:00Z", json!("zebralinked here"));
    linked["sessionId"] = json!("s9");
    fs::write(elsewhere.join("s9.jsonl"), line(linked)).expect("write");
    std::os::unix::fs::symlink(elsewhere.join("s9.jsonl"), app.join("s9.jsonl")).expect("link");
    std::os::unix::fs::symlink(elsewhere.join("gone.jsonl"), app.join("gone.jsonl")).expect("link");
    // a link named as a session's folder, to a folder of agents
    fs::create_dir_all(elsewhere.join("x/subagents")).expect("mkdir");
    fs::write(
        elsewhere.join("x/subagents/agent-x1.jsonl"),
        line(user("x1", "2025-03-05T10:00:00Z", json!("zebrafar"))),
    )
    .expect("write");
    std::os::unix::fs::symlink(elsewhere.join("x"), app.join("s9")).expect("link");
    let shut = root.join("-srv-shut");
    fs::create_dir_all(&shut).expect("mkdir");
    fs::write(
        shut.join("s5.jsonl"),
        line(user("h1", "2025-03-05T10:00:00Z", json!("zebrahidden"))),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&shut, fs::Permissions::from_mode(0o000)).expect("chmod");
    // root reads any folder: then it is searched
    let readable = fs::read_dir(&shut).is_ok();
    for how in ["scan", "index"] {
        if how == "index" {
            ccv(tmp.path()).arg("index").arg(&root).assert().success();
        }
        let (code, hits) = search(tmp.path(), &root, &["zebralinked"]);
        assert_eq!((code, hits.len()), (0, 1), "{how}: {hits:?}");
        assert_eq!(hits[0]["path"], json!(app.join("s9.jsonl")), "{how}");
        assert_eq!(search(tmp.path(), &root, &["zebrafar"]).1.len(), 0, "{how}");
        assert_eq!(
            search(tmp.path(), &root, &["zebrafolder"]).1.len(),
            1,
            "{how}"
        );
        let hidden = search(tmp.path(), &root, &["zebrahidden"]).1.len();
        assert_eq!(hidden, usize::from(readable), "{how}");
    }
    fs::set_permissions(&shut, fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn the_text_output_groups_by_session_and_marks_the_match() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    // what `ccv search QUERY` prints to a pipe
    let printed = |query: &str| {
        let out = ccv(tmp.path())
            .args(["search", query])
            .arg(&root)
            .output()
            .expect("runs");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let text = printed("zebraoutput");
    assert!(
        text.contains("please find zebraprompt and ΖΕΒΡΑΣ · /srv/app · 2025-03-01"),
        "{text}"
    );
    assert!(
        text.contains("-srv-app/s1.jsonl:5 tool_result »zebraoutput«"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no escape reaches a pipe: {text:?}"
    );
    // every term is marked, with the index and without, and `--json`
    // says where each is
    for index in [false, true] {
        if index {
            ccv(tmp.path()).arg("index").arg(&root).assert().success();
        }
        let text = printed("ζεβρας zebraprompt");
        assert!(
            text.contains("please find »zebraprompt« and »ΖΕΒΡΑΣ«"),
            "{text}"
        );
        let (_, hits) = search(tmp.path(), &root, &["ζεβρας zebraprompt"]);
        let snippet: Vec<char> = hits[0]["snippet"]
            .as_str()
            .expect("snippet")
            .chars()
            .collect();
        let marked: Vec<String> = hits[0]["matches"]
            .as_array()
            .expect("matches")
            .iter()
            .map(|m| {
                let at = |i: usize| m[i].as_u64().expect("a number") as usize;
                snippet[at(0)..at(1)].iter().collect()
            })
            .collect();
        assert_eq!(marked, ["zebraprompt", "ΖΕΒΡΑΣ"], "{hits:?}");
    }
}

/// A session named by a first prompt of kilobytes heads its hits with the
/// prompt's first 80 columns, not with the whole prompt.
#[test]
fn a_long_title_is_cut_above_its_hits() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    let dir = root.join("-srv-app");
    fs::create_dir_all(&dir).expect("mkdir");
    let prompt = format!("plan: {} zebralong", "wide 漢字 words ".repeat(400));
    fs::write(
        dir.join("s1.jsonl"),
        line(user("u1", "2025-03-01T10:00:00Z", json!(prompt))),
    )
    .expect("write");
    let out = ccv(tmp.path())
        .args(["search", "zebralong"])
        .arg(&root)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let head = text.lines().next().expect("a header");
    let title = head.split(" · ").next().expect("a title");
    assert!(title.starts_with("plan: wide 漢字 words"), "{head}");
    assert!(title.ends_with('…'), "{head}");
    let columns = unicode_width::UnicodeWidthStr::width(title);
    assert!((70..=80).contains(&columns), "{columns} columns: {head}");
    assert!(head.contains(" · /srv/app · 2025-03-01"), "{head}");
    assert!(text.contains("s1.jsonl:1 user"), "{text}");
}

/// A session with a line of 600 MB (a sparse file: NUL bytes) is searched
/// in bounded memory: the long line is skipped, the lines after it found
/// at their numbers, with and without the index.
#[test]
fn a_huge_line_is_skipped_in_bounded_memory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let big = root.join("-srv-web/big.jsonl");
    let mut f = fs::File::create(&big).expect("create");
    use std::io::{Seek, Write};
    f.write_all(line(user("b1", "2025-03-04T10:00:00Z", json!("before zebrabig"))).as_bytes())
        .expect("write");
    f.seek(std::io::SeekFrom::Current(600 << 20)).expect("seek");
    f.write_all(b"\n").expect("write");
    f.write_all(line(user("b2", "2025-03-04T10:00:01Z", json!("after zebrabig"))).as_bytes())
        .expect("write");
    drop(f);
    let bin = assert_cmd::cargo::cargo_bin("ccv");
    for step in ["scan", "index"] {
        let script = if step == "scan" {
            format!(
                "ulimit -v 1500000; '{}' search --json zebrabig '{}'",
                bin.display(),
                root.display()
            )
        } else {
            format!(
                "ulimit -v 1500000; '{b}' index '{r}' >/dev/null && '{b}' search --json zebrabig '{r}'",
                b = bin.display(),
                r = root.display()
            )
        };
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .envs(common::sandbox(tmp.path()))
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<u64> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok()?["line"].as_u64())
            .collect();
        assert_eq!(
            lines,
            [3, 1],
            "{step}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A common word matches more entries than a search reads at once: the
/// index takes the newest in batches (another project's entries passed
/// over, times shared by many), and its answer is the files' answer: the
/// same hits in the same order.
#[test]
fn the_index_answers_a_common_word_as_the_files_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    for p in 0..3 {
        let dir = root.join(format!("-srv-app{p}"));
        std::fs::create_dir_all(&dir).expect("dir");
        let mut text = String::new();
        for i in 0..400 {
            // three lines a second, in each project: ties everywhere
            let ts = format!(
                "2025-03-0{}T10:{:02}:{:02}.000Z",
                3 - p,
                i / 180,
                (i / 3) % 60
            );
            let e = entry::text_answer(
                &format!("a{p}-{i}"),
                &format!("m{p}-{i}"),
                &format!("common answer {i}"),
            )
            .session(&format!("s{p}"))
            .cwd(&format!("/srv/app{p}"))
            .at(&ts);
            text.push_str(&line(e.json()));
        }
        std::fs::write(dir.join(format!("s{p}.jsonl")), text).expect("write");
    }
    let asks: Vec<Vec<&str>> = vec![
        vec!["--limit", "7", "common"],
        vec!["--limit", "300", "common"],
        vec!["--limit", "5000", "common"],
        // the newest thousands of entries are another project's
        vec!["--limit", "50", "--project", "app2", "common"],
        vec!["--limit", "500", "--project", "app2", "common"],
    ];
    let files: Vec<_> = asks.iter().map(|a| search(tmp.path(), &root, a)).collect();
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    for (ask, (code, files)) in asks.iter().zip(files) {
        assert_eq!(code, 0);
        assert!(!files.is_empty(), "{ask:?}");
        let (_, indexed) = search(tmp.path(), &root, ask);
        assert_eq!(indexed.len(), files.len(), "{ask:?}");
        assert_eq!(indexed, files, "{ask:?}");
    }
}

/// The index says which spans of lines (about 64 KB each) hold a word,
/// and when the newest of their entries was; a span's lines are read and
/// checked when it can hold one of the newest hits. Lines out of time
/// order in their file (a span's newest entry first, its older ones
/// after), prompts and calls among the answers, and a kind or a time
/// asked for: the index's answer is the files' answer, in the same order.
#[test]
fn the_index_answers_from_spans_as_the_files_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    for p in 0..2 {
        let dir = root.join(format!("-srv-svc{p}"));
        fs::create_dir_all(&dir).expect("dir");
        let mut text = String::new();
        for i in 0..1500u32 {
            // seconds scattered over the hour, a few lines per second
            let s = (i * 7919 + p * 13) % 1100;
            let ts = format!("2025-04-0{}T09:{:02}:{:02}.000Z", 1 + s % 9, s / 60, s % 60);
            let pad = "x".repeat(200 + (i as usize * 37) % 300);
            let e = match i % 5 {
                0 => entry::user(&format!("u{p}-{i}"), format!("quokka prompt {i} {pad}")),
                1 => entry::call(
                    &format!("c{p}-{i}"),
                    &format!("m{p}-{i}"),
                    &format!("t{p}-{i}"),
                    "Bash",
                    json!({"command": format!("echo quokka {i}")}),
                ),
                _ => entry::text_answer(
                    &format!("a{p}-{i}"),
                    &format!("m{p}-{i}"),
                    &format!(
                        "answer {i} {} {pad}",
                        if i % 3 == 0 { "quokka" } else { "wombat" }
                    ),
                ),
            };
            text.push_str(&line(e.session(&format!("s{p}")).at(&ts).json()));
        }
        fs::write(dir.join(format!("s{p}.jsonl")), text).expect("write");
    }
    let asks: Vec<Vec<&str>> = vec![
        vec!["--limit", "1", "quokka"],
        vec!["--limit", "25", "quokka"],
        vec!["--limit", "333", "quokka"],
        vec!["--limit", "5000", "quokka"],
        vec!["--limit", "40", "wombat"],
        vec!["--limit", "30", "--kind", "user", "quokka"],
        vec!["--limit", "30", "--kind", "tool_call", "quokka"],
        vec!["--limit", "60", "--since", "2025-04-06", "quokka"],
        vec!["--limit", "20", "prompt 14"],
    ];
    let files: Vec<_> = asks.iter().map(|a| search(tmp.path(), &root, a)).collect();
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    for (ask, (code, files)) in asks.iter().zip(files) {
        assert_eq!(code, 0);
        assert!(!files.is_empty(), "{ask:?}");
        let (_, indexed) = search(tmp.path(), &root, ask);
        assert_eq!(indexed, files, "{ask:?}");
    }
}

/// A prompt's and an answer's lines written again under their uuid and
/// content (Claude Code rewrites some) are one row each, at their first
/// line: a search finds each once there, before the index and after,
/// however many other lines come between (its lines are decoded on
/// their own); a line under a used uuid with other content is a row of
/// its own and a hit of its own.
#[test]
fn a_line_written_twice_is_one_hit_at_its_first_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    let dir = root.join("-srv-app");
    fs::create_dir_all(&dir).expect("dir");
    let prompt = line(user("u1", "2025-03-01T10:00:00Z", json!("walrus prompt")));
    let answer = line(assistant(
        "a1",
        "2025-03-01T10:00:01Z",
        json!([{"type": "text", "text": "walrus answer"}]),
    ));
    let other = line(assistant(
        "a1",
        "2025-03-01T10:00:03Z",
        json!([{"type": "text", "text": "walrus again, otherwise"}]),
    ));
    let mut text = prompt.clone() + &answer;
    for i in 0..30 {
        text += &line(user(
            &format!("f{i}"),
            "2025-03-01T10:00:02Z",
            json!(format!("filler {i}")),
        ));
    }
    text += &answer;
    text += &prompt;
    text += &other;
    fs::write(dir.join("s1.jsonl"), &text).expect("write");
    let want = [(1, "user"), (2, "assistant"), (35, "assistant")];
    let lines = |hits: &[Value]| {
        let mut v: Vec<(u64, String)> = hits
            .iter()
            .map(|h| {
                (
                    h["line"].as_u64().unwrap_or(0),
                    h["kind"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let want: Vec<(u64, String)> = want.iter().map(|(l, k)| (*l, k.to_string())).collect();
    for limit in ["1", "2", "200"] {
        let (code, hits) = search(tmp.path(), &root, &["--limit", limit, "walrus"]);
        assert_eq!(code, 0);
        if limit == "200" {
            assert_eq!(lines(&hits), want, "before the index");
        } else {
            assert!(hits.iter().all(|h| h["line"] != 33 && h["line"] != 34));
        }
    }
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let (_, hits) = search(tmp.path(), &root, &["walrus"]);
    assert_eq!(lines(&hits), want, "with the index");
    // the viewer's rows: each written line once
    let out = ccv(tmp.path())
        .args(["export", "--format", "json"])
        .arg(dir.join("s1.jsonl"))
        .output()
        .expect("runs");
    let rows = String::from_utf8_lossy(&out.stdout)
        .matches("walrus")
        .count();
    assert_eq!(rows, 3, "{}", String::from_utf8_lossy(&out.stdout));
}

/// A word the index holds as parts (`resolve_layout`: `resolve`,
/// `layout`) and a phrase: the entries that hold the parts apart are the
/// index's candidates but no hits, as they are none in the files; those
/// that hold them together are found either way.
#[test]
fn the_index_answers_a_word_of_parts_as_the_files_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    let dir = root.join("-srv-parts");
    std::fs::create_dir_all(&dir).expect("dir");
    let texts = [
        "resolve the layout first",
        "layout, then resolve",
        "call resolve_layout here",
        "RESOLVE_LAYOUT in capitals",
        "a \"quoted\" resolve_layout, with a tab\tand more",
        "resolve layout as words",
        "resolve-layout with a dash",
        "self.resolve_layouts() and Session::new, std::io",
        "resolve__layout, resolve_ layout, resolve._layout",
        "v1.2 x_1 1_x src/main.rs Resolve:Layout",
    ];
    let mut text = String::new();
    for i in 0..300 {
        let t = format!("{} {i}", texts[i % texts.len()]);
        let at = format!("2025-03-03T10:{:02}:{:02}.000Z", i / 60, i % 60);
        // as an answer, a call's input and a tool's output (read off the
        // line's bytes, escapes and all)
        let e = match i % 3 {
            0 => entry::text_answer(&format!("a{i}"), &format!("m{i}"), &t),
            1 => entry::call(
                &format!("c{i}"),
                &format!("m{i}"),
                &format!("t{i}"),
                "Bash",
                json!({ "command": t }),
            ),
            _ => entry::result(&format!("r{i}"), &format!("t{}", i - 1), t.as_str()),
        };
        text.push_str(&line(e.session("s").cwd("/srv/parts").at(&at).json()));
    }
    std::fs::write(dir.join("s.jsonl"), text).expect("write");
    let mut asks: Vec<Vec<&str>> = vec![
        vec!["--limit", "10", "resolve_layout"],
        vec!["--limit", "500", "resolve layout"],
        vec!["--limit", "500", "layout resolve"],
    ];
    for q in [
        "resolve_layout",
        "RESOLVE_LAYOUT",
        "resolve-layout",
        "resolve_lay",
        "resolve_layouts",
        "self.resolve_layouts()",
        "Session::new",
        "session::ne",
        "std::io",
        "resolve__layout",
        "resolve._layout",
        "resolve:layout",
        "v1.2",
        "x_1",
        "1_x",
        "src/main.rs",
        "\"quoted\" resolve_layout",
    ] {
        asks.push(vec!["--limit", "500", q]);
    }
    let files: Vec<_> = asks.iter().map(|a| search(tmp.path(), &root, a)).collect();
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    for (ask, (code, files)) in asks.iter().zip(files) {
        assert_eq!(code, 0, "{ask:?}");
        assert!(!files.is_empty(), "{ask:?}");
        let (_, indexed) = search(tmp.path(), &root, ask);
        assert_eq!(indexed, files, "{ask:?}");
    }
    // the parts apart are no hit of the word
    let (_, hits) = search(tmp.path(), &root, &["--limit", "500", "resolve_layout"]);
    let together = (0..300)
        .filter(|i| [2, 3, 4, 7].contains(&(i % 10)))
        .count();
    assert_eq!(hits.len(), together);
}

/// An index built for a folder answers for it however the folder is
/// spelled (`a//b`, `a/./b` are `a/b`), as the files do.
#[test]
fn the_index_answers_for_its_folder_however_it_is_spelled() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let plain = search(tmp.path(), &root, &["zebrafolder"]);
    assert_eq!(plain.0, 0, "{plain:?}");
    let spelled = [
        format!("{}//projects", tmp.path().display()),
        format!("{}/./projects", tmp.path().display()),
    ];
    for other in spelled {
        let (code, hits) = search(tmp.path(), Path::new(&other), &["zebrafolder"]);
        assert_eq!(code, 0, "{other}: {hits:?}");
        assert_eq!(hits.len(), plain.1.len(), "{other}");
        assert_eq!(hits[0]["line"], plain.1[0]["line"], "{other}");
    }
}

/// A file whose last line has no newline (a real session can end so for
/// good): that line is not in the index (one being written is indexed
/// when it ends), and an indexed search reads it where it is, as a search
/// of the files does; a line appended after it is found too.
#[test]
fn the_index_answers_for_a_last_line_without_its_newline() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    let dir = root.join("-srv-app");
    std::fs::create_dir_all(&dir).expect("dir");
    let answer = |n: usize, text: &str| {
        line(
            entry::text_answer(&format!("a{n}"), &format!("m{n}"), text)
                .session("s")
                .cwd("/srv/app")
                .at(&format!("2025-03-03T10:00:0{n}.000Z"))
                .json(),
        )
    };
    let mut text = answer(1, "an early plankton") + &answer(2, "a middle plankton");
    text += answer(3, "the last plankton, unended").trim_end_matches('\n');
    let file = dir.join("s.jsonl");
    std::fs::write(&file, &text).expect("write");
    let asks: [&[&str]; 3] = [&["plankton"], &["unended"], &["--limit", "1", "plankton"]];
    let files: Vec<_> = asks.iter().map(|a| search(tmp.path(), &root, a)).collect();
    assert_eq!(files[0].1.len(), 3);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    for (ask, files) in asks.iter().zip(&files) {
        assert_eq!(&search(tmp.path(), &root, ask), files, "{ask:?}");
    }
    // the line ended, and another begun without its newline
    let more = "\n".to_owned() + answer(4, "a later plankton").trim_end_matches('\n');
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .expect("open");
    std::io::Write::write_all(&mut f, more.as_bytes()).expect("append");
    drop(f);
    let (code, hits) = search(tmp.path(), &root, &["plankton"]);
    assert_eq!(code, 0);
    assert_eq!(hits.len(), 4, "{hits:?}");
    assert_eq!(hits[0]["line"], json!(4));
}

/// An index another ccv is building has no list of files until the build
/// ends, as a damaged one has none: while the builder holds the index's
/// lock, a search reads the files, says the index is being built (not that
/// it is damaged) and leaves it to its builder.
#[test]
fn an_index_being_built_is_not_called_damaged_nor_thrown_away() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    tree(&root);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let dir = tmp
        .path()
        .join(format!("cache/ccv/search-v{}", ccv::search::index::VERSION));
    let (_, truth) = search(tmp.path(), &root, &["--limit", "500", "the"]);
    fs::remove_file(dir.join("files.bin")).expect("a build not yet ended");
    let run = || {
        ccv(tmp.path())
            .args(["search", "--json", "--limit", "500", "the"])
            .arg(&root)
            .output()
            .expect("runs")
    };
    {
        let _builder = ccv::search::index_dir::lock(&dir, false)
            .expect("lock")
            .expect("free");
        let out = run();
        let hits: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(hits, truth);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("being built") && !said.contains("damaged"),
            "{said}"
        );
        assert!(
            dir.join("meta.json").is_file(),
            "the builder's index was left to it"
        );
    }
    // no builder: the same index is a damaged one
    let said = String::from_utf8_lossy(&run().stderr).into_owned();
    assert!(said.contains("damaged"), "{said}");
}

/// An index whose list of files is damaged (or gone) is not believed: the
/// files answer, it is said, and the next build makes the index again,
/// which then answers as the files do.
#[test]
fn an_index_whose_list_of_files_is_damaged_is_rebuilt() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    tree(&root);
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    let dir = tmp
        .path()
        .join(format!("cache/ccv/search-v{}", ccv::search::index::VERSION));
    let list = dir.join("files.bin");
    let good = std::fs::read(&list).expect("the index's list of files");
    let (_, truth) = search(tmp.path(), &root, &["--limit", "500", "the"]);
    assert!(!truth.is_empty());
    for damage in [
        good[..good.len() / 2].to_vec(),
        good.iter().map(|b| b ^ 0x5a).collect(),
        Vec::new(),
    ] {
        std::fs::write(&list, &damage).expect("write");
        let out = ccv(tmp.path())
            .args(["search", "--json", "--limit", "500", "the"])
            .arg(&root)
            .output()
            .expect("runs");
        let hits: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(hits, truth);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("damaged"),
            "{out:?}"
        );
        ccv(tmp.path()).arg("index").arg(&root).assert().success();
        assert_eq!(
            search(tmp.path(), &root, &["--limit", "500", "the"]).1,
            truth
        );
        assert!(std::fs::read(&list).is_ok_and(|b| b.len() > 100));
    }
}

/// An index whose files were written by another hand (a byte of any of
/// them changed: its segments, which tantivy believes, and its list of
/// segments) is not believed: the files answer, as they would without it,
/// it is said, and no damaged length aborts the search (tantivy asked for
/// 4 PB for a store's damaged index); the next build makes it again.
#[test]
fn an_index_whose_files_were_changed_is_not_believed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    tree(&root);
    let dir = tmp
        .path()
        .join(format!("cache/ccv/search-v{}", ccv::search::index::VERSION));
    let (_, truth) = search(tmp.path(), &root, &["--limit", "500", "the"]);
    assert!(!truth.is_empty());
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    // a file of each kind: tantivy's list of segments, each part of one
    let of_kind = |kind: &str| -> std::path::PathBuf {
        let mut names: Vec<String> = fs::read_dir(&dir)
            .expect("the index")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n == kind || (n.len() == 32 + kind.len() && n.ends_with(kind)))
            .collect();
        names.sort();
        dir.join(names.first().unwrap_or_else(|| panic!("no {kind}")))
    };
    for kind in [
        "meta.json",
        ".idx",
        ".pos",
        ".term",
        ".store",
        ".fast",
        ".fieldnorm",
    ] {
        for at in [1, 2] {
            fs::remove_dir_all(&dir).expect("rm");
            ccv(tmp.path()).arg("index").arg(&root).assert().success();
            let file = of_kind(kind);
            let mut b = fs::read(&file).expect("read");
            // a byte in the middle of its data, then one in its end (a
            // footer, a store's index of blocks, a list's last number)
            let i = if at == 1 {
                b.len() / 2
            } else {
                b.len().saturating_sub(40)
            };
            b[i] ^= 0x21;
            fs::write(&file, &b).expect("write");
            let out = ccv(tmp.path())
                .args(["search", "--json", "--limit", "500", "the"])
                .arg(&root)
                .output()
                .expect("runs");
            let case = format!("{kind} byte {i}");
            assert_eq!(out.status.code(), Some(0), "{case}: {out:?}");
            let hits: Vec<Value> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| serde_json::from_str(l).expect("json"))
                .collect();
            assert_eq!(hits, truth, "{case}");
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(said.contains("damaged"), "{case}: {said}");
            ccv(tmp.path()).arg("index").arg(&root).assert().success();
            let out = ccv(tmp.path())
                .args(["search", "--json", "--limit", "500", "the"])
                .arg(&root)
                .output()
                .expect("runs");
            assert!(
                !String::from_utf8_lossy(&out.stderr).contains("damaged"),
                "{case}: rebuilt"
            );
        }
    }
}

/// Every file the index leaves in the cache is 0600 and every folder
/// 0700, those tantivy writes too (it creates them with the umask), after
/// a build and after an update, with the usual umask of 022.
#[cfg(unix)]
#[test]
fn the_index_leaves_only_private_files() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let index = || {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin!("ccv"));
        c.envs(common::sandbox(tmp.path()))
            .env("CCV_NO_BACKGROUND_INDEX", "1")
            .arg("index")
            .arg(&root);
        // SAFETY: umask is async-signal-safe and touches nothing else
        unsafe {
            c.pre_exec(|| {
                libc::umask(0o022);
                Ok(())
            });
        }
        assert!(c.status().expect("runs").success());
    };
    let check = |when: &str| {
        let mut dirs = vec![tmp.path().join("cache/ccv")];
        let mut files = 0;
        while let Some(d) = dirs.pop() {
            for e in fs::read_dir(&d).expect("read_dir").flatten() {
                let m = fs::symlink_metadata(e.path()).expect("stat");
                let mode = m.permissions().mode() & 0o777;
                if m.is_dir() {
                    assert_eq!(mode, 0o700, "{when}: {}", e.path().display());
                    dirs.push(e.path());
                } else {
                    assert_eq!(mode, 0o600, "{when}: {}", e.path().display());
                    files += 1;
                }
            }
        }
        assert!(files > 5, "{when}: the index's files were looked at");
    };
    index();
    check("built");
    let mut more = fs::OpenOptions::new()
        .append(true)
        .open(root.join("-srv-app/s1.jsonl"))
        .expect("open");
    std::io::Write::write_all(
        &mut more,
        line(user("z9", "2025-03-05T10:00:00Z", json!("zebraupdate"))).as_bytes(),
    )
    .expect("append");
    index();
    check("updated");
}

/// `ccv search --redact`: no part of a secret in a snippet or a title,
/// with or without the index, as text or JSON. The snippet is cut from
/// text already redacted: a word right after a key cut the key in two at
/// the snippet's edge, and the half left was found by no rule.
#[test]
fn a_search_redacted_shows_no_part_of_a_secret() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    fs::create_dir_all(root.join("-srv-app")).expect("mkdir");
    // a key made here: none sits in the repository
    let body: String = (0..93)
        .map(|i| (b'a' + (i * 11 % 26) as u8) as char)
        .collect();
    let key = format!("sk-ant-api03-{body}AA");
    let tail = &body[body.len() - 20..];
    let prompt = format!("{} {key} pineapple and more", "words before it ".repeat(8));
    let text = [
        line(user("u1", "2025-01-01T10:00:00.000Z", json!(prompt))),
        line(assistant(
            "a1",
            "2025-01-01T10:00:01.000Z",
            json!([{"type": "text", "text": format!("stored {key}; pineapple noted")}]),
        )),
    ]
    .concat();
    fs::write(root.join("-srv-app/s1.jsonl"), text).expect("write");
    let (code, plain) = search(home.path(), &root, &["pineapple"]);
    assert_eq!(code, 0);
    assert!(
        plain.iter().any(|h| h.to_string().contains(tail)),
        "{plain:?}"
    );
    for round in ["scan", "index"] {
        if round == "index" {
            let out = ccv(home.path())
                .arg("index")
                .arg(&root)
                .output()
                .expect("index");
            assert!(out.status.success(), "{out:?}");
        }
        let (code, hits) = search(home.path(), &root, &["--redact", "pineapple"]);
        assert_eq!((code, hits.len()), (0, 2), "{round}: {hits:?}");
        for h in &hits {
            let all = h.to_string();
            assert!(!all.contains(tail), "{round}: {all}");
            assert!(!all.contains(&body[..20]), "{round}: {all}");
            assert!(all.contains("pineapple"), "{round}: {all}");
        }
        assert!(
            hits[0]["title"]
                .as_str()
                .is_some_and(|t| t.contains("[REDACTED"))
        );
        let out = ccv(home.path())
            .args(["search", "--redact", "pineapple"])
            .arg(&root)
            .output()
            .expect("runs");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(
            !printed.contains(tail) && printed.contains("[REDACTED"),
            "{round}: {printed}"
        );
    }
}

/// A word of 100 bytes or more (a hash, an encoded blob) is listed by the
/// index by its head: a query that starts it, or is it whole, finds what a
/// search without the index finds (it was left out, and a hash's head
/// found nothing once the index was made).
#[test]
fn the_index_answers_the_head_of_a_long_word_as_the_files_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("projects");
    let dir = root.join("-srv-long");
    std::fs::create_dir_all(&dir).expect("dir");
    let hash: String = (0..160)
        .map(|i| char::from(b"0123456789abcdef"[(i * 7 + i / 5) % 16]))
        .collect();
    let upper = format!("Sha{}", hash.to_uppercase());
    let texts = [
        format!("digest {hash} done"),
        format!("blob {upper}_tail, then more"),
        format!("{}{}", "é".repeat(60), "ü".repeat(60)),
    ];
    let mut text = String::new();
    for (i, t) in texts.iter().enumerate() {
        let at = format!("2025-03-03T10:00:{i:02}.000Z");
        let e = match i {
            0 => entry::text_answer(&format!("a{i}"), &format!("m{i}"), t),
            _ => entry::result(&format!("r{i}"), &format!("t{i}"), t.as_str()),
        };
        text.push_str(&line(e.session("s").cwd("/srv/long").at(&at).json()));
    }
    std::fs::write(dir.join("s.jsonl"), text).expect("write");
    let asks: Vec<String> = vec![
        hash[..12].to_owned(),
        hash[..90].to_owned(),
        hash.clone(),
        format!("{hash} done"),
        format!("sha{}", &hash[..70]),
        upper.to_lowercase(),
        format!("{}_tail", upper),
        "é".repeat(40),
        format!("{}{}", "é".repeat(60), "ü".repeat(10)),
    ];
    let files: Vec<_> = asks
        .iter()
        .map(|q| search(tmp.path(), &root, &["--limit", "50", q]))
        .collect();
    ccv(tmp.path()).arg("index").arg(&root).assert().success();
    for (q, (code, files)) in asks.iter().zip(files) {
        assert_eq!(code, 0, "{q}: found without the index");
        let (_, indexed) = search(tmp.path(), &root, &["--limit", "50", q]);
        assert_eq!(indexed, files, "{q}");
    }
}
