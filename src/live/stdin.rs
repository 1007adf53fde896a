//! `ccv -`: streaming standard input (e.g. `claude -p ... --output-format
//! stream-json --verbose | ccv -`) as it arrives.

use super::LiveEvent;
use std::io::{ErrorKind, Read};
use std::thread::JoinHandle;

/// Reads standard input in a thread: `Appended { source: 0 }` for each read,
/// then `StdinEof`. The TUI must then take keys from the terminal, not
/// stdin (crossterm opens `/dev/tty` when stdin is not a terminal).
pub fn spawn_stdin(
    sink: impl FnMut(LiveEvent) -> bool + Send + 'static,
) -> std::io::Result<JoinHandle<()>> {
    spawn_reader(std::io::stdin(), sink)
}

/// As [`spawn_stdin`], for any reader. The thread ends at EOF, on an error
/// (after `Error` and `StdinEof`), or when `sink` returns false. A thread
/// blocked in `read` cannot be interrupted: do not join it before EOF.
pub fn spawn_reader(
    mut r: impl Read + Send + 'static,
    mut sink: impl FnMut(LiveEvent) -> bool + Send + 'static,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("ccv-stdin".into())
        .spawn(move || {
            // a pipe read returns what is there: small reads keep latency low
            let mut buf = vec![0u8; 1 << 16];
            loop {
                match r.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if !sink(LiveEvent::Appended {
                            source: 0,
                            bytes: buf[..n].to_vec(),
                        }) {
                            return;
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(e) => {
                        if !sink(LiveEvent::Error(format!("reading input: {e}"))) {
                            return;
                        }
                        break;
                    }
                }
            }
            sink(LiveEvent::StdinEof);
        })
}
