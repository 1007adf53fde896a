//! Markdown from a session as safe HTML: pulldown-cmark's renderer with
//! the session's own HTML shown as text, links only to `http(s)` and
//! `mailto`, no remote images, and code blocks highlighted with classes.

use super::esc;
use pulldown_cmark::{CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// The URL schemes a link may keep.
fn safe_url(url: &str) -> bool {
    let u = url.trim_start().to_ascii_lowercase();
    u.starts_with("https://") || u.starts_with("http://") || u.starts_with("mailto:")
}

/// A text longer than this is made HTML a piece at a time, cut between
/// its blocks (see [`block_break`]): the parser holds a whole text's
/// blocks and the renderer its events, and an answer of 54 MB took 2.9 GB
/// and 9 s to export.
const PIECE: usize = 256 << 10;

pub fn to_html(text: &str, out: &mut String) {
    let mut rest = text;
    while rest.len() > PIECE {
        let Some(cut) = block_break(rest, PIECE) else {
            break;
        };
        let (piece, after) = rest.split_at(cut);
        piece_to_html(piece, out);
        rest = after;
        // (as the renderer puts a block on a line of its own)
        if !out.ends_with('\n') && !rest.trim().is_empty() {
            out.push('\n');
        }
    }
    piece_to_html(rest, out);
}

/// Where `text` may be cut between two blocks at or after byte `at`: past
/// the first blank line there that no fenced code block holds. (A list
/// cut there is two lists; an ordered one goes on from its number.)
fn block_break(text: &str, at: usize) -> Option<usize> {
    // the fence open: its character and how many
    let mut fence: Option<(u8, usize)> = None;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let start = end;
        end += line.len();
        let t = line.trim_start_matches(' ');
        let run = |c: u8| t.bytes().take_while(|&b| b == c).count();
        let (c, n) = match t.as_bytes().first() {
            Some(&c @ (b'`' | b'~')) => (c, run(c)),
            _ => (0, 0),
        };
        if line.len() - t.len() <= 3 && n >= 3 {
            fence = match fence {
                None => Some((c, n)),
                Some((open, m)) if open == c && n >= m && t[n..].trim().is_empty() => None,
                open => open,
            };
            continue;
        }
        if fence.is_none() && start >= at && line.trim().is_empty() {
            return Some(end);
        }
    }
    None
}

fn piece_to_html(text: &str, out: &mut String) {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    opts.insert(Options::ENABLE_TASKLISTS);
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut code: Option<(String, String)> = None;
    // links dropped for their scheme: their end tags go too
    let mut dropped_links = 0usize;
    for ev in Parser::new_ext(text, opts) {
        if let Some((lang, body)) = &mut code {
            match ev {
                Event::Text(t) => body.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let mut html = String::new();
                    super::code::block(body, lang, &mut html);
                    events.push(Event::Html(CowStr::from(html)));
                    code = None;
                }
                _ => {}
            }
            continue;
        }
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            // the session's own markup is text here
            Event::Html(h) | Event::InlineHtml(h) => events.push(Event::Text(h)),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if safe_url(&dest_url) || link_type == LinkType::Email {
                    events.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url,
                        title,
                        id,
                    }));
                } else {
                    dropped_links += 1;
                    events.push(Event::Text(CowStr::from(format!("[{dest_url}] "))));
                }
            }
            Event::End(TagEnd::Link) if dropped_links > 0 => dropped_links -= 1,
            // no request leaves the page: an image is its alt text
            Event::Start(Tag::Image { dest_url, .. }) => {
                events.push(Event::Text(CowStr::from(format!("[image {dest_url}: "))));
            }
            Event::End(TagEnd::Image) => {
                events.push(Event::Text(CowStr::from("]")));
            }
            other => events.push(other),
        }
    }
    if let Some((lang, body)) = code {
        let mut html = String::new();
        super::code::block(&body, &lang, &mut html);
        events.push(Event::Html(CowStr::from(html)));
    }
    pulldown_cmark::html::push_html(out, events.into_iter());
}

/// Text shown as it is (prompts, outputs): escaped, whitespace kept.
pub fn plain(text: &str, out: &mut String) {
    out.push_str("<div class=\"plain\">");
    out.push_str(&esc(text));
    out.push_str("</div>");
}

#[cfg(test)]
mod tests {
    fn html(md: &str) -> String {
        let mut s = String::new();
        super::to_html(md, &mut s);
        s
    }

    #[test]
    fn hostile_markdown_stays_text() {
        let h = html(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](https://e.com/\"onmouseover=\"a)\n\n![i](https://tracker.example/p.png)\n\n<img src=x onerror=alert(1)>",
        );
        assert!(!h.contains("<script"), "{h}");
        assert!(!h.contains("<img"), "{h}");
        assert!(!h.contains("href=\"javascript"), "{h}");
        assert!(!h.contains("\"onmouseover"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
        assert!(h.contains("href=\"https://e.com/"), "{h}");
    }

    #[test]
    fn a_long_text_is_made_a_piece_at_a_time_as_it_is_whole() {
        let mut md = String::new();
        let mut n = 0;
        while md.len() < 3 * super::PIECE {
            n += 1;
            md.push_str(&format!(
                "## Part {n}\n\nSome *text* with `code` and [a link](https://e.com/{n}).\n\n"
            ));
            // blank lines inside a fence: no cut there
            md.push_str(
                "```python\ndef f():\n\n\n    return 1\n```\n\n~~~~\n```\n\nstill code\n~~~~\n\n",
            );
        }
        // (each a page of its own: the highlighting has a budget a page)
        let mut whole = String::new();
        super::super::code::new_page();
        super::piece_to_html(&md, &mut whole);
        super::super::code::new_page();
        let pieces = html(&md);
        assert!(pieces == whole, "the same page");
        let mut cuts = 0;
        let mut rest = md.as_str();
        while let Some(at) = super::block_break(rest, super::PIECE) {
            cuts += 1;
            rest = &rest[at..];
        }
        assert!(cuts >= 2, "{cuts} cuts");
    }

    #[test]
    fn code_blocks_are_highlighted_with_classes() {
        let h = html("```rust\nfn main() { let x = \"</pre>\"; }\n```\n");
        assert!(h.contains("<pre class=\"code\""), "{h}");
        assert!(h.contains("&lt;/pre&gt;"), "{h}");
        assert!(h.contains("class=\"s-"), "{h}");
    }
}
