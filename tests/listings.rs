//! Listings that fit the terminal: `ccv list`, `ccv stats` and `ccv top`
//! at 60, 80 and 160 columns keep one line per row, give the title the
//! room, and tell two worktrees apart by the ends of their paths.

use ccv::catalog::SessionInfo;
use ccv::top::{TopEvent, TopState};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr;

const NOW: i64 = 1_767_261_600_000;

fn session(project: &str, id: &str, title: &str) -> SessionInfo {
    let mut s = crate::common::entry::session_row(project, id, title, NOW - 3_600_000);
    s.git_branch = Some("feature/retry-the-reconciliation-job".into());
    s
}

fn sessions() -> Vec<SessionInfo> {
    vec![
        session(
            "/home/bob/work/clients/acme/worktrees/payments-retry",
            "a",
            "Fix the flaky retry test in the payment reconciliation job and add a regression test",
        ),
        session(
            "/home/bob/work/clients/acme/worktrees/payments-ledger",
            "b",
            "Ledger export",
        ),
    ]
}

#[test]
fn list_fits_every_width_and_the_title_gets_the_room() {
    for width in [60, 80, 160] {
        let mut out = Vec::new();
        ccv::catalog::format::write_table(&mut out, &sessions(), NOW, width).expect("table");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "one line per session at {width}:\n{text}");
        for l in &lines {
            assert!(l.width() <= width, "{width}: {l:?}");
        }
        // both worktrees told apart by their ends
        assert!(lines[1].contains("retry"), "{width}:\n{text}");
        assert!(lines[2].contains("ledger"), "{width}:\n{text}");
        assert!(lines[1].contains("Fix the flaky"), "{width}:\n{text}");
        if width == 160 {
            assert!(text.contains("reconciliation job"), "{text}");
        }
    }
}

#[test]
fn top_fits_60_columns_and_the_title_is_readable() {
    let mut t = TopState::new(PathBuf::from("/r"), 30 * 60_000, NOW);
    let iso = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .expect("time")
            .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string()
    };
    for (name, cwd, prompt) in [
        (
            "a",
            "/home/bob/work/acme/worktrees/payments-retry",
            "Fix the flaky retry test",
        ),
        (
            "b",
            "/home/bob/work/acme/worktrees/payments-ledger",
            "Export the ledger",
        ),
    ] {
        let path = PathBuf::from(format!("/r/p/{name}.jsonl"));
        t.apply(TopEvent::Candidate {
            path: path.clone(),
            mtime_ms: NOW - 1000,
        });
        let line = json!({"type":"user","uuid":format!("u{name}"),"sessionId":name,"cwd":cwd,"timestamp":iso(NOW - 5000),"message":{"role":"user","content":prompt}});
        t.apply(TopEvent::Live {
            path,
            event: ccv::live::LiveEvent::Appended {
                source: 0,
                bytes: format!("{line}\n").into_bytes(),
            },
        });
    }
    for width in [60u16, 80, 160] {
        let mut term = Terminal::new(TestBackend::new(width, 10)).expect("terminal");
        term.draw(|f| ccv::top::draw(f, f.area(), &t))
            .expect("draw");
        let b = term.backend().buffer().clone();
        let screen: Vec<String> = (0..10)
            .map(|y| (0..width).map(|x| b[(x, y)].symbol()).collect::<String>())
            .collect();
        let all = screen.join("\n");
        assert!(all.contains("Fix the flaky"), "{width}:\n{all}");
        assert!(all.contains("Export the ledger"), "{width}:\n{all}");
        if width >= 80 {
            assert!(
                all.contains("retry") && all.contains("ledger"),
                "{width}:\n{all}"
            );
        }
    }
}
