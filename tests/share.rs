//! Issue 16: the HTML page holds hostile content as text; every secret
//! kind is redacted in text, markdown, JSON and HTML exports and in copies;
//! a redacted export of a real session differs from the plain one only by
//! the counted redactions.

use crate::common;

use ccv::export::{Format, Options};
use common::{assistant_line, session_of, user_line};
use serde_json::json;

fn export(s: &ccv::model::Session, format: Format, redact: bool) -> (String, usize) {
    let _ = ccv::redact::take_counts();
    let mut out = Vec::new();
    let opts = Options {
        format,
        redact,
        ..Options::default()
    };
    if format == Format::Html {
        ccv::html::write(s, &opts, ccv::walk::Filters::all(), &mut out).expect("export");
    } else {
        ccv::export::export(s, &opts, &mut out).expect("export");
    }
    let n = ccv::redact::take_counts().values().sum();
    (String::from_utf8(out).expect("utf-8"), n)
}

const HOSTILE: &str = "<script>alert(1)</script> </details></div><img src=x onerror=alert(2)> \" ' & [click](javascript:alert(3)) <a href=\"javascript:alert(4)\">a</a>";

fn hostile_session() -> ccv::model::Session {
    session_of(&[
        json!({"type": "custom-title", "customTitle": "<script>alert('title')</script>", "sessionId": "s"}),
        user_line("u1", json!(HOSTILE)),
        assistant_line(
            "a1",
            "m1",
            json!([
                {"type": "text", "text": HOSTILE},
                {"type": "tool_use", "id": "t1", "name": "Bash</summary><script>", "input": {"command": HOSTILE, "description": "\"><script>x</script>"}},
            ]),
        ),
        user_line(
            "u2",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": format!("{HOSTILE}\n\u{1b}]0;title\u{7}\u{1b}[31mred")}]),
        ),
        assistant_line(
            "a2",
            "m2",
            json!([{"type": "tool_use", "id": "t2", "name": "Write", "input": {"file_path": "/x/a\".html", "content": format!("```\n{HOSTILE}\n```")}}]),
        ),
        // a model of no price is named in the page's cost (`1 unpriced
        // (…)`), the directory and the branch in its head
        {
            let mut a = assistant_line("a3", "m3", json!([{"type": "text", "text": "done"}]));
            a["message"]["model"] = json!(format!("m{HOSTILE}"));
            a["message"]["usage"] = json!({"input_tokens": 10, "output_tokens": 5});
            a["cwd"] = json!(HOSTILE);
            a["gitBranch"] = json!(HOSTILE);
            a
        },
    ])
}

#[test]
fn the_page_keeps_hostile_content_as_text() {
    let (page, _) = export(&hostile_session(), Format::Html, false);
    let lower = page.to_ascii_lowercase();
    // no script at all, and none can run: the policy forbids it
    assert!(!lower.contains("<script"), "{page}");
    assert!(lower.contains("content-security-policy"));
    assert!(lower.contains("default-src 'none'"));
    // every tag on the page is one ccv writes: no event handler, no
    // script URL, no image from outside
    let tag = regex::Regex::new(r"<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>").expect("regex");
    let allowed = [
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "header",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "dl",
        "dt",
        "dd",
        "main",
        "footer",
        "details",
        "summary",
        "span",
        "div",
        "time",
        "b",
        "code",
        "pre",
        "p",
        "em",
        "strong",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "ul",
        "ol",
        "li",
        "a",
        "blockquote",
        "del",
        "input",
        "hr",
        "br",
        "img",
        // the page's own: links up, the table of contents
        "nav",
    ];
    for c in tag.captures_iter(&page) {
        let (name, attrs) = (c[1].to_ascii_lowercase(), c[2].to_ascii_lowercase());
        assert!(allowed.contains(&name.as_str()), "<{name}{attrs}>");
        assert!(!attrs.contains(" on"), "<{name}{attrs}>");
        assert!(!attrs.contains("javascript:"), "<{name}{attrs}>");
        if name == "img" {
            assert!(attrs.contains("src=\"data:image/"), "<{name}{attrs}>");
        }
    }
    assert!(page.contains("&lt;script&gt;"));
    assert!(!page.contains('\u{1b}'), "an escape reached the page");
    // every element the page opens, it closes: nothing of the session
    // closed one of them
    for tag in ["details", "div", "pre", "summary"] {
        let open = page.matches(&format!("<{tag}")).count();
        let close = page.matches(&format!("</{tag}>")).count();
        assert_eq!(open, close, "<{tag}>: {open} opened, {close} closed");
    }
    assert!(page.contains("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; — ccv</title>"));
}

/// Secrets of several providers, made when the test runs (see
/// `common::planted`): each sits in a prompt, a tool's input or its output.
fn secrets() -> Vec<(String, String)> {
    planted().into_iter().map(|p| (p.what, p.secret)).collect()
}

fn planted() -> Vec<common::planted::Planted> {
    common::planted::planted().into_iter().take(16).collect()
}

