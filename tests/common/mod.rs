//! What several test files share: the corpus, a small PRNG, JSONL lines
//! and sessions made of them, and drawing into a TestBackend.
// each test binary uses a part of this
#![allow(dead_code)]

use std::path::PathBuf;

/// The real session files of `../shared/corpus`, sorted; `None` (after
/// saying so) when `../shared` is not beside the repo.
pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!(
            "skipping: {} is absent (the corpus lives beside the repo)",
            dir.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Some(files)
}

/// xorshift64: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A session made of these lines, read to its end.
pub fn session_of(lines: &[serde_json::Value]) -> ccv::model::Session {
    let mut s = ccv::model::Session::new(None);
    for l in lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    s.finish(0);
    s
}

/// A user line (`cwd` /home/bob/app) with this content.
pub fn user_line(uuid: &str, content: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"type":"user","uuid":uuid,"sessionId":"s","cwd":"/home/bob/app","timestamp":"2025-01-01T10:00:00.000Z","message":{"role":"user","content":content}})
}

/// An assistant line of message `id` with these blocks.
pub fn assistant_line(uuid: &str, id: &str, content: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"type":"assistant","uuid":uuid,"sessionId":"s","timestamp":"2025-01-01T10:00:01.000Z","message":{"id":id,"role":"assistant","model":"claude-opus-4-6","content":content}})
}

/// The screen the viewer draws, as text.
pub fn screen_text(s: &mut ccv::app::State, w: u16, h: u16) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| ccv::view::draw(f, s)).expect("draw");
    let b = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| b[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// `ccv export` of the session in this format.
pub fn exported(s: &ccv::model::Session, format: ccv::export::Format) -> String {
    let mut out = Vec::new();
    let opts = ccv::export::Options {
        format,
        ..ccv::export::Options::default()
    };
    ccv::export::export(s, &opts, &mut out).expect("export");
    String::from_utf8(out).expect("utf8")
}
