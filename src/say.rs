//! The lines a command prints to stdout and stderr, which a closed pipe or
//! a full disk ends without a panic. `println!` and `eprintln!` panic when
//! a write fails, and a pipe whose reader has gone fails every write:
//! `ccv --help | head -1`, `ccv completions bash | head` and `ccv list
//! 2>&1 | head -1` ended in a panic (exit 101). Here a line to stderr
//! that cannot be written is dropped (there is nowhere left to say so),
//! and a line to stdout hands its error back to the command, for which a
//! closed pipe is no failure and a full disk is (see [`printed`]).

use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stdout.
pub fn out(args: fmt::Arguments<'_>) -> io::Result<()> {
    io::stdout().lock().write_fmt(args)
}

/// Writes `bytes` to stdout.
pub fn out_bytes(bytes: &[u8]) -> io::Result<()> {
    io::stdout().lock().write_all(bytes)
}

/// Writes `args` to stderr, when it can.
pub fn err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// The exit code of a command whose output ended with `result`: a
/// closed pipe (`| head`) is not a failure, any other error is (said).
pub fn printed(result: io::Result<()>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            err(format_args!(
                "ccv: {}\n",
                crate::model::text::term_line(&e.to_string())
            ));
            1
        }
    }
}

/// A line to stdout, as `println!` writes it: an `io::Result<()>`.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::say::out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// A line to stderr, as `eprintln!` writes it, or nothing when stderr is
/// gone.
#[macro_export]
macro_rules! say_err {
    ($($arg:tt)*) => {
        $crate::say::err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
