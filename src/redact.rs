//! Secrets out of what is shared: API keys and tokens of common providers,
//! JWTs, private keys, `password=` / `token=` assignments, bearer headers,
//! credentials in URLs, high-entropy values in `.env`-like lines, and the
//! config's own patterns, each replaced by `[REDACTED:kind]` and counted.
//!
//! A replacement never holds a character that JSON or HTML escape, and no
//! pattern reaches over a `"`, so redacting an export's text keeps it
//! valid JSON.

use regex::{Captures, Regex, RegexSet};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One kind of secret: what it is called in `[REDACTED:kind]`, the
/// pattern, and which group is the secret (0: the whole match).
struct Rule {
    kind: String,
    re: Regex,
    group: usize,
}

pub struct Redactor {
    rules: Vec<Rule>,
    /// Which rules match at all, in one pass (most text holds no secret).
    any: RegexSet,
}

/// (kind, pattern, group). Anchored on word boundaries or prefixes the
/// providers document, so prose and code rarely match.
const BUILTIN: &[(&str, &str, usize)] = &[
    (
        "private-key",
        r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY( BLOCK)?-----[A-Za-z0-9+/=\s\\:,.-]*?-----END [A-Z ]{0,20}PRIVATE KEY( BLOCK)?-----",
        0,
    ),
    ("anthropic", r"\bsk-ant-[a-z0-9]{2,8}-[A-Za-z0-9_-]{20,}", 0),
    (
        "openai",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}",
        0,
    ),
    (
        "aws-access-key",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        0,
    ),
    (
        "aws-secret",
        r#"(?i)\baws_?secret_?(?:access_?)?key(?:_id)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})\b"#,
        1,
    ),
    (
        "github",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b",
        0,
    ),
    ("gitlab", r"\bglpat-[A-Za-z0-9_-]{20,}\b", 0),
    (
        "slack",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}",
        0,
    ),
    (
        "stripe",
        r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b",
        0,
    ),
    ("google", r"\bAIza[0-9A-Za-z_-]{35}\b", 0),
    (
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        0,
    ),
    (
        "bearer",
        r"(?i)\b(?:bearer|token)\s+([A-Za-z0-9._~+/-]{20,}=*)",
        1,
    ),
    (
        "url-credentials",
        r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\s/:@\x22'<>]{1,64}:([^\s/@\x22'<>]{1,128})@[A-Za-z0-9.-]",
        1,
    ),
    (
        "assignment",
        r#"(?i)\b(?:password|passwd|pwd|secret|client_secret|api_?key|access_?token|auth_?token|token)["']?\s*(?:=|:)\s*["']?([^\s"'`,;&<>(){}\[\]\\]{8,})"#,
        1,
    ),
    (
        "env-secret",
        r#"(?m)^[ \t]*(?:export[ \t]+)?[A-Z][A-Z0-9_]{2,}[ \t]*=[ \t]*["']?([A-Za-z0-9/+_=.-]{24,})["']?[ \t]*$"#,
        1,
    ),
];

impl Redactor {
    /// The built-in rules and `extra` (kind, pattern) from the config.
    pub fn new(extra: &[(String, String)]) -> Result<Redactor, String> {
        let mut rules = Vec::new();
        for (kind, pat, group) in BUILTIN {
            // ASCII word boundaries: a Unicode `\b` keeps the regex engine
            // off its fast paths (18x slower over a 100 MB session), and
            // every secret here is ASCII
            let pat = pat.replace(r"\b", r"(?-u:\b)");
            rules.push(Rule {
                kind: (*kind).to_owned(),
                re: Regex::new(&pat).map_err(|e| format!("{kind}: {e}"))?,
                group: *group,
            });
        }
        for (kind, pat) in extra {
            let re = Regex::new(pat).map_err(|e| format!("redact.{kind}: {e}"))?;
            rules.push(Rule {
                kind: kind.clone(),
                re,
                group: 0,
            });
        }
        let any = RegexSet::new(rules.iter().map(|r| r.re.as_str())).map_err(|e| e.to_string())?;
        Ok(Redactor { rules, any })
    }

