//! One frame of a 100 MB session at 200×60 through TestBackend.
//! Generate the session with
//! `/work/shared/bench/gen-session --size 100M --seed 1 -o /tmp/ccv-bench/s100M.jsonl`.

use ccv::app::{Action, State, perform_action};
use ccv::view::ListView;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::OnceLock;

const SESSION: &str = "/tmp/ccv-bench/s100M.jsonl";

fn main() {
    if !Path::new(SESSION).exists() {
        eprintln!("skipping: {SESSION} is missing (see the comment at the top of benches/draw.rs)");
        return;
    }
    divan::main();
}

struct Shared(std::sync::Mutex<State>);
// State holds Rc-based caches; the bench uses it from one thread at a time.
unsafe impl Sync for Shared {}
unsafe impl Send for Shared {}

fn state() -> &'static Shared {
    static S: OnceLock<Shared> = OnceLock::new();
    S.get_or_init(|| {
        // as the app does at startup, in a thread of its own
        let t = std::time::Instant::now();
        ccv::view::content::warm_up();
        eprintln!(
            "highlighter warm-up: {:.1} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        // as the viewer loads it: long texts left in the file
        let session = ccv::source::claude::loader::load_to_view(Path::new(SESSION), &mut |_, _| {})
            .expect("bench session");
        let mut s = State::new(session);
        s.tz = jiff::tz::TimeZone::UTC;
        Shared(std::sync::Mutex::new(s))
    })
}

/// A frame as the app draws it: texts still in the file drawn as `…`,
/// read back, and the frame drawn again.
fn frame(s: &mut State, v: &mut ListView, term: &mut Terminal<TestBackend>) {
    term.draw(|f| ccv::view::draw(f, s, v)).expect("draw");
    if ccv::app::texts::fill_drawn(s, v) {
        term.draw(|f| ccv::view::draw(f, s, v)).expect("draw");
    }
}

/// A frame at the end of the session, rows already rendered once.
#[divan::bench(sample_count = 50)]
fn draw_warm(b: divan::Bencher<'_, '_>) {
    let mut s = state().0.lock().unwrap_or_else(|e| e.into_inner());
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut v = ListView::default();
    frame(&mut s, &mut v, &mut term);
    b.bench_local(|| frame(&mut s, &mut v, &mut term));
}

/// A frame whose rows must all be rendered (cache emptied each time).
#[divan::bench(sample_count = 50)]
fn draw_cold(b: divan::Bencher<'_, '_>) {
    let mut s = state().0.lock().unwrap_or_else(|e| e.into_inner());
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut v = ListView::default();
    b.bench_local(|| {
        v.cache.clear();
        frame(&mut s, &mut v, &mut term)
    });
}

/// [`draw_cold`] in a pane of 50 by 40 (a tmux split), where a row's
/// text goes under its label.
#[divan::bench(sample_count = 50)]
fn draw_cold_narrow(b: divan::Bencher<'_, '_>) {
    let mut s = state().0.lock().unwrap_or_else(|e| e.into_inner());
    let mut term = Terminal::new(TestBackend::new(50, 40)).expect("terminal");
    let mut v = ListView::default();
    b.bench_local(|| {
        v.cache.clear();
        frame(&mut s, &mut v, &mut term)
    });
}

/// Page up then draw: new rows each frame, as when scrolling.
#[divan::bench(sample_count = 50)]
fn page_up_and_draw(b: divan::Bencher<'_, '_>) {
    let mut s = state().0.lock().unwrap_or_else(|e| e.into_inner());
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut v = ListView::default();
    frame(&mut s, &mut v, &mut term);
    b.bench_local(|| {
        perform_action(&mut s, Action::PageUp);
        frame(&mut s, &mut v, &mut term)
    });
}

/// Every row open (tool calls with their input and output, ~55 of them
/// on a screen of calls), rows new each frame: the texts they show are
/// read back from the file for each.
#[divan::bench(sample_count = 50)]
fn expanded_page_up_and_draw(b: divan::Bencher<'_, '_>) {
    let mut s = state().0.lock().unwrap_or_else(|e| e.into_inner());
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut v = ListView::default();
    perform_action(&mut s, Action::ExpandAll);
    frame(&mut s, &mut v, &mut term);
    b.bench_local(|| {
        perform_action(&mut s, Action::PageUp);
        s.session.forget_read_texts();
        frame(&mut s, &mut v, &mut term)
    });
    perform_action(&mut s, Action::CollapseAll);
}
