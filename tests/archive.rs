//! `ccv export --all DIR ROOT`: every session of a tree as a static site,
//! through the binary. Every session has a page and an index entry, every
//! link resolves, a second run touches only what changed, gone sessions
//! lose their pages, and nothing is written into the projects folder.

use crate::common::{self, jsonl};
use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

fn write(path: &Path, lines: &[String]) {
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    std::fs::write(path, lines.join("\n") + "\n").expect("write");
}

/// Three projects: a session with a subagent, sessions over two days, a
/// file of summary lines only (no session).
fn tree(root: &Path) -> Vec<PathBuf> {
    let with_cwd = |l: String, cwd: &str| {
        let mut v: serde_json::Value = serde_json::from_str(&l).expect("json");
        v["cwd"] = json!(cwd);
        v.to_string()
    };
    let a = root.join("-srv-app/aaaaaaaa-0000-4000-8000-000000000001.jsonl");
    write(
        &a,
        &[
            with_cwd(
                jsonl::line("user", "u1", "", 1, jsonl::user("Fix the parser")),
                "/srv/app",
            ),
            jsonl::line(
                "assistant",
                "a1",
                "u1",
                2,
                jsonl::assistant(
                    "m1",
                    json!([{"type":"tool_use","id":"toolu_task","name":"Task","input":{"description":"look","subagent_type":"general-purpose","prompt":"Find the bug"}}]),
                ),
            ),
            jsonl::line(
                "user",
                "r1",
                "a1",
                3,
                jsonl::result("toolu_task", "Found it"),
            ),
            jsonl::line("user", "u2", "r1", 4, jsonl::user("Now test it")),
            jsonl::line(
                "assistant",
                "a2",
                "u2",
                5,
                jsonl::assistant("m2", jsonl::text("Done.")),
            ),
        ],
    );
    let sub = root.join("-srv-app/aaaaaaaa-0000-4000-8000-000000000001/subagents/agent-abc.jsonl");
    write(
        &sub,
        &[
            json!({"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"agentId":"abc","sessionId":"aaaaaaaa-0000-4000-8000-000000000001","timestamp":"2025-06-01T10:02:10Z","message":{"role":"user","content":"Find the bug"}}).to_string(),
            json!({"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"agentId":"abc","sessionId":"aaaaaaaa-0000-4000-8000-000000000001","timestamp":"2025-06-01T10:02:20Z","message":{"id":"ms","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"It is in lexer.rs"}]}}).to_string(),
        ],
    );
    let b = root.join("-srv-app/bbbbbbbb-0000-4000-8000-000000000002.jsonl");
    write(
        &b,
        &[
            with_cwd(
                jsonl::line("user", "u1", "", 1, jsonl::user("Add a flag")),
                "/srv/app",
            ),
            jsonl::line(
                "assistant",
                "a1",
                "u1",
                2,
                jsonl::assistant("m1", jsonl::text("Added.")),
            ),
        ],
    );
    let c = root.join("-srv-web/cccccccc-0000-4000-8000-000000000003.jsonl");
    write(
        &c,
        &[
            with_cwd(
                jsonl::line("user", "u1", "", 1, jsonl::user("Deploy the site")),
                "/srv/web",
            ),
            jsonl::line(
                "assistant",
                "a1",
                "u1",
                2,
                jsonl::assistant("m1", jsonl::text("Deployed.")),
            ),
        ],
    );
    let d = root.join("-srv-docs/dddddddd-0000-4000-8000-000000000004.jsonl");
    write(
        &d,
        &[r#"{"type":"summary","summary":"Another session","leafUuid":"x"}"#.to_owned()],
    );
    vec![a, b, c]
}

/// `ccv export --all DIR ROOT`, whatever it says.
fn archive_run(home: &Path, dir: &Path, root: &Path, extra: &[&str]) -> std::process::Output {
    common::ccv_at(home)
        .arg("export")
        .arg("--all")
        .arg(dir)
        .args(extra)
        .arg(root)
        .output()
        .expect("run ccv")
}

