//! The rules: gitleaks' (its provider rules and their allowlists, read
//! from `assets/secret-rules.toml`) and ccv's own for the shapes secrets
//! take in a coding session that a scanner of source files does not
//! look for (an env name that ends in a secret word, a Read tool's line,
//! CLI flags, headers, JSON keys; those for secrets as programs take
//! and keep them are in `programs.rs`), and the config's
//! `[redact]` patterns.
//!
//! Every regex is read in ASCII mode (`\w`, `\s`, `\b` and `(?i)` as in
//! Go's RE2, for which gitleaks writes them) and compiled the first time
//! its keywords occur in a text.

use super::kept::kept_rules;
use super::programs::{account_rules, config_rules, paired_rules, tool_rules};
use regex::bytes::{Regex, RegexBuilder};
use serde::Deserialize;
use std::sync::OnceLock;

const GITLEAKS: &str = include_str!("../../assets/secret-rules.toml");

/// What a match must also be, beyond its pattern (ccv's rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// gitleaks' own tests (entropy, allowlists) only.
    Plain,
    /// `NAME = value` where NAME ends in a secret word: a value, not code.
    Assignment,
    /// A flag's or a header's value: not a placeholder or a variable.
    Value,
    /// An env line of an unknown name: a generated value (entropy).
    Entropy,
    /// A value set under a secret's name by a call: letters with digits
    /// or signs, not a word (see [`super::check::is_mixed_value`]).
    Mixed,
    /// A secret said in a sentence (`the password is X`): a value a
    /// person makes up or a program generates, not a word, a name of
    /// code or an algorithm's (see [`super::check::is_said_secret`]).
    Said,
}

/// Where an allowlist's regexes look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

pub struct Allow {
    target: Target,
    /// Compiled when first asked (most allowlists never are): the rules
    /// are built on every `--redact` run, before any text is read.
    patterns: Vec<String>,
    regexes: OnceLock<Vec<Regex>>,
    stopwords: Vec<String>,
    /// `AND`: every part given must hold (a part about paths never does).
    all: bool,
    has_paths: bool,
}

impl Allow {
    /// Whether this allowlist lets the hit stand as no secret.
    pub fn allows(&self, secret: &[u8], matched: &[u8], line: &[u8]) -> bool {
        let hay = match self.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let regexes = self.regexes.get_or_init(|| {
            self.patterns
                .iter()
                .filter_map(|r| compile_go(r).ok())
                .collect()
        });
        let by_regex = regexes.iter().any(|r| r.is_match(hay));
        let lower = secret.to_ascii_lowercase();
        let by_word = !self.stopwords.is_empty()
            && self
                .stopwords
                .iter()
                .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some());
        if self.all {
            // paths cannot be tested here: such a condition never holds
            !self.has_paths
                && (self.patterns.is_empty() || by_regex)
                && (self.stopwords.is_empty() || by_word)
        } else {
            by_regex || by_word
        }
    }
}

pub struct Rule {
    pub kind: String,
    pub pattern: String,
    compiled: OnceLock<Option<Regex>>,
    /// `None`: the first group that took part (gitleaks' rule), else the
    /// whole match.
    pub group: Option<usize>,
    pub entropy: Option<f64>,
    /// Lower-case words one of which the text must hold for the rule to
    /// run; empty: it always runs.
    pub keywords: Vec<String>,
    pub allow: Vec<Allow>,
    /// Its pattern reaches over line ends: it runs on the whole text.
    pub multiline: bool,
    pub check: Check,
    /// A quick test of a keyword's place (text, where the keyword is)
    /// before the line is searched: for a keyword as common as `=`.
    pub gate: Option<fn(&[u8], usize) -> bool>,
    /// How far before and after a keyword a match can reach: the rule
    /// searches that stretch of the line, not all of it (a `NAME = value`
    /// rule on a 1 MB line of JSON).
    pub window: Option<(usize, usize)>,
}

impl Rule {
    pub(super) fn new(kind: &str, pattern: &str, keywords: &[&str], check: Check) -> Rule {
        Rule {
            kind: kind.to_owned(),
            pattern: pattern.to_owned(),
            compiled: OnceLock::new(),
            group: None,
            entropy: None,
            keywords: keywords.iter().map(|k| k.to_ascii_lowercase()).collect(),
            allow: Vec::new(),
            multiline: reaches_over_lines(pattern),
            check,
            gate: None,
            window: None,
        }
    }

    /// The rule with a [`Rule::window`]: `before` and `after` its keyword.
    pub(super) fn within(mut self, before: usize, after: usize) -> Rule {
        self.window = Some((before, after));
        self
    }

    /// The rule searching past its keyword's line (within its window).
    pub(super) fn over_lines(mut self) -> Rule {
        self.multiline = true;
        self
    }

