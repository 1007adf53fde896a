//! Images in the page: the model keeps only their type and size, so the
//! lines that hold them are read again, one pass over each file, and
//! their base64 embedded as `data:` URLs (the only source the page's
//! policy allows). Redacting leaves them out: an image may show a secret
//! that no pattern can find.

use crate::model::item::Detail;
use crate::model::session::Session;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};

/// The images of each (source, line), in the order the line holds them.
#[derive(Default)]
pub struct Images {
    by_line: HashMap<(u16, u32), Vec<(String, String)>>,
    /// (source, line) → the placeholders (`[image/png 12 KB]`).
    known: HashMap<(u16, u32), Vec<String>>,
}

/// The longest line read again for its images.
const LINE_CAP: u64 = 64 << 20;

const TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

impl Images {
    pub fn of(session: &Session) -> Images {
        let mut known: HashMap<(u16, u32), Vec<String>> = HashMap::new();
        let mut note = |source: u16, line: u32, imgs: &[crate::model::item::Image]| {
            if !imgs.is_empty() {
                known
                    .entry((source, line))
                    .or_default()
                    .extend(imgs.iter().map(|i| i.placeholder()));
            }
        };
        let transcripts =
            std::iter::once(&session.main).chain(session.agents.iter().map(|a| &a.transcript));
        for t in transcripts {
            for it in &t.items {
                match &it.detail {
                    Detail::Call(c) => {
                        if let Some(r) = &c.result {
                            note(r.source, r.line, &r.images);
                        }
                    }
                    Detail::OrphanResult(r) => note(r.source, r.line, &r.images),
                    Detail::Prompt(p) => note(it.source, it.line, &p.images),
                    _ => {}
                }
            }
        }
        let mut by_line = HashMap::new();
        let mut wanted: HashMap<u16, HashSet<u32>> = HashMap::new();
        for &(s, l) in known.keys() {
            wanted.entry(s).or_default().insert(l);
        }
        for (source, lines) in wanted {
            let Some(path) = session
                .sources
                .get(source as usize)
                .and_then(|s| s.path.as_ref())
            else {
                continue;
            };
            let Ok(f) = crate::model::session::open_regular(path) else {
                continue;
            };
            let mut r = BufReader::with_capacity(1 << 16, f);
            let mut buf = Vec::new();
            let mut n = 0u32;
            let last = lines.iter().copied().max().unwrap_or(0);
            while n < last {
                n += 1;
                // a line not wanted is skipped, never held: it may be huge
                if !lines.contains(&n) {
                    match r.skip_until(b'\n') {
                        Ok(0) | Err(_) => break,
                        Ok(_) => continue,
                    }
                }
                buf.clear();
                let read = std::io::Read::take(&mut r, LINE_CAP).read_until(b'\n', &mut buf);
                if matches!(read, Ok(0) | Err(_)) {
                    break;
                }
                if buf.last() != Some(&b'\n') && buf.len() as u64 >= LINE_CAP {
                    // longer than any line the model reads: left as a placeholder
                    let _ = r.skip_until(b'\n');
                    continue;
                }
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&buf) {
                    let mut found = Vec::new();
                    collect(&v, &mut found, 0);
                    by_line.insert((source, n), found);
                }
            }
        }
        Images { by_line, known }
    }

    /// The `<img>`s of a line (placeholders when redacting or unreadable).
    pub fn html_for(&self, source: u16, line: u32, redact: bool) -> String {
        let Some(names) = self.known.get(&(source, line)) else {
            return String::new();
        };
        let mut out = String::from("<div class=\"images\">");
        match self.by_line.get(&(source, line)) {
            Some(imgs) if !redact && !imgs.is_empty() => {
                for (ty, data) in imgs {
                    out.push_str(&format!(
                        "<img alt=\"{ty}\" src=\"data:{ty};base64,{data}\">"
                    ));
                }
            }
            _ => {
                for n in names {
                    let why = if redact { " (left out: redacting)" } else { "" };
                    out.push_str(&format!(
                        "<span class=\"image\">{}{why}</span>",
                        super::esc(n)
                    ));
                }
            }
        }
        out.push_str("</div>");
        out
    }
}

/// Every `{"type":"image","source":{"type":"base64",...}}` under `v`, of
/// a known type and with nothing but base64 in its data (so it is safe
/// in an attribute as it is).
fn collect(v: &serde_json::Value, out: &mut Vec<(String, String)>, depth: u8) {
    if depth > 12 {
        return;
    }
    match v {
        serde_json::Value::Object(m) => {
            if m.get("type").and_then(|t| t.as_str()) == Some("image")
                && let Some(src) = m.get("source")
                && src.get("type").and_then(|t| t.as_str()) == Some("base64")
                && let (Some(ty), Some(data)) = (
                    src.get("media_type").and_then(|t| t.as_str()),
                    src.get("data").and_then(|t| t.as_str()),
                )
                && TYPES.contains(&ty)
                && data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            {
                out.push((ty.to_owned(), data.to_owned()));
                return;
            }
            for x in m.values() {
                collect(x, out, depth + 1);
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                collect(x, out, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_base64_of_known_types_is_taken() {
        let v = serde_json::json!({"message": {"content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "image", "source": {"type": "base64", "media_type": "text/html", "data": "PHNjcmlwdD4="}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "x\" onerror=\"alert(1)"}},
            {"type": "image", "source": {"type": "url", "url": "https://tracker.example/x.png"}}
        ]}});
        let mut out = Vec::new();
        super::collect(&v, &mut out, 0);
        assert_eq!(
            out,
            vec![("image/png".to_owned(), "iVBORw0KGgo=".to_owned())]
        );
    }
}
