//! Finding one's way in a page: links up (to the archive's index and the
//! project), a table of contents of the prompts with anchors (`#prompt-12`),
//! ids that tie a tool call and its subagent both ways, each row's line as
//! `ccv FILE:LINE` in a tooltip, and an optional inline script (search,
//! filter by kind, expand and collapse all) that the page's policy allows
//! by its hash alone. Without the script the page is whole and readable.

use super::esc;
use crate::model::Kind;
use crate::model::session::Session;

/// How a page links out and what it carries besides the transcript.
#[derive(Debug, Clone, Default)]
pub struct Nav {
    /// Links at the top, in order: (href, label), e.g. the archive's index
    /// and the session's project page.
    pub up: Vec<(String, String)>,
    /// The inline script.
    pub script: bool,
}

/// An id made of what the page may use in `id=` and `#` (letters, digits,
/// `-`, `_`): any other byte as `_`.
pub fn id(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => b as char,
            _ => '_',
        })
        .collect()
}

/// The script: a search box that hides the rows without the words and
/// opens those with them, a filter by kind, expand and collapse all.
pub const SCRIPT: &str = r#"(function(){
var bar=document.getElementById('tools');if(!bar)return;bar.hidden=false;
var rows=function(){return document.querySelectorAll('main .row, main .call, main .group, main .result')};
document.getElementById('open-all').onclick=function(){document.querySelectorAll('details').forEach(function(d){d.open=true})};
document.getElementById('close-all').onclick=function(){document.querySelectorAll('main details').forEach(function(d){d.open=false})};
var q=document.getElementById('find');
q.oninput=function(){var w=q.value.toLowerCase().split(/\s+/).filter(Boolean);
rows().forEach(function(r){var t=r.textContent.toLowerCase();var hit=w.every(function(x){return t.indexOf(x)>=0});
r.classList.toggle('miss',w.length>0&&!hit);
if(w.length&&hit){for(var p=r;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true}}})};
document.querySelectorAll('#tools input[type=checkbox]').forEach(function(c){c.onchange=function(){document.body.classList.toggle('hide-'+c.value,!c.checked)}});
})();"#;

/// `'sha256-…'`: what the page's policy allows to run.
pub fn script_hash() -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(SCRIPT.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The bar the script shows (hidden without it: the page does not offer
/// what it cannot do).
pub const TOOLS: &str = "<div id=\"tools\" hidden><input id=\"find\" type=\"search\" placeholder=\"find in this session\"> \
<label><input type=\"checkbox\" value=\"thinking\" checked> thinking</label> \
<label><input type=\"checkbox\" value=\"call\" checked> tools</label> \
<label><input type=\"checkbox\" value=\"system\" checked> system</label> \
<button id=\"open-all\" type=\"button\">expand all</button> <button id=\"close-all\" type=\"button\">collapse all</button></div>\n";

/// The prompts of the main transcript `filters` show, in order, as
/// the table of contents lists them: their first line, whole (cut to
/// [`TOC_CHARS`] only once it is made safe and redacted: a key cut first
/// no longer has the shape its rule knows, and its head was left on the
/// page).
pub fn prompts(session: &Session, filters: &crate::walk::Filters) -> Vec<String> {
    session
        .main
        .items
        .iter()
        .filter(|i| i.kind == Kind::User && filters.keeps(i))
        .map(|i| {
            let t = session.item_text(i);
            t.lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

/// How much of a prompt's first line the table of contents shows.
pub const TOC_CHARS: usize = 100;

/// The table of contents: a link to each prompt's anchor. `first_lines`
/// are made safe and redacted already; they are escaped here.
pub fn toc(first_lines: &[String]) -> String {
    if first_lines.is_empty() {
        return String::new();
    }
    let mut o = format!(
        "<nav class=\"toc\"><details><summary>{} prompt{}</summary><ol>\n",
        first_lines.len(),
        if first_lines.len() == 1 { "" } else { "s" }
    );
    for (n, l) in first_lines.iter().enumerate() {
        o.push_str(&format!(
            "<li><a href=\"#prompt-{}\">{}</a></li>\n",
            n + 1,
            esc(l)
        ));
    }
    o.push_str("</ol></details></nav>\n");
    o
}