fn archive(home: &Path, dir: &Path, root: &Path, extra: &[&str]) -> std::process::Output {
    let out = archive_run(home, dir, root, extra);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Every `.html` file under `dir`, relative, with its text.
fn pages(dir: &Path) -> BTreeMap<String, String> {
    common::files_under(dir, "html")
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(dir)
                .expect("under")
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read_to_string(&p).expect("read"))
        })
        .collect()
}

fn ids(html: &str) -> HashSet<String> {
    let re = regex::Regex::new(r#"\sid="([^"]+)""#).expect("re");
    re.captures_iter(html).map(|c| c[1].to_owned()).collect()
}

/// Every `href` of every page names a page that exists, and an anchor
/// that page holds.
fn assert_links_resolve(dir: &Path) {
    let all = pages(dir);
    let href = regex::Regex::new(r#"href="([^"]*)""#).expect("re");
    for (name, html) in &all {
        let here = Path::new(name).parent().unwrap_or(Path::new(""));
        for c in href.captures_iter(html) {
            let link = c[1].replace("&amp;", "&");
            let (file, anchor) = match link.split_once('#') {
                Some((f, a)) => (f.to_owned(), Some(a.to_owned())),
                None => (link.clone(), None),
            };
            let target = if file.is_empty() {
                name.clone()
            } else {
                let p = here.join(&file);
                // `..` out of a project folder
                let mut parts: Vec<String> = Vec::new();
                for comp in p.components() {
                    match comp {
                        std::path::Component::ParentDir => {
                            parts.pop();
                        }
                        std::path::Component::Normal(x) => parts.push(x.to_string_lossy().into()),
                        _ => {}
                    }
                }
                parts.join("/")
            };
            let Some(page) = all.get(&target) else {
                panic!("{name}: {link} names {target}, which is not in the archive");
            };
            if let Some(a) = anchor {
                assert!(
                    ids(page).contains(&a),
                    "{name}: {link}: no #{a} in {target}"
                );
            }
        }
    }
}

fn mtimes(dir: &Path) -> BTreeMap<String, std::time::SystemTime> {
    pages(dir)
        .keys()
        .map(|k| {
            let m = std::fs::metadata(dir.join(k))
                .expect("meta")
                .modified()
                .expect("mtime");
            (k.clone(), m)
        })
        .collect()
}

#[test]
fn every_session_has_a_page_and_every_link_resolves() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    let sessions = tree(&root);
    let dir = home.path().join("site");
    let out = archive(home.path(), &dir, &root, &[]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("3 sessions: 3 pages made"), "{said}");
    let all = pages(&dir);
    let index = &all["index.html"];
    for s in &sessions {
        let id = s.file_stem().expect("stem").to_string_lossy();
        let page = all
            .keys()
            .find(|k| k.ends_with(&format!("{id}.html")))
            .unwrap_or_else(|| panic!("no page for {id}: {:?}", all.keys()));
        assert!(
            index.contains(&format!("href=\"{page}\"")),
            "{page} not in the index"
        );
    }
    assert!(
        !all.keys().any(|k| k.contains("dddddddd")),
        "a summary file is no session"
    );
    assert!(index.contains("Fix the parser") && index.contains("Deploy the site"));
    assert!(index.contains("per day (UTC)"));
    // a project page per project, linked from the index
    for p in ["srv-app/index.html", "srv-web/index.html"] {
        assert!(all.contains_key(p), "{:?}", all.keys());
        assert!(index.contains(&format!("href=\"{p}\"")));
    }
    // the session page: links up, a table of contents, the call and its
    // subagent linked both ways, lines as `ccv FILE:LINE`
    let a = all
        .iter()
        .find(|(k, _)| k.contains("aaaaaaaa"))
        .map(|(_, v)| v)
        .expect("page a");
    assert!(a.contains("href=\"../index.html\"") && a.contains("href=\"index.html\""));
    assert!(
        a.contains("href=\"#prompt-1\"") && a.contains("href=\"#prompt-2\""),
        "{a}"
    );
    assert!(a.contains("href=\"#agent-abc\"") && a.contains("href=\"#call-toolu_task\""));
    assert!(a.contains("title=\"ccv "), "line references");
    // the script, allowed by its hash and nothing else
    assert!(a.contains("<script>"));
    let csp = a
        .split("Content-Security-Policy\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a policy");
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'sha256-"),
        "{csp}"
    );
    assert_links_resolve(&dir);
    // nothing was written where the sessions are
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir").flatten() {
            let p = e.path();
            assert!(
                p.extension().is_none_or(|x| x != "html" && x != "json"),
                "{}",
                p.display()
            );
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    // without the script the page is whole and has none
    let plain = home.path().join("plain");
    archive(home.path(), &plain, &root, &["--no-script"]);
    for (k, v) in pages(&plain) {
        assert!(!v.contains("<script"), "{k}");
    }
    assert_links_resolve(&plain);
}

