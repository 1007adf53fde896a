//! Backend order, status messages, the file fallback, OSC 52 bytes, and the
//! clipboard thread.

use ccv::clipboard::{
    Chain, ClipboardBackend, ClipboardService, CopyOutcome, Delivery, FileBackend,
    OSC52_MAX_ENCODED, Osc52Backend, osc52_sequence,
};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Records what it was asked to copy; fails with `fail` if set.
struct Fake {
    name: &'static str,
    fail: Option<&'static str>,
    log: Arc<Mutex<Vec<String>>>,
}

impl ClipboardBackend for Fake {
    fn name(&self) -> &str {
        self.name
    }
    fn set_text(&mut self, text: &str) -> Result<Delivery, String> {
        self.log
            .lock()
            .unwrap()
            .push(format!("{}:{text}", self.name));
        match self.fail {
            Some(e) => Err(e.to_owned()),
            None => Ok(Delivery::Clipboard),
        }
    }
}

fn fake(
    name: &'static str,
    fail: Option<&'static str>,
    log: &Arc<Mutex<Vec<String>>>,
) -> Box<dyn ClipboardBackend> {
    Box::new(Fake {
        name,
        fail,
        log: log.clone(),
    })
}

#[test]
fn the_first_backend_that_works_wins() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut chain = Chain::new(vec![fake("a", None, &log), fake("b", None, &log)]);
    let o = chain.copy("hello", 1);
    assert_eq!(o.message, "Copied 1 entry (5 B) to the clipboard");
    assert_eq!(o.delivery, Some(Delivery::Clipboard));
    assert!(!o.is_error);
    assert_eq!(*log.lock().unwrap(), vec!["a:hello"]);
}

#[test]
fn failures_fall_through_in_order() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut chain = Chain::new(vec![
        fake("a", Some("no display"), &log),
        fake("b", None, &log),
        fake("c", None, &log),
    ]);
    let text = "x".repeat(3277);
    let o = chain.copy(&text, 14);
    assert_eq!(o.message, "Copied 14 entries (3.2 KB) to the clipboard");
    let log = log.lock().unwrap();
    assert_eq!(
        log.iter().map(|l| &l[..2]).collect::<Vec<_>>(),
        vec!["a:", "b:"]
    );
}

#[test]
fn all_failing_is_an_error_naming_each_backend() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut chain = Chain::new(vec![
        fake("a", Some("no display"), &log),
        fake("b", Some("disk\nfull"), &log),
    ]);
    let o = chain.copy("hello", 2);
    assert!(o.is_error);
    assert_eq!(o.delivery, None);
    assert_eq!(o.message, "Copy failed: a: no display; b: disk full");
}

#[test]
fn nothing_to_copy_touches_no_backend() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut chain = Chain::new(vec![fake("a", None, &log)]);
    assert_eq!(chain.copy("", 0).message, "Nothing to copy");
    assert!(log.lock().unwrap().is_empty());
}

#[test]
fn osc52_is_used_when_the_clipboard_is_unavailable() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut chain = Chain::new(vec![
        fake("clipboard", Some("no display"), &log),
        Box::new(Osc52Backend::new(OSC52_MAX_ENCODED, false)),
    ]);
    let o = chain.copy("[User]\nhi\n", 1);
    assert_eq!(o.message, "Copied 1 entry (10 B) via OSC 52");
    assert_eq!(o.osc52(), Some(osc52_sequence("[User]\nhi\n").as_slice()));
}

#[test]
fn osc52_sequence_holds_the_base64_text() {
    let text = "[User]\nhé ✓ `code`\n";
    let seq = osc52_sequence(text);
    let s = std::str::from_utf8(&seq).expect("ascii");
    let payload = s
        .strip_prefix("\x1b]52;c;")
        .and_then(|p| p.strip_suffix("\x1b\\"))
        .expect("OSC 52 framing");
    assert_eq!(decode_base64(payload), text.as_bytes());
    assert!(
        payload
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
    );
    assert_eq!(osc52_sequence("hi"), b"\x1b]52;c;aGk=\x1b\\");
}

