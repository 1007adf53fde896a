//! ccv's rules for secrets as programs take and keep them, where no
//! provider's prefix marks them: a command's flags and arguments, a
//! password piped to what reads it, an account being made, a config
//! file's lines, a name and its value written a line or a cell apart.

use super::rules::{Check, NAME_WORDS, Rule, by_name};

/// A value, quoted or bare, as long as its rule's window lets it be (a
/// bound of `{1,400}` makes the compiled pattern hundreds of states
/// bigger, each time a rule wakes).
const VALUE: &str =
    r#"(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"'`,;&|<>(){}\[\]\\]+))"#;

/// An argument before a call's password: a string or a name
/// (`$this->user`, `cfg.url`), not a call.
const CALL_ARG: &str =
    r#"[ \t]*(?:\\?"[^"\\\r\n]*\\?"|\\?'[^'\\\r\n]*\\?'|[A-Za-z_$][A-Za-z0-9_.$>\[\]-]*)[ \t]*"#;
/// A user's name before a call's password: [`CALL_ARG`] without a `/`
/// (`app.login('/login', 'home')` is a route's).
const USER_ARG: &str =
    r#"[ \t]*(?:\\?"[^"/\\\r\n]*\\?"|\\?'[^'/\\\r\n]*\\?'|[A-Za-z_$][A-Za-z0-9_.$>\[\]-]*)[ \t]*"#;

/// A flag's value, quoted or bare (not the next flag).
const FLAG_VALUE: &str =
    r#"(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#;

/// A secret's name and its value written in two places a line or a cell
/// apart: a YAML block (`password: |` and the value under it), a
/// Markdown table's row (`| API_KEY | … |`), a name and value pair
/// (Kubernetes' and ECS's `name: DB_PASSWORD` then `value: …`), and a
/// PuTTY key's private lines.
pub(super) fn paired_rules() -> Vec<Rule> {
    let block = format!(
        r#"(?i)(?:^|[^A-Za-z0-9_.-])((?:[A-Za-z0-9_.-]*?){NAME_WORDS})\\?["']?[ \t]*:[ \t]*[|>][-+]?[0-9]?[ \t]*(?:\r?\n|\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?[ \t]+([^\s"'\\][^\r\n\\]*)"#
    );
    let cell = format!(
        r#"(?i)\|[ \t]*[`*]{{0,2}}((?:[A-Za-z0-9_.-]*?){NAME_WORDS})[`*]{{0,2}}[ \t]*\|[ \t]*`?([^\s|`\\]+?)`?[ \t]*\|"#
    );
    let pair = format!(
        r#"(?i)\bname\\?["']?[ \t]*[:=][ \t]*\\?["']?((?:[A-Za-z0-9_.-]*?){NAME_WORDS})\\?["']?[ \t]*(?:,|\r?\n|\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?[ \t,-]*\\?["']?value\\?["']?[ \t]*[:=][ \t]*{VALUE}"#
    );
    let mut block = Rule::new(
        "yaml-block-secret",
        &block,
        &[": |", ": >", ":|", ":>"],
        Check::Assignment,
    );
    block.window = Some((96, 512));
    block.multiline = true;
    let mut cell = Rule::new(
        "table-secret",
        &cell,
        &["\n|", "\\n|", "\u{2192}|"],
        Check::Assignment,
    );
    // (from the line's break the keyword is, over the row after it)
    cell.window = Some((0, 448));
    cell.multiline = true;
    cell.gate = Some(cell_follows);
    let mut pair = Rule::new("name-value-secret", &pair, &["value"], Check::Assignment);
    pair.window = Some((160, 448));
    pair.multiline = true;
    vec![
        block,
        cell,
        pair,
        Rule::new(
            "putty-private-key",
            r"Private-Lines:[ \t]*[0-9]+[ \t]*(?:\r?\n|(?:\\r)?\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?((?:[A-Za-z0-9+/=]+(?:\r?\n|(?:\\r)?\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?)*[A-Za-z0-9+/=]{16,})",
            &["private-lines:"],
            Check::Plain,
        )
        .within(0, 16384)
        .over_lines(),
    ]
}

/// Whether a cell with a letter follows the `|` that opens a row (its
/// keyword is the line's break before it), maybe behind spaces, a
/// backtick or stars.
fn cell_follows(b: &[u8], at: usize) -> bool {
    let rest = b.get(at..).unwrap_or_default();
    rest.iter()
        .take(4)
        .position(|&c| c == b'|')
        .and_then(|p| rest.get(p + 1..))
        .and_then(|cell| {
            cell.iter()
                .find(|c| !matches!(c, b' ' | b'\t' | b'`' | b'*'))
        })
        .is_some_and(u8::is_ascii_alphabetic)
}

