//! The binary in a real terminal (tmux): live follow, and `Y` copying
//! through OSC 52 into tmux's paste buffer. Skipped when tmux is absent.

use crate::common;

use std::process::Command;

fn script(name: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/");
    let home = tempfile::tempdir().expect("tempdir");
    let out = Command::new("bash")
        .arg(format!("{path}{name}"))
        // the scripts give ccv homes of their own; this covers the rest
        .envs(common::sandbox(home.path()))
        .arg(env!("CARGO_BIN_EXE_ccv"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        eprintln!("skipping {name}: {stdout}");
        return;
    }
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
}

#[test]
fn live_follow_in_tmux() {
    script("tmux_live.sh");
}

#[test]
fn copy_with_osc52_into_the_tmux_buffer() {
    script("tmux_copy.sh");
}

#[test]
fn the_copy_hint_goes_once_tmux_is_set_and_ranges_say_their_rows() {
    script("tmux_copy_hint.sh");
}

#[test]
fn signals_suspend_and_idle_in_tmux() {
    script("tmux_signals.sh");
}

#[test]
fn picker_full_text_search_opens_at_the_match_in_tmux() {
    script("tmux_search.sh");
}

#[test]
fn a_screen_shared_with_redact_shows_no_key_in_tmux() {
    script("tmux_redact.sh");
}

#[test]
fn prompts_edit_as_readline_and_keep_a_history_in_tmux() {
    script("tmux_prompts.sh");
}

#[test]
fn a_burst_of_2000_keys_moves_2000_rows_in_tmux() {
    script("tmux_keys.sh");
}

#[test]
fn config_keys_errors_filter_and_editor_in_tmux() {
    script("tmux_habits.sh");
}

#[test]
fn top_shows_states_change_live_in_tmux() {
    script("tmux_top.sh");
}

#[test]
fn clusters_a_terminal_draws_otherwise_leave_the_screen_as_drawn_in_tmux() {
    script("tmux_clusters.sh");
}
