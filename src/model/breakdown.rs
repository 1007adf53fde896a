//! A session's figures broken down: calls by tool, and tokens and cost by
//! quarter hour and model. Read back from the listing's cache, they stay
//! in its bytes until something asks for them: a listing shows neither,
//! and decoding them (two dozen small strings and nodes a session) was a
//! sixth of a warm listing of 10,000 sessions.

use super::figures::Slice;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// More tools, slices, or bytes to a name than a session holds: read
/// back, a breakdown past them was damaged.
pub const MAX_TOOLS: usize = 100_000;
pub const MAX_SLICES: usize = 1_000_000;
pub const MAX_NAME: usize = 1024;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// Calls by tool name, agents included.
    pub tools: BTreeMap<String, u32>,
    /// Sorted by time, then model.
    #[serde(deserialize_with = "super::figures::slices_exact")]
    pub slices: Vec<Slice>,
}

impl Breakdown {
    /// Whether a breakdown read back can be true (see
    /// [`super::figures::Figures::is_sane`]).
    pub fn is_sane(&self) -> bool {
        self.tools.len() <= MAX_TOOLS
            && self.tools.keys().all(|k| k.len() <= MAX_NAME)
            && self.slices.len() <= MAX_SLICES
            && self.slices.iter().all(Slice::is_sane)
    }

    /// Messages with no price, by model, from the slices.
    pub fn unpriced_models(&self) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for s in self.slices.iter().filter(|s| s.cost.unpriced > 0) {
            *out.entry(unpriced_name(&s.model)).or_insert(0) += s.cost.unpriced;
        }
        out
    }
}

/// How a model with unpriced messages is named (`(no model)` for none).
pub fn unpriced_name(model: &str) -> String {
    if model.is_empty() {
        "(no model)".to_owned()
    } else {
        model.to_owned()
    }
}

/// Turns packed bytes into their breakdown. The bytes were checked when
/// they were packed: a decoder that still fails gives what it read.
pub type Unpack = fn(&[u8]) -> Breakdown;

/// A [`Breakdown`], or the bytes it is packed in until it is asked for.
#[derive(Clone, Default)]
pub struct Detail {
    decoded: Breakdown,
    packed: Option<Packed>,
}

#[derive(Clone)]
struct Packed {
    bytes: Box<[u8]>,
    unpack: Unpack,
    /// Told when the bytes were checked (every row of a listing shows
    /// it; it is empty but for sessions of unknown models).
    unpriced: BTreeMap<String, u32>,
}

impl Detail {
    pub fn new(b: Breakdown) -> Detail {
        Detail {
            decoded: b,
            packed: None,
        }
    }

    /// Bytes `unpack` turns into the breakdown, checked by whoever packed
    /// them, and the unpriced messages by model they hold.
    pub fn packed(bytes: Box<[u8]>, unpack: Unpack, unpriced: BTreeMap<String, u32>) -> Detail {
        Detail {
            decoded: Breakdown::default(),
            packed: Some(Packed {
                bytes,
                unpack,
                unpriced,
            }),
        }
    }

    /// The breakdown (decoded anew at each call while packed).
    pub fn get(&self) -> Cow<'_, Breakdown> {
        match &self.packed {
            Some(p) => Cow::Owned((p.unpack)(&p.bytes)),
            None => Cow::Borrowed(&self.decoded),
        }
    }

    /// The breakdown, decoded for good.
    pub fn get_mut(&mut self) -> &mut Breakdown {
        if let Some(p) = self.packed.take() {
            self.decoded = (p.unpack)(&p.bytes);
        }
        &mut self.decoded
    }

    /// The packed bytes, when the breakdown is still in them.
    pub fn packed_bytes(&self) -> Option<&[u8]> {
        self.packed.as_ref().map(|p| &*p.bytes)
    }

    /// Messages with no price, by model.
    pub fn unpriced_models(&self) -> BTreeMap<String, u32> {
        match &self.packed {
            Some(p) => p.unpriced.clone(),
            None => self.decoded.unpriced_models(),
        }
    }
}

impl std::fmt::Debug for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Detail) -> bool {
        match (self.packed_bytes(), other.packed_bytes()) {
            (Some(a), Some(b)) if a == b => true,
            _ => self.get() == other.get(),
        }
    }
}

impl Serialize for Detail {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Detail {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Detail, D::Error> {
        Breakdown::deserialize(d).map(Detail::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Breakdown {
        Breakdown {
            tools: [("Bash".to_owned(), 2)].into(),
            slices: vec![Slice {
                at_ms: 5,
                model: String::new(),
                cost: crate::model::price::Cost {
                    usd: 0.0,
                    unpriced: 3,
                },
                ..Slice::default()
            }],
        }
    }

    /// Packed or not, a detail gives the same breakdown and unpriced
    /// models, and compares equal; asked to change, it is decoded.
    #[test]
    fn a_packed_detail_is_the_breakdown_it_holds() {
        let unpack: Unpack = |b| {
            if b == b"two" {
                two()
            } else {
                Breakdown::default()
            }
        };
        let plain = Detail::new(two());
        let mut packed = Detail::packed(b"two".to_vec().into(), unpack, two().unpriced_models());
        assert_eq!(*packed.get(), two());
        assert_eq!(packed, plain);
        assert_eq!(packed.unpriced_models(), plain.unpriced_models());
        assert_eq!(
            plain.unpriced_models(),
            BTreeMap::from([("(no model)".to_owned(), 3)])
        );
        assert!(packed.packed_bytes().is_some());
        packed.get_mut().tools.insert("Read".into(), 1);
        assert!(packed.packed_bytes().is_none());
        assert_eq!(packed.get().tools.len(), 2);
        assert_ne!(packed, plain);
        assert_eq!(
            serde_json::to_string(&plain).expect("json"),
            serde_json::to_string(&two()).expect("json")
        );
    }
}