fn secret_session() -> ccv::model::Session {
    let mut lines = Vec::new();
    for (i, p) in planted().iter().enumerate() {
        let secret = &p.line;
        let where_ = i % 3;
        let id = format!("t{i}");
        match where_ {
            0 => lines.push(user_line(
                &format!("u{i}"),
                json!(format!("use {secret} please")),
            )),
            1 => {
                lines.push(assistant_line(
                    &format!("a{i}"),
                    &format!("m{i}"),
                    json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("curl -H 'X-Key: {secret}' https://api.example.com")}}]),
                ));
                lines.push(user_line(
                    &format!("r{i}"),
                    json!([{"type": "tool_result", "tool_use_id": id, "content": "ok"}]),
                ));
            }
            _ => {
                lines.push(assistant_line(
                    &format!("a{i}"),
                    &format!("m{i}"),
                    json!([{"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": "/app/.env"}}]),
                ));
                lines.push(user_line(
                    &format!("r{i}"),
                    json!([{"type": "tool_result", "tool_use_id": id, "content": format!("KEY={secret}\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA{}\n-----END OPENSSH PRIVATE KEY-----\npassword=Sup3r$ecretValue!\npostgres://admin:hunter2secret@db/app\nAuthorization: Bearer {}", "Qm9yZW1hc3Rlcg".repeat(5), "Zq8xW2mN5vB7cR1tY4uI9oP3")}]),
                ));
            }
        }
    }
    session_of(&lines)
}

#[test]
fn every_kind_is_redacted_in_every_export() {
    let s = secret_session();
    for format in [Format::Text, Format::Markdown, Format::Json, Format::Html] {
        let (plain, _) = export(&s, format, false);
        let (red, n) = export(&s, format, true);
        for (kind, secret) in secrets() {
            assert!(
                plain.contains(&secret),
                "{format:?}: {kind} is not in the plain export"
            );
            assert!(!red.contains(&secret), "{format:?}: {kind} leaked");
        }
        for kind in [
            "private-key",
            "secret-assignment",
            "url-credentials",
            "auth-header",
        ] {
            assert!(
                red.contains(&format!("[REDACTED:{kind}]")),
                "{format:?}: no {kind}"
            );
        }
        assert!(!red.contains("hunter2secret") && !red.contains("b3BlbnNzaC1rZXkt"));
        // the page names its title twice (<title> and <h1>): a marker there
        // shows twice for one redaction
        let markers = red.matches("[REDACTED:").count();
        if format == Format::Html {
            assert!(
                markers >= n && markers <= n + 1,
                "{markers} markers, {n} counted"
            );
        } else {
            assert_eq!(markers, n, "{format:?}: every one counted");
        }
        if format == Format::Json {
            for line in red.lines() {
                serde_json::from_str::<serde_json::Value>(line).expect("redacted JSON is JSON");
            }
        }
    }
}

#[test]
fn copies_are_redacted_when_asked() {
    if alone!(&[]) {
        return;
    }
    let s = secret_session();
    let scope = ccv::clipboard::CopyScope::Filtered {
        agent: None,
        filters: ccv::walk::Filters::all(),
    };
    let opts = Options {
        redact: true,
        ..Options::default()
    };
    let copy = ccv::clipboard::copy_text(&s, &scope, Format::Text, &opts);
    for (kind, secret) in secrets() {
        assert!(!copy.text.contains(&secret), "{kind} leaked into a copy");
    }
    // in the viewer: `#` turns it on for copies, and says so
    let mut st = common::utc_state(secret_session());
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    assert!(common::screen_text(&mut st, 120, 20).contains("copies and exports redacted"));
    ccv::app::perform_action(&mut st, ccv::app::Action::CopyAll);
    match st.requests.pop() {
        Some(ccv::app::state::Request::Copy(t)) => {
            assert!(!t.text.contains(&secrets()[0].1));
            assert!(t.text.contains("[REDACTED:"));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        st.redacted
            .as_deref()
            .is_some_and(|r| r.contains("redacted:"))
    );
    // again: the screen too, which reads the session again
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    assert_eq!(st.requests.pop(), Some(ccv::app::state::Request::Reload));
    ccv::redact::set_screen(false);
}

#[test]
fn screen_redaction_reads_lines_through_the_redactor() {
    if alone!(&[]) {
        return;
    }
    // the flag is read when a session is made; tests run in parallel, so
    // this one only checks what a session made with it holds
    ccv::redact::set_screen(true);
    let s = secret_session();
    ccv::redact::set_screen(false);
    let (text, _) = export(&s, Format::Text, false);
    for (kind, secret) in secrets() {
        assert!(!text.contains(&secret), "{kind} on screen");
    }
}

/// On real sessions: the redacted export is the plain one with some spans
/// replaced, one marker per counted redaction, and nothing else changed.
#[test]
fn a_redacted_corpus_export_changes_only_the_counted_spans() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut total = 0;
    for f in files {
        let s = ccv::model::Session::load(&f).expect("load");
        let (plain, _) = export(&s, Format::Text, false);
        let (red, n) = export(&s, Format::Text, true);
        total += n;
        let before = plain.matches("[REDACTED:").count();
        assert_eq!(
            red.matches("[REDACTED:").count() - before,
            n,
            "{}",
            f.display()
        );
        // the text between markers is in the plain export, in order
        let mut at = 0;
        let mut pieces = red.split("[REDACTED:").peekable();
        let first = pieces.next().unwrap_or("");
        assert!(plain.starts_with(first), "{}", f.display());
        at += first.len();
        for p in pieces {
            let rest = p.split_once(']').map_or("", |(_, r)| r);
            match plain[at..].find(rest) {
                Some(i) => at += i + rest.len(),
                None => panic!("{}: text changed around a redaction", f.display()),
            }
        }
        assert_eq!(at, plain.len(), "{}", f.display());
    }
    eprintln!("corpus: {total} redactions");
}

