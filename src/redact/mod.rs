//! Secrets out of what is shared: every export format, copies, the HTML
//! page, file names and (with `#` twice) the screen go through one pass,
//! [`Redactor::redact`], over text **as it is shown** (see [`shown`]):
//! escape sequences, invisible characters, HTML entities, markdown
//! escapes, the escapes of JSON and code (`\u0067hp_…`, `\x67`, `\/`,
//! JSON in JSON's strings), a URL's percent-encoding and the Read tool's
//! line numbers do not hide a secret from it, and each hit is cut out of
//! the text as written.
//!
//! The rules (see [`rules`]) are gitleaks' provider rules with their
//! allowlists, and ccv's own for what a session holds that a source
//! scanner does not look for: `DB_PASSWORD=…` and other names that end in
//! a secret word (env, YAML, TOML, JSON keys, code), CLI flags
//! (`--password X`, `mysql -pX`), headers (`Authorization: Basic …`,
//! `X-Api-Key: …`), credentials in URLs, high-entropy env values. A rule
//! runs only on the lines that hold one of its keywords (one pass of an
//! Aho-Corasick automaton finds them), so redacting stays linear.
//!
//! A replacement (`[REDACTED:kind]`) never holds a character that JSON or
//! HTML escape, so redacting an export's text keeps it valid.

mod check;
mod json;
mod kept;
mod keywords;
mod programs;
pub mod rules;
pub mod shown;
mod wrapped;

use keywords::Keywords;
use rules::{Check, RuleSet};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{LazyLock, OnceLock};

pub struct Redactor {
    set: RuleSet,
    keywords: Keywords,
    /// Keyword number -> the rules it wakes.
    woken: Vec<Vec<u16>>,
    /// Rules with no keyword: they run on every text.
    always: Vec<u16>,
    /// Keywords from this number on are no rule's: they mark a text that
    /// shows otherwise than it is written (see [`TRIGGERS`]).
    first_trigger: u32,
}

/// What can make a text show otherwise than written (see [`shown`]), and
/// JSON escapes that could hide a keyword: found in the same pass as the
/// keywords, so that most texts are read once. (The characters beyond
/// ASCII that do, C1 controls and invisible ones, are looked for by
/// [`shown::high_changes`]: in the automaton they doubled its size.)
const TRIGGERS: &[&str] = &[
    "\u{1b}",
    "&#",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&apos;",
    "&nbsp;",
    "&lowbar;",
    "&underbar;",
    "&hyphen;",
    "&dash;",
    "&period;",
    "&sol;",
    "&colon;",
    "&equals;",
    "&shy;",
    "&zerowidthspace;",
    "\\_",
    "\\*",
    "\\~",
    "\\u",
    "\\x",
    "\\/",
    "\\\\\"",
    "%2",
    "%3",
    "%4",
    "%5",
    "%6",
    "%7",
];

/// A secret found in the shown text: its range and rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit {
    start: usize,
    end: usize,
    rule: u16,
}

const MARK: &str = "[REDACTED:";

/// Bumped when what is redacted changes beyond the rules: what a text is
/// read as (2: the escapes of JSON and code; 3: a URL's percent-encoding;
/// 4: a key hard-wrapped over lines, see `wrapped`), what is cut only
/// after it is redacted (a page's call summaries, titles). See
/// [`Redactor::fingerprint`].
const READING: u32 = 4;

impl Redactor {
    /// The built-in rules and `extra` (kind, pattern) from the config.
    pub fn new(extra: &[(String, String)]) -> Result<Redactor, String> {
        let set = RuleSet::new(extra)?;
        let mut words: Vec<String> = Vec::new();
        let mut woken: Vec<Vec<u16>> = Vec::new();
        let mut always = Vec::new();
        for (i, r) in set.rules.iter().enumerate() {
            if r.keywords.is_empty() {
                always.push(i as u16);
            }
            for k in &r.keywords {
                let at = match words.iter().position(|w| w == k) {
                    Some(at) => at,
                    None => {
                        words.push(k.clone());
                        woken.push(Vec::new());
                        words.len() - 1
                    }
                };
                woken[at].push(i as u16);
            }
        }
        let first_trigger = words.len() as u32;
        words.extend(TRIGGERS.iter().map(|t| (*t).to_owned()));
        let keywords = Keywords::new(&words)?;
        Ok(Redactor {
            set,
            keywords,
            woken,
            always,
            first_trigger,
        })
    }

