//! Whether what a rule matched is a secret or a program's own text:
//! `token = next_token()`, `password: user.password`, `secret:
//! Uint8Array`, `PWD=/home/bob`, `API_KEY=$API_KEY` and `your-api-key`
//! are not secrets; `DB_PASSWORD=hunter2`, `"password": "letmein"` are.

/// Shannon entropy in bits per byte.
pub fn entropy(v: &[u8]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut freq = [0u32; 256];
    for &b in v {
        freq[b as usize] += 1;
    }
    let n = v.len() as f64;
    freq.iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// A generated value: letters and digits mixed, 4 bits a byte or more,
/// and not a path.
pub fn high_entropy(v: &[u8]) -> bool {
    let has_digit = v.iter().any(u8::is_ascii_digit);
    let has_alpha = v.iter().any(u8::is_ascii_alphabetic);
    has_digit && has_alpha && !is_path(v) && !contains(v, b"..") && entropy(v) >= 4.0
}

fn contains(h: &[u8], n: &[u8]) -> bool {
    memchr::memmem::find(h, n).is_some()
}

/// `/usr/local/lib`, `./src`, `~/x`, `C:\x`, a URL: where something is.
pub fn is_path(v: &[u8]) -> bool {
    v.starts_with(b"/")
        || v.starts_with(b"./")
        || v.starts_with(b"../")
        || v.starts_with(b"~/")
        || (v.len() > 2 && v[1] == b':' && (v[2] == b'\\' || v[2] == b'/'))
        || contains(v, b"://")
}

/// What docs, tests and templates write in place of a secret.
fn stand_in(v: &[u8]) -> bool {
    let lower = v.to_ascii_lowercase();
    const WORDS: &[&[u8]] = &[
        b"your",
        b"example",
        b"sample",
        b"dummy",
        b"fake",
        b"placeholder",
        b"changeme",
        b"change_me",
        b"redacted",
        b"invalid",
        b"xxxx",
        b"****",
        b"...",
        b"<",
        b"{{",
        b"${",
        b"#{",
        b"%(",
        b"secret_here",
        b"goes_here",
        b"here>",
        b"insert",
        b"replace",
        b"todo",
        b"development",
        b"localhost",
    ];
    // a value named after what it stands for: `phc_development_key`,
    // `my-api-token`, `db_password`
    let named = [&b"key"[..], b"token", b"secret", b"password"]
        .iter()
        .any(|w| {
            lower.ends_with(w)
                && lower.len() > w.len()
                && matches!(lower[lower.len() - w.len() - 1], b'_' | b'-')
        });
    named
        || WORDS.iter().any(|w| written_as_word(v, &lower, w))
        || v.iter()
            .all(|&c| matches!(c, b'*' | b'x' | b'X' | b'.' | b'-' | b'_' | b'#'))
}

/// Whether `v` (`lower` in small letters) holds `word` written as a word
/// is (`fake`, `FAKE`, `Fake`), not letters of a random value that spell
/// it (`FakE3Dlclb…`: one random token of 16 in some thousands does).
fn written_as_word(v: &[u8], lower: &[u8], word: &[u8]) -> bool {
    let n = word.len();
    lower.windows(n).enumerate().any(|(i, w)| {
        w == word && {
            let seen = &v[i..i + n];
            let rest_lower = seen.iter().skip(1).all(|c| !c.is_ascii_uppercase());
            let all_upper = seen.iter().all(|c| !c.is_ascii_lowercase());
            rest_lower || all_upper
        }
    })
}

/// A reference to a value kept elsewhere: `$X`, `%X%`, `@X`, `env.X`.
fn variable(v: &[u8]) -> bool {
    v.starts_with(b"$")
        || v.starts_with(b"%")
        || v.starts_with(b"@")
        || v.starts_with(b"&")
        || contains(v, b"process.env")
        || contains(v, b"os.environ")
        || contains(v, b"getenv")
        || contains(v, b"env(")
        || contains(v, b"secrets.")
}

/// Whether what follows a value unquoted (`NAME: VALUE` matched) makes
/// it a type a declaration gives its name before the value it sets
/// (`const ETH_P_PREAUTH: u32 = 35015`, `let token: Token = …`): `=`
/// after spaces, not `==` or `=>`.
pub fn declares_a_type(after: &[u8]) -> bool {
    let rest = after.trim_ascii_start();
    rest.len() < after.len()
        && rest.first() == Some(&b'=')
        && !matches!(rest.get(1), Some(b'=' | b'>' | b'~'))
}

/// A type of Rust's or C's that names a number or a character (`u32`,
/// `__u32`, `c_int`, `size_t`, `uint8_t`): a field's type, not its value.
fn number_type(v: &[u8]) -> bool {
    let bare = v.strip_prefix(b"__").unwrap_or(v);
    let width = |w: &[u8]| matches!(w, b"8" | b"16" | b"32" | b"64" | b"128" | b"size");
    let sized = bare
        .split_first()
        .is_some_and(|(c, w)| matches!(c, b'u' | b'i' | b'f' | b's') && width(w))
        || [&b"be"[..], b"le"]
            .iter()
            .any(|p| bare.strip_prefix(*p).is_some_and(width));
    let c_type = v
        .strip_prefix(b"c_")
        .is_some_and(|t| !t.is_empty() && t.iter().all(u8::is_ascii_lowercase));
    let t_type = v.len() <= 16
        && v.strip_suffix(b"_t").is_some_and(|t| {
            t.first().is_some_and(u8::is_ascii_lowercase)
                && t.iter()
                    .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        });
    sized || c_type || t_type
}

/// `libc::EAUTH`, `wasi::Userdata`: a path of code, its parts names
/// joined by `::`.
fn code_path(v: &[u8]) -> bool {
    let mut parts = 0;
    for part in v.split(|&c| c == b':') {
        parts += 1;
        // `a::b` splits as a, "", b
        if part.is_empty() {
            continue;
        }
        if !part.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
            || part.first().is_some_and(u8::is_ascii_digit)
        {
            return false;
        }
    }
    parts >= 3 && memchr::memmem::find(v, b"::").is_some() && !v.ends_with(b":")
}

/// Words that are types, keywords or settings, not values.
fn word_of_code(v: &[u8]) -> bool {
    let bare = v.trim_ascii_end();
    let bare = bare
        .strip_suffix(b",")
        .or_else(|| bare.strip_suffix(b";"))
        .or_else(|| bare.strip_suffix(b")"))
        .unwrap_or(bare);
    if number_type(bare) || code_path(bare) {
        return true;
    }
    const WORDS: &[&str] = &[
        "true",
        "false",
        "null",
        "nil",
        "none",
        "undefined",
        "yes",
        "no",
        "on",
        "off",
        "required",
        "optional",
        "string",
        "str",
        "int",
        "bool",
        "boolean",
        "number",
        "bytes",
        "any",
        "object",
        "void",
        "never",
        "unknown",
        "text",
        "varchar",
        "char",
        "blob",
        "hidden",
        "password",
        "secret",
        "token",
        "default",
        "empty",
        "env",
        "self",
        "this",
        "value",
        "auto",
        "set",
        "unset",
        "new",
        "enabled",
        "disabled",
        "await",
        "async",
        "return",
        "yield",
        "function",
        "lambda",
        "typeof",
        "require",
        "import",
        "from",
        "const",
        "let",
        "var",
        "def",
        "fn",
        "match",
        "if",
        "else",
        "for",
        "while",
        "in",
        "of",
        "is",
        "not",
        "and",
        "or",
        "static",
        "final",
        "public",
        "private",
        "readonly",
        "*mut",
        "*const",
        "mut",
        "unsafe",
        "dyn",
        "impl",
        // an Authorization header's scheme, the credentials after it
        "basic",
        "bearer",
        "digest",
    ];
    let lower = String::from_utf8_lossy(v).to_ascii_lowercase();
    let lower = lower.trim_end_matches([',', ';', ':', ')']);
    WORDS.contains(&lower)
}

/// A flag's, header's or URL's value: a secret unless it is a variable, a
/// stand-in, a path or a URL (`wget --no-password https://…`: the flag
/// takes no value, the next word is the command's) or empty.
pub fn is_value(v: &[u8]) -> bool {
    v.len() >= 3
        && !variable(v)
        && !stand_in(v)
        && !word_of_code(v)
        && !is_path(v)
        && !metavar(v)
        && !typed_parameter(v)
}

/// A parameter's type after its name (`cookie: *mut c_void,`,
/// `cookie: crate::lgrp_cookie_t,`): a pointer's or a path of code.
fn typed_parameter(v: &[u8]) -> bool {
    let first = v.split(u8::is_ascii_whitespace).next().unwrap_or_default();
    matches!(first, b"*mut" | b"*const")
        || (first.len() < v.len() || first.ends_with(b",")) && word_of_code(first)
}

/// What a command's help names a flag's value by (`--api-key KEY`,
/// `-p PASSWORD`, `--token API_TOKEN`): capitals and `_` alone, which a
/// generated value never is (one of 16 random letters and digits in
/// 10^12).
fn metavar(v: &[u8]) -> bool {
    v.len() <= 32
        && v.iter().any(u8::is_ascii_uppercase)
        && v.iter()
            .all(|&c| c.is_ascii_uppercase() || matches!(c, b'_' | b'-'))
}

/// A value a call sets under a secret's name: letters with digits or
/// signs and no space, or letters that look generated; not a word (a
/// test's `.header("X-SECRET", "typed")`, a protocol's `("AUTH",
/// "SELECTED")`), a field (`"access.secret"`), a number or a stand-in.
pub fn is_mixed_value(v: &[u8]) -> bool {
    let letters = v.iter().any(u8::is_ascii_alphabetic);
    let others = v.iter().any(|c| !c.is_ascii_alphabetic());
    is_value(v) && letters && !dotted(v) && ((others && !v.contains(&b' ')) || generated_letters(v))
}

/// A value said in a sentence after a secret's name (`the password is
/// X`, `log in with password X`): at least 6 bytes of one word, a value
/// (not a variable, a stand-in, a path or a name of code), and one a
/// person makes up or a program generates: digits with letters, or a
/// sign among letters, or generated letters. Not prose's word (`is
/// required`), a compound (`read-only`), nor an algorithm's or a
/// format's name (`SHA256`, `base64-encoded`, `ed25519`).
pub fn is_said_secret(v: &[u8]) -> bool {
    const NAMED: &[&str] = &[
        "sha", "md", "base", "utf", "utf-", "x", "oauth", "ed", "aes", "rsa", "http", "ipv",
        "argon", "pbkdf", "hs", "rs", "es", "ps", "crc", "blake", "hmac-sha", "tls", "ssl", "v",
        "ecdsa-p", "p-", "curve", "chacha", "poly", "des", "rc", "ntlmv", "scrypt-n", "xchacha",
    ];
    // a control byte is shown as `^R`, `^@` before redaction: binary, not said
    let shown_control = v
        .windows(2)
        .any(|w| w[0] == b'^' && (w[1].is_ascii_uppercase() || b"@[\\]^_?".contains(&w[1])));
    if v.len() < 6 || v.contains(&b' ') || shown_control || !is_value(v) || dotted(v) {
        return false;
    }
    let letters = v.iter().any(u8::is_ascii_alphabetic);
    let digits = v.iter().any(u8::is_ascii_digit);
    let signs = v.iter().any(|c| b"!@#$%^&*+=?~".contains(c));
    let lower = String::from_utf8_lossy(v).to_ascii_lowercase();
    let head = lower.trim_end_matches(|c: char| !c.is_ascii_digit());
    let head = head.trim_end_matches(|c: char| c.is_ascii_digit());
    let named = digits && NAMED.contains(&head);
    letters && (digits && !named || signs || generated_letters(v))
}

/// `smtpPass`, `DBPass`: a name that ends in a camel-cased `Pass` after
/// a letter or digit (in quotes or not).
fn camel_pass(name: &[u8]) -> bool {
    let name = name
        .strip_suffix(b"\"")
        .or_else(|| name.strip_suffix(b"'"))
        .unwrap_or(name);
    name.strip_suffix(b"Pass")
        .and_then(<[u8]>::last)
        .is_some_and(u8::is_ascii_alphanumeric)
}

/// Whether a key or name ends in a secret word (`DB_PASSWORD`,
/// `clientSecret`, `api_key`).
pub fn names_a_secret(name: &[u8]) -> bool {
    const ENDS: &[&str] = &[
        "password",
        "passwords",
        "passwd",
        "passphrase",
        "pwd",
        "secret",
        "secrets",
        "secretkey",
        "secret_key",
        "secret-key",
        "token",
        "apikey",
        "api_key",
        "api-key",
        "accesskey",
        "access_key",
        "access-key",
        "privatekey",
        "private_key",
        "private-key",
        "authkey",
        "auth_key",
        "signingkey",
        "signing_key",
        "encryptionkey",
        "encryption_key",
        "credential",
        "credentials",
        "clientsecret",
        "client_secret",
        "client-secret",
        "auth",
    ];
    let lower = String::from_utf8_lossy(name).to_ascii_lowercase();
    let lower = lower.trim_matches(|c| c == '"' || c == '\'');
    // `DB_PASS`, `smtp.pass` (not `bypass`, nor a bare `PASS`: Go's tests
    // print `--- PASS: TestX`)
    let pass = lower.ends_with("_pass") || lower.ends_with(".pass") || camel_pass(name);
    pass || ENDS.iter().any(|e| lower.ends_with(e))
}

fn password_like(name: &[u8]) -> bool {
    let lower = name.to_ascii_lowercase();
    [&b"pass"[..], b"pwd", b"secret", b"pin"]
        .iter()
        .any(|w| contains(&lower, w))
}

fn upper_name(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_uppercase) && !name.iter().any(u8::is_ascii_lowercase)
}

