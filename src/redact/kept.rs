//! ccv's rules for secrets as programs print and keep them: the hashes a
//! database or a directory keeps of a password, a table of a secret
//! store's values (`vault kv get`), a Terraform output's value, a CI
//! log's mask, and the key a program signs with (`jwt.sign(…, "X")`).

use super::rules::{Check, NAME_WORDS, Rule, by_name};

pub(super) fn kept_rules() -> Vec<Rule> {
    let output = format!(
        r#"(?i)\\?"((?:[A-Za-z0-9_.-]*?){NAME_WORDS})\\?"[ \t]*:[ \t]*\{{[^{{}}]*?\\?"value\\?"[ \t]*:[ \t]*\\?"([^"\\\r\n]+)\\?""#
    );
    let column = format!(
        r#"(?i)(?:^"?|\\n|\xE2\x86\x92)[ \t]*((?:[A-Za-z0-9_.-]*?){NAME_WORDS})(?:[ \t]{{2,}}|\t)([^\s"'\\;,()*]*[^\s"'\\;,()*.])[ \t]*(?:$|\\[nr]|\\?")"#
    );
    let column = by_name(
        "column-secret",
        &column,
        Check::Assignment,
        (48, 448),
        column_around,
    );
    let spaced = format!(
        r#"(?i)(?:^"?|\\n|\xE2\x86\x92)[ \t]*(?:[A-Za-z0-9_.-]+[ \t]+){{0,3}}(?:[A-Za-z0-9_.-]*?){NAME_WORDS}[ \t]+(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"'\\{{}}=:;,()*]*[^\s"'\\{{}}=:;,()*.]))[ \t]*(?:$|\\[nr]|\\?"|\}})"#
    );
    let spaced = by_name(
        "spaced-secret",
        &spaced,
        Check::Mixed,
        (128, 448),
        spaced_around,
    );
    let mut token_user = Rule::new(
        "url-token-user",
        r#"\bhttps?://([A-Za-z0-9_-]{20,})@[A-Za-z0-9.-]"#,
        &["://"],
        Check::Entropy,
    )
    .within(8, 256);
    token_user.gate = Some(token_user_shape);
    // PgBouncer's `userlist.txt`: a line of two quoted words, a user
    // and its password (or the hash of it)
    let mut userlist = Rule::new(
        "pgbouncer-userlist",
        r#"(?:^"?|\\n|\xE2\x86\x92)[ \t]*\\?"[A-Za-z0-9_.@-]+\\?"[ \t]+\\?"([^"\\\s]{8,})\\?"[ \t]*(?:$|\\[nr]|")"#,
        &["\" \"", "\\\" \\\""],
        Check::Mixed,
    )
    .within(80, 160);
    userlist.gate = Some(quoted_pair_line);
    vec![
        // a Terraform output marked sensitive, as `terraform output
        // -json` prints it: its name, then its object's `"value"`
        Rule::new(
            "terraform-output-secret",
            &output,
            &["\"value\"", "\\\"value\\\""],
            Check::Assignment,
        )
        .within(256, 448)
        .over_lines(),
        // a secret store's table (`vault kv get`: `password    X`): a
        // name at a line's start, its value the only word after it (to
        // the line's end, or the end of the JSON string it is in), not
        // C's member (`SVCAUTH  xp_auth;`)
        column,
        // what a GitHub Actions step masks in its log is a secret
        Rule::new(
            "actions-mask",
            r#"::add-mask::(?:\\?"([^"\\\r\n]+)\\?"|([^\s"'\\]+))"#,
            &["::add-mask::"],
            Check::Value,
        )
        .within(0, 448),
        Rule::new(
            "password-hash",
            r#"(?:^|[\s:"'=|]|\\[nt])(\*[0-9A-F]{40}|SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+|pbkdf2_sha(?:1|256)\$[0-9]+\$[A-Za-z0-9./+]+\$[A-Za-z0-9+/=]{20,}|\{(?i:SSHA(?:256|384|512)?|SHA(?:256|384|512)?|SMD5|MD5|CRYPT|PBKDF2(?:-SHA(?:256|512))?|ARGON2)\}[A-Za-z0-9+/=$.]{8,})"#,
            &[
                "*0", "*1", "*2", "*3", "*4", "*5", "*6", "*7", "*8", "*9", "*a", "*b", "*c", "*d",
                "*e", "*f", "scram-sha-256$", "pbkdf2_sha", "{ssha", "{sha", "{smd5}", "{md5}",
                "{crypt}", "{pbkdf2", "{argon2}",
            ],
            Check::Plain,
        )
        .within(4, 512),
        // a config line `NAME VALUE` with a space alone (Gradle's
        // `password 'X'`, msmtp's `password X`, HAProxy's `user bob
        // insecure-password X`, fish's `set -x API_TOKEN X`): a value with
        // a digit or a sign, not prose's word (`password changed`), a
        // sentence's end (`token fields.`) or C's (`rsa_private_key key;`)
        spaced,
        said_secret(),
        Rule::new(
            "nickserv-password",
            r#"(?i)\b(?:nickserv|ns)[ \t]+:?identify[ \t]+(?:[^\s"'\\]+[ \t]+)?([^\s"'\\]+)[ \t]*(?:$|\\[nr]|\\?")"#,
            &["identify"],
            Check::Value,
        )
        .within(32, 256),
        // Postfix's `sasl_passwd` (`[smtp.x.io]:587 bob@x.io:X`)
        Rule::new(
            "postfix-sasl-password",
            r#"(?:^"?|\\n|\xE2\x86\x92)[ \t]*\[[^\]\s]+\](?::[0-9]+)?[ \t]+[^\s:"'\\]+:([^\s"'\\]+)"#,
            &["]:587 ", "]:465 ", "]:25 ", "]:2525 "],
            Check::Value,
        )
        .within(128, 256),
        // a Microsoft Teams incoming webhook's address
        Rule::new(
            "teams-webhook",
            r#"(?:outlook\.office(?:365)?\.com/webhook|\.webhook\.office\.com/webhookb2)/([A-Za-z0-9@/_-]{60,})"#,
            &["office.com/webhook", "office365.com/webhook"],
            Check::Plain,
        )
        .within(64, 512),
        // fetchmail's `poll host … user "bob" password "X"` (or `there
        // with password`, `pass`, `passwd`): a value, not a word (a bare
        // one ends in a letter or a digit: not `password login,`)
        Rule::new(
            "fetchmail-password",
            r#"(?i)\buser(?:name)?[ \t]+(?:\\?"[^"\\\r\n]+\\?"|'[^'\r\n]+'|[^\s"'\\]+)(?:[ \t]+there)?(?:[ \t]+with)?[ \t]+pass(?:word|wd)?[ \t]+(?:\\?"([^"\\\r\n]+)\\?"|'([^'\r\n]+)'|([^\s"'\\]*[A-Za-z0-9]))"#,
            // (woken by its password's word: `user` is on every line)
            &["pass"],
            Check::Mixed,
        )
        .within(256, 256),
        userlist,

        // a Go struct field under a secret's name whose tag gives its
        // default (`Password string \`default:"X"\``, `env-default`,
        // `envDefault`)
        Rule::new(
            "struct-tag-default",
            &format!(
                r#"(?i)\b(?:[A-Za-z0-9_]*?){NAME_WORDS}[ \t]+\*?[\[\]A-Za-z0-9_.]+[ \t]+`[^`\r\n]*?\b(?:default|env-default|envDefault):\\?"([^"\\\r\n]+)\\?""#
            ),
            &["default:"],
            Check::Value,
        )
        .within(128, 256),
        // Go's MySQL DSN (`bob:X@tcp(host:3306)/db`): no scheme, so no URL
        Rule::new(
            "go-sql-dsn",
            r#"[\s"'`=][A-Za-z0-9_.-]+:([^@\s"'`\\]+)@(?:tcp|unix|udp)\("#,
            &["@tcp(", "@unix(", "@udp("],
            Check::Value,
        )
        .within(256, 8),
        // a token given as a URL's user (`https://<token>@github.com/…`):
        // a generated one, not a name
        token_user,
        // a Windows account's NT hash as `secretsdump` and `pwdump` print
        // it (`user:500:LM:NT:::`)
        Rule::new(
            "ntlm-hash",
            r":[0-9]+:[0-9a-fA-F]{32}:([0-9a-fA-F]{32}):::",
            &[":::"],
            Check::Plain,
        )
        .within(80, 8),
        // the key a token is signed with: `jwt.sign(payload, "X")`,
        // PyJWT's `jwt.encode(payload, "X")`, Go's
        // `SignedString([]byte("X"))`, `createHmac("sha256", "X")`,
        // `hmac.new(b"X", …)`, JJWT's `signWith(ALG, "X")` and
        // `hmacShaKeyFor("X".getBytes())`, Java's `new SecretKeySpec("X"…)`
        Rule::new(
            "signing-key",
            r#"(?:\bjwt\.(?:sign|encode|verify|decode)[ \t]*\([ \t]*(?:\{[^{}\r\n]*\}|[^,{}()\r\n]+)[ \t]*,|\bsignWith[ \t]*\([ \t]*[A-Za-z0-9_.]+[ \t]*,|\b(?:hmacShaKeyFor|SecretKeySpec)[ \t]*\(|\bSignedString[ \t]*\([ \t]*\[\]byte[ \t]*\(|\bcreateHmac[ \t]*\([ \t]*\\?["'][A-Za-z0-9-]+\\?["'][ \t]*,|\bhmac\.new[ \t]*\()[ \t]*[bB]?(?:\\?"([^"\\\s]+)\\?"|\\?'([^'\\\s]+)\\?')"#,
            &[
                "jwt.sign",
                "jwt.encode",
                "jwt.verify",
                "jwt.decode",
                "signedstring",
                "createhmac",
                "hmac.new",
                "signwith(",
                "hmacshakeyfor(",
                "secretkeyspec(",
            ],
            Check::Value,
        )
        .within(24, 512),
    ]
}

