//! `claude --resume`: the program, its arguments, which ids it may be
//! given.

/// The program that resumes a session.
pub const PROGRAM: &str = "claude";

/// Its arguments to resume session `id`.
pub fn args(id: &str) -> Vec<String> {
    vec!["--resume".to_owned(), id.to_owned()]
}

/// An id `claude --resume` may be given: a UUID, as Claude Code names
/// its sessions. Anything else (a `sessionId` of `--dangerously-skip-
/// permissions`) would reach `claude` as an option.
pub fn is_resumable_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}
