use super::*;

fn r(text: &str) -> (String, Counts) {
    let _ = take_counts();
    let red = Redactor::new(&[("internal".into(), r"corp-[0-9]{4}".into())]).expect("rules");
    let out = red.redact(text).into_owned();
    (out, take_counts())
}

/// Secrets put together from pieces, so that no key sits in the source.
fn key(parts: &[&str]) -> String {
    parts.concat()
}

/// `n` letters and digits that look generated (xorshift from `seed`).
fn noise(seed: u64, n: usize) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut x = seed.max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ABC[(x % ABC.len() as u64) as usize] as char
        })
        .collect()
}

#[test]
fn every_kind_is_redacted() {
    let cases: Vec<(String, String)> = vec![
        (
            key(&["sk-ant-", "api03-", &noise(1, 60)]),
            "key {} end".into(),
        ),
        (key(&["sk-proj-", &noise(2, 56)]), "OPENAI {} end".into()),
        (key(&["AKIA", "IOSFODNN7EXAMPLF"]), "id {} here".into()),
        (
            key(&["wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY"]),
            "aws_secret_access_key = {}".into(),
        ),
        (key(&["ghp_", &noise(3, 36)]), "token {} x".into()),
        (key(&["glpat-", &noise(4, 20)]), "{} x".into()),
        (key(&["xoxb-", "1234567890-", &noise(5, 24)]), "{}".into()),
        (key(&["sk_live_", &noise(6, 24)]), "{}".into()),
        (key(&["AIza", &noise(7, 35)]), "{}".into()),
        (
            key(&[
                "eyJhbGciOiJIUzI1NiJ9",
                ".eyJzdWIiOiIxMjM0NTY3ODkwIn0",
                ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            ]),
            "{}".into(),
        ),
        (noise(8, 32), "Authorization: Bearer {}".into()),
        (
            "hunter2secret".into(),
            "postgres://admin:{}@db.example.com/app".into(),
        ),
        ("Sup3r$ecretValue!".into(), "password={}".into()),
        (
            "Zq8xW2mN5vB7cR1tY4uI9oP3aS6dF0gH".into(),
            "DATABASE_URL_SALT={}".into(),
        ),
        ("corp-1234".into(), "host {} here".into()),
    ];
    for (secret, shape) in cases {
        let text = shape.replace("{}", &secret);
        let (out, counts) = r(&text);
        assert!(!out.contains(&secret), "{text} -> {out}");
        assert!(out.contains(MARK), "{text} -> {out}");
        assert!(!counts.is_empty(), "{text}");
    }
}

#[test]
fn a_key_is_redacted_whatever_prose_follows_it() {
    // gitleaks ends these keys at a quote, a space or `;`, as in code
    let hex = |seed, n| {
        let abc = b"0123456789abcdef";
        noise(seed, n)
            .bytes()
            .map(|b| abc[usize::from(b) % 16] as char)
            .collect::<String>()
    };
    let keys = [
        key(&["AIza", &noise(11, 35)]),
        key(&["hf_", &noise(12, 34).replace(char::is_numeric, "q")]),
        key(&["npm_", &noise(13, 36)]),
        key(&["dapi", &hex(14, 32)]),
        key(&["dop_v1_", &hex(15, 64)]),
        key(&["SG.", &noise(16, 22), ".", &noise(17, 43)]),
        key(&[
            "eyJhbGciOiJIUzI1NiJ9",
            ".eyJzdWIiOiIxMjM0NTY3ODkwIn0",
            ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ]),
    ];
    let ends = [
        ".", ",", ")", "]", "}", ">", ":", "!", "?", "|", "**", "</b>", "&amp;", "\u{a0}",
        "\u{3002}",
    ];
    for secret in &keys {
        for end in ends {
            for text in [
                format!("Your key is {secret}{end} and more"),
                format!("(`{secret}`{end})"),
            ] {
                let (out, _) = r(&text);
                assert!(!out.contains(secret.as_str()), "{text} -> {out}");
            }
        }
    }
    // a longer run of the token's own letters is still no key
    let (out, _) = r(&format!("id {}{} x", keys[2], "zz"));
    assert!(!out.contains(MARK), "{out}");
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
        "NODE_MODS=/Users/someone/projects/app/node_modules",
        "    12→export function authChallenge(secret: Uint8Array): {",
        "commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
        "session 0c6f1b2e-8d1a-4c51-9a7e-3b5f2d9e8a10 started",
        "max_tokens: 4096",
        "const { token } = useAuth();",
    ] {
        let (out, counts) = r(text);
        assert!(counts.is_empty(), "{text:?} -> {out:?} {counts:?}");
    }
}