    /// The compiled pattern; `None` when it does not compile.
    pub fn regex(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| compile(&self.pattern).ok())
            .as_ref()
    }
}

/// A pattern written for Go's RE2, where a `{` that starts no repetition
/// is a literal (`^\$(?:\d+|{\d+})$` in gitleaks' allowlists): Rust's
/// regex wants it escaped.
fn compile_go(pattern: &str) -> Result<Regex, regex::Error> {
    compile(pattern).or_else(|e| {
        let b = pattern.as_bytes();
        let mut out = String::with_capacity(pattern.len() + 8);
        for (i, c) in pattern.char_indices() {
            let escaped = i > 0 && b[i - 1] == b'\\';
            let repeat = || {
                let rest = &pattern[i + 1..];
                let end = rest.find('}').unwrap_or(rest.len());
                !rest[..end].is_empty()
                    && end < rest.len()
                    && rest[..end].bytes().all(|x| x.is_ascii_digit() || x == b',')
            };
            if c == '{' && !escaped && !repeat() {
                out.push('\\');
            }
            out.push(c);
        }
        compile(&out).map_err(|_| e)
    })
}

fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(8 << 20)
        .dfa_size_limit(4 << 20)
        .build()
}

/// Whether a pattern is meant to match over line ends (a private key's
/// block, a curl command continued with `\`): then it runs on the whole
/// text, not line by line. (`\s` in a name-value pattern could take a
/// line end too; such a pair split over two lines is not looked for.)
fn reaches_over_lines(p: &str) -> bool {
    p.contains(r"\s\S") || p.contains(r"\S\s") || p.contains(r"[\r\n]") || p.contains("(?s")
}

#[derive(Deserialize)]
struct File {
    allowlist: Option<AllowDef>,
    #[serde(default)]
    rules: Vec<RuleDef>,
}

#[derive(Deserialize)]
struct RuleDef {
    id: String,
    regex: Option<String>,
    #[serde(rename = "secretGroup")]
    secret_group: Option<usize>,
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    path: Option<String>,
    #[serde(default)]
    allowlists: Vec<AllowDef>,
}

#[derive(Deserialize, Default)]
struct AllowDef {
    condition: Option<String>,
    #[serde(rename = "regexTarget")]
    regex_target: Option<String>,
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
}

fn allow_of(d: AllowDef) -> Allow {
    Allow {
        target: match d.regex_target.as_deref() {
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            _ => Target::Secret,
        },
        patterns: d.regexes,
        regexes: OnceLock::new(),
        stopwords: d.stopwords.iter().map(|w| w.to_ascii_lowercase()).collect(),
        all: d.condition.as_deref() == Some("AND"),
        has_paths: !d.paths.is_empty(),
    }
}

/// Every rule, most specific first (an overlap takes the first one's
/// kind), and the allowlist that holds for all of them.
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub global: Vec<Allow>,
    /// The gitleaks rules that could not be used here, and why.
    pub skipped: Vec<(String, String)>,
}

/// Secret words a name may end in (`DB_PASSWORD`, `JWT_SECRET`,
/// `DJANGO_SECRET_KEY`, `ADMIN_TOKEN`, `PGPASSWORD`, `SMTP_PASS`, a
/// camel-cased `smtpPass` or `DBPass`; not a bare `PASS`, which is Go's
/// test output: `--- PASS: TestX`, nor `bypass`).
pub(super) const NAME_WORDS: &str = r"(?:passwords?|[_.]pass|[A-Za-z0-9](?-i:Pass)|passwd|passphrase|pass[_.-]phrase|pwd|secrets?|secret[_.-]?key|secret[_.-]?key[_.-]?base|tokens?|api[_.-]?keys?|access[_.-]?keys?|private[_.-]?key|auth[_.-]?keys?|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|client[_.-]?secret|credentials?|auth)";

/// What wakes a rule that finds a value by its name (one of
/// [`NAME_WORDS`]): the words such a name ends in (`pass` finds `passwd`
/// too: every keyword is found where it is, overlapping or not).
const NAME_KEYWORDS: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "credential",
    "auth",
];

/// A rule that finds a value by its name: woken by [`NAME_KEYWORDS`], its
/// place tested by `gate` before `pattern` searches `window` around it.
pub(super) fn by_name(
    kind: &str,
    pattern: &str,
    check: Check,
    window: (usize, usize),
    gate: fn(&[u8], usize) -> bool,
) -> Rule {
    let mut r = Rule::new(kind, pattern, NAME_KEYWORDS, check).within(window.0, window.1);
    r.gate = Some(gate);
    r
}