/// `user.password`, `self.token`, `obj.key_id`: a field of something.
fn dotted(v: &[u8]) -> bool {
    v.contains(&b'.')
        && v.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        && v.first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && !v.ends_with(b".")
}

/// `authToken`, `next_token`, `SecretString`, `Uint8Array`: a name a
/// program gives, not a value.
fn identifier(v: &[u8]) -> bool {
    let word = v.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        && v.first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
    if !word {
        return false;
    }
    let lowers = v.iter().filter(|c| c.is_ascii_lowercase()).count();
    let uppers = v.iter().filter(|c| c.is_ascii_uppercase()).count();
    let digits = v.iter().filter(|c| c.is_ascii_digit()).count();
    // snake_case without digits
    let snake = uppers == 0 && digits == 0;
    // camelCase / PascalCase words: few capitals, each starting a word of
    // lower-case letters, digits rare
    let camel = uppers > 0
        && lowers >= 2 * uppers
        && digits <= 2
        && v.windows(2)
            .all(|w| !(w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()));
    snake || camel
}

fn is_version(v: &[u8]) -> bool {
    let v = v
        .strip_prefix(b"^")
        .or_else(|| v.strip_prefix(b"~"))
        .or_else(|| v.strip_prefix(b">="))
        .or_else(|| v.strip_prefix(b"<="))
        .or_else(|| v.strip_prefix(b"v"))
        .unwrap_or(v);
    !v.is_empty()
        && v[0].is_ascii_digit()
        && v.contains(&b'.')
        && v.iter()
            .all(|&c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'x' | b'*'))
}

