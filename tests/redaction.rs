//! Issue 36: secrets in the shapes real sessions hold them are redacted in
//! every export format, in copies, `e`, `:export` and on screen; look-alikes
//! are kept; recall on the planted set is measured.

use crate::common;
use ccv::export::{Format, Options};
use common::planted::{Planted, disguised, look_alikes, planted};
use common::{assistant_line, session_of, user_line};
use serde_json::json;

/// A session that holds `items` four ways each: in a prompt, in a Bash
/// call's command, in a file the Read tool showed (line numbers and all),
/// and as an answer.
fn session_with(items: &[Planted]) -> ccv::model::Session {
    session_of(&lines_with(items))
}

/// The lines of [`session_with`].
fn lines_with(items: &[Planted]) -> Vec<serde_json::Value> {
    let mut lines = Vec::new();
    for (i, it) in items.iter().enumerate() {
        lines.push(user_line(
            &format!("u{i}"),
            json!(format!("here: {}", it.line)),
        ));
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type": "tool_use", "id": format!("b{i}"), "name": "Bash",
                    "input": {"command": it.line, "description": "run it"}}]),
        ));
        lines.push(user_line(
            &format!("r{i}"),
            json!([{"type": "tool_result", "tool_use_id": format!("b{i}"), "content": "done"}]),
        ));
        let file: String = ["# config", it.line.as_str(), "DEBUG=true"]
            .iter()
            .flat_map(|l| l.split('\n'))
            .enumerate()
            .map(|(n, l)| format!("{:>6}→{l}\n", n + 14))
            .collect();
        lines.push(assistant_line(
            &format!("c{i}"),
            &format!("n{i}"),
            json!([{"type": "tool_use", "id": format!("t{i}"), "name": "Read",
                    "input": {"file_path": "/srv/app/.env"}}]),
        ));
        lines.push(user_line(
            &format!("s{i}"),
            json!([{"type": "tool_result", "tool_use_id": format!("t{i}"), "content": file}]),
        ));
        lines.push(assistant_line(
            &format!("d{i}"),
            &format!("o{i}"),
            json!([{"type": "text", "text": format!("I found `{}` in the file.", it.line)}]),
        ));
    }
    lines
}

fn export(s: &ccv::model::Session, format: Format, redact: bool) -> String {
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
    String::from_utf8(out).expect("utf-8")
}