/// The keys of the model and tool providers an agent is built with, which
/// gitleaks' rules do not know: each a prefix of its own.
fn provider_rules() -> Vec<Rule> {
    vec![
        Rule::new(
            "stripe-webhook-secret",
            r"\bwhsec_[A-Za-z0-9+/]{32,}={0,2}",
            &["whsec_"],
            Check::Plain,
        ),
        Rule::new(
            "figma-token",
            r"\bfigd_[A-Za-z0-9_-]{40,}",
            &["figd_"],
            Check::Plain,
        ),
        Rule::new(
            "tailscale-key",
            r"\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}",
            &["tskey-"],
            Check::Plain,
        ),
        Rule::new(
            "openrouter-api-key",
            r"\bsk-or-v1-[a-f0-9]{64}\b",
            &["sk-or-v1-"],
            Check::Plain,
        ),
        Rule::new(
            // Notion's integration tokens before `ntn_` (gitleaks knows only
            // those): `secret_` and 43 letters and digits
            "notion-api-token",
            r"\bsecret_[A-Za-z0-9]{43}\b",
            &["secret_"],
            Check::Entropy,
        ),
        // Google's OAuth refresh token (`1//0` and base64url, about 100
        // long), which mints access tokens until revoked: gitleaks knows
        // only the access token (`ya29.`)
        Rule::new(
            "google-refresh-token",
            r"(?:^|[^A-Za-z0-9/:])(1//0[A-Za-z0-9_-]{40,})",
            &["1//0"],
            Check::Value,
        ),
        Rule::new(
            "groq-api-key",
            r"\bgsk_[A-Za-z0-9]{48,}\b",
            &["gsk_"],
            Check::Plain,
        ),
        Rule::new(
            "xai-api-key",
            r"\bxai-[A-Za-z0-9]{64,}\b",
            &["xai-"],
            Check::Plain,
        ),
        Rule::new(
            "replicate-api-token",
            r"\br8_[A-Za-z0-9]{37}\b",
            &["r8_"],
            Check::Plain,
        ),
        Rule::new(
            "tavily-api-key",
            r"\btvly-(?:dev-|prod-)?[A-Za-z0-9]{32}\b",
            &["tvly-"],
            Check::Plain,
        ),
        Rule::new(
            "langsmith-api-key",
            r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b",
            &["lsv2_"],
            Check::Plain,
        ),
        Rule::new(
            "supabase-key",
            r"\bsbp_[a-f0-9]{40}\b|\bsb_secret_[A-Za-z0-9_-]{24,}",
            &["sbp_", "sb_secret_"],
            Check::Plain,
        ),
        Rule::new(
            "firecrawl-api-key",
            r"\bfc-[a-f0-9]{32}\b",
            &["fc-"],
            Check::Plain,
        ),
        Rule::new(
            "google-oauth-access-token",
            r"\bya29\.[A-Za-z0-9_-]{30,}",
            &["ya29."],
            Check::Plain,
        ),
        Rule::new(
            "discord-webhook-url",
            r"\bhttps://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,})",
            &["/api/webhooks/"],
            Check::Plain,
        ),
    ]
}

