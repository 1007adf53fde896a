//! A request's tokens, as the model counts and prices them: input,
//! output, cache writes (by lifetime) and reads, and whether it was served
//! in fast mode. The fields are the Anthropic API's names; a source of
//! another format fills them from its own.

use serde::Deserialize;

#[derive(Deserialize, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    #[serde(default, deserialize_with = "token_count")]
    pub input_tokens: u64,
    #[serde(default, deserialize_with = "token_count")]
    pub output_tokens: u64,
    #[serde(default, deserialize_with = "token_count")]
    pub cache_creation_input_tokens: u64,
    #[serde(default, deserialize_with = "token_count")]
    pub cache_read_input_tokens: u64,
    /// How the cache writes split by lifetime (priced differently).
    #[serde(default)]
    pub cache_creation: CacheCreation,
    /// `speed: "fast"`: served in fast mode (`/fast`), at the model's fast
    /// rates.
    #[serde(default, rename = "speed", deserialize_with = "fast_speed")]
    pub fast: bool,
    /// Some of it could not be read (a count that is no count, a usage
    /// that is no object): the line's warning names the field, and the
    /// message is counted as unpriced, under [`UNREADABLE`], not priced
    /// from what was left.
    #[serde(skip)]
    pub unreadable: bool,
}

/// What a message whose usage could not be read whole is counted under
/// where others are by their model (unpriced messages, `--by model`).
pub const UNREADABLE: &str = "(usage unreadable)";

impl Usage {
    /// The usage of a message whose usage could not be read at all.
    pub fn unreadable() -> Usage {
        Usage {
            unreadable: true,
            ..Usage::default()
        }
    }

    /// The model a message of this usage is counted under: its own, or
    /// [`UNREADABLE`].
    pub fn counted_as<'a>(&self, model: Option<&'a str>) -> Option<&'a str> {
        if self.unreadable {
            Some(UNREADABLE)
        } else {
            model
        }
    }
}

/// `usage.speed`: `"fast"`, else standard (`"standard"`, or anything of
/// another shape, which costs no other field).
fn fast_speed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    struct Speed;
    impl<'de> serde::de::Visitor<'de> for Speed {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a speed")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<bool, E> {
            Ok(v == "fast")
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_some<D2: serde::Deserializer<'de>>(self, d: D2) -> Result<bool, D2::Error> {
            d.deserialize_any(Speed)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<bool, A::Error> {
            while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(false)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<bool, A::Error> {
            while a
                .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                .is_some()
            {}
            Ok(false)
        }
    }
    d.deserialize_any(Speed)
}

impl Usage {
    /// Every token of the request: input, output, cache writes and reads.
    pub fn total(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.output_tokens)
            .saturating_add(self.cache_creation_input_tokens)
            .saturating_add(self.cache_read_input_tokens)
    }
}

/// More tokens than one request can carry (a context window is a million
/// or two; this is a thousand of the largest): a count past it is damage,
/// reported as a field of an unexpected value with its line, and left out
/// of every sum. (It was 2^40: a trillion cache reads made a session cost
/// $500,000 and its context 499,999,999% full.)
pub const MAX_REQUEST_TOKENS: u64 = 1 << 30;

fn token_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = u64::deserialize(d)?;
    if n > MAX_REQUEST_TOKENS {
        return Err(serde::de::Error::custom(format_args!(
            "{n} tokens in one request is not a count"
        )));
    }
    Ok(n)
}

#[derive(Deserialize, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheCreation {
    #[serde(default, deserialize_with = "token_count")]
    pub ephemeral_5m_input_tokens: u64,
    #[serde(default, deserialize_with = "token_count")]
    pub ephemeral_1h_input_tokens: u64,
}