#[test]
fn a_second_run_touches_only_what_changed() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    let sessions = tree(&root);
    let dir = home.path().join("site");
    archive(home.path(), &dir, &root, &[]);
    let before = mtimes(&dir);
    // nothing changed: nothing written
    let out = archive(home.path(), &dir, &root, &[]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("0 pages made, 3 kept, 0 removed, 0 index pages written"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mtimes(&dir), before);
    // one session grows: its page, its project's page and the index
    std::thread::sleep(std::time::Duration::from_millis(20));
    let grown = &sessions[2];
    let mut text = std::fs::read_to_string(grown).expect("read");
    text.push_str(&(jsonl::line("user", "u9", "a1", 9, jsonl::user("And the docs")) + "\n"));
    std::fs::write(grown, text).expect("append");
    archive(home.path(), &dir, &root, &[]);
    let after = mtimes(&dir);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(k, m)| before.get(*k) != Some(m))
        .map(|(k, _)| k)
        .collect();
    let id = grown
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    let mut want = vec![
        "index.html".to_owned(),
        "srv-web/index.html".to_owned(),
        format!("srv-web/{id}.html"),
    ];
    want.sort();
    let mut got: Vec<String> = changed.into_iter().cloned().collect();
    got.sort();
    assert_eq!(got, want);
    assert!(pages(&dir)[&format!("srv-web/{id}.html")].contains("And the docs"));
    // a Workflow run's agent comes, the session's own file as it was: its
    // page is made again
    let first = &sessions[0];
    let run = first.with_extension("").join("subagents/workflows/wf_1");
    let agent = jsonl::line("user", "w1", "", 3, jsonl::user("Sweep the docs tree"));
    write(&run.join("agent-w1.jsonl"), &[agent]);
    archive(home.path(), &dir, &root, &[]);
    let id = first.file_stem().expect("stem").to_string_lossy();
    let page = &pages(&dir)[&format!("srv-app/{id}.html")];
    assert!(page.contains("Sweep the docs tree"), "{page}");
    // a session deleted: its page goes, the index forgets it
    std::fs::remove_file(&sessions[1]).expect("rm");
    let out = archive(home.path(), &dir, &root, &[]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 removed"));
    let all = pages(&dir);
    assert!(
        !all.keys().any(|k| k.contains("bbbbbbbb")),
        "{:?}",
        all.keys()
    );
    assert!(!all["index.html"].contains("Add a flag"));
    assert_links_resolve(&dir);
}

/// An archive's manifest whose figures were changed (a byte of a cost, a
/// count) is not believed: its pages are made again and the index sums
/// what the sessions hold (a cost damaged from 0.0… into 9.0… was
/// summed into the index as it read).
#[test]
fn a_manifest_changed_by_another_hand_is_not_believed() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    tree(&root);
    let dir = home.path().join("site");
    archive(home.path(), &dir, &root, &[]);
    let index = pages(&dir)["index.html"].clone();
    let manifest = dir.join(".ccv-archive.json");
    let good = std::fs::read_to_string(&manifest).expect("manifest");
    let at = good.find("\"usd\":").expect("a cost") + "\"usd\":".len();
    let mut bad = good.clone();
    bad.replace_range(at..at + 1, "9");
    assert_ne!(bad, good);
    for damaged in [bad, good.replacen("\"prompts\":", "\"prompts\":7", 1)] {
        std::fs::write(&manifest, &damaged).expect("write");
        let out = archive(home.path(), &dir, &root, &[]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("3 pages made, 0 kept"), "{said}");
        assert_eq!(pages(&dir)["index.html"], index);
    }
}