/// Passwords an account is made or changed with: SQL's (`CREATE USER …
/// IDENTIFIED BY 'X'`, `ALTER ROLE … WITH PASSWORD 'X'`), a broker's or
/// a system's command (`rabbitmqctl add_user bob X`, `net user bob X`),
/// a Redis `AUTH`, a hash made of one (`openssl passwd -6 X`), and the
/// crypt hashes such commands leave (`/etc/shadow`, `.htpasswd`).
pub(super) fn account_rules() -> Vec<Rule> {
    vec![
        Rule::new(
            "sql-password",
            r#"(?i)\b(?:(?:(?:create|alter)[ \t]+(?:user|role|login)|grant)\b[^\n;]*?[ \t](?:identified[ \t]+(?:with[ \t]+[A-Za-z0-9_'"]+[ \t]+)?by(?:[ \t]+password)?|password(?:[ \t]*=)?)|set[ \t]+password(?:[ \t]+for[ \t]+[^\s=]+)?[ \t]*=(?:[ \t]*password[ \t]*\()?)[ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &[
                "create user",
                "alter user",
                "create role",
                "alter role",
                "create login",
                "alter login",
                "grant",
                "set password",
            ],
            Check::Value,
        )
        .within(0, 1024),
        Rule::new(
            "account-password",
            r#"(?:\brabbitmqctl\b[^\n|;&]*?[ \t](?:add_user|change_password)[ \t]+[^\s"']+|\bmosquitto_passwd\b[^\n|;&]*?[ \t]-b[ \t]+[^\s"']+[ \t]+[^\s"']+|\b(?i:net)[ \t]+(?i:user)[ \t]+(?:"[^"\r\n]+"|[^\s"'/]+)|\bopenssl[ \t]+passwd(?:[ \t]+-(?:salt[ \t]+[^\s"']+|[0-9a-z]+))*|[0-9]>[ \t]*(?i:auth)(?:[ \t]+[^\s"']+)?|\bredis-cli\b[^\n|;&]*?[ \t](?i:auth)(?:[ \t]+[^\s"']+)?)[ \t]+(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\/-][^\s"';|&\\]*))"#,
            &[
                "rabbitmqctl",
                "mosquitto_passwd",
                "net user",
                "openssl passwd",
                "> auth",
                ">auth",
                "redis-cli",
            ],
            Check::Value,
        )
        .within(16, 1024),
        Rule::new(
            "password-hash",
            r#"(?:^|[\s:"'=]|\\[nt])(\$(?:(?:1|5|6|apr1)\$(?:rounds=[0-9]+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}|2[abxy]\$[0-9]{2}\$[./A-Za-z0-9]{53}|(?:y|gy|7)\$[./A-Za-z0-9]+\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{43}|argon2(?:id|i|d)\$v=[0-9]+\$m=[0-9]+,t=[0-9]+,p=[0-9]+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]{22,}))"#,
            &[
                "$1$", "$2a$", "$2b$", "$2x$", "$2y$", "$5$", "$6$", "$y$", "$gy$", "$7$",
                "$argon2", "$apr1$",
            ],
            Check::Plain,
        )
        .within(4, 256),
        // WordPress's keys and salts (`define('AUTH_KEY', '…')`)
        Rule::new(
            "php-define-secret",
            r#"\bdefine[ \t]*\([ \t]*\\?["'][A-Z0-9_]*(?:PASSWORD|PASS|KEY|SALT|SECRET|TOKEN)\\?["'][ \t]*,[ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?')"#,
            &["define"],
            Check::Value,
        )
        .within(0, 640),
        // a setter's or a builder's one argument (`ds.setPassword("X")`,
        // `.password("X")`; a bare `token("…")` or `secret("…")` is a
        // parser's or takes a secret's name)
        Rule::new(
            "call-secret",
            r#"(?i)(?:\.|\b)(?:(?:set_?|with_?)?(?:password|passwd|passphrase|api_?key|access_?token|auth_?token|secret_?key|client_?secret)|(?:set_?|with_?)(?:token|secret))[ \t]*\([ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?')[ \t]*\)"#,
            &[
                "password(",
                "passwd(",
                "passphrase(",
                "_secret(",
                "tsecret(",
                "hsecret(",
                "_key(",
                "ikey(",
                "tkey(",
                "_token(",
                "stoken(",
                "htoken(",
                "ttoken(",
            ],
            Check::Value,
        )
        .within(24, 448),
        // a password a call takes by its place, after a user's name
        // (`ftp.login("bob", "X")`, `new NetworkCredential("bob", "X")`)
        // or after a place and a user's (`new PDO(dsn, "bob", "X")`,
        // `DriverManager.getConnection(url, "bob", "X")`)
        Rule::new(
            "credential-call",
            &format!(
                r#"(?i)(?:(?:\.|\b)(?:log_?in(?:_?async)?|NetworkCredential|PasswordAuthentication|UsernamePassword(?:AuthenticationToken|Credentials?)|simple_bind(?:_s)?|Basic(?:AWS|Session)?Credentials|(?:New)?StaticCredentials(?:Provider)?|AwsBasicCredentials\.create|(?:cx_Oracle|oracledb)\.connect)[ \t]*\({USER_ARG},|(?:\bnew[ \t]+|\b)(?:PDO|mysqli|Sequelize|mysqli?_connect|mysql_pconnect|getConnection|set_password|PlainAuth|(?:pymysql|MySQLdb|pymssql)\.connect|(?:ftplib\.)?FTP(?:_TLS)?|Net::FTP\.(?:new|open)|ftp_login)[ \t]*\({CALL_ARG},{USER_ARG},)[ \t]*(?:\\?"([^"\\\s]+)\\?"|\\?'([^'\\\s]+)\\?')[ \t]*[,).]"#
            ),
            &[
                "login(",
                "log_in(",
                "loginasync(",
                "login_async(",
                "credential",
                "passwordauthentication(",
                "authenticationtoken(",
                "simple_bind",
                "pdo(",
                "pdo (",
                "mysqli(",
                "mysqli (",
                "_connect(",
                "getconnection(",
                "set_password(",
                "sequelize(",
                "plainauth(",
                "cx_oracle.connect",
                "oracledb.connect",
                "pymysql.connect",
                "mysqldb.connect",
                "pymssql.connect",
                "ftp(",
                "ftp_tls(",
                "net::ftp.",
                "ftp_login",
            ],
            Check::Value,
        )
        .within(64, 640),
        // a value a call sets under a secret's name: a property, a map's
        // key, a variable of the environment (`props.setProperty("password",
        // "X")`, `os.setenv("API_KEY", "X")`, `localStorage.setItem("token",
        // "X")`)
        key_value_call(),
        // a field named `pass` (nodemailer's `auth: { user, pass }`, an
        // rclone remote's `pass = …`, a URL's `&pass=…`): quoted, or a
        // line's or a query's whole value
        Rule::new(
            "pass-field",
            r#"(?:^|\xE2\x86\x92|[\s{,?&]|\\[nt])\\?["']?pass\\?["']?[ \t]*[:=][ \t]*(?:(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?')|([^\s"'`,;&|<>(){}\[\]\\][^\s"'`,;&|<>(){}\[\]\\]{2,})[ \t]*(?:$|\\[nr]|\r?\n|\\?"|`|&|#))"#,
            &["pass:", "pass\":", "pass\\\":", "pass':", "pass =", "pass="],
            Check::Value,
        )
        .within(8, 448),
    ]
}