    /// What this redactor replaces, in a word: another when a rule
    /// changes (the config's, gitleaks' refreshed) or how the text is read
    /// does ([`READING`]). An archive redacted by another is made again.
    pub fn fingerprint(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        READING.hash(&mut h);
        for r in &self.set.rules {
            r.kind.hash(&mut h);
            r.pattern.hash(&mut h);
        }
        format!("{READING}-{:016x}", h.finish())
    }

    /// How many rules are in use.
    pub fn rule_count(&self) -> usize {
        self.set.rules.len()
    }

    /// `text` with every secret replaced; each replacement is counted in
    /// this thread's [`Counts`] (and its row noted, see [`set_row`]).
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let (hits, shown) = self.find_shown(text);
        if hits.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for h in hits {
            let (mut a, b) = match &shown {
                Some(s) => s.written_range(text, h.start, h.end),
                None => (h.start, h.end),
            };
            // what shows as nothing just before goes too: a sequence left
            // open there (`ESC[`, written or escaped) would end in the
            // marker (`ESC[R`), which a screen and a second reading drop,
            // and the marker would be no marker
            if let Some(s) = &shown {
                a = s.dropped_before(a).max(at);
            }
            if a < at {
                continue;
            }
            let kind = &self.set.rules[h.rule as usize].kind;
            out.push_str(&text[at..a]);
            out.push_str(MARK);
            out.push_str(kind);
            out.push(']');
            at = b;
            count(kind, 1);
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Whether a JSON text as written (a string with its quotes, or a
    /// value) can hold a secret once read. `false` is a proof: it holds no
    /// escape that could hide a keyword (`\u`, `\/`, `\\_`), shows as it
    /// is written, and no rule would search it (one pass).
    pub fn json_may_hold(&self, written: &str) -> bool {
        let b = written.as_bytes();
        if !self.always.is_empty() {
            return true;
        }
        if shown::high_changes(written) || shown::intraword_markup(written) {
            return true;
        }
        with_scratch(|found| {
            self.keywords.find_all(b, found);
            found.iter().any(|&(at, k)| {
                k >= self.first_trigger
                    || self.woken.get(k as usize).is_some_and(|rules| {
                        rules
                            .iter()
                            .any(|&r| self.set.rules[r as usize].gate.is_none_or(|g| g(b, at)))
                    })
            })
        })
    }

    /// Whether `text` holds a secret (nothing counted).
    pub fn holds_secret(&self, text: &str) -> bool {
        !self.find_shown(text).0.is_empty()
    }

    /// The secrets of `text` as shown, and the shown form when it differs
    /// from the written one (the hits are in it then).
    fn find_shown<'a>(&self, text: &'a str) -> (Vec<Hit>, Option<shown::Shown<'a>>) {
        with_scratch(|found| {
            // colour codes (most tool output that has a trigger), or
            // markdown's marks inside a word: shown first, read once
            let colour = memchr::memchr(0x1b, text.as_bytes()).is_some()
                || shown::high_changes(text)
                || shown::intraword_markup(text);
            if !colour {
                self.keywords.find_all(text.as_bytes(), found);
            }
            if colour || found.iter().any(|&(_, k)| k >= self.first_trigger) {
                let shown = shown::Shown::of(text);
                if let Cow::Owned(t) = &shown.text {
                    self.keywords.find_all(t.as_bytes(), found);
                    let hits = self.find(t, found, Breaks::Newline);
                    return (hits, Some(shown));
                }
            }
            (self.find(text, found, Breaks::Newline), None)
        })
    }

    /// A JSON string as written (quotes and escapes), its secrets replaced,
    /// still JSON: read where it is written, neither decoded nor encoded
    /// again (most of a JSON export). `None` when it holds an escape that
    /// could hide a keyword (`\u`, `\/`, `\\_`) or something that shows
    /// otherwise than written: it is to be decoded and redacted as text.
    pub fn redact_json_string<'a>(&self, written: &'a str) -> Option<Cow<'a, str>> {
        // `\u001b` (colour codes) and the like: decoded at once, not read twice
        if ESCAPE_U.find(written.as_bytes()).is_some()
            || shown::high_changes(written)
            || shown::intraword_markup(written)
        {
            return None;
        }
        let hits = with_scratch(|found| {
            self.keywords.find_all(written.as_bytes(), found);
            if found.iter().any(|&(_, k)| k >= self.first_trigger) {
                return None;
            }
            Some(self.find(written, found, Breaks::JsonEscape))
        })?;
        if hits.is_empty() {
            return Some(Cow::Borrowed(written));
        }
        let mut out = String::with_capacity(written.len());
        let mut at = 0;
        // never a quote of the string's own: a rule's value that runs to
        // a quote (`vault login …"`) left the JSON without its end
        let inside = match written.as_bytes() {
            [b'"', .., b'"'] => 1..written.len() - 1,
            _ => 0..written.len(),
        };
        for h in hits {
            // never across an escape: a hit begins and ends where a
            // character does, and an escape (`\"`) is not cut in two
            let (mut a, mut b) = (
                h.start.clamp(inside.start, inside.end),
                h.end.clamp(inside.start, inside.end),
            );
            while b < written.len() && !written.is_char_boundary(b) {
                b += 1;
            }
            let wb = written.as_bytes();
            let odd_before =
                |i: usize| wb[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1;
            if b > a && odd_before(b) {
                b -= 1;
            }
            if a < b && odd_before(a) && written.is_char_boundary(a + 1) {
                a += 1;
            }
            if a < at || a >= b {
                continue;
            }
            let kind = &self.set.rules[h.rule as usize].kind;
            out.push_str(&written[at..a]);
            out.push_str(MARK);
            out.push_str(kind);
            out.push(']');
            at = b;
            count(kind, 1);
        }
        out.push_str(&written[at..]);
        Some(Cow::Owned(out))
    }

