//! The archive's index pages: `index.html` (totals, per-day totals, every
//! project with its sessions) and a page per project. Made whole each run
//! and written only when their text changed (a run that changed nothing
//! touches nothing).

use super::Sums;
use super::manifest::{Entry, Manifest};
use crate::html::{esc, readable_time, thousands};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

const STYLE: &str = "
:root { --fg: #24292f; --dim: #6e7781; --bg: #ffffff; --rule: #d8dee4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --dim: #8d96a0; --bg: #0d1117; --rule: #30363d; } }
body { font: 15px/1.45 -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif;
  color: var(--fg); background: var(--bg); max-width: 70em; margin: 1.5em auto; padding: 0 1em; }
a { color: #0969da; } @media (prefers-color-scheme: dark) { a { color: #58a6ff; } }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
nav.up { font-size: .9em; } .dim { color: var(--dim); }
table { border-collapse: collapse; width: 100%; font-size: .92em; }
th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid var(--rule); vertical-align: top; }
td.n, th.n { text-align: right; white-space: nowrap; } td.t { overflow-wrap: anywhere; }
details > summary { cursor: pointer; }
footer { color: var(--dim); font-size: .8em; margin-top: 2em; border-top: 1px solid var(--rule); padding-top: .5em; }
";

fn page(title: &str, up: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{t} — ccv</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{up}<h1>{t}</h1>\n{body}\
<footer>Made by ccv {v}</footer>\n</body>\n</html>\n",
        t = esc(title),
        v = env!("CARGO_PKG_VERSION"),
    )
}

fn cost(c: &crate::model::price::Cost) -> String {
    match (c.priced_usd(), c.unpriced) {
        (None, 0) => String::new(),
        (None, _) => "?".into(),
        (Some(u), 0) => money(u),
        (Some(u), _) => format!("{}+?", money(u)),
    }
}

fn money(u: f64) -> String {
    if u > 0.0 && u < 0.01 {
        format!("${u:.4}")
    } else {
        let cents = (u * 100.0).round() as u64;
        format!("${}.{:02}", thousands(cents / 100), cents % 100)
    }
}

fn sums_cells(s: &Sums) -> String {
    format!(
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
        thousands(u64::from(s.prompts)),
        thousands(u64::from(s.tool_calls)),
        thousands(s.tokens.total()),
        cost(&s.cost)
    )
}

/// A session's line: `href` is its page from the page the table is on.
fn session_row(e: &Entry, href: &str) -> String {
    let when = readable_time(e.last_ms);
    let took = e
        .started_ms
        .filter(|s| e.last_ms > *s)
        .map(|s| crate::model::time::human_duration((e.last_ms - s) as u64))
        .unwrap_or_default();
    let title = if e.title.trim().is_empty() {
        "(untitled)".to_owned()
    } else {
        e.title.chars().take(160).collect()
    };
    format!(
        "<tr><td class=\"t\"><a href=\"{}\">{}</a></td><td>{}</td><td class=\"n\">{}</td>{}</tr>\n",
        esc(href),
        esc(&title),
        esc(when.get(..16).unwrap_or(&when)),
        esc(&took),
        sums_cells(&e.sums)
    )
}

const SESSION_HEAD: &str = "<tr><th>session</th><th>last active (UTC)</th><th class=\"n\">took</th><th class=\"n\">prompts</th><th class=\"n\">tool calls</th><th class=\"n\">tokens</th><th class=\"n\">cost</th></tr>\n";

fn days_table(entries: &[&Entry]) -> String {
    let mut days: BTreeMap<&str, Sums> = BTreeMap::new();
    for e in entries {
        for (d, s) in &e.days {
            days.entry(d.as_str()).or_default().add(s);
        }
    }
    if days.is_empty() {
        return String::new();
    }
    let mut o = String::from(
        "<details><summary>per day (UTC)</summary>\n<table>\n<tr><th>day</th><th class=\"n\">sessions</th><th class=\"n\">prompts</th><th class=\"n\">tool calls</th><th class=\"n\">tokens</th><th class=\"n\">cost</th></tr>\n",
    );
    for (d, s) in days.iter().rev() {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td class=\"n\">{}</td>{}</tr>",
            esc(d),
            s.sessions,
            sums_cells(s)
        );
    }
    o.push_str("</table></details>\n");
    o
}