/// What a reader sees of `text`: JSON strings decoded (for a JSON export),
/// escapes, entities and invisible characters as a screen or a page shows
/// them.
fn seen(text: &str, format: Format) -> String {
    let text = if format == Format::Json {
        text.lines()
            .map(|l| {
                let v: serde_json::Value =
                    serde_json::from_str(l).unwrap_or_else(|e| panic!("JSON line {e}: {l}"));
                strings_of(&v)
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        text.to_owned()
    };
    // twice: a page escapes `&` of an entity the session wrote
    let once = ccv::redact::shown::Shown::of(&text).text.into_owned();
    ccv::redact::shown::Shown::of(&once).text.into_owned()
}

fn strings_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(a) => a.iter().map(strings_of).collect::<Vec<_>>().join(" "),
        serde_json::Value::Object(m) => m
            .iter()
            .map(|(k, x)| format!("{k} {}", strings_of(x)))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

const FORMATS: [Format; 4] = [Format::Text, Format::Markdown, Format::Json, Format::Html];

#[test]
fn every_planted_secret_is_redacted_in_every_format() {
    let mut items = planted();
    items.extend(disguised());
    let s = session_with(&items);
    let mut missed = Vec::new();
    let mut checked = 0;
    for format in FORMATS {
        let plain = seen(&export(&s, format, false), format);
        let red = seen(&export(&s, format, true), format);
        for it in &items {
            assert!(
                plain.contains(&it.secret),
                "{format:?}: {} is not in the plain export",
                it.what
            );
            checked += 1;
            if let Some(at) = red.find(&it.secret) {
                let from = red.floor_char_boundary(at.saturating_sub(60));
                missed.push(format!("{format:?}: {} ({})", it.what, &red[from..at]));
            }
        }
        assert!(red.contains("[REDACTED:"));
    }
    let recall = 1.0 - missed.len() as f64 / checked as f64;
    eprintln!(
        "recall on the planted set: {:.1}% of {checked}",
        recall * 100.0
    );
    assert!(missed.is_empty(), "leaked: {missed:#?}");
}

/// A session read from its file: texts are read back from it, and a JSON
/// export copies most strings as they are written there (escapes and
/// all) and redacts them in place, so a secret next to an escaped quote
/// must go without breaking the JSON.
#[test]
fn every_planted_secret_is_redacted_in_the_exports_of_a_file() {
    let mut items = planted();
    items.extend(disguised());
    let home = tempfile::tempdir().expect("home");
    let file = home.path().join("s.jsonl");
    let text: String = lines_with(&items)
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, text).expect("session file");
    for (name, format) in [
        ("text", Format::Text),
        ("markdown", Format::Markdown),
        ("json", Format::Json),
        ("html", Format::Html),
    ] {
        let out = common::ccv_at(home.path())
            .args(["export", "--redact", "--format", name])
            .arg(&file)
            .output()
            .expect("ccv");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // what stderr counts is what the export shows
        let said: usize = String::from_utf8_lossy(&out.stderr)
            .lines()
            .find_map(|l| {
                l.strip_prefix("ccv: ")?
                    .split(" redacted")
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(0);
        let shown = String::from_utf8_lossy(&out.stdout)
            .matches("[REDACTED:")
            .count();
        assert_eq!(said, shown, "{name}: counted and shown");
        let red = seen(&String::from_utf8_lossy(&out.stdout), format);
        let missed: Vec<_> = items
            .iter()
            .filter(|it| red.contains(&it.secret))
            .map(|it| it.what.clone())
            .collect();
        assert!(missed.is_empty(), "{name}: leaked: {missed:#?}");
        assert!(red.contains("[REDACTED:"), "{name}");
    }
}

/// The page's table of contents shows the start of each prompt: a key cut
/// there before it was redacted lost the shape its rule knows, and its
/// head was left on the page. Redacted whole, then cut: no piece of it.
#[test]
fn a_key_cut_by_the_table_of_contents_leaves_no_piece() {
    for planted in planted() {
        if planted.secret.len() < 30 {
            continue;
        }
        // the key starts well inside the shown part and runs past its end
        let pad = "x".repeat(80);
        let prompt = format!("{pad} {}", planted.line);
        let s = session_of(&[user_line("u0", json!(prompt))]);
        let page = export(&s, Format::Html, true);
        let toc = page
            .split("<nav class=\"toc\">")
            .nth(1)
            .and_then(|t| t.split("</nav>").next())
            .unwrap_or_else(|| panic!("{}: no table of contents", planted.what));
        let key: Vec<char> = planted.secret.chars().collect();
        for piece in key.windows(12) {
            let piece: String = piece.iter().collect();
            assert!(
                !toc.contains(&piece),
                "{}: {piece} is in the contents: {toc}",
                planted.what
            );
        }
    }
}

#[test]
fn look_alikes_are_kept() {
    let alikes = look_alikes();
    let mut lines: Vec<serde_json::Value> = alikes
        .iter()
        .enumerate()
        .map(|(i, l)| user_line(&format!("u{i}"), json!(l)))
        .collect();
    // a screenshot's base64 is not a secret either
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    lines.push(user_line(
        "img",
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
               {"type": "text", "text": "what is this?"}]),
    ));
    let s = session_of(&lines);
    for format in [Format::Text, Format::Markdown, Format::Json] {
        let _ = ccv::redact::take_counts();
        let red = export(&s, format, true);
        let counts = ccv::redact::take_counts();
        assert!(counts.is_empty(), "{format:?}: {counts:?}\n{red}");
        let plain = export(&s, format, false);
        assert_eq!(red, plain, "{format:?}");
    }
}

#[test]
fn json_inputs_and_keys_are_redacted() {
    let pw = format!("{}{}", "tr0ub4dor", "&3xq");
    let key = format!("{}{}", "gh", "p_R8fK2mX9qL4wZ7nB3vC6tY1sD5hJ0gP2aE8u");
    let lines = [
        user_line("u1", json!("log in")),
        assistant_line(
            "a1",
            "m1",
            json!([{"type": "tool_use", "id": "t1", "name": "mcp__db__connect",
                    "input": {"user": "app", "password": pw, "options": {"api_key": "k-7Hq2Lx9Vm3Rt6Wp", key.clone(): true}}}]),
        ),
    ];
    let s = session_of(&lines);
    let red = export(&s, Format::Json, true);
    for l in red.lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
        let all = strings_of(&v);
        assert!(
            !all.contains(&pw) && !all.contains("k-7Hq2Lx9Vm3Rt6Wp") && !all.contains(&key),
            "{l}"
        );
    }
    assert!(red.contains("\"user\":\"app\""), "{red}");
}