    /// The secrets of `text`, whose keywords are `found`, merged where
    /// they overlap, in order.
    fn find(&self, text: &str, found: &[(usize, u32)], breaks: Breaks) -> Vec<Hit> {
        let b = text.as_bytes();
        let mut jobs: Vec<(u16, usize, usize)> = Vec::new();
        let mut line = (0usize, 0usize);
        {
            for &(at, k) in found.iter() {
                let Some(rules) = self.woken.get(k as usize) else {
                    continue;
                };
                if at >= line.1 || line == (0, 0) {
                    line = breaks.line_around(b, at);
                }
                for &r in rules {
                    let rule = &self.set.rules[r as usize];
                    if rule.gate.is_some_and(|g| !g(b, at)) {
                        continue;
                    }
                    let region = match (rule.multiline, rule.window) {
                        (true, Some((before, after))) => {
                            (at.saturating_sub(before), (at + after).min(b.len()))
                        }
                        (true, None) => (0, b.len()),
                        (false, Some((before, after))) => (
                            at.saturating_sub(before).max(line.0),
                            (at + after).min(line.1),
                        ),
                        (false, None) => line,
                    };
                    jobs.push((r, region.0, region.1));
                }
            }
        }
        for &r in &self.always {
            jobs.push((r, 0, b.len()));
        }
        let cut = wrapped::cut_keywords(self, b, breaks);
        if jobs.is_empty() && cut.is_empty() {
            return Vec::new();
        }
        jobs.sort_unstable();
        // one search per rule over each stretch: overlapping ones joined
        let mut joined: Vec<(u16, usize, usize)> = Vec::with_capacity(jobs.len());
        for (r, a, z) in jobs {
            match joined.last_mut() {
                Some(last) if last.0 == r && a <= last.2 => last.2 = last.2.max(z),
                _ => joined.push((r, a, z)),
            }
        }
        let jobs = joined;
        let mut hits = Vec::new();
        for (r, a, z) in jobs {
            self.run(r, b, a, z, breaks, &mut hits);
        }
        let mut hits = merge(hits);
        // (a word joined is searched with this too: it has no line end)
        let all;
        let found = if cut.is_empty() {
            found
        } else {
            all = {
                let mut all = [found, &cut[..]].concat();
                all.sort_unstable();
                all
            };
            &all[..]
        };
        let joined = wrapped::joined(self, b, found, breaks, &mut hits);
        if wrapped::extend(&mut hits, b, breaks) || joined {
            hits = merge(hits);
        }
        hits
    }