fn total(entries: &[&Entry]) -> Sums {
    let mut t = Sums::default();
    for e in entries {
        t.add(&e.sums);
    }
    t
}

fn summary_line(entries: &[&Entry]) -> String {
    let t = total(entries);
    format!(
        "<p class=\"dim\">{} session{} · {} prompt{} · {} tool call{} · {} tokens · {}</p>\n",
        t.sessions,
        if t.sessions == 1 { "" } else { "s" },
        thousands(u64::from(t.prompts)),
        if t.prompts == 1 { "" } else { "s" },
        thousands(u64::from(t.tool_calls)),
        if t.tool_calls == 1 { "" } else { "s" },
        thousands(t.tokens.total()),
        cost(&t.cost)
    )
}

/// The project folder of a page (`<folder>/<id>.html`).
fn folder(page: &str) -> &str {
    page.split('/').next().unwrap_or("")
}

/// Writes `index.html` and each project's page when their text changed,
/// and removes the pages of projects that are gone; how many it wrote.
pub fn write_indexes(dir: &Path, new: &Manifest, old: &Manifest) -> io::Result<usize> {
    // projects, newest session first, each with its sessions newest first
    let mut projects: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in new.sessions.values() {
        projects.entry(folder(&e.page)).or_default().push(e);
    }
    for v in projects.values_mut() {
        v.sort_by(|a, b| b.last_ms.cmp(&a.last_ms).then(a.page.cmp(&b.page)));
    }
    let mut order: Vec<(&str, &Vec<&Entry>)> = projects.iter().map(|(k, v)| (*k, v)).collect();
    order.sort_by(|a, b| {
        let newest = |v: &Vec<&Entry>| v.first().map_or(0, |e| e.last_ms);
        newest(b.1).cmp(&newest(a.1)).then(a.0.cmp(b.0))
    });
    let mut written = 0;
    let all: Vec<&Entry> = new.sessions.values().collect();
    let mut index = summary_line(&all);
    index.push_str(&days_table(&all));
    for (slug, entries) in &order {
        let name = crate::paths::tilde(&entries[0].project);
        let _ = write!(
            index,
            "<h2 id=\"{slug}\"><a href=\"{slug}/index.html\">{}</a></h2>\n{}<table>\n{SESSION_HEAD}",
            esc(&name),
            summary_line(entries)
        );
        for e in entries.iter() {
            index.push_str(&session_row(e, &e.page));
        }
        index.push_str("</table>\n");
        // the project's own page
        let mut body = summary_line(entries);
        body.push_str(&days_table(entries));
        body.push_str("<table>\n");
        body.push_str(SESSION_HEAD);
        for e in entries.iter() {
            let own = e.page.split('/').nth(1).unwrap_or("");
            body.push_str(&session_row(e, own));
        }
        body.push_str("</table>\n");
        let up = "<nav class=\"up\"><a href=\"../index.html\">All projects</a></nav>\n";
        written += usize::from(write_if_changed(
            dir,
            &dir.join(slug).join("index.html"),
            &page(&name, up, &body),
        )?);
    }
    written += usize::from(write_if_changed(
        dir,
        &dir.join("index.html"),
        &page("Claude Code sessions", "", &index),
    )?);
    // projects no session is in any more
    for e in old.sessions.values() {
        let slug = folder(&e.page);
        if !projects.contains_key(slug) {
            let p = dir.join(slug).join("index.html");
            if !crate::writes::is_link(&dir.join(slug))
                && std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_file())
            {
                let _ = std::fs::remove_file(&p);
                let _ = std::fs::remove_dir(dir.join(slug));
            }
        }
    }
    Ok(written)
}

/// Writes `text` to `path` unless the file there already says it (its
/// mtime then stays: what did not change is not touched).
fn write_if_changed(dir: &Path, path: &Path, text: &str) -> io::Result<bool> {
    let same = std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_file() && m.len() == text.len() as u64)
        && std::fs::read(path).is_ok_and(|b| b == text.as_bytes());
    if same {
        return Ok(false);
    }
    // a project folder is ccv's (never a link); `dir` is the user's
    match path.parent() {
        Some(parent) if parent != dir => crate::writes::own_dir(parent)?,
        Some(parent) => crate::writes::private_dir(parent)?,
        None => {}
    }
    crate::writes::write_file(path, true, |w| {
        std::io::Write::write_all(w, text.as_bytes())
    })?;
    Ok(true)
}
