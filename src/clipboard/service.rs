//! The clipboard thread: owns the backends (and so the one arboard
//! clipboard) for the life of the app; the UI only sends it text.

use super::chain::{Chain, CopyOutcome, Env};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long quitting waits for the clipboard to be handed to a clipboard
/// manager (X11 `CLIPBOARD_MANAGER`; arboard itself gives up after 100 ms).
pub const EXIT_WAIT: Duration = Duration::from_secs(1);

enum Request {
    Copy { text: String, rows: usize },
    Stop(Sender<()>),
}

type Sink = Arc<Mutex<Box<dyn FnMut(CopyOutcome) + Send>>>;

pub struct ClipboardService {
    tx: Option<Sender<Request>>,
    sink: Sink,
}

impl ClipboardService {
    /// Starts the clipboard thread with the backends this environment
    /// offers. Every copy's outcome goes to `sink`, called on the clipboard
    /// thread: send it to the UI's event channel.
    pub fn spawn(sink: impl FnMut(CopyOutcome) + Send + 'static) -> Self {
        Self::spawn_with(|| Chain::for_env(&Env::current()), sink)
    }

    /// [`Self::spawn`] with outcomes on a channel.
    pub fn spawn_channel() -> (Self, Receiver<CopyOutcome>) {
        let (tx, rx) = mpsc::channel();
        (
            Self::spawn(move |o| {
                let _ = tx.send(o);
            }),
            rx,
        )
    }

    /// With the backends `make` builds (on the clipboard thread).
    pub fn spawn_with(
        make: impl FnOnce() -> Chain + Send + 'static,
        sink: impl FnMut(CopyOutcome) + Send + 'static,
    ) -> Self {
        let sink: Sink = Arc::new(Mutex::new(Box::new(sink)));
        let (tx, rx) = mpsc::channel::<Request>();
        let thread_sink = sink.clone();
        let spawned = std::thread::Builder::new()
            .name("ccv-clipboard".into())
            .spawn(move || {
                let mut chain = make();
                for req in rx {
                    match req {
                        Request::Copy { text, rows } => {
                            let run = std::panic::AssertUnwindSafe(|| chain.copy(&text, rows));
                            let outcome = std::panic::catch_unwind(run).unwrap_or_else(|_| {
                                CopyOutcome::error("Copy failed: the clipboard crashed".into())
                            });
                            deliver(&thread_sink, outcome);
                        }
                        Request::Stop(ack) => {
                            // Dropping arboard's clipboard hands its text to a
                            // clipboard manager, so a paste works after ccv exits.
                            drop(chain);
                            let _ = ack.send(());
                            return;
                        }
                    }
                }
            });
        ClipboardService {
            tx: spawned.is_ok().then_some(tx),
            sink,
        }
    }

    /// Queues `text` for the clipboard; returns at once. The outcome comes
    /// through the sink.
    pub fn copy(&self, text: String, rows: usize) {
        let sent = match &self.tx {
            Some(tx) => tx.send(Request::Copy { text, rows }).is_ok(),
            None => false,
        };
        if !sent {
            deliver(
                &self.sink,
                CopyOutcome::error("Copy failed: the clipboard thread is not running".into()),
            );
        }
    }

    /// Stops the thread, waiting at most `timeout` for the clipboard to be
    /// handed over. Called on drop with [`EXIT_WAIT`].
    pub fn shutdown(&mut self, timeout: Duration) {
        if let Some(tx) = self.tx.take() {
            let (ack_tx, ack_rx) = mpsc::channel();
            if tx.send(Request::Stop(ack_tx)).is_ok() {
                let _ = ack_rx.recv_timeout(timeout);
            }
        }
    }
}

impl Drop for ClipboardService {
    fn drop(&mut self) {
        self.shutdown(EXIT_WAIT);
    }
}

fn deliver(sink: &Sink, outcome: CopyOutcome) {
    // A sink that panicked once poisons the lock; keep delivering.
    let mut f = sink.lock().unwrap_or_else(|p| p.into_inner());
    f(outcome);
}