/// `NAME = value` (or `"name": "value"`), NAME ending in a secret word:
/// whether `value` is a secret. `quoted`: the value was in quotes (a
/// string, not code); `next`: the byte after it.
pub fn is_assigned_secret(name: &[u8], v: &[u8], quoted: bool, next: Option<u8>) -> bool {
    let v = v.trim_ascii();
    if v.len() < 3 || variable(v) || stand_in(v) || word_of_code(v) || is_path(v) {
        return false;
    }
    // `FirstPass::scan`, `Token::new`: a path of code (`::`), not a value
    if v.starts_with(b":") && !quoted {
        return false;
    }
    // a password, which may be a word; a camel-cased `…Pass` is most often
    // a pass of a compiler or a renderer (`ResultPass = nullptr`), whose
    // value is a secret when quoted or generated
    let password = password_like(name) && !camel_pass(name);
    // a call, a type in a parameter list, a generic: code
    if matches!(next, Some(b'(' | b'<'))
        || v.contains(&b'(')
        || (matches!(next, Some(b')' | b'>' | b'[' | b'|' | b',' | b'='))
            && identifier(v)
            && !quoted)
    {
        return false;
    }
    // `password: password`, `token: token`
    let name_lower = name.to_ascii_lowercase();
    if name_lower.ends_with(&v.to_ascii_lowercase()) {
        return false;
    }
    // a version (`^10.1.1`, `>=2.0`, `v1.2.3`): a package's, not a secret
    if is_version(v) {
        return false;
    }
    // no letter at all (`4096`, `0:50`): a number, unless it is a password
    if !v.iter().any(u8::is_ascii_alphabetic) {
        return password && v.len() >= 4 && v.iter().all(u8::is_ascii_digit);
    }
    if generated_letters(v) {
        return true;
    }
    if quoted || upper_name(name) {
        return !(identifier(v) && !quoted && !password);
    }
    if dotted(v) || identifier(v) && !password {
        return false;
    }
    if password {
        // `password: letmein`: a word is a password here; a variable in
        // camelCase (`hashedPassword`) or a type (`secretKey: Uint8Array`,
        // a capital after the number) is not, but a word with capitals,
        // small letters and digits is (`Welcome1`, `Tr0ub4dor`): a name
        // holds a digit far less often
        let digit = v.iter().any(u8::is_ascii_digit);
        let lower = v.iter().any(u8::is_ascii_lowercase);
        let hump = v
            .windows(2)
            .any(|w| w[0].is_ascii_digit() && w[1].is_ascii_uppercase());
        let upper = v.iter().any(u8::is_ascii_uppercase);
        let name = upper && identifier(v) && (!(digit && lower) || hump);
        // and a name in snake_case, words joined by `_` (`password_mgr`)
        let snake = !upper && !digit && v.contains(&b'_') && identifier(v);
        return !(name || snake);
    }
    // `token: abc123def456`, `api_key: 9f8e…`: a generated value
    v.len() >= 8 && v.iter().any(u8::is_ascii_digit) && v.iter().any(u8::is_ascii_alphabetic)
}