/// A project folder of the archive that is a link (planted, or left by
/// something else) is not ccv's: no page is written, replaced or removed
/// through it, and the run says so.
#[cfg(unix)]
/// A run that failed, saying `says`, and left `dir` holding only its
/// `index.html`, of the text `page`.
fn refused_leaving(out: &std::process::Output, says: &str, dir: &Path, page: &str) {
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(says), "{err}");
    let left: Vec<_> = std::fs::read_dir(dir)
        .expect("read")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, ["index.html"], "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("index.html")).expect("page"),
        page
    );
}

#[test]
fn a_project_folder_that_is_a_link_is_not_written_through() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    let sessions = tree(&root);
    let site = home.path().join("site");
    let elsewhere = home.path().join("elsewhere");
    std::fs::create_dir_all(&site).expect("site");
    std::fs::create_dir_all(&elsewhere).expect("elsewhere");
    std::fs::write(elsewhere.join("index.html"), "precious").expect("victim");
    // an archive of ccv's, whose project folder is then a link
    archive(home.path(), &site, &root, &[]);
    std::fs::remove_dir_all(site.join("srv-app")).expect("project folder");
    std::os::unix::fs::symlink(&elsewhere, site.join("srv-app")).expect("link");
    let out = archive_run(home.path(), &site, &root, &[]);
    refused_leaving(&out, "is a link", &elsewhere, "precious");
    // pages of a session gone are not removed through a link either
    std::fs::remove_file(site.join("srv-app")).expect("unlink");
    archive(home.path(), &site, &root, &[]);
    let moved = home.path().join("moved");
    std::fs::rename(site.join("srv-app"), &moved).expect("move");
    std::os::unix::fs::symlink(&moved, site.join("srv-app")).expect("link");
    std::fs::remove_file(&sessions[1]).expect("session b gone");
    archive_run(home.path(), &site, &root, &[]);
    assert!(
        moved
            .join("bbbbbbbb-0000-4000-8000-000000000002.html")
            .exists(),
        "a page was removed through a link"
    );
}

/// A folder of other files (a site of the user's own) is refused before
/// anything is written; a new or empty folder, or an archive of ccv's, is
/// written.
#[test]
fn a_folder_that_is_no_archive_of_ccvs_is_not_written() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    tree(&root);
    let mine = home.path().join("mine");
    std::fs::create_dir_all(&mine).expect("mine");
    std::fs::write(mine.join("index.html"), "my own page").expect("page");
    let out = archive_run(home.path(), &mine, &root, &[]);
    refused_leaving(&out, "not an archive of ccv's", &mine, "my own page");
    let file = home.path().join("a-file");
    std::fs::write(&file, "x").expect("file");
    let out = archive_run(home.path(), &file, &root, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a directory"), "{err}");
    let empty = home.path().join("empty");
    std::fs::create_dir_all(&empty).expect("empty");
    archive(home.path(), &empty, &root, &[]);
    archive(home.path(), &empty, &root, &[]);
    // a repository made for the archive, or a folder a file browser
    // opened: its hidden entries are not ccv's to replace, nor in its way
    let repo = home.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("repo");
    std::fs::write(repo.join(".DS_Store"), "x").expect("ds store");
    archive(home.path(), &repo, &root, &[]);
    assert!(repo.join("index.html").is_file() && repo.join(".git").is_dir());
    archive(home.path(), &home.path().join("new/site"), &root, &[]);
}

#[test]
fn the_archive_is_never_written_into_the_projects_folder() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    tree(&root);
    let inside = root.join("site");
    let out = archive_run(home.path(), &inside, &root, &[]);
    assert!(!out.status.success());
    assert!(!inside.join("index.html").exists());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("never writes there"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_redacted_archive_holds_no_secret() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    let sessions = tree(&root);
    let key = common::planted::planted()
        .into_iter()
        .find(|p| p.what == "github pat")
        .expect("a github token")
        .secret;
    let mut text = std::fs::read_to_string(&sessions[1]).expect("read");
    text.push_str(&(jsonl::line("user", "u9", "a1", 9, jsonl::user(&format!("use {key}"))) + "\n"));
    std::fs::write(&sessions[1], text).expect("write");
    let dir = home.path().join("site");
    archive(home.path(), &dir, &root, &["--redact"]);
    for (k, v) in pages(&dir) {
        assert!(!v.contains(&key), "{k} holds the key");
    }
    assert!(pages(&dir).values().any(|v| v.contains("[REDACTED:")));
}

