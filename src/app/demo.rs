//! The bundled demo session (`ccv --demo`, or no projects directory).

use crate::model::Session;

pub const DEMO: &[u8] = include_bytes!("../../assets/demo.jsonl");

pub fn session() -> Session {
    let mut s = Session::new(None);
    s.feed(0, DEMO);
    s.finish(0);
    let _ = s.take_changes();
    s
}
