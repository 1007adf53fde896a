//! Every real session, Claude Code's and Codex's, read in pieces cut
//! anywhere (as a follower reads a file while it is written, a partial
//! last line shown early or not) is the session read at once: the same
//! transcript, figures, title and lines unread.

use crate::common::{self, Rng};
use ccv::model::Session;

/// What must not depend on how the bytes came.
fn facts(s: &Session) -> String {
    format!(
        "{:?} {:?} {:?} {} unreadable {}",
        ccv::model::figures::Figures::of(s, 0),
        s.title(),
        s.meta.model,
        s.agents.len(),
        s.stats.unreadable
    )
}

#[test]
fn a_real_session_read_in_pieces_is_the_session_read_at_once() {
    let (Some(claude), Some(codex)) = (common::corpus_files(), crate::codex::codex_corpus()) else {
        return;
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for f in claude.iter().chain(&codex) {
        let bytes = std::fs::read(f).expect("read");
        let mut once = Session::new(None);
        once.feed(0, &bytes);
        once.finish(0);
        let mut s = Session::new(None);
        let mut at = 0;
        // pieces of a few bytes to a few lines
        let most = [64, 4096, 200_000][rng.below(3)];
        while at < bytes.len() {
            let end = (at + 1 + rng.below(most)).min(bytes.len());
            s.feed(0, &bytes[at..end]);
            if rng.below(2) == 0 {
                s.flush_tail(0);
            }
            at = end;
        }
        s.finish(0);
        assert_eq!(facts(&s), facts(&once), "{}", f.display());
        assert!(
            common::export_json(&s) == common::export_json(&once),
            "{}",
            f.display()
        );
    }
}
