//! With background highlighting on (as the app runs), code is drawn plain
//! at once and highlighted by a worker thread, which says when it is done;
//! then it comes from the cache. (In a process of its own: the switch is
//! global.)

use ccv::view::content::highlight::highlight;
use std::sync::mpsc::channel;
use std::time::Duration;

fn styled(lines: &[Vec<(ratatui::style::Style, String)>]) -> bool {
    lines
        .iter()
        .flatten()
        .any(|(s, _)| s.fg.is_some() || s.add_modifier != ratatui::style::Modifier::empty())
}

#[test]
fn code_is_highlighted_off_the_drawing_thread() {
    if alone!(&[]) {
        return;
    }
    ccv::view::theme::init(true);
    let (tx, rx) = channel();
    ccv::view::content::highlight_in_background(move || {
        let _ = tx.send(());
    });
    let code: String = (0..120)
        .map(|i| format!("fn f{i}() -> u32 {{ {i} }}\n"))
        .collect();
    let first = highlight(&code, "rs");
    assert!(!styled(&first), "plain at first");
    assert_eq!(first.len(), 120, "every line is there");
    // asking again before it is done queues nothing new
    let _ = highlight(&code, "rs");
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the worker says when it is done");
    let later = highlight(&code, "rs");
    assert!(styled(&later), "then highlighted, from the cache");
    assert_eq!(later.len(), first.len());
    assert!(
        rx.recv_timeout(Duration::from_millis(500)).is_err(),
        "one job for one block"
    );
}
