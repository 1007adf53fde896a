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

pub fn to_html(text: &str, out: &mut String) {
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
    fn code_blocks_are_highlighted_with_classes() {
        let h = html("```rust\nfn main() { let x = \"</pre>\"; }\n```\n");
        assert!(h.contains("<pre class=\"code\""), "{h}");
        assert!(h.contains("&lt;/pre&gt;"), "{h}");
        assert!(h.contains("class=\"s-"), "{h}");
    }
}
