//! What an archive holds (`DIR/.ccv-archive.json`): for each session its
//! file's size and mtime and its subagents' count and mark (the listing
//! cache's key: a change renders the page again), its page, and what the
//! indexes say of it. A manifest that
//! does not read, or was made with other options or another ccv, is none:
//! every page is made again.

use super::{Options, Sums};
use crate::catalog::SessionInfo;
use crate::model::figures::Figures;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const FILE: &str = ".ccv-archive.json";
/// A manifest longer than this is not one ccv wrote.
const MAX: u64 = 256 << 20;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub size: u64,
    pub mtime_ns: i64,
    /// Its subagents as the listing counted them: their number and the
    /// mark of their folders when settled (an agent added, a Workflow run
    /// started, with the session's own file as it was, renders it again).
    #[serde(default)]
    pub agents: (u32, Option<(i64, u32)>),
    /// The page, relative to the archive (`<project>/<id>.html`).
    pub page: String,
    /// The session's directory, as recorded.
    pub project: String,
    pub title: String,
    pub started_ms: Option<i64>,
    pub last_ms: i64,
    pub sums: Sums,
    /// Its figures by UTC day (`2026-11-24`).
    pub days: BTreeMap<String, Sums>,
}

impl Entry {
    pub fn new(info: &SessionInfo, page: &str, title: String, fig: &Figures) -> Entry {
        let mut days: BTreeMap<String, Sums> = BTreeMap::new();
        let detail = fig.detail.get();
        for s in &detail.slices {
            let day = crate::model::time::format_iso(s.at_ms)
                .get(..10)
                .unwrap_or("")
                .to_owned();
            let d = days.entry(day).or_default();
            d.prompts += s.prompts;
            d.tool_calls += s.tool_calls;
            d.tokens.add(&s.tokens);
            d.cost.usd += s.cost.usd;
            d.cost.unpriced = d.cost.unpriced.saturating_add(s.cost.unpriced);
        }
        for d in days.values_mut() {
            d.sessions = 1;
        }
        Entry {
            size: info.size,
            mtime_ns: info.mtime_ns,
            agents: (info.subagents, info.subagent_files),
            page: page.to_owned(),
            project: info.project.clone(),
            title,
            started_ms: detail.slices.first().map(|s| s.at_ms),
            last_ms: info.last_activity_ms,
            sums: Sums {
                sessions: 1,
                prompts: fig.prompts,
                tool_calls: fig.tool_calls,
                tokens: fig.tokens,
                cost: fig.cost,
            },
            days,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub ccv_archive: u32,
    pub ccv: String,
    pub redact: bool,
    /// When redacting, what the redactor replaces (a page made by one that
    /// let a secret through is made again): see
    /// [`crate::redact::Redactor::fingerprint`].
    #[serde(default)]
    pub redactor: String,
    pub script: bool,
    /// The price table the costs were made with.
    pub prices: String,
    /// By session file.
    pub sessions: BTreeMap<String, Entry>,
}

impl Manifest {
    pub fn new(opts: &Options) -> Manifest {
        Manifest {
            // 2: sealed with a check (see `crate::packed::sealed`)
            ccv_archive: 2,
            ccv: env!("CARGO_PKG_VERSION").to_owned(),
            redact: opts.redact,
            redactor: match opts.redact {
                true => crate::redact::active().fingerprint(),
                false => String::new(),
            },
            script: opts.script,
            prices: crate::model::price::PriceTable::active().fingerprint(),
            sessions: BTreeMap::new(),
        }
    }

    /// The manifest in `dir`, when it is one this ccv made with `opts`;
    /// else an empty one (every page is made again).
    pub fn load(dir: &Path, opts: &Options) -> Manifest {
        let fresh = Manifest::new(opts);
        let path = dir.join(FILE);
        let ok = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX);
        let Some(text) = ok.then(|| std::fs::read(&path).ok()).flatten() else {
            return fresh;
        };
        // a cost or a count damaged into another was believed: an index
        // page summed it
        let body = crate::packed::unsealed(&text).unwrap_or("");
        match serde_json::from_str::<Manifest>(body) {
            Ok(m)
                if m.ccv_archive == fresh.ccv_archive
                    && m.ccv == fresh.ccv
                    && m.redact == fresh.redact
                    && m.redactor == fresh.redactor
                    && m.script == fresh.script
                    && m.prices == fresh.prices
                    && m.sessions.values().all(|e| safe_page(&e.page)) =>
            {
                m
            }
            _ => fresh,
        }
    }

    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let text = crate::packed::sealed(&serde_json::to_vec(self).map_err(std::io::Error::other)?);
        crate::writes::write_file(&dir.join(FILE), true, |w| {
            std::io::Write::write_all(w, &text)
        })?;
        Ok(())
    }
}

/// A page path a manifest may name: `<folder>/<name>.html`, of safe
/// characters, never going up or out.
pub fn safe_page(page: &str) -> bool {
    let mut parts = page.split('/');
    let (Some(dir), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let ok = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    ok(dir) && ok(name) && name.ends_with(".html")
}