    /// Rule `r` over `b[a..z]`, its checked hits onto `hits`.
    fn run(&self, r: u16, b: &[u8], a: usize, z: usize, breaks: Breaks, hits: &mut Vec<Hit>) {
        let rule = &self.set.rules[r as usize];
        let Some(re) = rule.regex() else { return };
        let hay = &b[a..z];
        let mut from = 0;
        // the end of the matches turned down lately, and how many: a
        // search inside them stops after a few (a pattern that matches
        // at every place of a long run would take it square)
        let (mut turned_down_to, mut turned_down) = (0, 0);
        while from <= hay.len() {
            let Some(caps) = re.captures_at(hay, from) else {
                break;
            };
            let Some(whole) = caps.get(0) else { break };
            match self.checked(rule, &caps, hay, breaks) {
                Ok(secret) => {
                    hits.push(Hit {
                        start: a + secret.start,
                        end: a + secret.end,
                        rule: r,
                    });
                    from = whole.end().max(whole.start() + 1);
                }
                // (a value its entropy or an allowlist turns down: gitleaks'
                // rules are found one after another, as gitleaks finds them)
                Err(Inside::Nothing) => from = whole.end().max(whole.start() + 1),
                // a value a check of ccv's turns down: the search goes on
                // inside the match, a few times
                Err(Inside::Maybe) => {
                    if whole.start() >= turned_down_to {
                        turned_down = 0;
                    }
                    turned_down_to = turned_down_to.max(whole.end());
                    turned_down += 1;
                    from = match turned_down {
                        ..=RETRIES => whole.start() + 1,
                        _ => turned_down_to.max(whole.start() + 1),
                    };
                }
            }
        }
    }

    /// Where the secret of a match of `rule` is, when its checks pass;
    /// else whether a match inside it may be one.
    fn checked(
        &self,
        rule: &rules::Rule,
        caps: &regex::bytes::Captures<'_>,
        hay: &[u8],
        breaks: Breaks,
    ) -> Result<std::ops::Range<usize>, Inside> {
        let whole = caps.get(0).ok_or(Inside::Nothing)?;
        let (secret, quoted) = match rule.check {
            // the value, not the name: the first value group that took part
            Check::Assignment => {
                let (g, m) = (2..caps.len())
                    .find_map(|g| caps.get(g).map(|m| (g, m)))
                    .ok_or(Inside::Nothing)?;
                (m, g < caps.len() - 1)
            }
            _ => match rule.group {
                Some(g) => (caps.get(g).ok_or(Inside::Nothing)?, false),
                None => (
                    (1..caps.len()).find_map(|g| caps.get(g)).unwrap_or(whole),
                    false,
                ),
            },
        };
        let mut s = secret.as_bytes();
        // a name in a URL's user part (`https://x-access-token:TOKEN@host/`):
        // its bare value ends at the `@`, which a user part cannot hold
        // unescaped, not at the URL's end
        if let (Check::Assignment, Some(name)) = (rule.check, caps.get(1))
            && hay[..name.start()].ends_with(b"://")
            && let Some(at) = memchr::memchr(b'@', s)
        {
            s = &s[..at];
        }
        let secret = secret.start()..secret.start() + s.len();
        if s.is_empty() || s.starts_with(MARK.as_bytes()) {
            return Err(Inside::Nothing);
        }
        if rule.entropy.is_some_and(|e| check::entropy(s) < e) {
            return Err(Inside::Nothing);
        }
        let line = breaks.line_around(hay, secret.start);
        let line = &hay[line.0..line.1];
        let m = whole.as_bytes();
        if self.set.global.iter().any(|al| al.allows(s, m, line))
            || rule.allow.iter().any(|al| al.allows(s, m, line))
        {
            return Err(Inside::Nothing);
        }
        let next = hay.get(secret.end).copied();
        let keep = match rule.check {
            Check::Plain => true,
            Check::Value => check::is_value(s),
            Check::Entropy => check::high_entropy(s),
            Check::Mixed => check::is_mixed_value(s),
            Check::Said => check::is_said_secret(s),
            Check::Assignment => {
                let name = caps.get(1).map_or(&b""[..], |n| n.as_bytes());
                let after = hay.get(secret.end..).unwrap_or_default();
                let after = after.get(..64).unwrap_or(after);
                // (`NAME: TYPE = …` unquoted: a declaration's type)
                (quoted || !check::declares_a_type(after))
                    && check::is_assigned_secret(name, s, quoted, next)
            }
        };
        // a value turned down by a check of ccv's own may hide one
        keep.then_some(secret).ok_or(Inside::Maybe)
    }

