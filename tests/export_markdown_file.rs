//! `e`: the filtered transcript to a new markdown file.

use ccv::clipboard::export_markdown_file;
use ccv::model::session::Session;
use ccv::walk::Filters;

const SESSION: &str = r#"{"type":"ai-title","aiTitle":"Fix the login bug","sessionId":"s1"}
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"Fix the bug"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"x"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s1","timestamp":"2025-01-01T10:00:02Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Done."}]}}
"#;

fn session(path: Option<std::path::PathBuf>) -> Session {
    let mut s = Session::new(path);
    s.feed(0, SESSION.as_bytes());
    s.finish(0);
    s
}

#[test]
fn writes_a_new_named_file_with_the_filtered_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let s = session(None);
    let keep = Filters {
        thinking: false,
        ..Filters::all()
    };
    let path = export_markdown_file(&s, keep, Some(dir.path()), false).expect("export");
    assert_eq!(path.parent(), Some(dir.path()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("ccv-fix-the-login-bug-") && name.ends_with(".md"),
        "{name}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        "# Fix the login bug\n\n- **Session:** s1\n- **Started:** 2025-01-01T10:00:00.000Z\n- **Last activity:** 2025-01-01T10:00:02.000Z\n\n## User\n\nFix the bug\n\n## Assistant\n\nDone.\n"
    );
    let again = export_markdown_file(&s, keep, Some(dir.path()), false).expect("second export");
    assert_ne!(again, path, "never overwrites");
}

#[test]
fn never_writes_in_the_sessions_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s1.jsonl");
    std::fs::write(&file, SESSION).unwrap();
    let s = session(Some(file));
    let path = export_markdown_file(&s, Filters::all(), Some(dir.path()), false).expect("export");
    assert!(
        !path.starts_with(dir.path().canonicalize().unwrap()) && !path.starts_with(dir.path()),
        "{}",
        path.display()
    );
    std::fs::remove_file(&path).unwrap();
}

/// The head of a markdown export (title, directory, branch) is text: a
/// prompt's HTML, emphasis or link renders as written, not as markup. A
/// secret in it is redacted before it is escaped (an escape inside it hid
/// it from its rule).
#[test]
fn the_head_of_a_markdown_export_is_text_not_markup() {
    let token = format!("ghp_{}", "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5");
    let line = crate::common::entry::user(
        "u1",
        serde_json::json!(format!(
            "<img src=x onerror=alert(1)> *em* **bold** [a](javascript:x) {token}"
        )),
    )
    .session("s")
    .cwd("/p/my_dir")
    .at("2025-01-01T10:00:00.000Z")
    .set("gitBranch", serde_json::json!("fix/*x*"))
    .json();
    let s = crate::common::session_of(&[line]);
    let head = ccv::export::title_block(&s, false);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(&head));
    for markup in ["<img", "<em>", "<a "] {
        assert!(!html.contains(markup), "{markup}: {html}");
    }
    // bold: the fields' names alone
    assert_eq!(html.matches("<strong>").count(), 5, "{html}");
    assert!(
        // (a title drops markdown's `**`: it names the session in words)
        html.contains("&lt;img src=x onerror=alert(1)&gt; *em* bold [a](javascript:x)"),
        "{html}"
    );
    assert!(
        html.contains("/p/my_dir") && html.contains("fix/*x*"),
        "{html}"
    );
    let red = ccv::export::title_block(&s, true);
    assert!(!red.contains(&token[4..20]), "{red}");
    assert!(red.contains("REDACTED"), "{red}");
}