/// Whether letters alone look generated, not written: a token with no
/// digit (one of 16 random letters and digits in 15 has none) read as a
/// name would leak. At least 12 letters, a third to three quarters of
/// them capitals, the case changing at every third letter or more often:
/// `pEjMtFDWwAZoKdheIa`, not `getElementsByTagName` (a fifth capitals) or
/// `HTTPServerErrorHandler` (5 changes in 22).
fn generated_letters(v: &[u8]) -> bool {
    if v.len() < 12 || !v.iter().all(u8::is_ascii_alphabetic) {
        return false;
    }
    let upper = v.iter().filter(|c| c.is_ascii_uppercase()).count();
    // pairs no word holds, four times in one name (`FgjYnvqjAxqfvmpTpU`:
    // capitals too few and too far apart for the test below)
    if upper > 0 && upper < v.len() && rare_pairs(v) >= 4 {
        return true;
    }
    let changes = v
        .windows(2)
        .filter(|w| w[0].is_ascii_uppercase() != w[1].is_ascii_uppercase())
        .count();
    upper * 10 >= v.len() * 3 && upper * 4 <= v.len() * 3 && changes * 3 >= v.len()
}

/// Letter pairs words hardly hold: fewer than 1 in 10,000 of the 113
/// million pairs of letters in the English words of a Debian system's
/// `/usr/share/doc` (bit `j` of row `i`: letter `i`, then letter `j`).
/// Random letters hold one in two or three of their pairs here; a name
/// written in words, hardly any (`ReverseHybridCache`: `yb`).
const RARE_PAIRS: [u32; 26] = [
    0x2014200, 0x2612080, 0x2e12240, 0x2c10200, 0x2000000, 0x2e1b6c0, 0x3e10622, 0x3e106e4,
    0x1400380, 0x3e3bfe6, 0x3e11eae, 0x2833480, 0x3eb06e0, 0x2c10000, 0x1010000, 0x0e11202,
    0x3efffff, 0x2810280, 0x2a00202, 0x2210242, 0x1710680, 0x3fdaeee, 0x3b99e6e, 0x3f36eea,
    0x3b106ea, 0x3fffeee,
];