    /// A JSON text with its strings (keys too) redacted one by one, and
    /// the value of a key that names a secret (`"password": "…"`) taken
    /// out; text that is not JSON is redacted as text.
    pub fn redact_json<'a>(&self, json: &'a str) -> Cow<'a, str> {
        // JSON (a call's input always is): redacted where it is written,
        // each string read once
        if serde_json::from_str::<serde::de::IgnoredAny>(json).is_ok()
            && let Some(r) = self.redact_json_written(json)
        {
            return r;
        }
        if !self.json_may_hold(json) {
            return Cow::Borrowed(json);
        }
        let Ok(mut v) = serde_json::from_str::<serde_json::Value>(json) else {
            return self.redact(json);
        };
        if self.redact_value(&mut v, 0) {
            let end = if json.ends_with('\n') { "\n" } else { "" };
            Cow::Owned(format!("{v}{end}"))
        } else {
            Cow::Borrowed(json)
        }
    }

    fn redact_value(&self, v: &mut serde_json::Value, depth: u16) -> bool {
        use serde_json::Value;
        if depth > 128 {
            return false;
        }
        match v {
            Value::String(s) => match self.redact(s) {
                Cow::Owned(o) => {
                    *s = o;
                    true
                }
                Cow::Borrowed(_) => false,
            },
            Value::Array(a) => a
                .iter_mut()
                .fold(false, |ch, x| self.redact_value(x, depth + 1) | ch),
            Value::Object(m) => {
                let mut changed = false;
                for (k, x) in m.iter_mut() {
                    if self.names_a_secret_value(k, x) {
                        *x = Value::String(format!("{MARK}secret-assignment]"));
                        count("secret-assignment", 1);
                        changed = true;
                    } else {
                        changed |= self.redact_value(x, depth + 1);
                    }
                }
                // a key that is itself a secret: the map made again, in order
                if m.keys().any(|k| self.holds_secret(k)) {
                    let old = std::mem::take(m);
                    for (k, x) in old {
                        let k = self.redact(&k).into_owned();
                        m.insert(k, x);
                    }
                    changed = true;
                }
                changed
            }
            _ => false,
        }
    }
}

impl Redactor {
    /// `"password": "letmein"`: a key that names a secret, and a value
    /// that is one (a string or a number that is not code or a stand-in).
    fn names_a_secret_value(&self, k: &str, x: &serde_json::Value) -> bool {
        use serde_json::Value;
        if !check::names_a_secret(k.as_bytes()) {
            return false;
        }
        match x {
            Value::String(s) => {
                !s.starts_with(MARK)
                    && check::is_assigned_secret(k.as_bytes(), s.as_bytes(), true, None)
            }
            Value::Number(n) => {
                check::is_assigned_secret(k.as_bytes(), n.to_string().as_bytes(), true, None)
            }
            _ => false,
        }
    }
}