/// Passwords given to a command by a flag of its own (`zip -P X`,
/// `sqlcmd -P X`, `htpasswd -b f bob X`, `smbclient -U bob%X`), or piped
/// to it (`echo bob:X | chpasswd`).
pub(super) fn tool_rules() -> Vec<Rule> {
    let mut rules = vec![
        // (`-P`, not `-p`: `unzip -p` writes to stdout)
        Rule::new(
            "archive-password",
            r#"\b(?:zip|unzip|zipcloak)\b[^\n|;&]*?[ \t]-P[ \t]+(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))"#,
            &["zip"],
            Check::Value,
        ),
        // (`7z x -p` alone asks for it; `rar -p-` says there is none)
        Rule::new(
            "archive-password",
            r#"\b(?:7z[az]?|(?:un)?rar)\b[^\n|;&]*?[ \t]-p([^\s"';|&\\-][^\s"';|&\\]*)"#,
            &["7z", "unrar", "rar a", "rar x", "rar e"],
            Check::Value,
        ),
        Rule::new(
            "sql-cli-password",
            r#"\b(?:sqlcmd|bcp|osql|isql)\b[^\n|;&]*?[ \t]-P[ \t]*(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))"#,
            &["sqlcmd", "bcp", "osql", "isql"],
            Check::Value,
        ),
        // the last word of `htpasswd -b[c|n…] [FILE] USER PASSWORD`
        Rule::new(
            "htpasswd-password",
            r#"\bhtpasswd\b[^\n|;&]*?[ \t]-[A-Za-z]*b[A-Za-z]*\b[^\n|;&]*?[ \t](?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))[ \t]*(?:$|[;|&\r\n"'`)]|\\[n"])"#,
            &["htpasswd"],
            Check::Value,
        ),
        Rule::new(
            "smb-password",
            r#"\b(?:smbclient|rpcclient|smbmap|smbcacls)\b[^\n|;&]*?[ \t](?:-U|--user(?:name)?=?)[ \t]*\\?["']?[^%\s"']+%([^\s"'\\]{1,400})"#,
            &["smbclient", "rpcclient", "smbmap", "smbcacls"],
            Check::Value,
        ),
        // Impacket's target, `[DOMAIN/]USER:PASSWORD@HOST`, after one of
        // its tools (`impacket-psexec`, `secretsdump.py`): a URL's
        // credentials without the scheme
        Rule::new(
            "impacket-password",
            r#"\b(?:impacket-[a-zA-Z]+|[a-zA-Z]+(?:exec|dump|SPNs|NPUsers|TGT|client|sid)\.py)\b[^\n|;&]*?[ \t]\\?["']?(?:[^\s/:@"'\\]{1,64}/)?[^\s/:@"'\\]{1,64}:([^\s@"'\\]{1,128})@[A-Za-z0-9.-]"#,
            &["impacket-", "exec.py", "dump.py", "spns.py", "npusers.py", "tgt.py", "client.py", "sid.py"],
            Check::Value,
        ),
        Rule::new(
            "chpasswd-password",
            r#"\becho[ \t]+(?:-[a-z]+[ \t]+)?\\?["']?[a-z_][a-z0-9_.-]*:([^\s"'\\:]{1,400})\\?["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd"#,
            &["chpasswd"],
            Check::Value,
        ),
        // (the same given as a here-string: `chpasswd <<< "bob:X"`)
        Rule::new(
            "chpasswd-password",
            r#"\bchpasswd\b[^\n|;&<]*?<<<[ \t]*\\?["']?[a-z_][a-z0-9_.-]*:([^\s"'\\:]{1,400})"#,
            &["chpasswd"],
            Check::Value,
        ),
        // a token a command takes by its place, not by a flag
        Rule::new(
            "cli-positional-secret",
            r#"\b(?:ngrok\b[^\n|;&]*?[ \t](?:add-)?authtoken|poetry[ \t]+config[ \t]+(?:pypi-token\.[^\s"']+|http-basic\.[^\s"']+[ \t]+[^\s"']+)|cargo[ \t]+login(?:[ \t]+--registry[ \t=]+[^\s"']+)?|doctl\b[^\n|;&]*?[ \t]-t|nmcli\b[^\n|;&]*?[ \t](?:password|(?:802-11-)?wi(?:fi|reless)-sec(?:urity)?\.psk)|wpa_passphrase[ \t]+(?:"[^"\r\n]*"|'[^'\r\n]*'|[^\s"']+)|mc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+[^\s"';|&]+[ \t]+\\?["']?https?://[^\s"';|&]+[ \t]+[^\s"';|&]+|bw[ \t]+unlock|mega-login[ \t]+[^\s"';|&]+|neo4j-admin\b[^\n|;&]*?[ \t]set-initial-password|mysqladmin\b[^\n|;&]*?[ \t]password|(?i:net)[ \t]+(?i:use)[ \t]+(?:[A-Za-z]:[ \t]+)?\\{2,4}[^\s"']+(?:[ \t]+/(?i:user):[^\s"']+)?|rclone[ \t]+config[ \t]+(?:create|update)\b[^\n|;&]*?[ \t](?:secret_access_key|pass|password|client_secret|token|account_key|key|sas_url))[ \t]+(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &[
                "ngrok",
                "nmcli",
                "wpa_passphrase",
                "poetry config",
                "cargo login",
                "doctl",
                "bw unlock",
                "mega-login",
                "set-initial-password",
                "mysqladmin",
                "net use",
                "mc alias",
                "mc config",
                "rclone config",
            ],
            Check::Value,
        )
        .within(64, 1024),
        // an LDAP bind's password (`ldapsearch -D cn=admin -w X`)
        Rule::new(
            "ldap-bind-password",
            r#"\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop|url)\b[^\n|;&]*?[ \t]-w[ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &["ldap"],
            Check::Value,
        )
        .within(0, 1024),
        // `ldappasswd`'s old and new passwords (`-a X`, `-s X`)
        Rule::new(
            "ldap-new-password",
            r#"\bldappasswd\b[^\n|;&]*?[ \t]-[as][ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &["ldappasswd"],
            Check::Value,
        )
        .within(0, 1024),
        // Oracle's `user/password@db` (`sqlplus / as sysdba` has none)
        Rule::new(
            "oracle-password",
            r#"\b(?:sqlplus|rman|expdp|impdp|sqlldr)\b(?:[ \t]+-[A-Za-z]+)*[ \t]+\\?["']?[A-Za-z_][A-Za-z0-9_$#.]*/([^\s@"'/\\]+)(?:@|\\?["']|[ \t]|$)"#,
            &["sqlplus", "rman", "expdp", "impdp", "sqlldr"],
            Check::Value,
        )
        .within(0, 512),
        // a password piped to what reads it from its input (`echo X |
        // sudo -S`, `… | docker login --password-stdin`, `passwd --stdin`,
        // `echo -e "X\nX" | passwd`: the new one twice, both taken)
        Rule::new(
            "stdin-password",
            r#"\b(?:echo|printf)[ \t]+(?:-[a-z]+[ \t]+)?(?:\\?["']%s(?:\\n)?\\?["'][ \t]+)?(?:\\?"((?:[^"\\\r\n]|\\n)+)\\?"|\\?'((?:[^'\\\r\n]|\\n)+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))[ \t]*\|[ \t]*(?:sudo\b[^\n|;&]*?[ \t]-[A-Za-z]*S\b|[^\n|;&]*?--password-stdin|(?:sudo[ \t]+)?passwd\b|(?:docker|podman)[ \t]+secret[ \t]+create\b|kinit\b|(?:sudo[ \t]+)?cryptsetup\b|vncpasswd\b[^\n|;&]*?[ \t]-f\b)"#,
            &[
                "sudo",
                "password-stdin",
                "passwd",
                "secret create",
                "kinit",
                "cryptsetup",
                "vncpasswd",
            ],
            Check::Value,
        )
        .within(512, 512),
        // a password given on the line of a here-string (`gh auth login
        // --with-token <<< X`, `kinit bob <<< X`)
        Rule::new(
            "stdin-password",
            r#"(?:--with-token|--password-stdin|\bsudo\b[^\n|;&]*?[ \t]-[A-Za-z]*S\b|\bpasswd\b[^\n|;&]*?--stdin|\bkinit\b|\bcryptsetup\b)[^\n|;&<]*?<<<[ \t]*(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?'|([^\s"';|&\\-][^\s"';|&\\]*))"#,
            &["<<<"],
            Check::Value,
        )
        .within(512, 448),
        // what an `expect` script (or pexpect) sends at a password's
        // prompt: `expect "Password:"` then `send "X\r"` (a test's
        // `expect(…)` is no prompt: pexpect's is a method); over lines,
        // so after a line end written `\n` as well as at a word's start
        Rule::new(
            "expect-password",
            r#"(?i)(?:(?:\\[nt]|\b)expect[ \t]+(?:-[a-z]+[ \t]+)*\{?[ \t]*|\.expect(?:_exact)?[ \t]*\([ \t]*\[?[ \t]*r?)\\?["'][^"'\r\n]*(?:assword|passphrase)[^"'\r\n]*\\?["'][^\r\n]*?(?:\r?\n(?:[ \t]*[0-9]+\xE2\x86\x92)?[^\r\n]*?)?(?:(?:\\[nt]|\b)send[ \t]+(?:--[ \t]+)?|\.send(?:line)?[ \t]*\([ \t]*)(?:\\?"([^"\\\r\n]+)(?:\\{1,2}[rn])?\\?"|\\?'([^'\\\r\n]+)(?:\\{1,2}[rn])?\\?')"#,
            &["send \"", "send \\\"", "send -- ", "send '", "sendline(", "send("],
            Check::Value,
        )
        .within(448, 256)
        .over_lines(),
        // MySQL Shell's `user:password@host` (a URL's with a scheme is
        // `url-credentials`')
        Rule::new(
            "mysqlsh-password",
            r#"\bmysqlsh\b[^\n|;&]*?[ \t](?:--uri[ \t=]+)?\\?["']?[A-Za-z0-9_.%-]+:([^\s@"'\\/]{1,400})@"#,
            &["mysqlsh"],
            Check::Value,
        ),
        // Ansible's vault password file, written
        Rule::new(
            "vault-password-file",
            r#"\becho[ \t]+(?:-[a-z]+[ \t]+)?(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|([^\s"';|&\\-][^\s"';|&\\]{0,399}))[ \t]*>>?[ \t]*\S*(?:vault[_-]?pass|\.vault-token)"#,
            &["vault_pass", "vault-pass", "vaultpass", ".vault-token"],
            Check::Value,
        ),
    ];
    rules.extend(password_flags());
    rules
}

