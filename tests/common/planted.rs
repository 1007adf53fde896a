//! Secrets in the shapes real sessions hold them, made at test time from
//! pieces and a PRNG (no key sits in the repository), and look-alikes that
//! must stay as they are.

/// A secret and a line that holds it as a session would.
#[derive(Debug, Clone)]
pub struct Planted {
    pub what: String,
    pub secret: String,
    pub line: String,
}

struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn of(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n)
            .map(|_| a[(self.next() % a.len() as u64) as usize] as char)
            .collect()
    }

    fn alnum(&mut self, n: usize) -> String {
        self.of(ALNUM, n)
    }

    fn hex(&mut self, n: usize) -> String {
        self.of("0123456789abcdef", n)
    }
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

fn p(what: &str, secret: String, line: String) -> Planted {
    Planted {
        what: what.to_owned(),
        secret,
        line,
    }
}

/// `pre` + `body`: a key put together when the test runs.
fn k(pre: &[&str], body: String) -> String {
    let mut s = pre.concat();
    s.push_str(&body);
    s
}

/// Every planted secret, each in its usual setting.
pub fn planted() -> Vec<Planted> {
    let mut g = Gen(0x5eed_1234_abcd_9876);
    let mut out = Vec::new();
    // providers
    let v = k(&["sk-ant-", "api03-"], g.of(URLSAFE, 93) + "AA");
    out.push(p(
        "anthropic",
        v.clone(),
        format!("export ANTHROPIC_API_KEY={v}"),
    ));
    let v = k(&["sk-", "proj-"], g.of(URLSAFE, 120));
    out.push(p(
        "openai project",
        v.clone(),
        format!("client = OpenAI(api_key=\"{v}\")"),
    ));
    let v = k(&["AK", "IA"], g.of("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
    out.push(p(
        "aws access key",
        v.clone(),
        format!("aws_access_key_id = {v}"),
    ));
    let v = g.of(B64, 40);
    out.push(p(
        "aws secret",
        v.clone(),
        format!("aws_secret_access_key = {v}"),
    ));
    let v = k(&["AI", "za"], g.of(URLSAFE, 35));
    out.push(p("gcp api key", v.clone(), format!("const key = '{v}';")));
    let body = g.of(B64, 64 * 6);
    let v = format!("-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n");
    out.push(p(
        "gcp service account",
        body.clone(),
        format!("{{\"type\": \"service_account\", \"private_key\": \"{v}\"}}"),
    ));
    let v = g.of(B64, 86) + "==";
    out.push(p(
        "azure storage",
        v.clone(),
        format!("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={v};EndpointSuffix=core.windows.net"),
    ));
    let v = g.alnum(3)
        + "8Q~"
        + &g.of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_~.-",
            34,
        );
    out.push(p(
        "azure client secret",
        v.clone(),
        format!("AZURE_CLIENT_SECRET={v}"),
    ));
    let v = k(&["gh", "p_"], g.alnum(36));
    out.push(p(
        "github pat",
        v.clone(),
        format!("git clone https://{v}@github.com/acme/app"),
    ));
    let v = k(
        &["github", "_pat_"],
        g.of(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_abcdefghijklmnopqrstuvwxyz",
            82,
        ),
    );
    out.push(p(
        "github fine-grained",
        v.clone(),
        format!("GH_TOKEN={v} gh pr list"),
    ));
    let v = k(&["glp", "at-"], g.of(URLSAFE, 20));
    out.push(p(
        "gitlab",
        v.clone(),
        format!("--header \"PRIVATE-TOKEN: {v}\""),
    ));
    let v = k(
        &["xo", "xb-"],
        format!(
            "{}-{}-{}",
            g.of("0123456789", 12),
            g.of("0123456789", 12),
            g.alnum(24)
        ),
    );
    out.push(p("slack bot", v.clone(), format!("SLACK_BOT_TOKEN={v}")));
    let v = k(
        &["https://hooks.", "slack.com/services/"],
        format!("T{}/B{}/{}", g.alnum(8), g.alnum(10), g.alnum(24)),
    );
    out.push(p(
        "slack webhook",
        v.clone(),
        format!("curl -X POST {v} -d '{{}}'"),
    ));
    let v = k(&["sk_", "live_"], g.alnum(99));
    out.push(p("stripe", v.clone(), format!("stripe.api_key = \"{v}\"")));
    let v = k(&["S", "K"], g.hex(32));
    out.push(p("twilio", v.clone(), format!("TWILIO_API_KEY={v}")));
    let v = k(&["S", "G."], g.of(URLSAFE, 22) + "." + &g.of(URLSAFE, 43));
    out.push(p(
        "sendgrid",
        v.clone(),
        format!("sg = SendGridAPIClient('{v}')"),
    ));
    let v = k(&["np", "m_"], g.alnum(36));
    out.push(p(
        "npm",
        v.clone(),
        format!("//registry.npmjs.org/:_authToken={v}"),
    ));
    let v = k(&["pypi-", "AgEIcHlwaS5vcmc"], g.of(URLSAFE, 60));
    out.push(p("pypi", v.clone(), format!("twine upload -p {v} dist/*")));
    // model and tool providers an agent is built with
    let v = k(&["sk-or-", "v1-"], g.hex(64));
    out.push(p(
        "openrouter",
        v.clone(),
        format!("export OPENROUTER_API_KEY={v}"),
    ));
    let v = k(&["sec", "ret_"], g.alnum(43));
    out.push(p(
        "notion-legacy",
        v.clone(),
        format!("notion = Client(auth=os.environ.get(\"N\", \"{v}\"))"),
    ));
    let v = k(&["gs", "k_"], g.alnum(52));
    out.push(p(
        "groq",
        v.clone(),
        format!("client = Groq(api_key=\"{v}\")"),
    ));
    let v = k(&["xa", "i-"], g.alnum(80));
    out.push(p(
        "xai",
        v.clone(),
        format!("XAI_API_KEY={v} python run.py"),
    ));
    let v = k(&["r", "8_"], g.alnum(37));
    out.push(p(
        "replicate",
        v.clone(),
        format!("curl -H 'Authorization: Token {v}' https://api.replicate.com"),
    ));
    let v = k(&["tvly-", "dev-"], g.alnum(32));
    out.push(p(
        "tavily",
        v.clone(),
        format!("tavily = TavilyClient(\"{v}\")"),
    ));
    let v = k(&["lsv2_", "pt_"], g.hex(32) + "_" + &g.hex(10));
    out.push(p("langsmith", v.clone(), format!("LANGCHAIN_API_KEY: {v}")));
    let v = k(&["sb", "p_"], g.hex(40));
    out.push(p(
        "supabase",
        v.clone(),
        format!("supabase login --token {v}"),
    ));
    let v = k(&["f", "c-"], g.hex(32));
    out.push(p(
        "firecrawl",
        v.clone(),
        format!("app = FirecrawlApp(api_key='{v}')"),
    ));
    let v = k(&["ya", "29."], g.of(URLSAFE, 120));
    out.push(p(
        "google oauth access token",
        v.clone(),
        format!("gcloud auth print-access-token => {v}"),
    ));
    let v = g.of(URLSAFE, 68);
    out.push(p(
        "discord webhook",
        v.clone(),
        format!(
            "curl -X POST https://discord.com/api/{}/123456789012345678/{v} -d '{{\"content\":\"deployed\"}}'",
            "webhooks"
        ),
    ));
    let v = k(&["dckr", "_pat_"], g.of(URLSAFE, 27));
    out.push(p(
        "docker",
        v.clone(),
        format!("echo {v} | docker login -u acme --password-stdin"),
    ));
    let v = k(
        &["h", "f_"],
        g.of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34),
    );
    out.push(p("hugging face", v.clone(), format!("HF_TOKEN={v}")));
    let v = g.of("abcdefghijklmnopqrstuvwxyz0123456789_-", 40);
    out.push(p(
        "cloudflare",
        v.clone(),
        format!("CLOUDFLARE_API_TOKEN={v}"),
    ));
    let v = k(&["dop", "_v1_"], g.hex(64));
    out.push(p(
        "digitalocean",
        v.clone(),
        format!("doctl auth init -t {v}"),
    ));
    let v = format!(
        "{}-{}-{}-{}-{}",
        g.hex(8),
        g.hex(4),
        g.hex(4),
        g.hex(4),
        g.hex(12)
    );
    out.push(p("heroku", v.clone(), format!("HEROKU_API_KEY={v}")));
    let v = k(&["sh", "pat_"], g.hex(32));
    out.push(p(
        "shopify",
        v.clone(),
        format!("X-Shopify-Access-Token: {v}"),
    ));
    let v = k(&["sq0", "atp-"], g.of(URLSAFE, 22));
    out.push(p("square", v.clone(), format!("SQUARE_ACCESS_TOKEN={v}")));
    let v = k(&["ke", "y-"], g.hex(32));
    out.push(p("mailgun", v.clone(), format!("MAILGUN_API_KEY={v}")));
    let v = g.hex(32);
    out.push(p("datadog", v.clone(), format!("DD_API_KEY={v}")));
    let v = g.hex(32);
    out.push(p(
        "sentry dsn",
        v.clone(),
        format!("Sentry.init({{ dsn: \"https://{v}@o4504.ingest.sentry.io/4505\" }})"),
    ));
    let v = g.alnum(18);
    out.push(p(
        "postgres url",
        v.clone(),
        format!("DATABASE_URL=postgres://app:{v}@db.internal:5432/app"),
    ));
    let v = g.alnum(16);
    out.push(p(
        "mongodb url",
        v.clone(),
        format!("mongodb+srv://admin:{v}@cluster0.abcde.mongodb.net/test"),
    ));
    let v = g.alnum(14);
    out.push(p(
        "redis url",
        v.clone(),
        format!("REDIS_URL=redis://:{v}@cache:6379/0"),
    ));
    let body = g.of(B64, 64 * 8);
    out.push(p(
        "rsa private key",
        body[64..128].to_owned(),
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
            wrap(&body)
        ),
    ));
    let body = g.of(B64, 64 * 5);
    out.push(p(
        "openssh private key",
        body[64..128].to_owned(),
        format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----",
            wrap(&body)
        ),
    ));
    let v = format!(
        "eyJ{}.eyJ{}.{}",
        g.of(URLSAFE, 33),
        g.of(URLSAFE, 60),
        g.of(URLSAFE, 43)
    );
    out.push(p(
        "jwt",
        v.clone(),
        format!("curl -H \"Authorization: Bearer {v}\" https://api.acme.dev/me"),
    ));
    // names that end in a secret word, in env, YAML, JSON, TOML, code
    let words = "abcdefghijkmnopqrstuvwxyz";
    for (what, shape) in [
        ("DB_PASSWORD", "DB_PASSWORD={}"),
        ("POSTGRES_PASSWORD yaml", "  POSTGRES_PASSWORD: {}"),
        ("JWT_SECRET quoted", "JWT_SECRET=\"{}\""),
        ("DJANGO_SECRET_KEY", "DJANGO_SECRET_KEY={}"),
        ("ADMIN_TOKEN", "ADMIN_TOKEN={}"),
        ("OPENAI_API_KEY generic", "OPENAI_API_KEY={}"),
        ("PGPASSWORD", "PGPASSWORD={} psql -h db -U app"),
        (
            "MYSQL_ROOT_PASSWORD export",
            "export MYSQL_ROOT_PASSWORD='{}'",
        ),
        ("toml password", "password = \"{}\""),
        (
            "json password",
            "{{\"username\": \"app\", \"password\": \"{}\"}}",
        ),
        ("yaml api_key", "api_key: {}"),
        ("client secret", "clientSecret: '{}',"),
    ] {
        let v = format!(
            "{}{}{}",
            g.of(words, 6),
            g.of("0123456789", 2),
            g.of(words, 4)
        );
        out.push(p(what, v.clone(), shape.replace("{}", &v)));
    }
    // CLI flags and headers
    let v = g.alnum(14);
    out.push(p(
        "--password flag",
        v.clone(),
        format!("pg_dump --username app --password {v} app > dump.sql"),
    ));
    let v = g.alnum(12);
    out.push(p(
        "mysql -p",
        v.clone(),
        format!("mysql -u root -p{v} -h 127.0.0.1 app"),
    ));
    let v = g.alnum(32);
    out.push(p(
        "x-api-key header",
        v.clone(),
        format!("curl -H 'X-Api-Key: {v}' https://api.acme.dev/v1/items"),
    ));
    let v = g.of(B64, 28) + "=";
    out.push(p(
        "basic auth",
        v.clone(),
        format!("Authorization: Basic {v}"),
    ));
    let v = g.alnum(24);
    out.push(p(
        "--token flag",
        v.clone(),
        format!("acme-cli deploy --token={v} --env prod"),
    ));
    out.extend(quoted(&mut g));
    out.extend(spaced(&mut g));
    out.extend(kept_by_programs(&mut g));
    out.extend(tool_flags(&mut g));
    out.extend(accounts(&mut g));
    out.extend(written_apart(&mut g));
    out.extend(by_place(&mut g));
    out
}