/// ccv's rules, before gitleaks' generic one.
fn own_rules() -> Vec<Rule> {
    let assignment = format!(
        // a name ending in a secret word, an assignment (env, YAML, TOML,
        // JSON, code), a value quoted or bare
        // (quotes may come escaped: `\"` in a JSON string shown as text;
        // a Python string may have its prefix, `b'…'`, `r"…"`, after `=`
        // or `:`, not after a Rust match arm's `=>`; a key of a map or
        // of the environment, `os.environ["API_KEY"] = …`, is closed by `]`)
        r#"(?i)(?:^|[^A-Za-z0-9_.-])((?:[A-Za-z0-9_.-]*?){NAME_WORDS})\\?["']?\]?[ \t]*(?:(?::=|=|:)[ \t]*(?:[bBrRuUfF]{{1,2}}\\?"([^"\\\r\n]{{1,400}})\\?"|[bBrRuUfF]{{1,2}}\\?'([^'\\\r\n]{{1,400}})\\?')|(?::=|=>|=|:)[ \t]*(?:\\?"([^"\\\r\n]{{1,400}})\\?"|\\?'([^'\\\r\n]{{1,400}})\\?'|`([^`\r\n]{{1,400}})`|([^\s"'`,;&|<>(){{}}\[\]\\]{{1,400}})))"#
    );
    let name_keywords = [
        "pass",
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "secret",
        "token",
        "api",
        "key",
        "credential",
        "auth",
    ];
    let mut rules = vec![
        Rule::new(
            "anthropic-api-key",
            r"\bsk-ant-[a-z0-9]{2,8}-[A-Za-z0-9_-]{20,}",
            &["sk-ant-"],
            Check::Plain,
        ),
        Rule::new(
            "openai-api-key",
            r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}",
            &["sk-proj-", "sk-svcacct-", "sk-admin-", "t3blbkfj"],
            Check::Plain,
        ),
        Rule::new(
            "aws-secret-key",
            r#"(?i)aws_?secret_?(?:access_?)?key(?:_id)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})\b"#,
            &["aws"],
            Check::Plain,
        ),
        Rule::new(
            "github-token",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b",
            &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
            Check::Plain,
        ),
        Rule::new(
            "stripe-key",
            r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}\b",
            &[
                "sk_live", "sk_test", "rk_live", "rk_test", "sk_prod", "rk_prod",
            ],
            Check::Plain,
        ),
        Rule::new(
            "slack-token",
            r"\bxox[abposre]-[A-Za-z0-9-]{10,}",
            &["xox"],
            Check::Plain,
        ),
        Rule::new(
            "docker-pat",
            r"\bdckr_pat_[A-Za-z0-9_-]{20,}",
            &["dckr_pat_"],
            Check::Plain,
        ),
        Rule::new(
            "google-oauth-secret",
            r"\bGOCSPX-[A-Za-z0-9_-]{24,}",
            &["gocspx-"],
            Check::Plain,
        ),
        Rule::new(
            "sentry-dsn",
            r"\bhttps?://([a-f0-9]{32})(?::[a-f0-9]{32})?@[A-Za-z0-9.-]+/[0-9]+",
            &["http"],
            Check::Plain,
        ),
        Rule::new(
            "azure-storage-key",
            r"(?i)\bAccountKey=([A-Za-z0-9+/]{60,}={0,2})",
            &["accountkey="],
            Check::Plain,
        ),
        Rule::new(
            "azure-sas-signature",
            r"[?&]sig=([A-Za-z0-9%+/=]{30,})",
            &["sig="],
            Check::Plain,
        ),
        // a presigned S3 or Cloud Storage URL: its signature opens the
        // object to whoever holds the URL
        Rule::new(
            "presigned-url-signature",
            r"(?i)[?&](?:X-Amz-Signature|X-Goog-Signature)=([0-9A-Fa-f]{32,})",
            &["-signature="],
            Check::Plain,
        ),
        // a key in a URL's query (`?key=…`, `&api_key=…`) when it is a
        // generated value, not a word
        Rule::new(
            "url-query-key",
            r"(?i)[?&](?:key|apikey|api_key|api-key|access_key|accesskey|client_secret|secret)=([A-Za-z0-9_\-.~%]{16,200})",
            &["key=", "secret="],
            Check::Entropy,
        ),
    ];
    rules.extend(provider_rules());
    rules.extend(shape_rules());
    rules.extend(config_rules());
    rules.extend(tool_rules());
    rules.extend(account_rules());
    rules.extend(paired_rules());
    rules.extend(kept_rules());
    let mut env = Rule::new(
        "env-secret",
        // a line of its own, maybe behind the Read tool's `    15→`
        r#"^(?:[ \t]*[0-9]+\xE2\x86\x92)?[ \t]*(?:export[ \t]+)?[A-Z][A-Z0-9_]{2,}[ \t]*=[ \t]*["']?(?:base64:)?([A-Za-z0-9/+_=.-]{20,})["']?[ \t]*$"#,
        &["="],
        Check::Entropy,
    );
    env.gate = Some(env_name_before);
    rules.push(env);
    let mut a = Rule::new(
        "secret-assignment",
        &assignment,
        &name_keywords,
        Check::Assignment,
    );
    a.window = Some((96, 448));
    a.gate = Some(assignment_follows);
    rules.push(a);
    rules.extend(spaced_assignments());
    rules
}

