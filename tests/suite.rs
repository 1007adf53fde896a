//! The integration tests, as one test binary: each file beside this one is a
//! module of it. Fifty binaries of ~300 MB each once filled CI's disk; one
//! links once. `autotests = false` in Cargo.toml, so a new file is listed
//! here (`every_test_file_is_a_module` fails until it is).

mod common;

/// For a test that sets something process-wide (an environment variable,
/// the theme, screen redaction, background highlighting): the suite's
/// tests share one process, and such a setting would reach every test
/// running beside it. `if alone!(&[("VAR", value)]) { return; }` runs the
/// calling test again in a child process of the suite, alone, in a
/// [`common::sandbox`] with those variables set on top, and is `true` once
/// it passed there; in that child it is `false`, and the test goes on to
/// its body.
macro_rules! alone {
    ($envs:expr) => {{
        fn here() {}
        let here = std::any::type_name_of_val(&here);
        $crate::run_alone(here.strip_suffix("::here").unwrap_or(here), $envs)
    }};
}

/// `alone!`'s work: `test` is the test function's path in the suite.
pub fn run_alone(test: &str, envs: &[(&str, &std::ffi::OsStr)]) -> bool {
    const CHILD: &str = "CCV_SUITE_CHILD";
    if std::env::var_os(CHILD).is_some() {
        return false;
    }
    // libtest names tests without the crate's name
    let name = test.split_once("::").map_or(test, |(_, rest)| rest);
    let exe = std::env::current_exe().expect("the suite's path");
    // a program like any other a test runs: in a home of its own, its
    // libraries not looked for in the real one
    let home = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(exe)
        .args([name, "--exact", "--test-threads=1"])
        .envs(common::sandbox(home.path()))
        .env(CHILD, "1")
        .envs(envs.iter().copied())
        .output()
        .expect("run the suite again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name} in a child process:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

mod answer_reader;
mod archive;
mod check_cli;
mod cli_export;
mod clipboard_backends;
mod clipboard_scope;
mod codex;
mod codex_catalog;
mod content_corpus;
mod content_markdown;
mod content_mono;
mod content_safety;
mod corpus;
mod corrupt;
mod cost;
mod cost_current;
mod errors_first;
mod export_markdown_file;
mod fidelity;
mod figures_fast;
mod fuzz_decoder;
mod hardening;
mod highlight_background;
mod index_words;
mod ingest;
mod line_time;
mod list_cli;
mod list_scan;
mod listings;
mod live_follow;
mod marks_incremental;
mod mutations;
mod note_reader;
mod one_rule;
mod one_walk;
mod pairing;
mod parallel_load;
mod picker_ui;
mod pieces;
mod places;
mod progress_reader;
mod prompt_reader;
mod prompts;
mod reach_line;
mod redaction;
mod result_reader;
mod safe_writes;
mod search_cli;
mod search_habits;
mod search_saved;
mod share;
mod shell_cli;
mod stats_cli;
mod stored_text;
mod structure_branches;
mod structure_subagents;
mod terminal_habits;
mod titles;
mod tmux;
mod top;
mod truth_on_screen;
mod tui_corpus;
mod tui_findings;
mod tui_live;
mod tui_long_texts;
mod tui_preview;
mod tui_render;
mod tui_state;
mod tui_unlinked_agents;
mod workflow_agents;

/// A test file left out of the list above would never run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let me = std::fs::read_to_string(dir.join("suite.rs")).expect("read suite.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read tests/") {
        let path = entry.expect("entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs")
            && stem != "suite"
            && !me.lines().any(|l| l == format!("mod {stem};"))
        {
            missing.push(stem.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "not modules of tests/suite.rs: {missing:?}"
    );
}