/// Whether the word around a keyword starts a line (maybe behind spaces
/// or the Read tool's `    15→`) and is followed by two spaces or a tab:
/// a table's column of names, not prose or code.
fn column_around(b: &[u8], at: usize) -> bool {
    let word = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    let at = at.min(b.len());
    let mut start = at
        - b[..at]
            .iter()
            .rev()
            .take(48)
            .take_while(|c| word(c))
            .count();
    // a line end written `\n` is not the word's `n`
    if start > 0 && b[start - 1] == b'\\' && matches!(b.get(start), Some(b'n' | b'r' | b't')) {
        start += 1;
    }
    let indent = b[..start]
        .iter()
        .rev()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    let head = &b[..start - indent];
    let at_line_start = head.is_empty()
        || head == b"\""
        || head.ends_with(b"\n")
        || head.ends_with(b"\\n")
        || head.ends_with("\u{2192}".as_bytes());
    let end = at + b[at..].iter().take(48).take_while(|c| word(c)).count();
    let rest = &b[end..];
    let gap = rest
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    at_line_start
        && (gap >= 2 || rest.first() == Some(&b'\t'))
        && rest.get(gap).is_some_and(|c| !c.is_ascii_whitespace())
}

/// Whether the word around a keyword is a config line's name: at most
/// three words before it on its line (`set -x`, `user bob`), nothing
/// but words and spaces, and a space then a value after it.
fn spaced_around(b: &[u8], at: usize) -> bool {
    let at = at.min(b.len());
    let end = at
        + b[at..]
            .iter()
            .take(48)
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
            .count();
    let rest = &b[end..];
    let gap = rest
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    if gap == 0 || rest.get(gap).is_none_or(|c| c.is_ascii_whitespace()) {
        return false;
    }
    let head = &b[at.saturating_sub(128)..at];
    let line = head
        .windows(2)
        .rposition(|w| w == b"\\n")
        .map(|i| i + 2)
        .into_iter()
        .chain(head.iter().rposition(|&c| c == b'\n').map(|i| i + 1))
        .chain(
            head.windows(3)
                .rposition(|w| w == "\u{2192}".as_bytes())
                .map(|i| i + 3),
        )
        .max();
    // (a JSON string's opening quote starts its first line)
    let first = usize::from(head.first() == Some(&b'"'));
    let Some(from) = line.or((at < 128).then_some(first)) else {
        return false;
    };
    let before = &head[from..];
    before
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b' ' | b'\t'))
        && before
            .split(|c| matches!(c, b' ' | b'\t'))
            .filter(|w| !w.is_empty())
            .count()
            <= 4
}