/// A name that names a secret and its value written apart from it, as a
/// command or a file writes them rather than with `=` or `:`: `aws
/// configure set aws_secret_access_key …`, `npm config set
/// //registry/:_authToken …`, a Dockerfile's `ENV DB_PASS …`, Maven's
/// `<password>…</password>`, .NET's `<add key="ApiKey" value="…"/>`.
fn spaced_assignments() -> Vec<Rule> {
    // (an assignment's value groups follow its name, and the last one is
    // taken for a bare value: in `setting`, `(\x00\x01)` never takes
    // part, so that the groups before it are read as quoted)
    let set = format!(
        r#"(?i)\b(?:aws[ \t]+configure[ \t]+set|(?:npm|yarn|pnpm)[ \t]+config[ \t]+set|dotnet[ \t]+user-secrets[ \t]+set|git[ \t]+config(?:[ \t]+--[a-z-]+)*|(?-i:ENV))[ \t]+\\?["']?((?:[A-Za-z0-9_./:@-]*?){NAME_WORDS})\\?["']?[ \t]+(?:\\?"([^"\\\r\n]{{1,400}})\\?"|\\?'([^'\\\r\n]{{1,400}})\\?'|([^\s"'`;|&\\]{{1,400}}))"#
    );
    let element = format!(r#"(?i)<((?:[A-Za-z0-9_.:-]*?){NAME_WORDS})>([^<\r\n]{{1,400}})</"#);
    let setting = format!(
        r#"(?i)<add[ \t]+key[ \t]*=[ \t]*\\?["']((?:[^"'\\\r\n]{{0,96}}?){NAME_WORDS})\\?["'][ \t]+value[ \t]*=[ \t]*(?:\\?"([^"\\\r\n]{{1,400}})\\?"|\\?'([^'\\\r\n]{{1,400}})\\?'|(\x00\x01))"#
    );
    // an element's text is a value as plain as a quoted one (and is
    // followed by `<`, which the assignments' check takes for code)
    let mut element = Rule::new(
        "xml-secret",
        &element,
        &[
            "password>",
            "passwd>",
            "passphrase>",
            "pwd>",
            "pass>",
            "secret>",
            "secrets>",
            "token>",
            "tokens>",
            "key>",
            "keys>",
            "credential>",
            "credentials>",
            "auth>",
        ],
        Check::Value,
    );
    element.group = Some(2);
    let mut set = Rule::new(
        "config-set-secret",
        &set,
        &[
            "configure set",
            "config set",
            "user-secrets set",
            "git config",
            "env ",
        ],
        Check::Assignment,
    );
    set.gate = Some(dockerfile_env_or_other);
    vec![
        element,
        set,
        Rule::new("xml-setting-secret", &setting, &["<add"], Check::Assignment),
    ]
}

/// What wakes `cli-login-password`: the commands that log in with `-p`
/// (`login` alone is in most code).
const LOGIN_COMMANDS: &[&str] = &[
    "docker login",
    "az login",
    "podman login",
    "buildah login",
    "skopeo login",
    "nerdctl login",
    "registry login",
    "oras login",
    "crane login",
    "sshpass",
    "redis-cli",
    "mongo",
    "psexec",
    "paexec",
    "youtube-dl",
    "yt-dlp",
    "gallery-dl",
    "oc login",
    "cqlsh",
    "cypher-shell",
    "rabbitmqadmin",
    "plink",
    "pscp",
    "psftp",
    "cf login",
    "twine",
    "ncftp",
    "rdesktop",
];

/// Secrets by where they stand: in a URL, after a CLI flag, in a header.
fn shape_rules() -> Vec<Rule> {
    let mut rules = vec![
        Rule::new(
            "url-credentials",
            r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\s/:@\x22'<>]{0,64}:([^\s/@\x22'<>]{1,128})@[A-Za-z0-9.-]",
            &["://"],
            Check::Value,
        ),
        Rule::new(
            "mysql-password",
            r#"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &["mysql", "mariadb"],
            Check::Value,
        ),
        // `-u user:secret` (curl's, wget's): gitleaks' own rule
        // wants the secret of word characters only, and `hunter2!` or a
        // `%` went by it
        Rule::new(
            "cli-user-password",
            r#"(?:\b(?:curl|wget|lftp|etcdctl)\b[^\n|;&]*?[ \t](?:-u|--user|--proxy-user|-U|--http-user)|\bjenkins-cli(?:\.jar)?\b[^\n|;&]*?[ \t]-auth|\bcurl\b[^\n|;&]*?[ \t](?:-E|--cert|--proxy-cert)|\b(?:https?|httpie|xh|xhs)\b[^\n|;&]*?[ \t](?:-a|--auth))(?:=|[ \t]*)(?:\\?"[^":,\\\r\n]{1,64}[:,]([^"\\\r\n]{1,200})\\?"|\\?'[^':,\\\r\n]{1,64}[:,]([^'\\\r\n]{1,200})\\?'|[^\s:,"'\\]{1,64}[:,]([^\s"'\\]{1,200}))"#,
            // (`http` alone is in every URL: httpie's flag right after it)
            &[
                "curl",
                "wget",
                "lftp",
                "etcdctl",
                "jenkins-cli",
                "http -a",
                "http --auth",
                "https -a",
                "https --auth",
                "xh -a",
                "xh --auth",
                "xhs -a",
            ],
            Check::Value,
        ),
        // a login's password after `-p` (and redis-cli's `-a`), where
        // `-p` is no port: `docker login -u bob -p …`, `sshpass -p …`
        Rule::new(
            "cli-login-password",
            r#"\b(?:(?:docker|podman|buildah|skopeo|nerdctl|helm(?:[ \t]+registry)?|oras|crane)[ \t]+login\b[^\n|;&]*?[ \t]-p|az[ \t]+login\b[^\n|;&]*?[ \t]-p|sshpass\b[^\n|;&]*?[ \t]-p|redis-cli\b[^\n|;&]*?[ \t]-a|(?:mongo|mongosh)\b[^\n|;&]*?[ \t]-p|(?:(?i:psexec(?:64)?(?:\.exe)?)|paexec|youtube-dl|yt-dlp|gallery-dl|oc[ \t]+login|cqlsh|cypher-shell|rabbitmqadmin|cf[ \t]+login|twine|ncftp(?:get|put|ls)?|rdesktop)\b[^\n|;&]*?[ \t]-p|(?:plink|pscp|psftp)(?:\.exe)?\b[^\n|;&]*?[ \t]-pw)(?:=|[ \t]*)(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))"#,
            LOGIN_COMMANDS,
            Check::Value,
        ),
        // a password handed to a call beside its user name: `auth=("bob",
        // "…")` (requests), `HTTPBasicAuth("bob", "…")`, `db.auth("bob", "…")`
        Rule::new(
            "auth-pair",
            r#"(?i)\b(?:auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|basic_auth|setBasicAuth|db\.auth)[ \t]*(?:=[ \t]*)?\(?[ \t]*\(?[ \t]*\\?["'][^"'\\\r\n]{1,64}\\?["'][ \t]*,[ \t]*\\?["']([^"'\\\r\n]{3,200})\\?["']"#,
            // (`auth` alone is in every text about logging in)
            &["auth=", "auth =", "auth(", "auth ("],
            Check::Value,
        ),
        Rule::new(
            "openssl-password",
            r#"\bopenssl\b[^\n|;&]*?[ \t](?:-k[ \t]+([^\s"';|&\\-][^\s"';|&\\]*)|-pass(?:in|out)?[ \t]+pass:([^\s"';|&\\]+))"#,
            &["openssl"],
            Check::Value,
        ),
        // a private key's head without its end: `head id_rsa`, a paste
        // cut short, a title cut at its length (gitleaks' rule wants the
        // `-----END`); its lines of base64 on (behind the Read tool's
        // `    15→`, as `\n` in JSON written out, or run into one line)
        Rule {
            multiline: true,
            window: Some((0, 16384)),
            ..Rule::new(
                "private-key",
                r"(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n)[A-Za-z-]{1,32}:[^\r\n\\]{0,200})*(?:(?:[ \t]|\r?\n|\\[nr]|[0-9]{1,9}\xE2\x86\x92)+[A-Za-z0-9+/=]{16,})+",
                &["-----begin"],
                Check::Plain,
            )
        },
        // a `.netrc` entry, its `login` too (prose says "machine …
        // password"), on one line or several (behind the Read tool's
        // `    15→` too)
        Rule {
            // its lines, from its keyword on
            multiline: true,
            window: Some((0, 512)),
            ..Rule::new(
                "netrc-password",
                r#"\bmachine[ \t]+\S+\s+(?:[0-9]+\xE2\x86\x92[ \t]*)?login[ \t]+\S+\s+(?:[0-9]+\xE2\x86\x92[ \t]*)?password[ \t]+([^\s"'\\]+)"#,
                &["machine"],
                Check::Value,
            )
        },
        Rule::new(
            "vault-token",
            r#"\bvault[ \t]+login[ \t]+(?:-[\w-]+(?:=\S*)?[ \t]+)*([^\s"'\\=-][^\s"'\\=]{7,})"#,
            &["vault"],
            // (a generated value: "run vault login afterwards" is prose)
            Check::Entropy,
        ),
        Rule::new(
            "gh-secret-body",
            r#"\bgh[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t](?:--body(?:=|[ \t]+)|-b[ \t]*)(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))"#,
            &["secret set"],
            Check::Value,
        ),
        Rule::new(
            "cli-secret",
            r#"(?i)(?:^|[\s'"`(\[]|\xE2\x86\x92)--?(?:[a-z0-9]+-)*(?:password|passwd|passphrase|pass|(?:src|dest|new)?(?:store|key)pass|token|authtoken|api-key|apikey|api_key|secret|client-secret|access-token|auth-token|private-key|access-key|secret-key|(?:account|storage|master|shared)-key|bearer)(?:=|[ \t]+)(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&)\\-][^\s"';|&)\\]{0,399}))"#,
            &[
                "-pass",
                "-token",
                "-authtoken",
                "-api-key",
                "-apikey",
                "-api_key",
                "-secret",
                "-client-secret",
                "-access-token",
                "-auth-token",
                "-private-key",
                "-access-key",
                "-secret-key",
                "storepass",
                "keypass",
                "-bearer",
                "account-key",
                "storage-key",
                "master-key",
                "shared-key",
            ],
            Check::Value,
        ),
        // `--auth X` (Netlify's token) when X is as long as a token:
        // `--auth basic` is a scheme
        Rule::new(
            "cli-auth-token",
            r#"(?:^|[\s'"`(\[]|\xE2\x86\x92)--auth(?:=|[ \t]+)\\?["']?([A-Za-z0-9_.~+/-]{16,})"#,
            &["--auth "],
            Check::Value,
        )
        .within(8, 448),
        Rule::new(
            "auth-header",
            r#"(?i)\b(?:proxy-)?authorization\\?["']?(?:[ \t]*[:=][ \t]*\\?["']?(?:(?:basic|bearer|token|digest|apikey|api-key|sso-key)[ \t]+)?|[ \t]+\\?["']?(?:basic|bearer|token|digest)[ \t]+)([A-Za-z0-9._~+/=:-]{8,})"#,
            &["authorization"],
            Check::Value,
        ),
        Rule::new(
            "api-key-header",
            r#"(?i)\b(?:x-api-key|x-auth-token|x-access-token|x-api-token|api-key|apikey|private-token|x-goog-api-key|ocp-apim-subscription-key)\\?["']?[ \t]*:[ \t]*\\?["']?([A-Za-z0-9._~+/=-]{8,})"#,
            &[
                "api-key",
                "apikey",
                "-token",
                "-api-key",
                "subscription-key",
            ],
            Check::Value,
        ),
        Rule::new(
            "bearer",
            r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)",
            &["bearer"],
            Check::Value,
        ),
    ];
    for r in &mut rules {
        if r.kind == "url-credentials" {
            r.gate = Some(credentials_shape);
        }
    }
    rules
}