/// Secrets in quotes that a call's input, shown as JSON, writes escaped
/// (`\"Authorization\": \"Basic …\"`), or right behind the Read tool's
/// line number (`     1→--password …`).
fn quoted(g: &mut Gen) -> Vec<Planted> {
    let mut out = Vec::new();
    let v = g.of(B64, 30) + "==";
    out.push(p(
        "JSON Authorization header",
        v.clone(),
        format!(
            "curl -d '{{\"headers\": {{\"Authorization\": \"Basic {v}\"}}}}' https://x.acme.dev"
        ),
    ));
    let v = g.alnum(24);
    out.push(p(
        "JSON x-api-key header",
        v.clone(),
        format!("fetch(url, {{headers: {{\"X-Api-Key\": \"{v}\"}}}})"),
    ));
    let v = pw(g);
    out.push(p(
        "mysql -p quoted",
        v.clone(),
        format!("mysql -u root -p\"{v}\" app"),
    ));
    let v = pw(g);
    out.push(p(
        "--password at a line's start",
        v.clone(),
        format!("--password \"{v}\""),
    ));
    out
}

/// A password of 17 characters, one of them a `!` (which gitleaks' curl
/// rule does not take).
fn pw(g: &mut Gen) -> String {
    g.alnum(14) + "!x9"
}

