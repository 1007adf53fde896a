//! Terminal input, with the repair of escape sequences cut by a read.
//!
//! crossterm reads the terminal in chunks; when a chunk ends right after
//! the ESC that starts a sequence and the rest has not arrived yet, it
//! reports an Esc key, then the rest of the sequence as typed characters:
//! an arrow key held over SSH becomes Esc (which quits), `[` (which jumps
//! to a prompt) and `A`. An Esc followed at once by `[` or `O` is put back
//! together here; a person does not type a sequence's bytes within
//! milliseconds of an Esc.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How long the rest of a cut sequence may take to arrive.
const CUT_WAIT: Duration = Duration::from_millis(15);

/// Where terminal events come from (crossterm, or a script in tests).
pub trait Source {
    fn read(&mut self) -> std::io::Result<Event>;
    /// Whether an event arrives within `wait`.
    fn poll(&mut self, wait: Duration) -> std::io::Result<bool>;
}

pub struct Terminal;

impl Source for Terminal {
    /// Blocks until an event: no wake-up while idle. A handoff (the
    /// editor) wakes the read with a SIGWINCH, whose resize event it
    /// returns; the reader then parks before reading again.
    #[cfg(unix)]
    fn read(&mut self) -> std::io::Result<Event> {
        HANDOFF.park_if_asked();
        crossterm::event::read()
    }

    /// Without SIGWINCH the read looks at the handoff four times a second.
    #[cfg(not(unix))]
    fn read(&mut self) -> std::io::Result<Event> {
        loop {
            HANDOFF.park_if_asked();
            if crossterm::event::poll(Duration::from_millis(250))? {
                return crossterm::event::read();
            }
        }
    }

    fn poll(&mut self, wait: Duration) -> std::io::Result<bool> {
        crossterm::event::poll(wait)
    }
}

/// Stops the input thread from reading while another program (the editor)
/// has the terminal: its keys are its own.
pub struct Handoff {
    /// (the loop asks the reader to stop, the reader has stopped)
    state: Mutex<(bool, bool)>,
    changed: Condvar,
    /// Whether a reader was started (tests have none)
    reader: AtomicBool,
}

pub static HANDOFF: Handoff = Handoff::new();

/// How often a handoff wakes the reader again while it has not stopped.
const WAKE_AGAIN: Duration = Duration::from_millis(50);
/// How long a handoff waits for the reader at most.
const HANDOFF_WAIT: Duration = Duration::from_secs(3);

impl Handoff {
    const fn new() -> Handoff {
        Handoff {
            state: Mutex::new((false, false)),
            changed: Condvar::new(),
            reader: AtomicBool::new(false),
        }
    }

    /// Says a reader thread reads the terminal (and so must be stopped).
    pub fn reader_started(&self) {
        self.reader.store(true, Ordering::SeqCst);
    }

    /// Asks the reader to stop and waits until it has. A reader that is
    /// not stopped would take the editor's keys, so it is woken again
    /// until it stops: a wake-up can be lost (crossterm reads the
    /// terminal's bytes and the resize signal from one poll, and the
    /// signal's readiness goes unread when bytes came with it), and a
    /// loaded machine may not run it for a while.
    pub fn pause(&self) {
        let Ok(mut s) = self.state.lock() else { return };
        s.0 = true;
        if !self.reader.load(Ordering::SeqCst) {
            return;
        }
        let deadline = std::time::Instant::now() + HANDOFF_WAIT;
        while !s.1 {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return;
            }
            // the reader is blocked in a read: a resize wakes it
            #[cfg(unix)]
            {
                let _ = signal_hook::low_level::raise(signal_hook::consts::SIGWINCH);
            }
            match self.changed.wait_timeout(s, left.min(WAKE_AGAIN)) {
                Ok((g, _)) => s = g,
                Err(_) => return,
            }
        }
    }

    /// Lets the reader read again.
    pub fn resume(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.0 = false;
        }
        self.changed.notify_all();
    }

    /// The reader's side: waits here while a handoff is asked for.
    fn park_if_asked(&self) {
        let Ok(mut s) = self.state.lock() else { return };
        if !s.0 {
            return;
        }
        s.1 = true;
        self.changed.notify_all();
        while s.0 {
            match self.changed.wait(s) {
                Ok(g) => s = g,
                Err(_) => return,
            }
        }
        s.1 = false;
    }
}

