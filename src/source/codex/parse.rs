//! A Codex line parsed into the `Value` serde_json makes of it, but for
//! the reasoning the model encrypted (`encrypted_content` of a
//! `reasoning` item: a fifth of the bytes of real rollouts), which
//! nothing shows: the translation asks only whether it is there, so it
//! is checked but not copied, and kept as `true` (`null` stays `null`).
//! Copying it into a string was a tenth of reading a rollout.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// `line` parsed (`Null`: not JSON, which is no line of Codex's either).
pub(super) fn parse(line: &[u8]) -> Value {
    match serde_json::from_slice::<Lean>(line) {
        Ok(Lean(v)) => v,
        // a shape this does not make as serde does (see `visit_map`), or
        // no JSON at all: serde's own reading says which
        Err(_) => serde_json::from_slice(line).unwrap_or(Value::Null),
    }
}

struct Lean(Value);

impl<'de> Deserialize<'de> for Lean {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LeanVisitor).map(Lean)
    }
}

/// serde_json's own visitor for `Value` (its numbers, its last key of a
/// name winning in the first one's place), objects aside.
struct LeanVisitor;

impl<'de> Visitor<'de> for LeanVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Lean::deserialize(d).map(|l| l.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Lean(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        let mut passed = false;
        while let Some(key) = map.next_key::<String>()? {
            // serde reads the value of this key as JSON held in a string
            if out.is_empty() && key == "$serde_json::private::RawValue" {
                return Err(de::Error::custom("left to serde"));
            }
            // (the item says what it is before its encrypted part, as
            // Codex writes it; asked of that key alone: a lookup for every
            // key cost more than the copies spared)
            let value = if key == "encrypted_content"
                && out.get("type").and_then(Value::as_str) == Some("reasoning")
            {
                passed = true;
                // a string borrowed from the line, checked as serde checks
                // it (UTF-8, no control byte) but not copied; any other
                // value (escapes, a number, an object) is left to serde
                match map.next_value::<Option<&'de str>>()? {
                    Some(_) => Value::Bool(true),
                    None => Value::Null,
                }
            } else {
                map.next_value::<Lean>()?.0
            };
            out.insert(key, value);
        }
        // a later `type` made it something else, whose reader may read it
        if passed && out.get("type").and_then(Value::as_str) != Some("reasoning") {
            return Err(de::Error::custom("left to serde"));
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use serde_json::{Value, json};

    /// What serde makes of every line, but a reasoning's encrypted part.
    #[test]
    fn a_line_is_what_serde_makes_of_it_but_the_encrypted_reasoning() {
        for line in [
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a\"b\u00e9\ud83d\ude00"}]}}"#,
            r#"{"a":1,"b":-2,"c":1.5,"d":1e400,"e":18446744073709551615,"f":[true,false,null,{}],"a":3}"#,
            r#"{"type":"message","encrypted_content":"kept, not a reasoning's"}"#,
            r#"{"encrypted_content":"before its type","type":"reasoning"}"#,
            r#"{"type":"reasoning","encrypted_content":null}"#,
            r#"{"type":"reasoning","encrypted_content":1e400}"#,
            r#"{"type":"reasoning","encrypted_content":{"a":[1]}}"#,
            r#"{"type":"reasoning","encrypted_content":"with \u0041n escape"}"#,
            "{\"type\":\"reasoning\",\"encrypted_content\":\"\\ud800 lone\"}",
            "{\"type\":\"reasoning\",\"encrypted_content\":\"a\tb\"}",
            r#"[1, "two", {"three": 3}]"#,
            r#""a string""#,
            "not json",
            r#"{"a":"#,
            r#"{"type":"reasoning","encrypted_content":"x","encrypted_content":"#,
            r#"{"$serde_json::private::RawValue":"{\"a\":1}"}"#,
        ] {
            let serde: Value = serde_json::from_str(line).unwrap_or(Value::Null);
            let lean = parse(line.as_bytes());
            let same = match (&lean, &serde) {
                (Value::Object(l), Value::Object(s)) => {
                    // the order of keys too
                    l.keys().eq(s.keys())
                        && l.iter().zip(s.values()).all(|((k, l), s)| {
                            l == s
                                || (k == "encrypted_content" && *l == json!(true) && !s.is_null())
                        })
                }
                _ => lean == serde,
            };
            assert!(same, "{line}: {lean} against {serde}");
        }
        // a line that is not UTF-8 in its encrypted part is refused, as
        // serde refuses it
        let mut bad = br#"{"type":"reasoning","encrypted_content":"ab"}"#.to_vec();
        bad[41] = 0xff;
        assert_eq!(parse(&bad), Value::Null);
        let reasoning = r#"{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[],"content":null,"encrypted_content":"gAAAAB=="}}"#;
        assert_eq!(
            parse(reasoning.as_bytes()),
            json!({"timestamp": "t", "type": "response_item", "payload":
                {"type": "reasoning", "summary": [], "content": null, "encrypted_content": true}})
        );
        // a later type makes it another item, read as serde reads it
        let retyped = r#"{"type":"reasoning","encrypted_content":"x","type":"message"}"#;
        assert_eq!(
            parse(retyped.as_bytes()),
            serde_json::from_str::<Value>(retyped).unwrap_or(Value::Null)
        );
    }
}