/// Whether `://` at `at` is followed by a user of 20 letters, digits, `_`
/// or `-` and an `@`: every URL wakes [`kept_rules`]' `url-token-user`,
/// few have such a user.
fn token_user_shape(b: &[u8], at: usize) -> bool {
    let rest = b.get(at + 3..).unwrap_or_default();
    let user = rest
        .iter()
        .take(257)
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
        .count();
    user >= 20 && rest.get(user) == Some(&b'@')
}

/// Whether the keyword `" "` at `at` ends a line's first word, quoted
/// (PgBouncer's `userlist.txt`: `"bob" "X"`): a name and its opening
/// quote back to the line's start. (`" "` is in code and prose all over:
/// the pattern searched around each was a cost for nothing.)
fn quoted_pair_line(b: &[u8], at: usize) -> bool {
    let at = at.min(b.len());
    let name = b[..at]
        .iter()
        .rev()
        .take(64)
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'@' | b'-'))
        .count();
    let mut i = at - name;
    if name == 0 || i == 0 || b[i - 1] != b'"' {
        return false;
    }
    i -= 1;
    if i > 0 && b[i - 1] == b'\\' {
        i -= 1;
    }
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let head = &b[..i];
    head.is_empty()
        || head.ends_with(b"\n")
        || head.ends_with(b"\\n")
        || head == b"\""
        || head.ends_with("\u{2192}".as_bytes())
}