    /// `text` with every secret replaced; each replacement is counted in
    /// this thread's [`Counts`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let hits = self.any.matches(text);
        if !hits.matched_any() {
            return Cow::Borrowed(text);
        }
        let mut out = Cow::Borrowed(text);
        for i in hits.iter() {
            let rule = &self.rules[i];
            let mut n = 0;
            let hay: &str = &out;
            let replaced = rule.re.replace_all(hay, |c: &Captures<'_>| {
                let (Some(whole), Some(secret)) = (c.get(0), c.get(rule.group)) else {
                    return String::new();
                };
                let s = secret.as_str();
                if rule.kind == "env-secret" && !high_entropy(s) {
                    return whole.as_str().to_owned();
                }
                let next = hay[secret.end()..].chars().next();
                if rule.kind == "assignment" && (looks_like_code(s) || is_code_context(s, next)) {
                    return whole.as_str().to_owned();
                }
                if s.starts_with("[REDACTED:") {
                    return whole.as_str().to_owned();
                }
                n += 1;
                let start = secret.start() - whole.start();
                let end = secret.end() - whole.start();
                let w = whole.as_str();
                format!("{}[REDACTED:{}]{}", &w[..start], rule.kind, &w[end..])
            });
            if n > 0 {
                let owned = replaced.into_owned();
                count(&rule.kind, n);
                out = Cow::Owned(owned);
            }
        }
        out
    }
}

impl Redactor {
    /// A JSON text with its strings redacted one by one (a JSON escape
    /// such as `\n` would hide a word's start from the patterns); text
    /// that is not JSON is redacted as text.
    pub fn redact_json<'a>(&self, json: &'a str) -> Cow<'a, str> {
        if !self.any.is_match(json) && !json.contains('\\') {
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
            Value::Object(m) => m
                .values_mut()
                .fold(false, |ch, x| self.redact_value(x, depth + 1) | ch),
            _ => false,
        }
    }
}

/// A value that is a program's, not a secret: an identifier or a call
/// (`token = next_token`, `password: user.password`), a placeholder.
fn looks_like_code(v: &str) -> bool {
    let ident = v
        .chars()
        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.' || c.is_ascii_digit())
        && !v.chars().any(|c| c.is_ascii_digit());
    let templated = v.starts_with('$') || v.starts_with('%') || v.contains("process.env");
    let camel_call = v.contains('.')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    let placeholder = v
        .chars()
        .all(|c| c == '*' || c == 'x' || c == 'X' || c == '.');
    // `authToken`, `AssertionError:`: a name or a label, not a value
    let letters = v.trim_end_matches(':');
    let name = letters.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        && (v.ends_with(':')
            || letters.chars().skip(1).any(|c| c.is_ascii_uppercase())
                && letters.chars().any(|c| c.is_ascii_lowercase()));
    // what docs and tests write in place of a secret
    let lower = v.to_ascii_lowercase();
    let stand_in = [
        "your",
        "example",
        "sample",
        "dummy",
        "fake",
        "invalid",
        "placeholder",
        "changeme",
        "redacted",
        "xxxx",
    ]
    .iter()
    .any(|w| lower.contains(w));
    ident || templated || camel_call || placeholder || name || stand_in
}

/// A value a program names, by what follows it: a call (`secret =
/// getRandomBytes(32)`) or a type in a parameter list (`secret: Uint8Array)`).
fn is_code_context(v: &str, next: Option<char>) -> bool {
    let type_like = v.starts_with(|c: char| c.is_ascii_uppercase())
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match next {
        Some('(') => true,
        Some(')' | ',' | '>' | '[' | '|') => type_like,
        _ => false,
    }
}

/// Shannon entropy of at least 4 bits a character, with letters and
/// digits mixed: a generated key, not a word or a path.
fn high_entropy(v: &str) -> bool {
    let has_digit = v.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = v.bytes().any(|b| b.is_ascii_alphabetic());
    if !(has_digit && has_alpha) || v.contains("..") {
        return false;
    }
    let mut freq = [0u32; 256];
    for b in v.bytes() {
        freq[b as usize] += 1;
    }
    let n = v.len() as f64;
    let h: f64 = freq
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum();
    h >= 4.0
}