/// How many pairs of letters in `v` (all ASCII letters) are
/// [`RARE_PAIRS`], within a word: a small letter after any, or two
/// capitals (a capital after a small letter starts a word).
fn rare_pairs(v: &[u8]) -> usize {
    v.windows(2)
        .filter(|w| {
            let (a, b) = (w[0].to_ascii_lowercase(), w[1].to_ascii_lowercase());
            (w[1].is_ascii_lowercase() || w[0].is_ascii_uppercase())
                && a.is_ascii_lowercase()
                && b.is_ascii_lowercase()
                && RARE_PAIRS[usize::from(a - b'a')] >> (b - b'a') & 1 == 1
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(name: &str, v: &str, quoted: bool, next: Option<u8>) -> bool {
        is_assigned_secret(name.as_bytes(), v.as_bytes(), quoted, next)
    }

    #[test]
    fn values_of_secret_names() {
        assert!(secret("DB_PASSWORD", "hunter2", false, None));
        assert!(secret("POSTGRES_PASSWORD", "s3cr3t!", false, None));
        assert!(secret("password", "letmein", true, None));
        assert!(secret("password", "correcthorse", false, None));
        assert!(secret("JWT_SECRET", "my-jwt-secret-value", false, None));
        assert!(secret("ADMIN_TOKEN", "t0k3n-abc", false, None));
        assert!(secret("token", "abc123def456", false, None));
        assert!(secret("PGPASSWORD", "123456", false, None));
    }

    #[test]
    fn letters_that_look_generated() {
        assert!(secret(
            "access_token",
            "pEjMtFDWwAZoKdheIa",
            false,
            Some(b'&')
        ));
        assert!(secret("API_TOKEN", "RlgLKOmxgJTeKdNnFR", false, None));
        // capitals few and far apart, pairs no word holds
        assert!(secret("password", "FgjYnvqjAxqfvmpTpU", false, Some(b';')));
        assert!(secret("token", "qwXbmvkzTrhpLdfg", false, None));
        assert!(!secret("token", "ReverseHybridCache", false, None));
        assert!(!secret("secret", "UnknownWeekdayAbbreviation", false, None));
        assert!(!secret("password", "ExactSizeIterator", false, None));
        assert!(!secret("token", "getElementsByTagName", false, None));
        assert!(!secret("token", "HTTPServerErrorHandler", false, None));
        assert!(!secret("token", "CancellationToken", false, None));
        assert!(!secret(
            "secret",
            "AbstractSingletonProxyFactoryBean",
            false,
            None
        ));
    }

    #[test]
    fn code_and_stand_ins_are_not_secrets() {
        assert!(!secret("token", "next_token", false, Some(b'(')));
        assert!(!secret("password", "user.password", false, Some(b',')));
        assert!(!secret("secret", "Uint8Array", false, Some(b')')));
        assert!(!secret("password", "hashedPassword", false, None));
        assert!(!secret("API_KEY", "$API_KEY", false, None));
        assert!(!secret("API_KEY", "your-api-key-here", true, None));
        assert!(!secret("PWD", "/home/bob/src", false, None));
        assert!(!secret("password", "password", true, None));
        assert!(!secret("token", "string", false, None));
        assert!(!secret("max_tokens", "4096", false, None));
        assert!(!secret("password", "****", true, None));
        assert!(!secret("token", "authToken", false, None));
        // types and paths of code
        assert!(!secret("log_passwd", "__u32", false, Some(b',')));
        assert!(!secret("pw_passwd", "*mut", false, Some(b' ')));
        assert!(!secret("SYS_memfd_secret", "c_long", false, Some(b' ')));
        assert!(!secret("buf_secret", "size_t", false, None));
        assert!(!secret("ENEEDAUTH", "libc::ENEEDAUTH", false, Some(b',')));
        assert!(!secret("pwd", "unsafe", false, Some(b' ')));
        assert!(!secret("self.passwd", "password_mgr", false, None));
        assert!(!secret("auth", "Basic ", true, Some(b'"')));
        assert!(!is_value(b"*mut c_void,"));
        assert!(!is_value(b"crate::lgrp_cookie_t,"));
        assert!(is_value(b"sid=31d4d96e407aad42; lang=en"));
        assert!(secret("password", "hunter_2", false, None));
        // but not a password that looks a little like one
        assert!(secret("password", "u32x9", false, None));
        assert!(secret("password", "ab:cd:ef", false, None));
        assert!(secret("DB_PASSWORD", "c_4ever", false, None));
    }

    #[test]
    fn a_type_before_a_value_is_declared() {
        assert!(declares_a_type(b" = 35015;"));
        assert!(declares_a_type(b"\t= x"));
        assert!(!declares_a_type(b"= x"));
        assert!(!declares_a_type(b" == x"));
        assert!(!declares_a_type(b" => x"));
        assert!(!declares_a_type(b" and more"));
        assert!(!declares_a_type(b""));
    }
}