#[test]
fn copies_e_and_export_are_redacted_after_hash() {
    if alone!(&[]) {
        return;
    }
    let items = planted();
    let s = session_with(&items);
    let mut st = common::utc_state(s);
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    // Y: the whole transcript
    ccv::app::perform_action(&mut st, ccv::app::Action::CopyAll);
    let Some(ccv::app::Request::Copy(t)) = st.requests.pop() else {
        panic!("no copy");
    };
    for it in &items {
        assert!(!t.text.contains(&it.secret), "Y: {}", it.what);
    }
    // :export (markdown, with its title block) and e
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("x.md");
    ccv::app::export_to::write(&st, &out, Format::Markdown, false).expect(":export");
    let page = std::fs::read_to_string(&out).expect("read");
    let e = ccv::clipboard::export_markdown_file(
        &st.session,
        ccv::walk::Filters::all(),
        Some(dir.path()),
        true,
    )
    .expect("e");
    let e_text = std::fs::read_to_string(&e).expect("read");
    for it in &items {
        assert!(!page.contains(&it.secret), ":export: {}", it.what);
        assert!(!e_text.contains(&it.secret), "e: {}", it.what);
    }
}

/// The viewer's `i` under the screen's redaction (`#` twice, pressed
/// while it shows): the title, project and branch it gives hold no
/// secret, and `#` again shows them as written.
#[test]
fn the_info_overlay_is_redacted_with_the_screen() {
    if alone!(&[]) {
        return;
    }
    let key = format!("{}{}", "gh", "p_Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gHjK2L");
    let lines = [
        json!({"type": "custom-title", "customTitle": format!("rotate {key}"), "sessionId": "s"}),
        json!({"type":"user","uuid":"u1","sessionId":"s","cwd":format!("/srv/{key}/app"),"gitBranch":format!("fix-{key}"),
               "timestamp":"2025-01-01T10:00:00.000Z","message":{"role":"user","content":"go"}}),
    ];
    let mut st = common::utc_state(session_of(&lines));
    let shown = |st: &ccv::app::State| {
        st.info
            .facts
            .iter()
            .map(|(l, t)| format!("{l} {t}\n"))
            .collect::<String>()
    };
    ccv::app::perform_action(&mut st, ccv::app::Action::Info);
    assert!(shown(&st).contains(&key), "as written first");
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    let red = shown(&st);
    assert!(!red.contains(&key), "{red}");
    assert!(red.contains("[REDACTED:github-token]"), "{red}");
    ccv::app::perform_action(&mut st, ccv::app::Action::ToggleRedact);
    assert!(shown(&st).contains(&key), "# again: as written");
}

#[test]
fn the_title_block_and_file_name_carry_no_secret() {
    let key = format!("{}{}", "gh", "p_Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gHjK2L");
    let lines = [
        json!({"type": "custom-title", "customTitle": format!("rotate {key}"), "sessionId": "s"}),
        json!({"type":"user","uuid":"u1","sessionId":"s","cwd":format!("/srv/{key}/app"),"gitBranch":format!("fix-{key}"),
               "timestamp":"2025-01-01T10:00:00.000Z","message":{"role":"user","content":"go"}}),
    ];
    let s = session_of(&lines);
    let md = export(&s, Format::Markdown, true);
    assert!(!md.contains(&key), "{md}");
    let page = export(&s, Format::Html, true);
    assert!(!page.contains(&key));
    let dir = tempfile::tempdir().expect("tempdir");
    let e =
        ccv::clipboard::export_markdown_file(&s, ccv::walk::Filters::all(), Some(dir.path()), true)
            .expect("e");
    let name = e.file_name().expect("name").to_string_lossy().into_owned();
    assert!(
        !name.to_lowercase().contains(&key.to_lowercase()[4..]),
        "{name}"
    );
    assert!(!std::fs::read_to_string(&e).expect("read").contains(&key));
}