/// A page redacted by a redactor that replaces less (here, before a
/// pattern was added to the config; as well, an older ccv) is made again
/// on the next run: kept, it held what the redactor now replaces.
#[test]
fn a_redacted_archive_is_made_again_when_the_redactor_changes() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    let sessions = tree(&root);
    let mut text = std::fs::read_to_string(&sessions[1]).expect("read");
    text.push_str(&(jsonl::line("user", "u9", "a1", 9, jsonl::user("ask corp-4242 now")) + "\n"));
    std::fs::write(&sessions[1], text).expect("write");
    let dir = home.path().join("site");
    archive(home.path(), &dir, &root, &["--redact"]);
    assert!(pages(&dir).values().any(|v| v.contains("corp-4242")));
    let config = home.path().join("config/ccv/config.toml");
    std::fs::create_dir_all(config.parent().expect("dir")).expect("mkdir");
    std::fs::write(&config, "[redact]\nticket = \"corp-[0-9]{4}\"\n").expect("config");
    archive(home.path(), &dir, &root, &["--redact"]);
    for (k, v) in pages(&dir) {
        assert!(!v.contains("corp-4242"), "{k} was kept");
    }
    assert!(
        pages(&dir)
            .values()
            .any(|v| v.contains("[REDACTED:ticket]"))
    );
}

/// Chromium, headless, with background networking off and every host name
/// unresolvable; `None` when it is not installed.
fn chromium() -> Option<PathBuf> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
    })
}

/// Loads `page` in headless Chromium: the DOM after scripts ran, and the
/// URLs the page asked the network for (from Chromium's net log; the
/// browser's own requests, whose initiator is "not an origin", left out).
fn render(browser: &Path, page: &Path, work: &Path) -> (String, Vec<String>) {
    let log = work.join("net.json");
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!(
            "--user-data-dir={}",
            work.join("profile").display()
        ))
        .arg(format!("--log-net-log={}", log.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let net: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&log).expect("net log")).expect("net log json");
    let start = net["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].clone();
    let asked = net["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == start)
        .filter(|e| e["params"]["initiator"] != "not an origin")
        .filter_map(|e| e["params"]["url"].as_str())
        .filter(|u| !u.starts_with("file:") && !u.starts_with("data:"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), asked)
}

#[test]
fn chromium_renders_the_index_and_a_page_with_no_request_leaving() {
    let Some(browser) = chromium() else {
        eprintln!("skipping: no chromium on PATH");
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    tree(&root);
    let dir = home.path().join("site");
    archive(home.path(), &dir, &root, &[]);
    let all = pages(&dir);
    let session = all
        .keys()
        .find(|k| k.contains("aaaaaaaa"))
        .expect("page a")
        .clone();
    // the check itself: a page that does ask the network is caught
    let control = home.path().join("control.html");
    std::fs::write(
        &control,
        "<!doctype html><img src=\"http://ccv-test.invalid/x.png\">",
    )
    .expect("write");
    let (_, asked) = render(&browser, &control, &home.path().join("c"));
    assert!(
        asked.iter().any(|u| u.contains("ccv-test.invalid")),
        "the net log shows page requests: {asked:?}"
    );
    for (n, page) in ["index.html", session.as_str()].iter().enumerate() {
        let (dom, asked) = render(&browser, &dir.join(page), &home.path().join(n.to_string()));
        assert!(asked.is_empty(), "{page} asked for {asked:?}");
        assert!(dom.contains("Fix the parser"), "{page}: {dom}");
        if n == 1 {
            // the inline script ran (its hash is in the policy): it shows
            // the bar it hides without script
            assert!(dom.contains("<div id=\"tools\">"), "{dom}");
            assert!(dom.contains("href=\"#prompt-1\""));
        }
    }
}