/// [`account_rules`]' rule for a value a call sets under a secret's name
/// (its keywords are the secret words, gated by [`call_key_around`]); a
/// call's, not a tuple's (`('AUTH', 'SELECTED')`).
fn key_value_call() -> Rule {
    let pattern = format!(
        r#"(?i)[A-Za-z0-9_][ \t]*\([ \t]*\\?["'](?:[A-Za-z0-9_.-]*?){NAME_WORDS}\\?["'][ \t]*,[ \t]*\\?["']([^"'\\\r\n]+)\\?["'][ \t]*\)"#
    );
    by_name(
        "call-key-secret",
        &pattern,
        Check::Mixed,
        (96, 448),
        call_key_around,
    )
}

/// Whether the word around a keyword is a call's first argument and a
/// string (`(\"`, the word, a quote and `,`): the secret words are in
/// most lines, a call setting one in few.
fn call_key_around(b: &[u8], at: usize) -> bool {
    let word = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    let start = b[..at.min(b.len())]
        .iter()
        .rev()
        .take(48)
        .take_while(|c| word(c))
        .count();
    let before = b[..at - start]
        .iter()
        .rev()
        .take(8)
        .find(|c| !matches!(c, b' ' | b'\t' | b'"' | b'\'' | b'\\'));
    let end = b[at..].iter().take(48).take_while(|c| word(c)).count();
    let after = b[at + end..]
        .iter()
        .take(8)
        .find(|c| !matches!(c, b' ' | b'\t' | b'"' | b'\'' | b'\\'));
    before == Some(&b'(') && after == Some(&b',')
}