/// A secret's name, and the line that holds a password given to it.
type Setting = (&'static str, fn(&str) -> String);

/// Each line with a password of its own planted in it.
fn with_passwords(g: &mut Gen, lines: &[Setting]) -> Vec<Planted> {
    lines
        .iter()
        .map(|(what, line)| {
            let v = pw(g);
            p(what, v.clone(), line(&v))
        })
        .collect()
}

/// Passwords a command takes by a flag of its own, or piped to it.
fn tool_flags(g: &mut Gen) -> Vec<Planted> {
    let lines: [Setting; 34] = [
        ("gpg --passphrase", |v| {
            format!("gpg --batch --passphrase {v} -d s.gpg")
        }),
        ("zip -P", |v| format!("zip -P {v} secret.zip notes.txt")),
        ("7z -p", |v| format!("7z a -p{v} backup.7z ./dir")),
        ("keytool -storepass", |v| {
            format!("keytool -list -keystore k.jks -storepass {v}")
        }),
        ("sqlcmd -P", |v| {
            format!("sqlcmd -S db -U sa -P {v} -Q \"SELECT 1\"")
        }),
        ("htpasswd -b", |v| {
            format!("htpasswd -b -c .htpasswd admin {v}")
        }),
        ("smbclient -U", |v| {
            format!("smbclient //srv/share -U bob%{v}")
        }),
        ("chpasswd", |v| format!("echo 'bob:{v}' | sudo chpasswd")),
        ("vault password file", |v| {
            format!("echo '{v}' > ~/.vault_pass.txt")
        }),
        ("ngrok authtoken", |v| {
            format!("ngrok config add-authtoken {v}")
        }),
        ("poetry http-basic", |v| {
            format!("poetry config http-basic.private bob {v}")
        }),
        ("cargo login", |v| format!("cargo login {v}")),
        ("doctl -t", |v| format!("doctl auth init -t {v}")),
        ("nmcli password", |v| {
            format!("nmcli dev wifi connect HomeNet password {v}")
        }),
        ("wpa_passphrase", |v| format!("wpa_passphrase HomeNet {v}")),
        ("az login -p", |v| {
            format!("az login --service-principal -u http://app -p {v} --tenant t")
        }),
        ("ldapsearch -w", |v| {
            format!("ldapsearch -x -D cn=admin,dc=ex,dc=com -w {v} -b dc=ex,dc=com")
        }),
        ("sqlplus user/password", |v| {
            format!("sqlplus -s scott/{v}@//db:1521/ORCL @run.sql")
        }),
        ("sudo -S", |v| format!("echo \"{v}\" | sudo -S apt update")),
        ("--password-stdin", |v| {
            format!("printf '%s' '{v}' | docker login -u bob --password-stdin")
        }),
        ("here-string", |v| {
            format!("gh auth login --with-token <<< {v}")
        }),
        ("kinit piped", |v| {
            format!("echo '{v}' | kinit bob@ACME.DEV")
        }),
        ("kinit here-string", |v| {
            format!("kinit bob@ACME.DEV <<< '{v}'")
        }),
        ("chpasswd here-string", |v| {
            format!("sudo chpasswd <<< \"deploy:{v}\"")
        }),
        ("cryptsetup piped", |v| {
            format!("echo -n '{v}' | sudo cryptsetup luksOpen /dev/sdb1 vault")
        }),
        ("vncpasswd -f", |v| {
            format!("echo {v} | vncpasswd -f > ~/.vnc/passwd")
        }),
        ("mosquitto_pub -P", |v| {
            format!("mosquitto_pub -h broker -u bob -P {v} -t x -m on")
        }),
        ("useradd -p", |v| format!("sudo useradd -m -p '{v}' deploy")),
        ("rdesktop -p", |v| {
            format!("rdesktop -u bob -p {v} 10.0.0.5")
        }),
        ("cf login -p", |v| {
            format!("cf login -a https://api.cf.example -u bob -p {v}")
        }),
        ("twine -p", |v| format!("twine upload -u bob -p {v} dist/*")),
        ("ncftp -p", |v| format!("ncftp -u bob -p {v} ftp.example")),
        ("jenkins-cli -auth", |v| {
            format!("java -jar jenkins-cli.jar -s http://ci/ -auth bob:{v} build app")
        }),
        ("mysqlsh user:password@", |v| {
            format!("mysqlsh --uri root:{v}@localhost:3306 --sql")
        }),
    ];
    with_passwords(g, &lines)
}

/// Passwords an account is made with, and what is left of them.
fn accounts(g: &mut Gen) -> Vec<Planted> {
    let lines: [Setting; 14] = [
        ("CREATE USER … IDENTIFIED BY", |v| {
            format!("CREATE USER 'bob'@'%' IDENTIFIED BY '{v}';")
        }),
        ("ALTER USER … IDENTIFIED WITH … BY", |v| {
            format!("ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY '{v}';")
        }),
        ("ALTER ROLE … WITH PASSWORD", |v| {
            format!("ALTER ROLE postgres WITH PASSWORD '{v}';")
        }),
        ("rabbitmqctl add_user", |v| {
            format!("rabbitmqctl add_user bob {v}")
        }),
        ("mosquitto_passwd -b", |v| {
            format!("mosquitto_passwd -b /etc/mosquitto/passwd bob {v}")
        }),
        ("net user", |v| format!("net user bob {v} /add")),
        ("openssl passwd", |v| format!("openssl passwd -6 {v}")),
        ("redis AUTH", |v| format!("127.0.0.1:6379> AUTH {v}\nOK")),
        ("WordPress key", |v| {
            format!("define('NONCE_KEY',         '{v}');")
        }),
        ("setPassword", |v| format!("ds.setPassword(\"{v}\");")),
        ("nodemailer pass", |v| {
            format!("auth: {{ user: 'bob', pass: '{v}' }}")
        }),
        ("rclone pass", |v| {
            format!("[remote]\ntype = sftp\nuser = bob\npass = {v}\n")
        }),
        ("wpa_supplicant psk", |v| {
            format!("network={{\n\tssid=\"HomeNet\"\n\tpsk=\"{v}\"\n}}")
        }),
        ("hostapd wpa_psk", |v| format!("wpa_psk={v}")),
    ];
    let mut out = with_passwords(g, &lines);
    let v = format!("$6$rounds=5000${}${}", g.alnum(16), g.alnum(86));
    out.push(p(
        "shadow hash",
        v.clone(),
        format!("root:{v}:19000:0:99999:7:::"),
    ));
    out
}

/// Secrets whose name is a line or a cell away, and keys of providers
/// gitleaks does not know.
fn written_apart(g: &mut Gen) -> Vec<Planted> {
    let lines: [Setting; 5] = [
        ("YAML block", |v| format!("db:\n  password: |\n    {v}\n")),
        ("Markdown table row", |v| {
            format!("| Variable | Value |\n| --- | --- |\n| `DB_PASSWORD` | `{v}` |\n")
        }),
        ("Kubernetes env pair", |v| {
            format!("env:\n  - name: STRIPE_SECRET_KEY\n    value: \"{v}\"\n")
        }),
        ("ECS env pair", |v| {
            format!("[{{\"name\": \"DB_PASSWORD\", \"value\": \"{v}\"}}]")
        }),
        ("Python bytes", |v| format!("SECRET_KEY = b'{v}'")),
    ];
    let mut out = with_passwords(g, &lines);
    let v = g.of(B64, 44);
    out.push(p(
        "PuTTY private lines",
        v.clone(),
        format!("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n{v}\nPrivate-MAC: 0a1b"),
    ));
    let v = format!("whsec_{}", g.alnum(32));
    out.push(p(
        "Stripe webhook secret",
        v.clone(),
        format!("STRIPE_WEBHOOK={v}"),
    ));
    let v = format!("figd_{}", g.of(URLSAFE, 40));
    out.push(p("Figma token", v.clone(), format!("figma token: {v}")));
    let v = format!("tskey-auth-{}-{}", g.alnum(12), g.alnum(30));
    out.push(p(
        "Tailscale key",
        v.clone(),
        format!("tailscale up --auth-key {v}"),
    ));
    out
}

/// Secrets as programs print and keep them, and the key a token is
/// signed with.
const AS_KEPT: [Setting; 14] = [
    ("vault kv get", |v| {
        format!(
            "====== Data ======\nKey         Value\n---         -----\npassword    {v}\nusername    bob"
        )
    }),
    ("terraform output", |v| {
        format!(
            "\"db_password\": {{\n  \"sensitive\": true,\n  \"type\": \"string\",\n  \"value\": \"{v}\"\n}}"
        )
    }),
    ("::add-mask::", |v| format!("echo \"::add-mask::{v}\"")),
    ("jwt.sign", |v| {
        format!("const t = jwt.sign({{ id: user.id }}, '{v}', {{ expiresIn: '1h' }})")
    }),
    ("PyJWT encode", |v| {
        format!("token = jwt.encode(payload, \"{v}\", algorithm=\"HS256\")")
    }),
    ("Go SignedString", |v| {
        format!("s, err := token.SignedString([]byte(\"{v}\"))")
    }),
    ("createHmac", |v| {
        format!("crypto.createHmac('sha256', '{v}').update(body).digest('hex')")
    }),
    ("JJWT signWith", |v| {
        format!("Jwts.builder().signWith(SignatureAlgorithm.HS256, \"{v}\").compact();")
    }),
    ("Gradle password", |v| {
        format!("credentials {{\n    username 'bob'\n    password '{v}'\n}}")
    }),
    ("Go MySQL DSN", |v| {
        format!("db, err := sql.Open(\"mysql\", \"bob:{v}@tcp(127.0.0.1:3306)/app\")")
    }),
    ("fetchmailrc", |v| {
        format!(
            "poll mail.x.io\n  proto imap\n  user \"bob\" there with password \"{v}\" is bob here"
        )
    }),
    ("fetchmail bare", |v| {
        format!("poll pop.x.io proto pop3 user bob pass {v}")
    }),
    ("PgBouncer userlist", |v| {
        format!("$ cat userlist.txt\n\"alice\" \"{v}\"\n\"bob\" \"md5x\"")
    }),
    ("Go struct tag", |v| {
        format!("type Config struct {{\n\tAPIKey string `env:\"API_KEY\" envDefault:\"{v}\"`\n}}")
    }),
];

/// More of [`by_place`]: a login's `-p` after its `-u`, a user and a
/// password joined, a command's last word, Windows' own flags, a call
/// setting a secret's name.
const BY_PLACE_MORE: [Setting; 15] = [
    ("PsExec -p", |v| {
        format!("PsExec.exe \\\\host -u bob -p {v} cmd")
    }),
    ("oc login -p", |v| {
        format!("oc login https://api.x:6443 -u bob -p {v}")
    }),
    ("cqlsh -p", |v| format!("cqlsh -u cassandra -p {v} db.x")),
    ("plink -pw", |v| {
        format!("plink -ssh bob@host -pw {v} uptime")
    }),
    ("httpie -a", |v| {
        format!("http -a bob:{v} https://api.x.io/me")
    }),
    ("etcdctl --user", |v| {
        format!("etcdctl --user root:{v} get /x")
    }),
    ("lftp -u user,pass", |v| {
        format!("lftp -u bob,{v} ftp://f.x.io")
    }),
    ("curl --cert file:pass", |v| {
        format!("curl --cert client.pem:{v} https://x.io")
    }),
    ("bw unlock", |v| format!("bw unlock {v}")),
    ("mysqladmin password", |v| {
        format!("mysqladmin -u root password {v}")
    }),
    ("net use", |v| {
        format!("net use \\\\srv\\share {v} /user:bob")
    }),
    ("cmdkey /pass:", |v| {
        format!("cmdkey /add:srv /user:bob /pass:{v}")
    }),
    ("docker secret create", |v| {
        format!("echo -n {v} | docker secret create db_pass -")
    }),
    ("os.environ[…] =", |v| {
        format!("os.environ[\"OPENAI_API_KEY\"] = \"{v}\"")
    }),
    ("setProperty", |v| {
        format!("props.setProperty(\"password\", \"{v}\");")
    }),
];

/// Passwords a call or a command takes by their place or by a flag of
/// the tool's own, and one of letters alone, its capitals few.
fn by_place(g: &mut Gen) -> Vec<Planted> {
    let lines: [Setting; 23] = [
        ("new PDO", |v| {
            format!("$db = new PDO('mysql:host=db;dbname=app', 'bob', '{v}');")
        }),
        ("getConnection", |v| {
            format!("Connection c = DriverManager.getConnection(url, \"bob\", \"{v}\");")
        }),
        ("ftp.login", |v| format!("ftp.login('bob', '{v}')")),
        ("NetworkCredential", |v| {
            format!("var cred = new NetworkCredential(\"bob\", \"{v}\");")
        }),
        ("PasswordAuthentication", |v| {
            format!("return new PasswordAuthentication(\"bob\", \"{v}\".toCharArray());")
        }),
        ("smtp.PlainAuth", |v| {
            format!("auth := smtp.PlainAuth(\"\", \"bob@x.io\", \"{v}\", \"smtp.x.io\")")
        }),
        ("expect send", |v| {
            format!("expect \"password:\"\nsend \"{v}\\r\"\ninteract")
        }),
        ("pexpect sendline", |v| {
            format!("child.expect('Password:')\nchild.sendline('{v}')")
        }),
        ("ipmitool -P", |v| {
            format!("ipmitool -I lanplus -H bmc -U admin -P {v} power status")
        }),
        ("security -w", |v| {
            format!("security add-generic-password -a bob -s svc -w {v}")
        }),
        ("ssh-keygen -N", |v| {
            format!("ssh-keygen -p -P old-phrase-9 -N '{v}' -f key")
        }),
        ("snmpget -X", |v| {
            format!(
                "snmpget -v3 -u bob -l authPriv -a SHA -A auth-phrase-9 -x AES -X {v} h sysName.0"
            )
        }),
        ("xfreerdp /p:", |v| {
            format!("xfreerdp /v:host /u:bob /p:{v}")
        }),
        ("unrar -p", |v| format!("unrar x -p{v} a.rar")),
        ("mc alias set", |v| {
            format!("mc alias set s3 https://s3.x.io AKIDEXAMPLE {v}")
        }),
        ("rclone config create", |v| {
            format!("rclone config create r s3 access_key_id AKID secret_access_key {v}")
        }),
        ("curl --oauth2-bearer", |v| {
            format!("curl --oauth2-bearer {v} https://api.x.io")
        }),
        ("compact table row", |v| {
            format!("|NAME|VALUE|\n|---|---|\n|API_TOKEN|{v}|")
        }),
        ("pymysql.connect", |v| {
            format!("conn = pymysql.connect('localhost', 'root', '{v}', 'app')")
        }),
        ("ftplib.FTP", |v| {
            format!("ftp = ftplib.FTP('ftp.x.io', 'bob', '{v}')")
        }),
        ("oracledb.connect", |v| {
            format!("con = oracledb.connect('scott', '{v}', 'db/XEPDB1')")
        }),
        ("nxc -p", |v| {
            format!("nxc smb 10.0.0.0/24 -u administrator -p '{v}' --shares")
        }),
        ("impacket target", |v| {
            format!("impacket-secretsdump corp.local/admin:{v}@dc01.corp.local")
        }),
    ];
    let mut out = with_passwords(g, &lines);
    out.extend(with_passwords(g, &BY_PLACE_MORE));
    let v = g.alnum(40);
    out.push(p(
        "netlify --auth",
        v.clone(),
        format!("netlify deploy --prod --auth {v}"),
    ));
    out.extend(with_passwords(g, &AS_KEPT));
    let v = format!("*{}", g.of("0123456789ABCDEF", 40));
    out.push(p(
        "MySQL native hash",
        v.clone(),
        format!("| root | localhost | {v} |"),
    ));
    let v = g.hex(32);
    out.push(p(
        "NT hash",
        v.clone(),
        format!("Administrator:500:aad3b435b51404eeaad3b435b51404ee:{v}:::"),
    ));
    let v = format!("pbkdf2_sha256$600000${}${}=", g.alnum(22), g.of(B64, 43));
    out.push(p("Django hash", v.clone(), format!("password = {v}")));
    // capitals too few and far apart to look generated by their case
    let v: String = (0..3)
        .map(|_| g.of("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1) + &g.of("bcdfghjklmnpqrstvwxz", 5))
        .collect();
    out.push(p(
        "letters alone",
        v.clone(),
        format!("mount -t cifs //srv/s /mnt -o username=bob,password={v}"),
    ));
    out
}

/// Secrets where a program keeps or sends them, no secret word naming
/// them (`.pgpass`, a server's config, a kubeconfig, a signed URL, a
/// cookie).
fn kept_by_programs(g: &mut Gen) -> Vec<Planted> {
    let mut out = Vec::new();
    let v = pw(g);
    out.push(p(
        ".pgpass",
        v.clone(),
        format!("db.internal:5432:app:app:{v}\n*:*:*:replica:{}", pw(g)),
    ));
    let v = pw(g);
    out.push(p(
        "redis.conf",
        v.clone(),
        format!("    38→requirepass {v}\n    39→maxclients 100"),
    ));
    let v = pw(g);
    out.push(p(
        "powershell",
        v.clone(),
        format!("$pw = ConvertTo-SecureString \"{v}\" -AsPlainText -Force"),
    ));
    let v = g.of(B64, 43);
    out.push(p(
        "laravel APP_KEY",
        v.clone(),
        format!("APP_KEY=base64:{v}="),
    ));
    // "-----BEGIN RSA PRIVATE KEY-----\n" and a body, in base64
    let v = k(
        &["LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo"],
        g.of(B64, 120),
    );
    out.push(p(
        "kubeconfig client-key-data",
        v.clone(),
        format!("  user:\n    client-key-data: {v}"),
    ));
    let v = g.hex(64);
    out.push(p(
        "presigned S3 URL",
        v.clone(),
        format!("curl -o f.zip 'https://b.s3.amazonaws.com/f.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={v}'"),
    ));
    let v = g.alnum(32);
    out.push(p(
        "key in a query",
        v.clone(),
        format!("GET https://maps.acme.dev/api/js?key={v}&callback=init"),
    ));
    let v = g.alnum(32);
    out.push(p(
        "cookie",
        v.clone(),
        format!("curl -H 'Cookie: sessionid={v}' https://app.acme.dev/api"),
    ));
    out
}

/// Secrets a command or a config file writes apart from their names, or
/// in a login's own flag: no `=` or `:` between (each with a character
/// gitleaks' curl rule does not take, `!`).
fn spaced(g: &mut Gen) -> Vec<Planted> {
    let mut out = Vec::new();
    let v = pw(g);
    out.push(p(
        "curl -u",
        v.clone(),
        format!("curl -u admin:{v} https://ci.acme.dev/api/json"),
    ));
    let v = pw(g);
    out.push(p(
        "curl --user quoted",
        v.clone(),
        format!("curl --user 'deploy:{v}' https://ci.acme.dev"),
    ));
    let v = pw(g);
    out.push(p(
        "curl -u double-quoted",
        v.clone(),
        format!("curl -sS -u \"deploy:{v}\" https://ci.acme.dev"),
    ));
    let v = pw(g);
    out.push(p(
        "docker login -p",
        v.clone(),
        format!("docker login -u bob -p {v} registry.acme.dev"),
    ));
    let v = pw(g);
    out.push(p(
        "sshpass -p",
        v.clone(),
        format!("sshpass -p '{v}' ssh root@10.0.0.5"),
    ));
    let v = pw(g);
    out.push(p(
        "redis-cli -a",
        v.clone(),
        format!("redis-cli -h cache.internal -a {v} ping"),
    ));
    let v = pw(g);
    out.push(p(
        "mongosh -p",
        v.clone(),
        format!("mongosh --host db -u admin -p {v}"),
    ));
    let v = pw(g);
    out.push(p(
        "wget --http-password",
        v.clone(),
        format!("wget --http-user=bob --http-password={v} https://x.acme.dev/f"),
    ));
    let v = pw(g);
    out.push(p(
        "openssl -pass",
        v.clone(),
        format!("openssl enc -aes-256-cbc -pass pass:{v} -in a -out b"),
    ));
    let v = g.alnum(40);
    out.push(p(
        "aws configure set",
        v.clone(),
        format!("aws configure set aws_secret_access_key {v}"),
    ));
    let v = k(&["npm", "_"], g.alnum(36));
    out.push(p(
        "npm config set",
        v.clone(),
        format!("npm config set //registry.npmjs.org/:_authToken {v}"),
    ));
    let v = pw(g);
    out.push(p("Dockerfile ENV", v.clone(), format!("ENV DB_PASS {v}")));
    let v = pw(g);
    out.push(p("_PASS name", v.clone(), format!("SMTP_PASS={v}")));
    let v = pw(g);
    out.push(p(
        "maven <password>",
        v.clone(),
        format!("<server><id>acme</id><username>bob</username><password>{v}</password></server>"),
    ));
    let v = g.alnum(32);
    out.push(p(
        ".NET appSettings",
        v.clone(),
        format!("<add key=\"StripeApiKey\" value=\"{v}\" />"),
    ));
    let v = pw(g);
    out.push(p(
        "requests auth",
        v.clone(),
        format!("r = requests.get(url, auth=(\"admin\", \"{v}\"))"),
    ));
    let v = pw(g);
    out.push(p(
        "mongo db.auth",
        v.clone(),
        format!("db.auth(\"admin\", \"{v}\")"),
    ));
    let v = pw(g);
    out.push(p(
        ".netrc",
        v.clone(),
        format!("machine api.acme.dev\n  login bob\n  password {v}"),
    ));
    let v = g.alnum(26);
    out.push(p("vault login", v.clone(), format!("vault login {v}")));
    let v = pw(g);
    out.push(p(
        "gh secret set",
        v.clone(),
        format!("gh secret set API_KEY --body \"{v}\""),
    ));
    out
}

fn wrap(body: &str) -> String {
    body.as_bytes()
        .chunks(64)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The same secret written so that a screen shows it whole but a pattern
/// over the bytes would not see it: split by colour codes (`grep
/// --color`), a soft hyphen, a zero-width space, a word joiner, markdown
/// escapes, emphasis, code or strike marks inside it, HTML entities.
pub fn disguised() -> Vec<Planted> {
    let mut g = Gen(0xd15_6015e);
    let mut out = Vec::new();
    let aws = k(&["AK", "IA"], g.of("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
    let gh = k(&["gh", "p_"], g.alnum(36));
    let stripe = k(&["sk_", "live_"], g.alnum(40));
    let (a, b) = aws.split_at(7);
    out.push(p(
        "colour split",
        aws.clone(),
        format!("{a}\u{1b}[01;31m\u{1b}[K{b}\u{1b}[m\u{1b}[K"),
    ));
    let (a, b) = gh.split_at(10);
    out.push(p("soft hyphen", gh.clone(), format!("token {a}\u{ad}{b}")));
    out.push(p(
        "zero-width space",
        gh.clone(),
        format!("token {a}\u{200b}{b}"),
    ));
    out.push(p(
        "word joiner",
        gh.clone(),
        format!("token {a}\u{2060}{b}"),
    ));
    out.push(p(
        "markdown escapes",
        stripe.clone(),
        stripe.replace('_', "\\_"),
    ));
    out.push(p(
        "markdown bold inside",
        gh.clone(),
        format!("token {a}**{b}**"),
    ));
    let (c, d) = stripe.split_at(12);
    out.push(p("code span inside", stripe.clone(), format!("{c}`{d}`")));
    out.push(p(
        "strike inside",
        gh.clone(),
        format!("the token ~~{a}~~{b} is the new one"),
    ));
    out.push(p("html entity", aws.clone(), format!("&#65;{}", &aws[1..])));
    out.push(p("hex entity", aws.clone(), format!("&#x41;{}", &aws[1..])));
    // JSON or code written out: the next reader decodes it to the key
    let escaped = |c: char| format!("\\u{:04x}", u32::from(c));
    let first = gh.chars().next().unwrap_or('g');
    out.push(p(
        "JSON unicode escape",
        gh.clone(),
        format!("token {}{}", escaped(first), &gh[1..]),
    ));
    out.push(p(
        "every character escaped",
        gh.clone(),
        format!("token {}", gh.chars().map(escaped).collect::<String>()),
    ));
    out.push(p(
        "hex escape",
        gh.clone(),
        format!("token \\x{:02x}{}", u32::from(first), &gh[1..]),
    ));
    let (a, b) = aws.split_at(7);
    out.push(p(
        "colour code escaped",
        aws.clone(),
        format!("{a}\\u001b[01;31m{b}\\u001b[m"),
    ));
    let v = g.alnum(24);
    out.push(p(
        "escaped slashes",
        v.clone(),
        format!("https:\\/\\/admin:{v}@db.acme.dev\\/app"),
    ));
    // `{\\\"password\\\":…}`: JSON in a JSON string, written in one
    let v = g.alnum(24);
    out.push(p(
        "JSON escaped twice",
        v.clone(),
        format!("{{\\\\\\\"password\\\\\\\":\\\\\\\"{v}\\\\\\\"}}"),
    ));
    // a URL's percent-encoding, which its parser decodes
    out.push(p(
        "percent-encoded",
        gh.clone(),
        format!(
            "https://ci.acme.dev/hook?t=%{:02X}{}",
            u32::from(first),
            &gh[1..]
        ),
    ));
    // a key hard-wrapped where a tool's line ended (`fold`, `openssl`):
    // its rest, on the next line, is what is looked for
    let ant = k(&["sk-ant-", "api03-"], g.of(URLSAFE, 93) + "AA");
    out.push(p(
        "hard-wrapped",
        ant[64..].to_owned(),
        format!("{}\n{}", &ant[..64], &ant[64..]),
    ));
    // cut before its rule could see it whole
    let (a, b) = gh.split_at(16);
    out.push(p(
        "hard-wrapped early",
        b.to_owned(),
        format!("{} {a}\n{b}", "x".repeat(50)),
    ));
    out.push(p(
        "percent-encoded underscores",
        stripe.clone(),
        format!("pay?key={}&x=1", stripe.replace('_', "%5f")),
    ));
    out
}

/// Text that looks like a secret to a careless rule and is not one.
pub fn look_alikes() -> Vec<String> {
    vec![
        "NODE_MODS=/Users/someone/projects/webapp/node_modules".into(),
        "fn secret_ThisIsTheLongestCamelCaseNameWeEverHadSoFar() {}".into(),
        "    41→export function authChallenge(secret: Uint8Array): Promise<void> {".into(),
        "let token = next_token(&mut lexer);".into(),
        "commit 9f2c4e1a7b3d5f6e8a0c2b4d6f8e0a1c3b5d7f9e".into(),
        "session 0c6f1b2e-8d1a-4c51-9a7e-3b5f2d9e8a10 resumed".into(),
        "password: user.password,".into(),
        "const API_KEY = process.env.API_KEY;".into(),
        "PATH=/usr/local/bin:/usr/bin:/bin".into(),
        "max_tokens: 4096".into(),
        "const { token } = useAuth();".into(),
        "def verify(password: str) -> bool:".into(),
        "API_KEY=your-api-key-here".into(),
        "Authorization: Bearer $TOKEN".into(),
        "the token budget is 200000 tokens".into(),
        "curl -u \"$USER:$TOKEN\" https://ci.acme.dev".into(),
        "docker login -u bob --password-stdin ghcr.io".into(),
        "redis-cli -p 6379 ping".into(),
        "openssl req -new -key server.key -out server.csr".into(),
        "the machine learning password policy is strict".into(),
        "run vault login afterwards to authenticate".into(),
        "ENV NODE_AUTH_TOKEN ${NPM_TOKEN}".into(),
        "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}".into(),
        "<password>${db.password}</password>".into(),
        "<key>CFBundleName</key>".into(),
        "bypass = enabled".into(),
        "wget --no-password https://x.acme.dev/f".into(),
        "vault login -method=userpass username=bob".into(),
        "--- PASS: TestSessionResume (0.00s)".into(),
        "    else: pass".into(),
        "ExporterMasterSecret => b\"exp master\",".into(),
        "// |debug_assert_nonsecret| is like |assert| and should be used".into(),
        "| Credentials | 1Password vault, shared |".into(),
        "- name: API_TOKEN\n  valueFrom:\n    secretKeyRef:".into(),
        "ls | grep token | wc -l".into(),
        "result = {pass: 0, fail: 1}".into(),
        "let psk = ClientExtensions {".into(),
        "expect(token(\"ident\")).toBe(1)".into(),
        "Sessions are uniquely identified by a combination of two ids".into(),
        "sqlplus / as sysdba".into(),
        "echo $PASS | sudo -S ls".into(),
        "net user bob /delete".into(),
        "the username and password login, session cookies".into(),
        ">>> ftp.login() # default, i.e.: user anonymous, passwd anonymous@".into(),
        "\"Usage: %s\" \"\\n\"".into(),
        "\"en\" \"English\"".into(),
        "Password string `json:\"password\" default:\"\"`".into(),
        "aws configure set region us-east-1".into(),
        "    --- PASS: TestParse/empty_input (0.01s)".into(),
        // escapes that decode to no secret
        "printf '\\x1b[31mred\\x1b[0m\\n'".into(),
        r#"{"docs":"https:\/\/docs.rs\/regex\/latest","token":"\u003cTOKEN\u003e"}"#.into(),
        "caf\\u00e9 na\\u00efve \\u2014 \\ud83d\\ude00 \\ud83d".into(),
        r#"{\\\"password\\\":\\\"\\\"}"#.into(),
        "coverage 100% (5%2 of lines); printf '%2d %5s'".into(),
        "https://h.io/search?q=hello%20world%2Fx&lang=%E2%9C%93".into(),
        "src/main.rs:5432:17: error: unused variable".into(),
        "listening on 127.0.0.1:5432: accepting connections".into(),
        "localhost:5432:app:app:$PGPASSWORD".into(),
        "Use the requirepass directive in redis.conf".into(),
        "$pw = ConvertTo-SecureString $Password -AsPlainText -Force".into(),
        "APP_KEY=base64:".into(),
        "unzip -p release.zip manifest.json | jq .version".into(),
        "7z x -p backup.7z".into(),
        "sqlcmd -S db -U sa -P $SA_PASSWORD".into(),
        "htpasswd -c .htpasswd admin".into(),
        "keytool -list -storepass:env STOREPASS".into(),
        "https://docs.acme.dev/search?key=installation_guide_for_linux&lang=en".into(),
        "redis.get(\"cache?key=user_profile_settings\")".into(),
        "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM".into(),
        "curl -H \"Cookie: $COOKIE\" https://app.acme.dev".into(),
        "app.login('/login', 'home')".into(),
        "t.login(\"Sign in\", \"Welcome back\")".into(),
        "$db = new PDO($dsn, $user, $pass);".into(),
        "await expect(page.getByLabel('Password')).toBeVisible();\nsocket.send('hello there')"
            .into(),
        "expect \"(yes/no)?\"\nsend \"yes\\r\"\nexpect \"password:\"\nsend \"$pass\\r\"".into(),
        "|column|type|\n|---|---|\n|password_hash|varchar|".into(),
        "snmpwalk -v2c -c public 10.0.0.1".into(),
        "rar a -p- archive.rar dir".into(),
        "mc alias set s3 http://minio:9000 $MINIO_USER $MINIO_PASS".into(),
        "Use mc alias set to add the host, then rclone config create with a key.".into(),
        "let token = ReverseHybridCache;".into(),
        "'SELECT':       ('AUTH', 'SELECTED'),".into(),
        "builder.header(\"X-SECRET\", \"typed\")".into(),
        "AccessToken(\"access.key\", \"access.secret\")".into(),
        "docker run -u 1000 -p 8080:80 app".into(),
        "curl --auth basic -u $USER:$PASS https://x.acme.dev".into(),
        "aws secretsmanager get-secret-value --secret-id prod/db/creds".into(),
        "  --api-key     KEY\n  --password    PASSWORD".into(),
        "total_tokens    4096".into(),
        "Key         Value\n---         -----".into(),
        "password    reset by the user".into(),
        "jwt.sign(payload, process.env.JWT_SECRET)".into(),
        "    can include named token fields.".into(),
        "  struct rsa_private_key key;".into(),
        "password changed".into(),
        "Authorization required for this mechanism".into(),
        "git clone https://bob@bitbucket.org/team/repo.git".into(),
    ]
}
