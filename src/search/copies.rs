//! Lines written twice. Claude Code rewrites some lines of a session
//! under the same uuid and content; the model shows such a line once, at
//! its first place (`repeated uuid`). A search decodes the lines that
//! hold its words each on its own, so both copies made hits: the same
//! row twice, one of them at a line the viewer does not show. The copies
//! a search decodes are compared here, by file, and only the first kept.

use super::Hit;
use super::extract::Copy;
use std::collections::HashMap;

/// Where each copy was first seen, by file (its path's hash).
#[derive(Default)]
pub struct Copies(HashMap<(u64, Copy), u32>);

/// What to do with the hits of a line that may be a copy.
#[derive(Debug, PartialEq, Eq)]
pub enum Admit {
    Keep,
    /// An earlier line holds it: the hit is a copy.
    Drop,
    /// This line is earlier than the one that made hits: those go.
    Replace(u32),
}

impl Copies {
    /// Whether a hit at `line` of the file `file`, of an entry of
    /// `copy`, is shown.
    pub fn admit(&mut self, file: u64, copy: Option<&Copy>, line: u32) -> Admit {
        let Some(copy) = copy else {
            return Admit::Keep;
        };
        match self.0.get_mut(&(file, copy.clone())) {
            None => {
                self.0.insert((file, copy.clone()), line);
                Admit::Keep
            }
            Some(first) if *first == line => Admit::Keep,
            Some(first) if *first < line => Admit::Drop,
            Some(first) => Admit::Replace(std::mem::replace(first, line)),
        }
    }

    /// Adds `found` (hits of the file `file` and their copies) to `hits`,
    /// leaving out copies; returns how many hits that left out (of
    /// `found`, or of `hits` for a line found earlier in the file).
    pub fn add_to(
        &mut self,
        hits: &mut Vec<Hit>,
        file: u64,
        found: Vec<(Hit, Option<Copy>)>,
    ) -> usize {
        let mut gone = 0;
        for (hit, copy) in found {
            match self.admit(file, copy.as_ref(), hit.line) {
                Admit::Keep => {}
                Admit::Drop => {
                    gone += 1;
                    continue;
                }
                Admit::Replace(later) => {
                    let before = hits.len();
                    hits.retain(|h| !(h.line == later && h.file == hit.file));
                    gone += before - hits.len();
                }
            }
            hits.push(hit);
        }
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::{Admit, Copies};

    /// The first line of a copy is kept whichever order the lines come in.
    #[test]
    fn the_first_line_of_a_copy_is_kept() {
        let mut c = Copies::default();
        let a: super::Copy = ("u1".into(), 7);
        assert_eq!(c.admit(1, Some(&a), 131), Admit::Keep);
        assert_eq!(c.admit(1, Some(&a), 131), Admit::Keep);
        assert_eq!(c.admit(1, Some(&a), 128), Admit::Replace(131));
        assert_eq!(c.admit(1, Some(&a), 131), Admit::Drop);
        // another file, another content, no uuid: apart
        assert_eq!(c.admit(2, Some(&a), 131), Admit::Keep);
        assert_eq!(c.admit(1, Some(&("u1".into(), 8)), 140), Admit::Keep);
        assert_eq!(c.admit(1, None, 150), Admit::Keep);
    }
}