// made once: a searcher made per text cost more than the search in short
// ones
static ESCAPE_U: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));
static ESCAPE_N: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"\\n"));
static ESCAPE_N_BACK: LazyLock<memchr::memmem::FinderRev<'static>> =
    LazyLock::new(|| memchr::memmem::FinderRev::new(b"\\n"));

thread_local! {
    static SCRATCH: RefCell<Vec<(usize, u32)>> = const { RefCell::new(Vec::new()) };
}

/// `f` with this thread's list for keyword places (kept between texts).
fn with_scratch<T>(f: impl FnOnce(&mut Vec<(usize, u32)>) -> T) -> T {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut v) => f(&mut v),
        Err(_) => f(&mut Vec::new()),
    })
}

/// What ends a line: a newline, or (in a JSON string as written) `\n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Breaks {
    Newline,
    JsonEscape,
}

impl Breaks {
    /// The line of `b` that holds byte `at`: from after the line end before
    /// it to the line end after it.
    fn line_around(self, b: &[u8], at: usize) -> (usize, usize) {
        let at = at.min(b.len());
        match self {
            Breaks::Newline => {
                let start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
                let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
                (start, end)
            }
            Breaks::JsonEscape => {
                let start = ESCAPE_N_BACK.rfind(&b[..at]).map_or(0, |i| i + 2);
                let end = ESCAPE_N.find(&b[at..]).map_or(b.len(), |i| at + i);
                (start, end)
            }
        }
    }
}

/// What a match turned down may hold.
enum Inside {
    /// No secret of its rule: the search goes on after it.
    Nothing,
    /// A secret of its rule (`Credentials:gs_secret_access_key=X`: the
    /// value after `Credentials:` is none, the one after `=` is).
    Maybe,
}

/// How many matches a rule's search tries inside matches it turned down
/// before it goes on after them (see `Redactor::run`).
const RETRIES: u32 = 4;

/// Hits in order; overlapping ones become one, of the first rule's kind
/// (the rules are listed most specific first).
fn merge(mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.sort_unstable_by_key(|h| (h.start, std::cmp::Reverse(h.end), h.rule));
    let mut out: Vec<Hit> = Vec::with_capacity(hits.len());
    for h in hits {
        match out.last_mut() {
            Some(last) if h.start < last.end => {
                last.end = last.end.max(h.end);
                last.rule = last.rule.min(h.rule);
            }
            _ => out.push(h),
        }
    }
    out
}

/// How many of each kind were replaced.
pub type Counts = BTreeMap<String, usize>;

/// Where a replacement was: the row (its source file and line) set by
/// the writer, and the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    pub source: u16,
    pub line: u32,
    pub kind: String,
}

thread_local! {
    static COUNTS: RefCell<Counts> = const { RefCell::new(Counts::new()) };
    static ROW: std::cell::Cell<Option<(u16, u32)>> = const { std::cell::Cell::new(None) };
    static LOG: RefCell<Vec<Replaced>> = const { RefCell::new(Vec::new()) };
}

fn count(kind: &str, n: usize) {
    COUNTS.with(|c| *c.borrow_mut().entry(kind.to_owned()).or_default() += n);
    if let Some((source, line)) = ROW.with(std::cell::Cell::get) {
        LOG.with(|l| {
            l.borrow_mut().push(Replaced {
                source,
                line,
                kind: kind.to_owned(),
            })
        });
    }
}

/// Counts the markers of `text` again: a text made of something already
/// redacted (a call's input written out as its row's text) shows each of
/// its markers a second time.
pub fn count_markers(text: &str) {
    for (at, _) in text.match_indices(MARK) {
        let rest = &text[at + MARK.len()..];
        if let Some(end) = rest.find(']') {
            count(&rest[..end], 1);
        }
    }
}

/// The count of a copy or an export made while the screen is redacted
/// (`#` twice) is of the markers it holds: its session was redacted as
/// it was read, so the copy's own pass finds little or nothing left to
/// cut (and said "nothing redacted" of a text full of markers). What that
/// pass counted is dropped, as its markers are among those counted.
pub fn count_shown_markers(text: &str) {
    if screen() {
        let _ = take_counts();
        count_markers(text);
    }
}