/// After a keyword: the rest of a name (`api` in `api_key_id`), maybe a
/// quote and spaces, then an assignment (`=`, `:`, `=>`, `,`, `>`, `|`,
/// `?=`): the shape every name-value rule needs, tested before its regex.
pub(super) fn assignment_follows(b: &[u8], at: usize) -> bool {
    // the keyword's end is not known here: step over the word it is in
    let mut i = at;
    let mut n = 0;
    while i < b.len()
        && n < 48
        && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'-'))
    {
        i += 1;
        n += 1;
    }
    let mut n = 0;
    while i < b.len() && n < 24 && matches!(b[i], b' ' | b'\t' | b'"' | b'\'' | b'`' | b'\\' | b']')
    {
        i += 1;
        n += 1;
    }
    matches!(b.get(i), Some(b'=' | b':' | b'>' | b',' | b'|' | b'?'))
}

/// A Dockerfile's `ENV` as it writes it (the keyword `env ` is found in
/// any case, and in prose), or another keyword of the rule.
fn dockerfile_env_or_other(b: &[u8], at: usize) -> bool {
    let rest = &b[at..];
    !rest
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"env "))
        || rest.starts_with(b"ENV")
}

/// `s.` + 24 letters and digits (an old Vault token), or `hvs.`.
fn vault_shape(b: &[u8], at: usize) -> bool {
    let rest = &b[at..];
    let body = match rest.first() {
        Some(b'h' | b'H') => return true,
        _ => rest.get(2..26),
    };
    body.is_some_and(|t| t.iter().all(u8::is_ascii_alphanumeric))
}