#[test]
fn the_cli_says_what_it_redacted_and_the_page_opens_in_a_browser() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = home.path().join("s.jsonl");
    let gh = common::planted::planted()
        .into_iter()
        .find(|p| p.what == "github pat")
        .expect("a github token")
        .secret;
    let line = user_line("u1", json!(format!("deploy with {gh}")));
    std::fs::write(&file, format!("{line}\n")).expect("write");
    let out = common::ccv_at(home.path())
        .args(["export", "--redact", "--format", "html"])
        .arg(&file)
        .output()
        .expect("run ccv");
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(page.contains("[REDACTED:github-token]") && !page.contains(&gh));
    let err = String::from_utf8_lossy(&out.stderr);
    // the page names it four times: the title (the first prompt) in the
    // window's title and atop the page, the table of contents and the
    // prompt; each is counted as shown
    assert!(err.contains("4 redacted: 4 github-token"), "{err}");
    assert_eq!(page.matches("[REDACTED:").count(), 4);
    // a headless Chromium, where there is one, draws it
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(chromium) = chromium else {
        eprintln!("skipping the browser check: no chromium here");
        return;
    };
    let html = home.path().join("page.html");
    std::fs::write(&html, &page).expect("write");
    let shot = home.path().join("page.png");
    // its crash reports and caches go to the test's home, not the machine's
    let status = std::process::Command::new(chromium)
        .envs(common::sandbox(home.path()))
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!(
            "--user-data-dir={}",
            home.path().join("profile").display()
        ))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=800,600")
        .arg(format!("file://{}", html.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("chromium runs");
    assert!(status.success());
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 2000);
}

#[test]
fn images_are_embedded_from_the_file_and_left_out_when_redacting() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("s.jsonl");
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    let lines = [
        user_line("u1", json!("before")),
        user_line(
            "u2",
            json!([{"type": "text", "text": "look"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}}]),
        ),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, text).expect("write");
    let s = ccv::model::Session::load(&file).expect("load");
    let (page, _) = export(&s, Format::Html, false);
    assert!(
        page.contains(&format!("src=\"data:image/png;base64,{png}\"")),
        "{page}"
    );
    let (red, _) = export(&s, Format::Html, true);
    assert!(!red.contains(png) && red.contains("left out: redacting"));
}

/// The page as a person reads it: a long output shows its first lines,
/// then the rest when opened (not all again); times are readable and say
/// their zone; big numbers have separators; a subagent's long prompt
/// wraps instead of running off the page.
#[test]
fn the_page_reads_well() {
    let out: Vec<String> = (1..=200).map(|i| format!("output line {i}")).collect();
    let prompt = "Investigate the flaky test ".repeat(40);
    let s = session_of(&[
        user_line("u1", json!("run it")),
        assistant_line(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"seq 200"}}]),
        ),
        json!({"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T10:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":out.join("\n")}]}}),
        assistant_line(
            "a2",
            "m2",
            json!([{"type":"tool_use","id":"t2","name":"Task","input":{"description":"look","subagent_type":"general-purpose","prompt":prompt}}]),
        ),
        json!({"type":"system","subtype":"compact_boundary","uuid":"c1","sessionId":"s","timestamp":"2025-01-01T10:00:05.000Z","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":152340}}),
    ]);
    let (page, _) = export(&s, Format::Html, false);
    assert_eq!(
        page.matches("output line 1<").count() + page.matches("output line 1\n").count(),
        1,
        "the first lines once"
    );
    assert!(page.contains("197 more lines"), "{page}");
    assert!(page.contains("output line 200"));
    assert!(page.contains("2025-01-01 10:00:00 UTC"), "a readable start");
    assert!(
        !page.contains("<dd>2025-01-01T"),
        "no raw ISO time in the header"
    );
    assert!(page.contains("152,340 tokens before"), "separators");
    assert!(
        page.contains("<pre class=\"code wrap\">"),
        "the Task input wraps"
    );
}