/// The first `chars` characters of a redacted text, without the head of
/// a marker the cut went through (`[REDACTED:aws-acc`).
pub fn cut_whole(text: &str, chars: usize) -> String {
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    // the marker the cut goes through, if any: begun before it, closed
    // after it (or never)
    let through = text
        .match_indices(MARK)
        .map(|(m, _)| m)
        .take_while(|&m| m < end)
        .find(|&m| text[m..].find(']').is_none_or(|c| m + c + 1 > end));
    match through {
        Some(m) => text[..m].trim_end().to_owned(),
        None => text[..end].to_owned(),
    }
}

/// The row whose text is redacted next on this thread (for the report);
/// `None`: no row.
pub fn set_row(row: Option<(u16, u32)>) {
    ROW.with(|r| r.set(row));
}

/// This thread's counts since the last call, and a fresh start.
pub fn take_counts() -> Counts {
    COUNTS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// This thread's replacements (with their rows) since the last call.
pub fn take_log() -> Vec<Replaced> {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// Adds what another thread counted and noted to this thread's.
pub fn add(counts: Counts, log: Vec<Replaced>) {
    COUNTS.with(|c| {
        let mut c = c.borrow_mut();
        for (k, n) in counts {
            *c.entry(k).or_default() += n;
        }
    });
    LOG.with(|l| l.borrow_mut().extend(log));
}

/// `3 redacted: 2 github, 1 password` (or `nothing redacted`).
pub fn describe(c: &Counts) -> String {
    let total: usize = c.values().sum();
    if total == 0 {
        return "nothing redacted".to_owned();
    }
    let parts: Vec<String> = c.iter().map(|(k, n)| format!("{n} {k}")).collect();
    format!("{total} redacted: {}", parts.join(", "))
}

static ACTIVE: OnceLock<Redactor> = OnceLock::new();
static SCREEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether sessions read from now on are redacted as they are read (the
/// viewer's `#` for screen sharing).
pub fn set_screen(on: bool) {
    SCREEN.store(on, std::sync::atomic::Ordering::Relaxed);
}

pub fn screen() -> bool {
    SCREEN.load(std::sync::atomic::Ordering::Relaxed)
}

/// A file's path with its secrets replaced (a project's folder is named
/// after its working directory, which a token can be part of), or none
/// when it holds none: what a redacted output shows of a path.
pub fn path(p: &std::path::Path) -> Option<std::path::PathBuf> {
    match active().redact(&p.to_string_lossy()) {
        Cow::Owned(red) => Some(red.into()),
        Cow::Borrowed(_) => None,
    }
}

/// The config's patterns (kind, pattern), which join the built-in ones
/// when the redactor is made (see [`active`]).
static EXTRA: OnceLock<Vec<(String, String)>> = OnceLock::new();

/// The config's patterns join the built-in ones (once, at startup, before
/// anything is redacted). The redactor is made when first used, not here:
/// making it (its keywords' automaton, its rules) takes about 10 ms that a
/// command which redacts nothing should not spend.
pub fn install(extra: Vec<(String, String)>) {
    let _ = EXTRA.set(extra);
}

/// Whether the config's patterns can join the built-in ones (each
/// compiles as the redactor compiles it), without making the redactor.
pub fn check_patterns(extra: &[(String, String)]) -> Result<(), String> {
    rules::check_extra(extra)
}

/// Makes the redactor on a thread of its own, for a command that will
/// redact: it is then made while the command reads its files, not when
/// the first text waits for it.
pub fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("redactor".into())
        .spawn(|| {
            active();
        });
}

/// The redactor in use.
pub fn active() -> &'static Redactor {
    ACTIVE.get_or_init(|| {
        let extra = EXTRA.get().map_or(&[][..], Vec::as_slice);
        // the config's patterns were checked together when it was read;
        // the built-in rules are part of the program and load (a test
        // holds them to it): failing here is a broken build, not bad input
        Redactor::new(extra)
            .or_else(|_| Redactor::new(&[]))
            .expect("the bundled secret rules load")
    })
}

#[cfg(test)]
mod tests;