fn plain_char(ev: &Event) -> Option<char> {
    match ev {
        Event::Key(KeyEvent {
            code: KeyCode::Char(c),
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) if (*modifiers - KeyModifiers::SHIFT).is_empty() => Some(*c),
        _ => None,
    }
}

fn is_esc(ev: &Event) -> bool {
    matches!(ev, Event::Key(KeyEvent { code: KeyCode::Esc, modifiers, kind: KeyEventKind::Press, .. }) if modifiers.is_empty())
}

/// The key a CSI (`[`) or SS3 (`O`) sequence names, from its bytes after
/// the introducer.
fn key_of(intro: char, body: &str) -> Option<KeyCode> {
    let last = body.chars().last()?;
    let params = &body[..body.len() - last.len_utf8()];
    let arrow = |c: char| match c {
        'A' => Some(KeyCode::Up),
        'B' => Some(KeyCode::Down),
        'C' => Some(KeyCode::Right),
        'D' => Some(KeyCode::Left),
        'H' => Some(KeyCode::Home),
        'F' => Some(KeyCode::End),
        _ => None,
    };
    match (intro, params, last) {
        ('O', "", c) => arrow(c),
        ('[', "", c) => arrow(c),
        ('[', p, '~') => match p {
            "1" | "7" => Some(KeyCode::Home),
            "4" | "8" => Some(KeyCode::End),
            "2" => Some(KeyCode::Insert),
            "3" => Some(KeyCode::Delete),
            "5" => Some(KeyCode::PageUp),
            "6" => Some(KeyCode::PageDown),
            _ => None,
        },
        _ => None,
    }
}

/// Reads the next events: one, or what a cut sequence stood for. `None`:
/// the source failed (the terminal is gone).
pub fn next(src: &mut impl Source) -> Option<Vec<Event>> {
    let ev = src.read().ok()?;
    if !is_esc(&ev) || !src.poll(CUT_WAIT).unwrap_or(false) {
        return Some(vec![ev]);
    }
    let mut held = vec![ev];
    let intro_ev = src.read().ok()?;
    let intro = plain_char(&intro_ev).filter(|c| *c == '[' || *c == 'O');
    held.push(intro_ev);
    let Some(intro) = intro else {
        return Some(held);
    };
    // parameters, then one final byte (0x40..=0x7e); at most a few
    let mut body = String::new();
    for _ in 0..16 {
        if !src.poll(CUT_WAIT).unwrap_or(false) {
            return Some(held);
        }
        let e = src.read().ok()?;
        let c = plain_char(&e);
        held.push(e);
        let Some(c) = c else {
            return Some(held);
        };
        body.push(c);
        let fin = ('\u{40}'..='\u{7e}').contains(&c) && !(intro == '[' && c == '[');
        if fin {
            return Some(match key_of(intro, &body) {
                Some(code) => vec![Event::Key(KeyEvent::new(code, KeyModifiers::NONE))],
                // a sequence (a mouse report...) that is no key: not typing
                None => Vec::new(),
            });
        }
    }
    Some(held)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    struct Script(VecDeque<Event>);

    impl Source for Script {
        fn read(&mut self) -> std::io::Result<Event> {
            self.0
                .pop_front()
                .ok_or_else(|| std::io::Error::other("end"))
        }
        fn poll(&mut self, _: Duration) -> std::io::Result<bool> {
            Ok(!self.0.is_empty())
        }
    }

    fn key(c: KeyCode) -> Event {
        Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
    }

    fn all(events: Vec<Event>) -> Vec<Event> {
        let mut s = Script(events.into());
        let mut out = Vec::new();
        while let Some(v) = next(&mut s) {
            out.extend(v);
        }
        out
    }

    #[test]
    fn a_cut_arrow_is_put_back_together() {
        let ch = |c| key(KeyCode::Char(c));
        let got = all(vec![
            key(KeyCode::Up),
            key(KeyCode::Esc),
            ch('['),
            ch('A'),
            key(KeyCode::Esc),
            ch('O'),
            ch('B'),
            key(KeyCode::Esc),
            ch('['),
            ch('6'),
            ch('~'),
            key(KeyCode::Esc),
            ch('['),
            ch('<'),
            ch('0'),
            ch(';'),
            ch('1'),
            ch('M'),
            ch('j'),
        ]);
        assert_eq!(
            got,
            vec![
                key(KeyCode::Up),
                key(KeyCode::Up),
                key(KeyCode::Down),
                key(KeyCode::PageDown),
                ch('j')
            ]
        );
    }

    #[test]
    fn an_esc_alone_or_before_a_typed_key_stays() {
        let ch = |c| key(KeyCode::Char(c));
        assert_eq!(all(vec![key(KeyCode::Esc)]), vec![key(KeyCode::Esc)]);
        assert_eq!(
            all(vec![key(KeyCode::Esc), ch('q')]),
            vec![key(KeyCode::Esc), ch('q')]
        );
    }

    /// The editor must not start while the reader still reads: a reader
    /// that misses the first wake-up (crossterm can lose one) is woken
    /// again until it stops.
    #[cfg(unix)]
    #[test]
    fn a_handoff_wakes_the_reader_until_it_stops() {
        use std::sync::Arc;
        static H: Handoff = Handoff::new();
        H.reader_started();
        let woken = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGWINCH, woken.clone()).unwrap();
        let reader = std::thread::spawn(move || {
            // the first wake-up is lost
            while !woken.swap(false, Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            while !woken.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            H.park_if_asked();
        });
        H.pause();
        assert!(H.state.lock().unwrap().1, "the reader had not stopped");
        H.resume();
        reader.join().unwrap();
    }
}