#[test]
fn on_screen_after_the_second_hash() {
    if alone!(&[]) {
        return;
    }
    let mut items = planted();
    items.extend(disguised());
    ccv::redact::set_screen(true);
    let s = session_with(&items);
    ccv::redact::set_screen(false);
    let mut st = common::utc_state(s);
    ccv::app::perform_action(&mut st, ccv::app::Action::ExpandAll);
    ccv::app::perform_action(&mut st, ccv::app::Action::Top);
    let mut screen = String::new();
    for _ in 0..200 {
        screen.push_str(&common::screen_text(&mut st, 200, 60));
        ccv::app::perform_action(&mut st, ccv::app::Action::PageDown);
    }
    let screen = seen(&screen, Format::Text);
    for it in &items {
        // a private key's body is cut over lines on screen: its first line
        let probe: String = it.secret.chars().take(40).collect();
        assert!(!screen.contains(&probe), "on screen: {}", it.what);
    }
    assert!(screen.contains("[REDACTED:"));
}

#[test]
fn a_copy_of_a_redacted_screen_says_what_it_holds_redacted() {
    if alone!(&[]) {
        return;
    }
    let items = planted();
    ccv::redact::set_screen(true);
    let s = session_with(&items);
    let mut st = common::utc_state(s);
    st.settings.redact = ccv::viewer::state::Redaction::Screen;
    ccv::app::perform_action(&mut st, ccv::app::Action::CopyAll);
    ccv::redact::set_screen(false);
    // the session was redacted as it was read: the copy found nothing
    // left to cut, and said "nothing redacted" of a text of markers
    let said = st.redacted.clone().unwrap_or_default();
    let n: usize = said
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(n >= items.len() / 2, "{said}");
    // each marker of the copy once
    let copied = st.requests.iter().find_map(|r| match r {
        ccv::viewer::state::Request::Copy(c) => Some(c.text.clone()),
        _ => None,
    });
    let markers = copied.unwrap_or_default().matches("[REDACTED:").count();
    assert_eq!(n, markers, "{said}");
}

#[test]
fn the_cli_reports_each_replacement_by_line_and_kind() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = home.path().join("s.jsonl");
    let items = planted();
    let lines: String = items
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, it)| format!("{}\n", user_line(&format!("u{i}"), json!(it.line))))
        .collect();
    std::fs::write(&file, lines).expect("write");
    let out = common::ccv_at(home.path())
        .args(["export", "--redact", "--report"])
        .arg(&file)
        .output()
        .expect("run");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for n in 1..=3 {
        assert!(err.contains(&format!("s.jsonl:{n} ")), "line {n}: {err}");
    }
    assert!(err.contains("ccv: redacted "), "{err}");
    common::ccv_at(home.path())
        .args(["export", "--report"])
        .arg(&file)
        .assert()
        .code(2);
}