#[test]
fn too_big_for_osc52_goes_to_a_file_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut chain = Chain::new(vec![
        Box::new(Osc52Backend::new(100, false)),
        Box::new(FileBackend::new(Some(dir.path().to_owned()))),
    ]);
    let text = "y".repeat(2048);
    let o = chain.copy(&text, 3);
    let Some(Delivery::File(path)) = &o.delivery else {
        panic!("not saved to a file: {o:?}")
    };
    assert!(path.starts_with(dir.path()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("ccv-copy-") && name.ends_with(".txt"),
        "{name}"
    );
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    assert_eq!(
        o.message,
        format!(
            "Saved 3 entries (2.0 KB) to {} (OSC 52: too big (2.7 KB encoded, the limit is 100 B))",
            path.display()
        )
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    // A second copy in the same second gets a new file.
    let o2 = chain.copy(&text, 3);
    let Some(Delivery::File(path2)) = &o2.delivery else {
        panic!("{o2:?}")
    };
    assert_ne!(path, path2);
}

#[test]
fn an_unwritable_directory_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let missing_parent = dir.path().join("file");
    std::fs::write(&missing_parent, "x").unwrap();
    let mut chain = Chain::new(vec![Box::new(FileBackend::new(Some(
        missing_parent.join("sub"),
    )))]);
    let o = chain.copy("text", 1);
    assert!(o.is_error);
    assert!(
        o.message.starts_with("Copy failed: file: "),
        "{}",
        o.message
    );
}

/// A backend that takes a while, as a slow X server would: it hands over
/// once the test opens its gate (or after 20 s).
struct Slow(mpsc::Receiver<()>);
impl ClipboardBackend for Slow {
    fn name(&self) -> &str {
        "slow"
    }
    fn set_text(&mut self, _: &str) -> Result<Delivery, String> {
        let _ = self.0.recv_timeout(Duration::from_secs(20));
        Ok(Delivery::Clipboard)
    }
}

#[test]
fn the_service_does_not_block_and_reports_through_the_sink() {
    let (tx, rx) = mpsc::channel::<CopyOutcome>();
    let (open, gate) = mpsc::channel::<()>();
    let service = ClipboardService::spawn_with(
        move || Chain::new(vec![Box::new(Slow(gate))]),
        move |o| {
            let _ = tx.send(o);
        },
    );
    // the backend hands nothing over until the gate opens: a copy that
    // waited for it would return after 20 s (no clock on the machine's
    // load decides this)
    let start = std::time::Instant::now();
    service.copy("a".into(), 1);
    service.copy("bb".into(), 2);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "copy waited for the backend"
    );
    assert!(rx.try_recv().is_err(), "nothing was handed over yet");
    let _ = open.send(());
    let _ = open.send(());
    let first = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("first outcome");
    let second = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("second outcome");
    assert_eq!(first.message, "Copied 1 entry (1 B) to the clipboard");
    assert_eq!(second.message, "Copied 2 entries (2 B) to the clipboard");
}

/// Never finishes its hand-over: dropping it blocks.
struct Stuck;
impl ClipboardBackend for Stuck {
    fn name(&self) -> &str {
        "stuck"
    }
    fn set_text(&mut self, _: &str) -> Result<Delivery, String> {
        std::thread::sleep(Duration::from_secs(30));
        Ok(Delivery::Clipboard)
    }
}

#[test]
fn shutdown_is_capped() {
    let mut service = ClipboardService::spawn_with(|| Chain::new(vec![Box::new(Stuck)]), |_| {});
    service.copy("x".into(), 1);
    let start = std::time::Instant::now();
    service.shutdown(Duration::from_millis(200));
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_backend_panic_becomes_an_error_message() {
    struct Panics;
    impl ClipboardBackend for Panics {
        fn name(&self) -> &str {
            "panics"
        }
        fn set_text(&mut self, _: &str) -> Result<Delivery, String> {
            panic!("backend bug")
        }
    }
    let (service, rx) = {
        let (tx, rx) = mpsc::channel();
        let s = ClipboardService::spawn_with(
            || Chain::new(vec![Box::new(Panics)]),
            move |o| {
                let _ = tx.send(o);
            },
        );
        (s, rx)
    };
    service.copy("x".into(), 1);
    let o = rx.recv_timeout(Duration::from_secs(5)).expect("outcome");
    assert!(o.is_error);
    service.copy("y".into(), 1);
    assert!(
        rx.recv_timeout(Duration::from_secs(5)).is_ok(),
        "the thread survived"
    );
}

fn decode_base64(s: &str) -> Vec<u8> {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for b in s.bytes().filter(|&b| b != b'=') {
        let v = A.iter().position(|&a| a == b).expect("base64 digit") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[test]
fn without_a_display_the_default_chain_uses_osc52() {
    let env = ccv::clipboard::Env {
        display: false,
        tmux: false,
        no_osc52: false,
    };
    let o = Chain::for_env(&env).copy("[User]\nhi\n", 1);
    assert_eq!(o.message, "Copied 1 entry (10 B) via OSC 52");
    assert!(o.osc52().is_some());
}