/// How many of each kind were replaced.
pub type Counts = BTreeMap<String, usize>;

thread_local! {
    static COUNTS: RefCell<Counts> = const { RefCell::new(Counts::new()) };
}

fn count(kind: &str, n: usize) {
    COUNTS.with(|c| *c.borrow_mut().entry(kind.to_owned()).or_default() += n);
}

/// This thread's counts since the last call, and a fresh start.
pub fn take_counts() -> Counts {
    COUNTS.with(|c| std::mem::take(&mut *c.borrow_mut()))
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

/// The config's patterns join the built-in ones (once, at startup).
pub fn install(r: Redactor) {
    let _ = ACTIVE.set(r);
}

/// The redactor in use.
pub fn active() -> &'static Redactor {
    ACTIVE.get_or_init(|| {
        // the built-in patterns compile (a test holds them to it)
        Redactor::new(&[]).unwrap_or_else(|_| Redactor {
            rules: Vec::new(),
            any: RegexSet::empty(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> (String, Counts) {
        let _ = take_counts();
        let red = Redactor::new(&[("internal".into(), r"corp-[0-9]{4}".into())]).expect("rules");
        let out = red.redact(text).into_owned();
        (out, take_counts())
    }

    #[test]
    fn every_kind_is_redacted() {
        let cases: &[(&str, &str)] = &[
            (
                "anthropic",
                "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdefgh end",
            ),
            (
                "openai",
                "OPENAI sk-proj-abcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0123 end",
            ),
            ("aws-access-key", "id AKIAIOSFODNN7EXAMPLE here"),
            (
                "aws-secret",
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            ),
            ("github", "token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 x"),
            ("gitlab", "glpat-abcdefghij0123456789 x"),
            ("slack", "xoxb-1234567890-abcdefghijkl"),
            ("stripe", "sk_live_abcdefghijklmnop1234"),
            ("google", "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234"),
            (
                "jwt",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            ),
            (
                "private-key",
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc==\n-----END RSA PRIVATE KEY-----",
            ),
            (
                "bearer",
                "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
            ),
            (
                "url-credentials",
                "postgres://admin:hunter2secret@db.example.com/app",
            ),
            ("assignment", "password=Sup3r$ecretValue!"),
            (
                "env-secret",
                "DATABASE_KEY=Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gH",
            ),
            ("internal", "host corp-1234 here"),
        ];
        for (kind, text) in cases {
            let (out, counts) = r(text);
            assert_eq!(counts.get(*kind), Some(&1), "{kind}: {out} {counts:?}");
            assert!(out.contains(&format!("[REDACTED:{kind}]")), "{kind}: {out}");
        }
    }

    #[test]
    fn code_prose_and_paths_are_left_alone() {
        for text in [
            "let token = next_token(&mut lexer);",
            "password: user.password,",
            "const API_KEY = process.env.API_KEY;",
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "RUST_LOG=debug",
            "BUILD_ID=20260211-release-candidate",
            "see https://docs.rs/regex/latest/regex/ for more",
            "The token budget is 200000 tokens.",
            "git@github.com:owner/repo.git",
            "password = \"****\"",
            "export NODE_OPTIONS=--max-old-space-size=4096",
            "export function authChallenge(secret: Uint8Array): {",
            "const secret = getRandomBytes(32)",
            "fn f(token: TokenKind, password: SecretString) -> bool",
            "auth: { token: authToken }",
            "expected token: AssertionError: boom",
            "Authorization: token=your-bearer-token",
            "authToken: 'invalid-token'",
        ] {
            let (out, counts) = r(text);
            assert!(counts.is_empty(), "{text:?} -> {out:?} {counts:?}");
        }
    }

    #[test]
    fn json_stays_json() {
        let v = serde_json::json!({"text": "token=Abc123Def456Ghi789 and -----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"});
        let s = v.to_string();
        let (out, counts) = r(&s);
        assert_eq!(counts.values().sum::<usize>(), 2, "{out}");
        let back: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
        assert!(
            back["text"]
                .as_str()
                .expect("text")
                .contains("[REDACTED:private-key]")
        );
    }
}