/// An Atlassian token of its own shape (`ATATT3…`), or a value assigned
/// to a name holding `jira`, `confluence` or `atlassian`.
fn atlassian_shape(b: &[u8], at: usize) -> bool {
    b.get(at..at + 6)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"ATATT3"))
        || assignment_follows(b, at)
}

/// `SK` + 32 hex digits (a Twilio key).
fn twilio_shape(b: &[u8], at: usize) -> bool {
    b.get(at + 2..at + 34)
        .is_some_and(|t| t.iter().all(u8::is_ascii_hexdigit))
}

/// `scheme://user:secret@`: a `:` and an `@` in the authority.
fn credentials_shape(b: &[u8], at: usize) -> bool {
    let rest = &b[at + 3.min(b.len() - at)..];
    let end = rest
        .iter()
        .take(200)
        .position(|&c| matches!(c, b'/' | b' ' | b'\n' | b'"' | b'\'' | b'<' | b'>'))
        .unwrap_or(rest.len().min(200));
    let auth = &rest[..end];
    auth.contains(&b'@') && auth.contains(&b':')
}

/// `NAME=` at a line's start (`export NAME=`), NAME in capitals: an env
/// line, worth searching; `x = 5` is not.
fn env_name_before(b: &[u8], eq: usize) -> bool {
    let mut i = eq;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let end = i;
    while i > 0 && matches!(b[i - 1], b'A'..=b'Z' | b'0'..=b'9' | b'_') {
        i -= 1;
    }
    if end - i < 3 || !b[i].is_ascii_uppercase() {
        return false;
    }
    // a name starts its line (after `export ` or a Read prefix): what is
    // before it is short, and looked at no further back than that
    let head = &b[i.saturating_sub(32)..i];
    // a line ends at a newline, or at `\n` in a JSON string as written
    let newline = head
        .iter()
        .enumerate()
        .rev()
        .find(|&(k, &c)| c == b'\n' || (c == b'n' && k > 0 && head[k - 1] == b'\\'));
    let line = match newline {
        Some((n, _)) => &head[n + 1..],
        None if i <= 32 => head,
        None => return false,
    };
    let mut line = line.trim_ascii_start();
    // the Read tool's `    15→`
    let digits = line.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && line[digits..].starts_with("→".as_bytes()) {
        line = line[digits + 3..].trim_ascii_start();
    }
    line.is_empty()
        || line
            .strip_prefix(b"export")
            .is_some_and(|r| r.trim_ascii().is_empty())
}