/// A secret said in a sentence: `my password is X`, `the API key
/// was X`, `the password for root is X`, `log in as bob with password
/// X`, `use the token X`
fn said_secret() -> Rule {
    Rule::new(
        "said-secret",
        r#"(?i)(?:\b(?:password|passwd|passphrase|passcode|pwd|pw|pin|secret|token|api[ _-]?key)(?:[ \t]+(?:for|to|of|on)(?:[ \t]+[^\s"'`]{1,64}){1,3})?[ \t]+(?:is|was)(?:[ \t]+(?:now|still|set[ \t]+to|changed[ \t]+to|reset[ \t]+to))?[ \t]*:?|\b(?:use|using|with|and|enter)[ \t]+(?:the[ \t]+)?(?:password|passwd|passphrase|token|api[ _-]?key))[ \t]+(?:\\?"([^"\\\x00-\x1f]{6,128})\\?"|'([^'\x00-\x1f]{6,128})'|`([^`\x00-\x1f]{6,128})`|([^\s\x00-\x1f\x7f"'`\\<>()\[\]{}]*[^\s\x00-\x1f\x7f"'`\\<>()\[\]{}.,;:!?]))"#,
        &[
            "password is", "password was", "passwd is", "passphrase is", "passcode is", "pwd is",
            "pw is", "pin is", "secret is", "secret was", "token is", "token was", "key is",
            "key was", "use password", "use the password", "using password", "with password",
            "with the password", "and password", "and the password", "enter password",
            "enter the password", "use the token", "with the token", "with token",
            "use token", "with passphrase", "with the passphrase", "with the api key",
            "with api key", "use the api key", "password for", "password to", "password of",
            "password on", "passphrase for", "token for", "key for",
        ],
        Check::Said,
    )
    .within(64, 192)
}