/// A call's summary is cut (at 160 characters) and so is the line of an
/// error its row tells (at 60): a key cut there before it was redacted
/// lost the shape its rule knows, and its head was left on the page. They
/// are made of the redacted input and result, then cut: no piece.
#[test]
fn a_key_cut_in_a_calls_summary_or_error_leaves_no_piece() {
    for planted in planted() {
        if planted.secret.len() < 30 || planted.line.contains('\n') {
            continue;
        }
        for pad in [120, 140, 150] {
            let command = format!("echo {} {}", "x".repeat(pad), planted.line);
            let error = format!(
                "error: {} {} was refused",
                "y".repeat(pad / 4),
                planted.line
            );
            let s = session_of(&[
                assistant_line(
                    "a0",
                    "m0",
                    json!([{"type": "tool_use", "id": "t0", "name": "Bash",
                            "input": {"command": command}}]),
                ),
                user_line(
                    "r0",
                    json!([{"type": "tool_result", "tool_use_id": "t0", "is_error": true,
                            "content": error}]),
                ),
            ]);
            let page = export(&s, Format::Html, true);
            let key: Vec<char> = planted.secret.chars().collect();
            for piece in key.windows(12) {
                let piece: String = piece.iter().collect();
                assert!(
                    !page.contains(&piece),
                    "{} (pad {pad}): {piece} is on the page",
                    planted.what
                );
            }
        }
    }
}

/// A project's folder is named after its working directory, and a session
/// file can be named anything: a token in either showed in every
/// redacted output that names a file (`ccv list --redact`'s path and id,
/// `ccv search --redact`'s hits, an HTML page's line references) and in
/// an archive's folder, page names, index pages and manifest.
#[test]
fn a_token_in_a_folders_or_files_name_is_redacted_everywhere() {
    let key = format!("{}{}", "gh", "p_Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gHjK2L");
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let folder = root.join(format!("-home-u-{key}"));
    std::fs::create_dir_all(&folder).expect("mkdir");
    let line = |cwd: Option<String>| {
        let mut l = common::entry::user("u1", json!("find the flaky test"))
            .session("s")
            .at("2025-01-01T10:00:00.000Z");
        if let Some(c) = cwd {
            l = l.cwd(&c);
        }
        format!("{}\n", l.json())
    };
    let named = folder.join(format!("{key}.jsonl"));
    std::fs::write(&named, line(Some(format!("/home/u/{key}")))).expect("write");
    // no working directory: the project is named by its folder
    let plain = folder.join("0b3c1f9e-2d4a-4b6c-8e1f-9a7b5c3d2e10.jsonl");
    std::fs::write(&plain, line(None)).expect("write");
    let pieces: Vec<String> = key
        .chars()
        .collect::<Vec<_>>()
        .windows(12)
        .map(|w| w.iter().collect())
        .collect();
    let clean = |what: &str, text: &str| {
        for piece in &pieces {
            assert!(!text.contains(piece.as_str()), "{what}: {piece} in {text}");
        }
    };
    let out = |args: &[&str]| -> String {
        let o = common::ccv_no_index(home.path())
            .args(args)
            .output()
            .expect("runs");
        assert!(o.status.success(), "{args:?}: {o:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let r = root.to_str().expect("utf-8");
    // (unredacted, they name it: what is checked below is there)
    assert!(out(&["list", r]).contains(&key));
    for args in [
        &["list", "--redact", r][..],
        &["list", "--redact", "--json", r],
        &["search", "--redact", "flaky", r],
        &["search", "--redact", "--json", "flaky", r],
        &["stats", "--redact", "--by", "project", r],
        &["stats", "--redact", "--json", "--by", "project", r],
    ] {
        let text = out(args);
        assert!(text.contains("REDACTED"), "{args:?}: {text}");
        clean(&format!("{args:?}"), &text);
    }
    for file in [&named, &plain] {
        let f = file.to_str().expect("utf-8");
        for format in ["text", "markdown", "json", "html"] {
            let text = out(&["export", "--redact", "--format", format, f]);
            clean(&format!("{format} of {f}"), &text);
        }
    }
    let site = home.path().join("site");
    for run in 0..2 {
        out(&[
            "export",
            "--all",
            site.to_str().expect("utf-8"),
            "--redact",
            r,
        ]);
        let mut pages = 0;
        for e in walk(&site) {
            clean("a name in the archive", &e.to_string_lossy());
            if e.is_file() {
                clean(
                    &e.display().to_string(),
                    &std::fs::read_to_string(&e).expect("read"),
                );
                pages += usize::from(e.extension().is_some_and(|x| x == "html"));
            }
        }
        assert_eq!(pages, 4, "run {run}: two sessions, a project, the index");
    }
}

/// Every path under `dir`, folders too.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}