/// Tools whose own flags take a password or a key: `ipmitool -P X`,
/// macOS `security add-generic-password -w X`, a key's pass phrases
/// (`ssh-keygen -P OLD -N NEW`), SNMP's community and v3 pass phrases
/// (`snmpget -c X`, `-A X`, `-X X`), FreeRDP's `/p:X`, Windows'
/// `cmdkey /pass:X` and `schtasks /rp X`, an MQTT client's `-P X`, an
/// account's `useradd -p X` (a hash, or a password when it is one);
/// with the keyword that wakes each.
const PASSWORD_FLAGS: &[(&str, &[&str], &str)] = &[
    (r"\bipmitool\b", &["-P", "-K"], "ipmitool"),
    (
        r"\bsecurity[ \t]+(?:add|set)-(?:generic|internet)-password\b",
        &["-w"],
        "-password",
    ),
    (r"\bssh-keygen\b", &["-N", "-P"], "ssh-keygen"),
    (r"\bsnmp[a-z]*\b", &["-c", "-A", "-X"], "snmp"),
    (r"\b[a-z]*freerdp[0-9]?\b", &["[/-]p:"], "freerdp"),
    (r"\b(?i:cmdkey)\b", &["/(?i:pass):"], "cmdkey"),
    (r"\b(?i:schtasks)\b", &["/(?i:rp)"], "schtasks"),
    (r"\bmosquitto_(?:pub|sub|rr)\b", &["-P"], "mosquitto_"),
    (r"\buseradd\b", &["-p", "--password"], "useradd"),
    (r"\busermod\b", &["-p", "--password"], "usermod"),
    // a network login's password or its NTLM hash (which logs in as
    // well): `nxc smb HOST -u bob -p X`, `evil-winrm -i HOST -u bob -H X`
    (r"\bcrackmapexec\b", &["-p", "-H"], "crackmapexec"),
    (r"\bnetexec\b", &["-p", "-H"], "netexec"),
    (r"\bnxc\b", &["-p", "-H"], "nxc"),
    (r"\bevil-winrm\b", &["-p", "-H"], "evil-winrm"),
    // (`hydra -P` is a list of words; Facebook's Hydra is `hydra.x=…`)
    (r"\bhydra[ \t]", &["-p"], "hydra"),
    (r"\bmedusa\b", &["-p"], "medusa"),
    (r"\benum4linux(?:-ng)?\b", &["-p"], "enum4linux"),
    (r"\bsmbmap\b", &["-p"], "smbmap"),
];