#[test]
fn json_stays_json_and_its_keys_are_read() {
    let pk = key(&[
        "-----BEGIN PRIVATE KEY-----\nMIIE",
        &"A".repeat(64),
        "\n-----END PRIVATE KEY-----",
    ]);
    let v = serde_json::json!({"text": format!("token=Abc123Def456Ghi789 and {pk}"),
        "input": {"password": "letmein", "user": "bob"}});
    let s = v.to_string();
    let _ = take_counts();
    let out = active().redact_json(&s).into_owned();
    let counts = take_counts();
    assert!(counts.values().sum::<usize>() >= 3, "{out} {counts:?}");
    let back: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
    let text = back["text"].as_str().expect("text");
    assert!(
        !text.contains("MIIE") && !text.contains("Abc123Def456Ghi789"),
        "{text}"
    );
    assert_eq!(back["input"]["password"], "[REDACTED:secret-assignment]");
    assert_eq!(back["input"]["user"], "bob");
    // a key that is itself a secret
    let k = key(&["ghp_", &noise(9, 36)]);
    let out = active()
        .redact_json(&serde_json::json!({ k.clone(): 1 }).to_string())
        .into_owned();
    assert!(!out.contains(&k), "{out}");
}

/// JSON is redacted where it is written: what holds no secret stays byte
/// for byte (spacing, key order, escapes), a quote escaped next to a
/// secret stays escaped, and a number a key names as a secret goes too.
#[test]
fn json_is_redacted_where_it_is_written() {
    let r = active();
    let plain = r#"{ "b": [1, 2.5e3, "x\"y"],  "a": {"user" : "bob"} }"#;
    assert!(matches!(r.redact_json(plain), Cow::Borrowed(_)));
    let token = key(&["abc", "DEF123456ghi", "JKL789mnoPQR"]);
    let json = format!(
        r#"{{ "z": 1,  "cmd": "curl -H \"Authorization: Bearer {token}\" https://x.dev", "pin_secret": 48151623421, "pwd" : "hunter2hunter2" }}"#
    );
    let out = r.redact_json(&json).into_owned();
    let back: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
    assert!(!out.contains(&token), "{out}");
    assert!(
        !out.contains("48151623421") && !out.contains("hunter2"),
        "{out}"
    );
    assert!(
        out.starts_with(r#"{ "z": 1,  "cmd": "curl -H \"Authorization: Bearer [REDACTED:"#),
        "{out}"
    );
    assert!(
        back["cmd"]
            .as_str()
            .is_some_and(|c| c.ends_with("\" https://x.dev")),
        "{back}"
    );
    assert_eq!(back["pwd"], "[REDACTED:secret-assignment]");
    assert!(out.contains(r#""pwd" : ""#), "{out}");
}

#[test]
fn hidden_in_what_a_terminal_shows() {
    let aws = key(&["AKIA", "IOSFODNN7EXAMPLF"]);
    let (a, b) = aws.split_at(6);
    let stripe = key(&["sk_live_", &noise(10, 24)]);
    for text in [
        format!("{a}\u{1b}[01;31m\u{1b}[K{b}\u{1b}[m\u{1b}[K"),
        format!("{a}\u{00ad}{b}"),
        format!("{a}\u{200b}{b}"),
        format!("{a}\u{2060}{b}"),
        format!("&#65;{}", &aws[1..]),
        format!("&#x41;{}", &aws[1..]),
        stripe.replace('_', "\\_"),
        stripe.replace('_', "&lowbar;"),
    ] {
        let (out, counts) = r(&text);
        assert!(out.contains(MARK), "{text:?} -> {out:?}");
        assert!(!counts.is_empty());
        let shown = shown::Shown::of(&out).text.into_owned();
        assert!(!shown.contains(&aws) && !shown.contains(&stripe), "{out:?}");
    }
}

#[test]
fn read_tool_lines_are_read_as_the_file() {
    let text = "    14→# settings\n    15→JWT_SECRET=kj3h4k5jh34k5jh3\n    16→DEBUG=true\n";
    let (out, _) = r(text);
    assert!(!out.contains("kj3h4k5jh34k5jh3"), "{out}");
    assert!(out.contains("    15→JWT_SECRET=[REDACTED:"), "{out}");
    assert!(out.contains("DEBUG=true"));
}

#[test]
fn redacting_twice_changes_nothing_more() {
    let text = format!("DB_PASSWORD=hunter2 and ghp_{}", noise(11, 36));
    let (once, _) = r(&text);
    let (twice, counts) = r(&once);
    assert_eq!(once, twice);
    assert!(counts.is_empty(), "{counts:?}");
}

/// A rule whose value runs to the next space (a config's own, or one of
/// ours) met a JSON string's closing quote: the export's line lost it and
/// was no JSON. A hit stays inside the string's quotes.
#[test]
fn a_hit_never_takes_a_json_strings_quote() {
    let red = Redactor::new(&[("ticket".into(), r"ticket:\S+".into())]).expect("rules");
    for written in [r#""see ticket:abc123""#, r#""ticket:abc123\"""#] {
        let out = red.redact_json_string(written).expect("redacted in place");
        let back: String = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
        assert!(back.contains("[REDACTED:ticket]"), "{back}");
        assert!(!back.contains("abc123"), "{back}");
    }
}

/// A key written with escapes the next reader decodes (JSON's `\u`, a
/// shell's `\x`, JSON in JSON): redacted in text, and in JSON where each
/// string is read once decoded, the whole escaped key replaced.
#[test]
fn a_key_written_with_escapes_is_redacted() {
    let gh = key(&["ghp_", &noise(21, 36)]);
    let every: String = gh.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    for text in [
        format!("token \\u0067{}", &gh[1..]),
        format!("token \\\\u0067{}", &gh[1..]),
        format!("token {every}"),
        format!("token \\x67{}", &gh[1..]),
    ] {
        let (out, counts) = r(&text);
        assert_eq!(out, "token [REDACTED:github-token]", "{text}");
        assert_eq!(counts.values().sum::<usize>(), 1);
        // and as a string of JSON, where it is escaped once more
        let json = serde_json::json!({ "out": text }).to_string();
        let out = active().redact_json(&json).into_owned();
        assert_eq!(out, r#"{"out":"token [REDACTED:github-token]"}"#, "{json}");
    }
    let pw = noise(22, 20);
    let twice = format!(r#"echo '{{\\\"password\\\":\\\"{pw}\\\"}}'"#);
    let (out, _) = r(&twice);
    assert!(!out.contains(&pw) && out.contains(MARK), "{out}");
    let json = serde_json::json!({ "command": format!(r#"echo '{{\"password\":\"{pw}\"}}'"#) });
    let out = active().redact_json(&json.to_string()).into_owned();
    assert!(!out.contains(&pw) && out.contains(MARK), "{out}");
}

/// A key percent-encoded in a URL (by hand, or by an encoder that spares
/// nothing) is read as the URL's parser decodes it; what splits a URL
/// (`%40`, `%2F`, `%3A`) stays as written, so a URL's password is still
/// read whole; ordinary percent signs are kept.
#[test]
fn a_key_percent_encoded_in_a_url_is_redacted() {
    let gh = key(&["ghp_", &noise(23, 36)]);
    let stripe = key(&["sk_live_", &noise(24, 24)]);
    for (text, want) in [
        (
            format!("curl https://h.io/cb?t=%67{}", &gh[1..]),
            "curl https://h.io/cb?t=[REDACTED:github-token]",
        ),
        (
            format!("see {}", stripe.replace('_', "%5F")),
            "see [REDACTED:stripe-key]",
        ),
    ] {
        let (out, counts) = r(&text);
        assert_eq!(out, want, "{text}");
        assert_eq!(counts.values().sum::<usize>(), 1);
    }
    let pw = noise(25, 12);
    let url = format!(
        "psql postgres://app:{}%40x%2F{}@db:5432/app",
        &pw[..6],
        &pw[6..]
    );
    let (out, _) = r(&url);
    assert!(!out.contains(&pw[..6]) && !out.contains(&pw[6..]), "{out}");
    assert!(out.contains("@db:5432/app"), "{out}");
    for kept in [
        "coverage 100% of 5%2 files",
        "printf '%2d items %5s'",
        "open https://h.io/search?q=hello%20world&lang=%E2%9C%93",
        "50%-60% off",
    ] {
        assert_eq!(r(kept).0, kept);
    }
}

/// A private key's head without its end (`head id_rsa`, a paste cut
/// short, a title cut at its length) is a key: its lines go with it,
/// however they are written; prose that names the markers is kept.
#[test]
fn a_private_keys_head_without_its_end_is_redacted() {
    let lines: Vec<String> = (0..4).map(|i| noise(30 + i, 64)).collect();
    let head = ["-----BEGIN ", "OPENSSH PRIVATE KEY-----"].concat();
    for text in [
        format!("$ head -5 id_rsa\n{head}\n{}\n$ ", lines.join("\n")),
        format!(
            "     1→{head}\n{}",
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{:>6}→{l}\n", i + 2))
                .collect::<String>()
        ),
        format!("{head}\\n{}\\n", lines.join("\\n")),
        format!("title: {head} {} …", lines.join(" ")),
        format!(
            "{head}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,AB12\n\n{}",
            lines[0]
        ),
    ] {
        let (out, counts) = r(&text);
        for l in &lines[..1] {
            assert!(!out.contains(&l[..16]), "{text:?} -> {out:?}");
        }
        for l in &lines {
            if text.contains(l.as_str()) {
                assert!(!out.contains(l.as_str()), "{text:?} -> {out:?}");
            }
        }
        assert_eq!(counts.get("private-key"), Some(&1), "{text:?} -> {out:?}");
    }
    for text in [
        "the key sits between -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines",
        "const HEADER: &str = \"-----BEGIN PRIVATE KEY-----\";\nconst FOOTER: &str = \"\";",
        "grep -rl 'BEGIN RSA PRIVATE KEY' ~/.ssh",
    ] {
        let (out, counts) = r(text);
        assert!(counts.is_empty(), "{text:?} -> {out:?}");
    }
}

/// Text made of what the reading of escapes, entities, sequences and
/// marks turns on, with pieces of keys: redacting never panics, a JSON
/// string redacted stays JSON, and a marker shows as written (an escape's
/// introducer left before it made `ESC[R` of it, which a screen drops).
/// (`CCV_REDACT_ROUNDS` for a longer run, `CCV_REDACT_SEED` for another.)
#[test]
fn odd_text_is_redacted_without_harm() {
    const PIECES: &[&str] = &[
        "\\",
        "\\\\",
        "u",
        "x",
        "00",
        "67",
        "1b",
        "d83d",
        "de00",
        "\"",
        "/",
        "&#",
        "&#x",
        ";",
        "\u{1b}",
        "[",
        "m",
        "*",
        "`",
        "~",
        "_",
        "é",
        "→",
        "😀",
        "\u{200b}",
        "\u{ad}",
        "\u{9b}",
        "%",
        "%5F",
        "%6",
        "https://u:",
        "@h",
        "ghp_",
        "AKIA",
        "password=",
        "-----BEGIN PRIVATE KEY-----",
        "\n",
        " ",
        "0123456789abcdef",
        "IOSFODNN7EXAMPLF",
        "R8x2kQ9mZ4vB7nC1tY5uI3oP6aS0dF2gH8jK",
    ];
    let rounds: u64 = std::env::var("CCV_REDACT_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3000);
    let mut x = std::env::var("CCV_REDACT_SEED")
        .ok()
        .and_then(|r| r.parse::<u64>().ok())
        .map_or(0x9e37_79b9_u64, |s| s.max(1));
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let red = active();
    for _ in 0..rounds {
        let n = 1 + next() % 40;
        let text: String = (0..n)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        let once = red.redact(&text).into_owned();
        let seen = shown::Shown::of(&once).text.into_owned();
        assert_eq!(
            seen.matches("REDACTED:").count(),
            seen.matches(MARK).count(),
            "{text:?} -> {once:?}"
        );
        let json = serde_json::to_string(&text).expect("json");
        let out = red.redact_json(&json);
        let back: Result<String, _> = serde_json::from_str(&out);
        assert!(back.is_ok(), "{json} -> {out}");
        let _ = shown::Shown::of(&text);
    }
}

#[test]
fn a_cut_keeps_markers_whole() {
    let t = "a [REDACTED:aws-access-key] b [REDACTED:github-token] c";
    assert_eq!(cut_whole(t, 200), t);
    assert_eq!(cut_whole(t, 30), "a [REDACTED:aws-access-key] b ");
    assert_eq!(cut_whole(t, 40), "a [REDACTED:aws-access-key] b");
    assert_eq!(
        cut_whole(t, 53),
        "a [REDACTED:aws-access-key] b [REDACTED:github-token]"
    );
    assert_eq!(cut_whole("[REDACTED:x", 5), "");
    assert_eq!(cut_whole("é[REDACTED:x] ü", 14), "é[REDACTED:x] ");
}

/// Config lines whose name stands at the line's start (a file shown, a
/// command's output), not inside prose: each value is redacted.
#[test]
fn config_lines_by_their_place() {
    let lines = [
        "account default\nhost smtp.x.io\nuser bob\npassword {}",
        "set -x API_TOKEN {}",
        "userlist admins\n  user bob insecure-password {}",
        "/msg NickServ IDENTIFY {}",
        "[smtp.x.io]:587 bob@x.io:{}",
        "    12\u{2192}password {}",
    ];
    for (i, line) in lines.iter().enumerate() {
        let secret = noise(900 + i as u64, 18) + "9";
        let text = line.replace("{}", &secret);
        let (out, _) = r(&text);
        assert!(!out.contains(&secret), "{text:?} -> {out:?}");
        // and inside a JSON string, as a call's input writes it
        let json = serde_json::to_string(&text).expect("json");
        let red = Redactor::new(&[]).expect("rules");
        let out = red
            .redact_json(&format!("{{\"command\": {json}}}"))
            .into_owned();
        assert!(!out.contains(&secret), "{json} -> {out}");
    }
    for keep in [
        "password changed",
        "  struct rsa_private_key key;",
        "the token fields.",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn a_camel_cased_pass_names_a_secret_that_looks_like_one() {
    for line in [
        "DBPass={}",
        "smtpPass = {}",
        "const dbPass = \"{}\";",
        "{\"mailPass\": \"{}\"}",
    ] {
        let secret = noise(950, 14) + "7";
        let text = line.replace("{}", &secret);
        let (out, _) = r(&text);
        assert!(!out.contains(&secret), "{text:?} -> {out:?}");
    }
    // a pass of a compiler or a renderer, and a path of code
    for keep in [
        "Pass *ResultPass = nullptr;",
        "renderPass = device.createRenderPass(desc)",
        "firstPass = true",
        "FSDiscriminatorPass P = FSDiscriminatorPass::Pass1",
        "/// Use `FirstPass::scan_paragraph_interrupt` here",
        "16 => ConnectionTrafficSecrets::Aes128Gcm { key, iv },",
        "--- PASS: TestParse (0.00s)",
        "bypass = trueish",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

/// A key cut where a tool's line ended (`fold`, `base64`, a width of
/// its own) is redacted on each line its rest is on, as text and as JSON
/// writes it; a next line that is a word, a file, another variable of a
/// listing or past a short line is left.
#[test]
fn a_key_hard_wrapped_over_lines_is_redacted_on_each() {
    let k = key(&["sk-ant-", "api03-", &noise(7, 93), "AA"]);
    let folded: Vec<&str> = (0..k.len())
        .step_by(64)
        .map(|i| &k[i..(i + 64).min(k.len())])
        .collect();
    let (out, counts) = r(&format!("{}\nok then", folded.join("\n")));
    assert_eq!(out, "[REDACTED:anthropic-api-key]\nok then");
    assert_eq!(counts.get("anthropic-api-key"), Some(&1));
    // a prefix on the first line, the rest shorter on the next
    let (out, _) = r(&format!("key: {}\n{}\ndone", &k[..60], &k[60..]));
    assert_eq!(out, "key: [REDACTED:anthropic-api-key]\ndone");
    let (out, _) = r(&format!("key: {}\r\n{}\r\ndone", &k[..60], &k[60..]));
    assert_eq!(out, "key: [REDACTED:anthropic-api-key]\r\ndone");
    // as a JSON string is written
    let red = Redactor::new(&[]).expect("rules");
    let written = format!("\"key: {}\\n{}\\ndone\"", &k[..60], &k[60..]);
    let out = red.redact_json_string(&written).expect("redacted in place");
    assert_eq!(out, "\"key: [REDACTED:anthropic-api-key]\\ndone\"");
    // in code, its rest before the mark that closes it
    let (out, _) = r(&format!(
        "I found `{}\n{}` in the file.",
        &k[..64],
        &k[64..]
    ));
    assert_eq!(out, "I found `[REDACTED:anthropic-api-key]` in the file.");
    let written = format!("\"let k = \\\"{}\\n{}\\\";\"", &k[..64], &k[64..]);
    let out = red.redact_json_string(&written).expect("redacted in place");
    assert_eq!(out, "\"let k = \\\"[REDACTED:anthropic-api-key]\\\";\"");
    // what is not the rest of a key
    for next in [
        "done",
        "README.md",
        "AWS_REGION=us-east-1",
        "src/main.rs:12",
        "a b c d e f g h",
        "Ab",
        "DB_HOST2=db.internal",
        "file2.txt",
        "a1b2c3d4e5f6 is the commit",
    ] {
        let text = format!("ANTHROPIC_API_KEY={k}\n{next}");
        let (out, _) = r(&text);
        assert_eq!(
            out,
            format!("ANTHROPIC_API_KEY=[REDACTED:anthropic-api-key]\n{next}")
        );
    }
    // cut before a rule could see it whole: the first line alone is no key
    let g = key(&["ghp_", &noise(11, 36)]);
    let pad = "x".repeat(44);
    let (out, counts) = r(&format!("{pad} see {}\n{}\ndone", &g[..20], &g[20..]));
    assert_eq!(out, format!("{pad} see [REDACTED:github-token]\ndone"));
    assert_eq!(counts.get("github-token"), Some(&1));
    let written = format!("\"{pad} see {}\\n{}\\ndone\"", &g[..20], &g[20..]);
    let out = red.redact_json_string(&written).expect("redacted in place");
    assert_eq!(out, format!("\"{pad} see [REDACTED:github-token]\\ndone\""));
    let (out, _) = r(&format!("{pad} see: ghp_is_a_prefix\nDB_HOST2=x"));
    assert_eq!(out, format!("{pad} see: ghp_is_a_prefix\nDB_HOST2=x"));
    // cut inside its rule's keyword: neither line holds it whole
    for (k, kind) in [
        (
            key(&["sk-ant-", "api03-", &noise(12, 93), "AA"]),
            "anthropic-api-key",
        ),
        (key(&["ghp_", &noise(13, 36)]), "github-token"),
        (key(&["glpat-", &noise(14, 20)]), "gitlab-pat"),
        (key(&["sk_live_", &noise(15, 24)]), "stripe-key"),
    ] {
        for cut in 1..7 {
            let first = format!("{} {}", "x".repeat(70 - cut), &k[..cut]);
            let rests: Vec<&str> = k.as_bytes()[cut..]
                .chunks(first.len())
                .map(|c| std::str::from_utf8(c).expect("ascii"))
                .collect();
            let text = format!("{first}\n{}\nok", rests.join("\n"));
            let (out, counts) = r(&text);
            let want = format!("{} [REDACTED:{kind}]\nok", "x".repeat(70 - cut));
            assert_eq!(out, want, "{text:?}");
            assert_eq!(counts.get(kind), Some(&1), "{text:?}");
            // as a session's line writes it (the string's quote is no
            // part of its first line's width)
            let written = serde_json::to_string(&text).expect("json");
            let out = red.redact_json_string(&written).expect("redacted in place");
            assert_eq!(out, serde_json::to_string(&want).expect("json"));
        }
    }
    // a rest with no digit: an AWS key's all capitals, a key's last
    // piece after a full line of it (the rule checks a joined word)
    let aws = key(&["AKIA", "KSHIABNOZODTGYDR"]);
    let (out, _) = r(&format!(
        "{} {}\n{}\nok",
        "x".repeat(83),
        &aws[..7],
        &aws[7..]
    ));
    assert_eq!(
        out,
        format!("{} [REDACTED:aws-access-token]\nok", "x".repeat(83))
    );
    let k = key(&["sk-ant-", "api03-", &noise(16, 80), "vBYzmVAbHNOcRAA"]);
    let pad = "x".repeat(70);
    let text = format!("{pad} {}\n{}\n{}\nok", &k[..11], &k[11..93], &k[93..]);
    let (out, _) = r(&text);
    assert_eq!(out, format!("{pad} [REDACTED:anthropic-api-key]\nok"));
    // behind the Read tool's numbers, over three lines
    let numbered = format!(
        "     1\u{2192}{pad} {}\n     2\u{2192}{}\n     3\u{2192}{}",
        &k[..9],
        &k[9..89],
        &k[89..]
    );
    let (out, _) = r(&numbered);
    assert_eq!(
        out,
        format!("     1\u{2192}{pad} [REDACTED:anthropic-api-key]")
    );
    // a value a wrap put wholly on the next line, after its name
    let v = noise(17, 14) + "7";
    let (out, _) = r(&format!("{pad} export DB_PASSWORD=\n{v} && ./run.sh"));
    assert_eq!(
        out,
        format!("{pad} export DB_PASSWORD=\n[REDACTED:secret-assignment] && ./run.sh")
    );
    for keep in [
        format!("{pad} the password\nis in the vault"),
        format!("{pad} export DB_PASSWORD=\n$DB_PASS && ./run.sh"),
    ] {
        assert_eq!(r(&keep).0, keep);
    }
    // a keyword a block of base64 holds by chance, cut or not, starts no
    // key: the block is left as it is
    let mut b64: Vec<String> = (0..40).map(|i| noise(300 + i, 76)).collect();
    b64[2].replace_range(74.., "gh");
    b64[3].replace_range(..2, "p_");
    let block = b64.join("\n");
    assert!(block.contains("gh\np_"));
    let (out, _) = r(&block);
    assert_eq!(out, block);
    // a short line was not wrapped
    let g = key(&["ghp_", &noise(8, 36)]);
    let (out, _) = r(&format!("{g}\n{}", noise(9, 20)));
    assert!(out.ends_with(&format!("\n{}", noise(9, 20))), "{out}");
    // base64 wrapped at 76, its last line padded
    let b64: String = noise(10, 200);
    let lines = format!(
        "aws_secret_access_key = {}\n{}\n{}==",
        &b64[..52],
        &b64[52..128],
        &b64[128..170]
    );
    let (out, _) = r(&lines);
    assert!(
        !out.contains(&b64[52..128]) && !out.contains(&b64[128..170]),
        "{out}"
    );
}

/// A password that is a plain word is redacted where a command takes it
/// (no shape marks it: the flag or the pipe does); what a look-alike
/// flag takes (a port, a prompt's `-`, a file's `@`) is left.
/// A password that is a word with capitals and digits, written bare after
/// `password=` (a query string, a config line): a variable or a type
/// there has no digit, or a capital after its number.
#[test]
fn a_capitalised_password_with_digits_is_no_variable() {
    for value in ["Welcome1", "Tr0ub4dor", "MyS3cretPass", "PgQueryPw1"] {
        for line in [
            "password={}",
            "postgres://bob@db/app?password={}&sslmode=require",
            "password: {}",
        ] {
            let text = line.replace("{}", value);
            let (out, _) = r(&text);
            assert!(!out.contains(value), "{text:?} -> {out:?}");
        }
    }
    for keep in [
        "password=dbPassword",
        "password=utf8Password",
        "private secretKey: Uint8Array;",
        "password: Base64String",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

/// An Atlassian API token (`ATATT3` and 186 more) wherever it stands: the
/// rule's other shape, a value assigned to a `jira` name, gated it.
#[test]
fn an_atlassian_token_is_redacted_without_a_name() {
    let token = format!(
        "ATATT3xFfGF0{}=1A2B3C4D",
        "T7kQ9mZ2pL4vR8nW3xY6bC1dF5gH0jK"
            .repeat(6)
            .get(..171)
            .unwrap_or_default()
    );
    assert_eq!(token.len(), 192);
    for line in [
        "here it is: {} (keep it)",
        "export JIRA_API_TOKEN={}",
        "curl -u bob@example.com:{} https://x.atlassian.net/rest/api/3/myself",
        "{}",
    ] {
        let text = line.replace("{}", &token);
        let (out, _) = r(&text);
        assert!(!out.contains(&token[20..60]), "{text:?} -> {out:?}");
    }
}

#[test]
fn a_plain_word_password_a_command_takes_is_redacted() {
    for line in [
        "mosquitto_pub -h broker -u bob -P {} -t x",
        "rdesktop -u bob -p {} 10.0.0.5",
        "sudo useradd -m -p {} deploy",
        "usermod --password {} bob",
        "echo -n {} | sudo cryptsetup luksOpen /dev/sdb1 vault",
        "cryptsetup open /dev/sdb1 vault <<< {}",
        "echo {} | vncpasswd -f > ~/.vnc/passwd",
        "cf login -a https://api.cf.example -u bob -p {}",
        "twine upload -u bob -p {} dist/*",
        "ncftp -u bob -p {} ftp.example",
        "java -jar jenkins-cli.jar -auth bob:{} build app",
        "mysqlsh root:{}@localhost --sql",
        "redis-cli -h cache CONFIG SET requirepass {}",
        "redis-cli config set masterauth \"{}\"",
        "ldappasswd -x -D cn=admin -w adm1n -s {} uid=bob",
        "ldappasswd -H ldap://x -a {} -S uid=bob",
        "echo -e \"{}\\n{}\" | passwd bob",
        "printf '{}\\n' | sudo -S true",
    ] {
        let text = line.replace("{}", "hunter2");
        let (out, _) = r(&text);
        assert!(!out.contains("hunter2"), "{text:?} -> {out:?}");
    }
    for keep in [
        "rdesktop -u bob -p - 10.0.0.5",
        "mosquitto_sub -h broker -p 1883 -t x",
        "twine upload -r testpypi dist/*",
        "java -jar jenkins-cli.jar -auth @creds who-am-i",
        "mysqlsh --uri root@localhost:3306",
        "useradd -m deploy",
        "redis-cli CONFIG GET requirepass",
        "ldappasswd -x -S uid=bob",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn a_network_login_of_a_pentest_tool_is_redacted() {
    for line in [
        "crackmapexec smb 10.0.0.1 -u bob -p {}",
        "nxc smb 10.0.0.0/24 -u bob -H {}",
        "netexec winrm dc01 -u bob -p \"{}\"",
        "evil-winrm -i 10.0.0.1 -u administrator -p '{}'",
        "hydra -l bob -p {} ssh://10.0.0.1",
        "medusa -h 10.0.0.1 -u bob -p {} -M ssh",
        "impacket-psexec corp.local/bob:{}@10.0.0.1",
        "secretsdump.py -just-dc CORP/admin:{}@dc01.corp.local",
        "python3 GetUserSPNs.py corp.local/bob:{}@10.0.0.5 -request",
        "wmiexec.py administrator:{}@10.0.0.2 whoami",
        "smbclient -U \"CORP\\\\bob%{}\" //fs/share",
        "smbclient -U 'CORP\\bob%{}' //fs/share",
    ] {
        let text = line.replace("{}", "Hunter2x");
        let (out, _) = r(&text);
        assert!(!out.contains("Hunter2x"), "{text:?} -> {out:?}");
    }
    for keep in [
        "hydra -L users.txt -P rockyou.txt ssh://10.0.0.1",
        "python app.py hydra.run.dir=out -p db",
        "impacket-smbclient -k corp/bob@host",
        "docker pull library/nginx:1.25@sha256:abc",
        "evil-winrm -i 10.0.0.1 -P 5986",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn a_google_refresh_token_is_redacted() {
    let token = "1//09aB3xYz-Qw8LmNp4sTuVw9XyZaB1cDe3FgH5jK7lM9nO1pQ3rS5tU7vW9xY1zA3bC5dE7";
    for line in [
        "{\"refresh_token\": \"{}\", \"scope\": \"x\"}",
        "GOOGLE_REFRESH_TOKEN={}",
        "token {} expires",
    ] {
        let text = line.replace("{}", token);
        let (out, _) = r(&text);
        assert!(!out.contains(&token[4..40]), "{text:?} -> {out:?}");
    }
    for keep in ["see http://host/1//0abc", "a path a//1//0b"] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn vpn_and_ipsec_keys_are_redacted() {
    let pass = "Tr0ub4dor3xK9";
    let psk = "/UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak=";
    for text in [
        "client\n<auth-user-pass>\nalice\n{p}\n</auth-user-pass>\n",
        "     3→<auth-user-pass>\n     4→CORP\\\\alice\n     5→{p}\n     6→</auth-user-pass>",
        "[Peer]\nPresharedKey = {k}\nAllowedIPs = 0.0.0.0/0",
        "wireguard:\n  preshared_key: \"{k}\"",
        "echo {k} | wg pubkey > pub",
        "moon sun : PSK \"{p}\"\ncarol : EAP \"{p}\"",
        ": RSA moonKey.pem \"{p}\"",
        " ikev1 pre-shared-key {p}",
        "tunnel-group 1.2.3.4 ipsec-attributes\n ikev2 local-authentication pre-shared-key {p}",
        "crypto isakmp key {p} address 10.0.0.1",
        "crypto keyring KR\n pre-shared-key address 10.0.0.1 key {p}",
        " pre-shared-key address 10.0.0.0 255.255.255.0 key 6 {p}",
        "pre-shared-key hostname peer.example.com key {p}",
        "set psksecret {p}",
        "pre-shared-key ascii-text \"{p}\";",
    ] {
        let text = text.replace("{p}", pass).replace("{k}", psk);
        let (out, _) = r(&text);
        assert!(
            !out.contains(pass) && !out.contains(&psk[4..40]),
            "{text:?} -> {out:?}"
        );
    }
    for keep in [
        "configure the pre-shared-key on both ends",
        "the ratio: PSK \"is shared\"",
        "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        "wg set wg0 peer xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg= preshared-key /etc/wg/psk",
        "auth-user-pass /etc/openvpn/auth.txt",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn a_secret_said_in_a_sentence_is_redacted() {
    for (text, secret) in [
        ("my password is Tr0ub4dor3xK9", "Tr0ub4dor3xK9"),
        ("The password is \"Tr0ub4dor3xK9\".", "Tr0ub4dor3xK9"),
        ("Password is: P@ssw0rd!", "P@ssw0rd"),
        (
            "log in as admin with password Welcome123 please",
            "Welcome123",
        ),
        (
            "use the token Zq8Xw2LmN4pR7tV9yB3c for the API",
            "Zq8Xw2LmN4pR7tV9yB3c",
        ),
        (
            "the api key was changed to Zq8Xw2LmN4pR7tV9",
            "Zq8Xw2LmN4pR7tV9",
        ),
        ("pwd is hunter22", "hunter22"),
        ("the password for root is Tr0ub4dor3xK9", "Tr0ub4dor3xK9"),
        (
            "the password to the staging db was S3cret-2024!",
            "S3cret-2024",
        ),
        (
            "API key for Stripe is Zq8Xw2LmN4pR7tV9yB3c",
            "Zq8Xw2LmN4pR7tV9yB3c",
        ),
    ] {
        let (out, _) = r(text);
        assert!(!out.contains(secret), "{text:?} -> {out:?}");
    }
    for keep in [
        "the password is correct",
        "password is required",
        "the secret is base64-encoded",
        "the token is SHA256",
        "the api key is read-only",
        "the password is $DB_PASSWORD",
        "the token is `Ident`",
        "if the password is None",
        "password is 12345678",
        "the token is ed25519",
        "the secret is os.environ.get",
        "the token is <your-token>",
        "with the token from step 1",
        "use the token endpoint",
        "The token is valid for 3600 seconds",
        "password is required^Rset_alpn^@^@",
        "the password for this user is required",
        "the token for the session is refreshed",
        "a password of 12 characters is enough",
    ] {
        assert_eq!(r(keep).0, keep);
    }
}

#[test]
fn a_token_in_a_url_user_part_is_redacted_up_to_the_at() {
    let token = key(&["ghs_", &noise(41, 36)]);
    let other = noise(42, 32);
    for (secret, text) in [
        (
            &token,
            "git clone https://x-access-token:{s}@github.com/acme/widgets.git && cd widgets",
        ),
        (
            &other,
            "https://x-access-token:{s}@github.com/acme/widgets.git",
        ),
        (&other, "https://api_key:{s}@host.example.com/v1?x=1 ok"),
    ] {
        let text = text.replace("{s}", secret);
        let (out, _) = r(&text);
        assert!(!out.contains(secret.as_str()), "{text:?} -> {out:?}");
        // the host and the path are shown: only the token was secret
        let rest = text.split_once('@').map_or("", |(_, rest)| rest);
        assert!(out.ends_with(&format!("]@{rest}")), "{text:?} -> {out:?}");
    }
    // out of a URL, a value of `token:` is taken whole: `@` may be in it
    let bare = format!("token: {other}@github.com/x");
    let (out, _) = r(&bare);
    assert!(!out.contains("github.com/x"), "{bare:?} -> {out:?}");
}