/// gitleaks' end of a token, written for source code: a quote, a space,
/// `;`, an escaped line end or the end. In a session the token is as
/// often in prose, markdown or HTML: `key is npm_….`, `(AIza…)`,
/// `**hf_…**`, `dapi…</b>`, `token: eyJ…,` each left a provider's key
/// whole. Any byte that cannot go on a token (not a letter, a digit,
/// `_`, `-`, `+`, `/`, `=`) ends it here, a non-ASCII one too (a no-break
/// space, `。`). The generic rules keep gitleaks' end: their values are
/// any word, and `password: self.get_password()` would end at `(`.
fn ended_as_in_prose(pattern: &str) -> String {
    const CODE_END: &str = r#"(?:[\x60'"\s;]|\\[nr]|$)"#;
    const PROSE_END: &str = r"(?:[^0-9A-Za-z_+/=-]|$)";
    pattern.replace(CODE_END, PROSE_END)
}

/// Whether the config's patterns (kind, pattern) compile as the redactor
/// compiles them (bytes, no Unicode classes, its size limits): the only
/// way [`RuleSet::new`] turns them down.
pub fn check_extra(extra: &[(String, String)]) -> Result<(), String> {
    for (kind, pat) in extra {
        compile(pat).map_err(|e| format!("redact.{kind}: {e}"))?;
    }
    Ok(())
}

impl RuleSet {
    /// The built-in rules, then `extra` (kind, pattern) from the config.
    pub fn new(extra: &[(String, String)]) -> Result<RuleSet, String> {
        let file: File = toml::from_str(GITLEAKS).map_err(|e| format!("secret rules: {e}"))?;
        let mut rules = own_rules();
        let mut skipped = Vec::new();
        let mut generic = Vec::new();
        for d in file.rules {
            let Some(pattern) = d.regex else {
                skipped.push((d.id, "matches file names only".into()));
                continue;
            };
            if d.path.is_some() {
                skipped.push((d.id, "needs a file path".into()));
                continue;
            }
            let pattern = if d.id.starts_with("generic") {
                pattern
            } else {
                ended_as_in_prose(&pattern)
            };
            // not compiled here: `every_rule_compiles` holds the bundled
            // rules to it, and a rule compiles when a keyword first wakes it
            let mut r = Rule::new(&d.id, &pattern, &[], Check::Plain);
            r.keywords = d.keywords.iter().map(|k| k.to_ascii_lowercase()).collect();
            // gitleaks' keyword-assignment shape: a name of at most 50
            // characters, the keyword, an operator, a value of at most 150
            if pattern.starts_with(r"(?i)[\w.-]{0,50}?(?:") {
                r.window = Some((64, 256));
                r.gate = Some(assignment_follows);
            }
            // keywords as common as any word: a look at what follows first
            // (a JWT's header is `{"`: `eyJ`, never another `ey`)
            match d.id.as_str() {
                "jwt" => r.keywords = vec!["eyj".into()],
                "vault-service-token" => r.gate = Some(vault_shape),
                "twilio-api-key" => r.gate = Some(twilio_shape),
                // its second shape is a token of its own (`ATATT3…`), no
                // assignment: the gate held for its keyword too and let
                // every such token pass
                "atlassian-api-token" => r.gate = Some(atlassian_shape),
                _ => {}
            }
            r.group = d.secret_group.filter(|g| *g > 0);
            r.entropy = d.entropy;
            r.allow = d.allowlists.into_iter().map(allow_of).collect();
            if d.id.starts_with("generic") {
                generic.push(r);
            } else {
                rules.push(r);
            }
        }
        rules.extend(generic);
        check_extra(extra)?;
        for (kind, pat) in extra {
            rules.push(Rule::new(kind, pat, &[], Check::Plain));
        }
        let global = file.allowlist.into_iter().map(allow_of).collect();
        Ok(RuleSet {
            rules,
            global,
            skipped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles() {
        let set = RuleSet::new(&[]).expect("rules");
        assert!(set.rules.len() > 200, "{}", set.rules.len());
        for r in &set.rules {
            assert!(r.regex().is_some(), "{} does not compile", r.kind);
            for a in r.allow.iter().chain(&set.global) {
                for p in &a.patterns {
                    assert!(compile_go(p).is_ok(), "{}'s allowlist: {p}", r.kind);
                }
            }
        }
        // the only rules left out are those about file paths
        for (id, why) in &set.skipped {
            assert!(why.contains("file"), "{id}: {why}");
        }
    }
}