/// A rule for each of [`PASSWORD_FLAGS`]: a match ends at its value, so
/// one pattern for a tool's flags would find the first of two.
fn password_flags() -> Vec<Rule> {
    PASSWORD_FLAGS
        .iter()
        .flat_map(|&(tool, flags, keyword)| {
            flags.iter().map(move |flag| {
                Rule::new(
                    "tool-password-flag",
                    &format!(r"{tool}[^\n|;&]*?[ \t]{flag}[ \t]*{FLAG_VALUE}"),
                    &[keyword],
                    Check::Value,
                )
                .within(64, 1024)
            })
        })
        .collect()
}

/// Secrets where a program keeps or sends them (`.pgpass`, a server's
/// config, a framework's key, a kubeconfig, a cookie), where no secret
/// word names them as an assignment would.
pub(super) fn config_rules() -> Vec<Rule> {
    vec![
        // a private key in base64, as a kubeconfig's `client-key-data` or
        // a Kubernetes secret holds it: its PEM header encoded (a
        // certificate's is not a secret)
        Rule::new(
            "base64-private-key",
            r#"(LS0tLS1CRUdJTi(?:BQUklWQVRFIEtF|BSU0EgUFJJVkFURSBL|BFQyBQUklWQVRFIEtF|BEU0EgUFJJVkFURSBL|BPUEVOU1NIIFBSSVZBVEUgS0VZ|BFTkNSWVBURUQgUFJJVkFURSBL|BQR1AgUFJJVkFURSBLRVkgQkxP)[A-Za-z0-9+/]*={0,2})"#,
            &["ls0tls1crudjti"],
            Check::Plain,
        ),
        // an OpenVPN key (`--tls-auth`'s static key, `tls-crypt-v2`'s), as
        // a config inlines it or `cat ta.key` shows it
        Rule::new(
            "openvpn-key",
            r"-----BEGIN OpenVPN [A-Za-z0-9 -]*[Kk]ey[A-Za-z0-9 -]*-----((?:\r?\n|\\r|\\n|[ \t0-9]|\xE2\x86\x92|[A-Za-z0-9+/=])+?)-----END OpenVPN",
            &["-----begin openvpn"],
            Check::Plain,
        )
        .within(0, 8192)
        .over_lines(),
        // OpenVPN's inline `<auth-user-pass>` block: a user's line, then
        // the password's (lines may come numbered, as the Read tool
        // shows a file: `     4→…`)
        Rule::new(
            "openvpn-auth-password",
            r"<auth-user-pass>[ \t]*(?:\r?\n|\\r\\n|\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?(?:[^\r\n\\<]|\\\\)+(?:\r?\n|\\r\\n|\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?((?:[^\r\n\\]|\\\\|\\[^rn])+?)[ \t]*(?:\r?\n|\\r\\n|\\n)(?:[ \t]*[0-9]+\xE2\x86\x92)?[ \t]*</auth-user-pass>",
            &["<auth-user-pass>"],
            Check::Plain,
        )
        .within(0, 1024)
        .over_lines(),
        // WireGuard's pre-shared key (`PresharedKey = …`, 32 bytes in
        // base64), in a config, a YAML or a JSON of one (its public keys
        // are not secrets; its private key is a secret assignment)
        Rule::new(
            "wireguard-preshared-key",
            r#"(?i)\bpre-?shared[_-]?key\\?["']?[ \t]*[=:][ \t]*\\?["']?([A-Za-z0-9+/]{42,43}=)"#,
            &["preshared", "pre-shared", "pre_shared"],
            Check::Plain,
        ),
        // a private key piped to the command that derives its public key
        // (`echo KEY | wg pubkey`)
        Rule::new(
            "wireguard-private-key",
            r#"\b(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?\\?["']?([A-Za-z0-9+/]{42,43}=)\\?["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?wg[ \t]+pubkey"#,
            &["wg pubkey"],
            Check::Plain,
        )
        .within(128, 16),
        // strongSwan's `ipsec.secrets`: `[ids] : PSK "X"` (EAP, XAUTH and
        // NTLM too), and a key file's pass phrase (`: RSA key.pem "X"`)
        Rule::new(
            "ipsec-secret",
            r#"(?i)(?:^|[\s"'`]|\\n|\xE2\x86\x92)(?:[^\s:"'`]+[ \t]+)*:[ \t]*(?:(?:PSK|EAP|XAUTH|NTLM)|(?:RSA|ECDSA|BLISS|P12|PKCS12|PKCS8)[ \t]+[^\s"'`]+)[ \t]+(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?'|(0[xs][A-Za-z0-9+/=]{4,400}))"#,
            &[
                ": psk", ":psk", ": eap", ": xauth", ": ntlm", ": rsa ", ": ecdsa ", ": p12 ",
                ": pkcs",
            ],
            Check::Value,
        )
        .within(128, 448),
        // an IPsec peer's key on a router or a firewall: Cisco's
        // `pre-shared-key [local|remote] X`, a keyring's `pre-shared-key
        // address A [MASK] key X` and `crypto isakmp key X address …`, Juniper's `pre-shared-key ascii-text "X"`,
        // FortiGate's `set psksecret X` (a line of a config, not prose)
        Rule::new(
            "ipsec-peer-key",
            r#"(?i)(?:(?:^|\\n|\xE2\x86\x92|[;{])[ \t]*(?:ikev[12][ \t]+)?(?:(?:local|remote)-authentication[ \t]+)?pre-shared-key[ \t]+(?:(?:local|remote|ascii-text|hexadecimal|[068])[ \t]+|(?:address|hostname)[ \t]+[^\s"'\\]+[ \t]+(?:[0-9.]+[ \t]+)?key[ \t]+(?:[068][ \t]+)?)?|\bcrypto[ \t]+(?:isakmp|ikev1)[ \t]+key[ \t]+(?:[068][ \t]+)?|\bset[ \t]+psksecret[ \t]+(?:ENC[ \t]+)?)(?:\\?"([^"\\\r\n]{1,400})\\?"|([^\s"'#;\\]{1,400}))"#,
            &["pre-shared-key", "isakmp", "ikev1", "psksecret"],
            Check::Value,
        ),
        // a session in a request's or a response's cookies (`curl -H
        // "Cookie: session=…"`, a `Set-Cookie:` header): whatever follows
        // the header's name to its end
        Rule::new(
            "cookie",
            r#"(?i)\b(?:set-)?cookie:[ \t]*([^\s"'\\][^\r\n"'\\]{7,})"#,
            &["cookie:"],
            Check::Value,
        ),
        // a Wi-Fi key as wpa_supplicant, hostapd and NetworkManager keep
        // it (`psk=…`; `wpa_passphrase` prints the passphrase too, after `#`)
        Rule::new(
            "wifi-psk",
            r#"(?:^|\xE2\x86\x92|[\s"'`#]|\\[nt])(?:wpa_)?psk[ \t]*=[ \t]*(?:(?:\\?"([^"\\\r\n]+)\\?"|\\?'([^'\\\r\n]+)\\?')|([^\s"'`,;&|<>(){}\[\]\\][^\s"'`,;&|<>(){}\[\]\\]{2,})[ \t]*(?:$|\\[nr]|\r?\n|\\?"|`))"#,
            &["psk"],
            Check::Value,
        )
        .within(16, 448),
        // a `.pgpass` line (`host:port:database:user:password`), what
        // `cat ~/.pgpass` shows: no word names the password, the fields
        // do (a port, or `*`, between two colons)
        Rule::new(
            "pgpass-password",
            r#"(?:^|[\s"'`]|\\n|\xE2\x86\x92)(?:[A-Za-z0-9][A-Za-z0-9.\-_]*|\*|\[[0-9A-Fa-f:.]+\]):(?:[0-9]{2,5}|\*):(?:[^:\s\\"'`]+):(?:[^:\s\\"'`]+):((?:[^:\s\\"'`]|\\:){4,200})(?:$|[\s"'`]|\\[nr])"#,
            &[":5432:", ":5433:", ":6432:", ":*:"],
            Check::Value,
        ),
        // a server's password in its own config: redis.conf's
        // `requirepass X`, OpenLDAP's `rootpw X`, Apache's
        // `AuthLDAPBindPassword X` (a directive at a line's start, or
        // set by `redis-cli CONFIG SET`, then the value: "use the
        // requirepass directive" is prose)
        Rule::new(
            "config-password",
            r#"(?i)(?:(?:^|\\n|\xE2\x86\x92)[ \t]*|\bconfig[ \t]+set[ \t]+)(?:requirepass|masterauth|rootpw|bindpw|AuthLDAPBindPassword)[ \t]+(?:\\?"([^"\\\r\n]{1,400})\\?"|([^\s"'#\\]{1,400}))"#,
            &[
                "requirepass",
                "masterauth",
                "rootpw",
                "bindpw",
                "authldapbindpassword",
            ],
            Check::Value,
        ),
        // a Consul ACL token's or a Vault AppRole's secret id, as their
        // commands print it (`SecretID:  <uuid>`, `secret_id  <uuid>`): an
        // AWS secret's id is its name, no uuid
        Rule::new(
            "secret-id",
            r#"(?i)\bsecret[_-]?id\\?["']?[ \t]*(?:[:=][ \t]*)?\\?["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"#,
            &["secretid", "secret_id", "secret-id"],
            Check::Plain,
        )
        .within(0, 448),
        // Laravel's key, wherever its line is quoted
        Rule::new(
            "laravel-app-key",
            r#"\bAPP_KEY[ \t]*[=:][ \t]*\\?["']?base64:([A-Za-z0-9+/]{32,}={0,2})"#,
            &["app_key"],
            Check::Plain,
        ),
        // PowerShell's `ConvertTo-SecureString "X" -AsPlainText`
        Rule::new(
            "powershell-plaintext",
            r#"(?i)ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?:\\?"([^"\\\r\n]{1,400})\\?"|\\?'([^'\\\r\n]{1,400})\\?')[ \t]+-AsPlainText"#,
            &["convertto-securestring"],
            Check::Value,
        ),
    ]
}
