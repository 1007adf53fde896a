//! What several test files share: the corpus, a small PRNG, JSONL lines
//! and sessions made of them, and drawing into a TestBackend.
// each test binary uses a part of this
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod entry;
pub mod planted;
pub mod readers;

/// `tests/fixtures/kinds.jsonl`: one line of every entry and block kind.
pub const KINDS: &[u8] = include_bytes!("../fixtures/kinds.jsonl");

/// `tests/fixtures/newer.jsonl`: the kinds of 2.1.156 and later
/// (attachments, agent_progress, documents, continued-in...).
pub const NEWER: &[u8] = include_bytes!("../fixtures/newer.jsonl");

/// A listing's options for a test that lists in its own process: the
/// standard ones without the cache (which would be the user's).
pub fn no_cache() -> ccv::catalog::ScanOptions {
    ccv::catalog::ScanOptions {
        cache: None,
        ..ccv::catalog::ScanOptions::standard()
    }
}

/// Both fixtures, one after the other: what the fuzzers start from.
pub fn fixtures() -> &'static [u8] {
    static ALL: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| [KINDS, NEWER].concat())
}

/// Every `.jsonl` under `dir`, its folders' included (for the opt-in
/// tests of a tree made for the occasion).
pub fn jsonl_under(dir: &Path) -> Vec<PathBuf> {
    files_under(dir, "jsonl")
}

/// Every file named `*.<ext>` under `dir`, its folders' included.
pub fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let (mut todo, mut files) = (vec![dir.to_path_buf()], Vec::new());
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                files.push(p);
            }
        }
    }
    files
}

/// The real session files of `../shared/corpus`, sorted; `None` (after
/// saying so) when `../shared` is not beside the repo.
pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!(
            "skipping: {} is absent (the corpus lives beside the repo)",
            dir.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Some(files)
}

/// A session's JSON export, as `ccv export --format json` prints it.
pub fn export_json(s: &ccv::model::Session) -> String {
    let mut out = Vec::new();
    let opts = ccv::export::Options {
        format: ccv::export::Format::Json,
        ..Default::default()
    };
    ccv::export::export(s, &opts, &mut out).expect("export");
    String::from_utf8(out).expect("utf8")
}

/// xorshift64: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes that bend a JSON line where they go in or replace some of it:
/// other scripts, escapes (a surrogate's half included), control and
/// structural bytes, broken literals and numbers, a member.
pub const BENDS: &[&[u8]] = &[
    "é".as_bytes(),
    "\u{2028}".as_bytes(),
    b"\\",
    b"\"",
    b"\\u",
    b"\\ud83d",
    b"\\uDC00",
    b"\x01",
    b"\t",
    b" ",
    b",",
    b"}",
    b"]",
    b"{",
    b"[",
    b"0",
    b"-",
    b"e",
    b".",
    b"01",
    b"null",
    b"tru",
    b"\\x",
    b"\"x\":1,",
];

/// Each of `samples`, whole, cut at every byte and bent at random
/// (`BENDS` and `more`, put in, written over or bytes taken out),
/// handed to `read` where it is still UTF-8; `read` says whether it read
/// the text. `(samples read whole, other texts read)`. `CCV_ANSWER_ROUNDS`
/// bends each sample more times (300), from `CCV_ANSWER_SEED` (else
/// `seed`).
pub fn cut_and_bent(
    samples: &[String],
    more: &[&[u8]],
    seed: u64,
    read: impl Fn(&str) -> bool,
) -> (usize, usize) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let rounds = env("CCV_ANSWER_ROUNDS").unwrap_or(300);
    let mut rng = Rng(env("CCV_ANSWER_SEED").unwrap_or(seed).max(1));
    let bends: Vec<&[u8]> = BENDS.iter().chain(more).copied().collect();
    let (mut whole, mut bent) = (0, 0);
    for s in samples {
        whole += usize::from(read(s));
        let b = s.as_bytes();
        for cut in 0..b.len() {
            if let Ok(part) = std::str::from_utf8(&b[..cut]) {
                bent += usize::from(read(part));
            }
        }
        for _ in 0..rounds {
            let mut m = b.to_vec();
            let at = rng.below(m.len() + 1);
            let bend = bends[rng.below(bends.len())];
            match rng.below(3) {
                0 => drop(m.splice(at..at, bend.iter().copied())),
                1 => drop(m.splice(at..(at + bend.len()).min(m.len()), bend.iter().copied())),
                _ => drop(m.drain(at..(at + 1 + rng.below(4)).min(m.len()))),
            }
            if let Ok(text) = std::str::from_utf8(&m) {
                bent += usize::from(read(text));
            }
        }
    }
    (whole, bent)
}

/// A session made of these lines, read to its end.
/// What a session shows, as comparable text: each row's kind, line and
/// text, the main conversation's then each agent's. An unreadable row by
/// its place only: its reason may count the objects read before it
/// differently when a first object was shown before the rest of its line
/// came.
pub fn rows(s: &ccv::model::Session) -> Vec<String> {
    std::iter::once(&s.main)
        .chain(s.agents.iter().map(|a| &a.transcript))
        .flat_map(|t| t.items.iter())
        .map(|i| match i.kind {
            ccv::model::Kind::Unreadable => format!("{:?} {}", i.kind, i.line),
            _ => format!("{:?} {} {}", i.kind, i.line, i.text),
        })
        .collect()
}

pub fn session_of(lines: &[serde_json::Value]) -> ccv::model::Session {
    let mut s = ccv::model::Session::new(None);
    for l in lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    s.finish(0);
    s
}

/// A user line (`cwd` /home/bob/app) with this content.
pub fn user_line(uuid: &str, content: serde_json::Value) -> serde_json::Value {
    entry::user(uuid, content)
        .session("s")
        .cwd("/home/bob/app")
        .at("2025-01-01T10:00:00.000Z")
        .json()
}

/// An assistant line of message `id` with these blocks.
pub fn assistant_line(uuid: &str, id: &str, content: serde_json::Value) -> serde_json::Value {
    entry::assistant(uuid, id, content)
        .model("claude-opus-4-6")
        .session("s")
        .at("2025-01-01T10:00:01.000Z")
        .json()
}

thread_local! {
    /// The list's render state of this test's viewer (each test runs on a
    /// thread of its own): kept between frames, as the shell keeps it.
    static LIST: std::cell::RefCell<ccv::view::ListView> = Default::default();
}

/// A frame of the viewer, its render state kept between frames.
pub fn draw(f: &mut ratatui::Frame<'_>, s: &mut ccv::app::State) {
    LIST.with(|l| ccv::view::draw(f, s, &mut l.borrow_mut()));
}

/// Reads back the texts the last frame drew as `…` (as the shell does).
pub fn fill_drawn(s: &mut ccv::app::State) -> bool {
    LIST.with(|l| ccv::app::texts::fill_drawn(s, &mut l.borrow_mut()))
}

/// Forgets the lines this test's viewer rendered.
pub fn forget_lines() {
    LIST.with(|l| l.borrow_mut().cache.clear());
}

/// The viewer of `s` with its last tool call opened (every group
/// expanded, the call selected and toggled), and the screen it draws.
pub fn last_call_opened(s: ccv::model::Session, w: u16, h: u16) -> (ccv::app::State, String) {
    use ccv::app::{Action, State, perform_action};
    let mut st = State::new(s);
    perform_action(&mut st, Action::ExpandAll);
    let call = (0..st.rows.len())
        .rev()
        .find(|&r| st.rows[r].fold(&st.session).is_some())
        .expect("a call row");
    perform_action(&mut st, Action::Top);
    perform_action(&mut st, Action::Down(call));
    perform_action(&mut st, Action::Toggle);
    let shot = screen_text(&mut st, w, h);
    (st, shot)
}

/// The screen the viewer draws, as text.
pub fn screen_text(s: &mut ccv::app::State, w: u16, h: u16) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| draw(f, s)).expect("draw");
    let b = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| b[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// `ccv export` of the session in this format.
pub fn exported(s: &ccv::model::Session, format: ccv::export::Format) -> String {
    let mut out = Vec::new();
    let opts = ccv::export::Options {
        format,
        ..ccv::export::Options::default()
    };
    ccv::export::export(s, &opts, &mut out).expect("export");
    String::from_utf8(out).expect("utf8")
}

/// A viewer state of this session, in UTC (screens do not depend on the
/// machine's zone).
pub fn utc_state(session: ccv::model::Session) -> ccv::app::State {
    let mut s = ccv::app::State::new(session);
    s.tz = jiff::tz::TimeZone::UTC;
    s
}

/// Selects the first tool row (a group's, or a call's of its own) and
/// returns its index.
pub fn select_first_tool_row(s: &mut ccv::app::State) -> usize {
    use ccv::rows::RowKind;
    let at = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. } | RowKind::Call { .. }))
        .expect("a tool row");
    ccv::app::perform_action(s, ccv::app::Action::Top);
    ccv::app::perform_action(s, ccv::app::Action::Down(at));
    at
}

/// `../shared/bench/gen-session`, run by python3 in a [`sandbox`] under
/// `home`: the generator never needs the real home, and python would
/// otherwise look into it (`~/.local`); `None`, after saying why, when the
/// generator is absent.
pub fn gen_session(home: &std::path::Path) -> Option<std::process::Command> {
    let generator = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/bench/gen-session"
    ));
    if !generator.exists() {
        eprintln!("skipping: {} is absent", generator.display());
        return None;
    }
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(generator)
        .envs(sandbox(home))
        .env("PYTHONNOUSERSITE", "1");
    Some(cmd)
}

/// `gen-session` (../shared/bench) run with these arguments, writing into
/// a new temporary directory: `None`, after saying why, when the generator
/// is absent. Returns the directory (kept alive), the file, and what the
/// generator printed.
pub fn generated(args: &[&str]) -> Option<(tempfile::TempDir, PathBuf, String)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("generated.jsonl");
    let out = gen_session(dir.path())?
        .args(args)
        .arg("-o")
        .arg(&file)
        .output()
        .expect("run gen-session");
    assert!(
        out.status.success(),
        "gen-session failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some((dir, file, said))
}

/// Messages for [`entry`]'s lines, and a line of `kind` whose `message`
/// is given (`minute` sets the timestamp: 10:MM on 2025-06-01).
pub mod jsonl {
    use serde_json::{Value, json};

    pub fn line(kind: &str, uuid: &str, parent: &str, minute: u32, message: Value) -> String {
        super::entry::other(kind, uuid, json!({ "message": message }))
            .parent(parent)
            .session("s1")
            .at(&format!("2025-06-01T10:{minute:02}:00Z"))
            .line()
    }

    pub fn assistant(id: &str, content: Value) -> Value {
        json!({"id": id, "role": "assistant", "model": "claude-test", "content": content})
    }

    pub fn user(text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    pub fn result(id: &str, text: &str) -> Value {
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text}]})
    }

    pub fn call(id: &str, name: &str, input: Value) -> Value {
        json!([{"type": "tool_use", "id": id, "name": name, "input": input}])
    }

    pub fn text(t: &str) -> Value {
        json!([{"type": "text", "text": t}])
    }

    /// What `ccv check` has to say about, one of each: a dangling parent, a
    /// result without its call, a call the conversation left without a
    /// result, and one still running.
    pub fn findings() -> String {
        [
            line("user", "u1", "gone", 0, user("hello there")),
            line("assistant", "a1", "u1", 1, assistant("m1", text("hi"))),
            line(
                "user",
                "r1",
                "a1",
                2,
                result("toolu_nowhere", "orphan output"),
            ),
            line(
                "assistant",
                "a2",
                "r1",
                3,
                assistant("m2", call("toolu_lost", "Bash", json!({"command": "make"}))),
            ),
            line(
                "assistant",
                "a3",
                "a2",
                4,
                assistant("m3", text("moving on")),
            ),
            line(
                "assistant",
                "a4",
                "a3",
                5,
                assistant(
                    "m4",
                    call("toolu_pending", "Read", json!({"file_path": "/x.rs"})),
                ),
            ),
        ]
        .join("\n")
            + "\n"
    }
}

/// The first tool call of a transcript.
pub fn first_call(t: &ccv::model::Transcript) -> &ccv::model::ToolCall {
    t.items
        .iter()
        .find_map(|i| match &i.detail {
            ccv::model::Detail::Call(c) => Some(&**c),
            _ => None,
        })
        .expect("a tool call")
}

/// Every directory the binary may use, under `home` (never the real
/// ~/.claude, config, cache or state): HOME, CLAUDE_CONFIG_DIR
/// (`home/claude`), the XDG cache, state and config homes; UTC; no
/// background indexer; programs and libraries found outside the real home
/// (see [`outside_home`]). For `Command::envs`, of std or assert_cmd.
pub fn sandbox(home: &std::path::Path) -> Vec<(&'static str, std::ffi::OsString)> {
    let mut env = outside_home();
    env.extend([
        ("HOME", home.into()),
        ("CLAUDE_CONFIG_DIR", home.join("claude").into()),
        ("CODEX_HOME", home.join("codex").into()),
        ("XDG_CACHE_HOME", home.join("cache").into()),
        ("XDG_STATE_HOME", home.join("state").into()),
        ("XDG_CONFIG_HOME", home.join("config").into()),
        ("CCV_NO_BACKGROUND_INDEX", "1".into()),
        ("TZ", "UTC".into()),
    ]);
    env
}

/// PATH and LD_LIBRARY_PATH without the directories under the real home,
/// for any program a test runs. cargo runs the tests with its toolchain's
/// libraries (in ~/.rustup) on LD_LIBRARY_PATH, and every program started
/// with it (ccv, sh, tmux, python3) looked for its libraries there first.
/// An empty LD_LIBRARY_PATH is no path.
pub fn outside_home() -> Vec<(&'static str, std::ffi::OsString)> {
    let homes = real_homes();
    let libraries = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
    let libraries =
        std::env::split_paths(&libraries).filter(|dir| !homes.iter().any(|h| dir.starts_with(h)));
    vec![
        ("PATH", path_outside_home()),
        (
            "LD_LIBRARY_PATH",
            std::env::join_paths(libraries).unwrap_or_default(),
        ),
    ]
}

/// PATH without the directories under the real home: a program a test
/// runs (python3 for the generator, sh, bash for the tmux scripts) is the
/// system's, and a program looked for and missing is not looked for there
/// either. pyenv puts its shims first, and running them reads scripts,
/// settings and a library in the home. A machine whose only python3 is in
/// the home keeps those directories, last.
fn path_outside_home() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let homes = real_homes();
    let (in_home, outside): (Vec<PathBuf>, Vec<PathBuf>) =
        std::env::split_paths(&path).partition(|dir| homes.iter().any(|h| dir.starts_with(h)));
    let python = outside.iter().any(|d| d.join("python3").is_file());
    let in_home = in_home.into_iter().filter(|_| !python);
    std::env::join_paths(outside.into_iter().chain(in_home)).unwrap_or(path)
}

/// The homes a test stays out of: `$HOME`, and the account's own home from
/// the password database, for a harness may run the tests with HOME set
/// elsewhere while PATH still names directories of the real one.
fn real_homes() -> Vec<PathBuf> {
    let mut homes: Vec<PathBuf> = std::env::var_os("HOME")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    homes.extend(account_home());
    homes.retain(|h| h.parent().is_some()); // never "/" (every directory)
    homes
}

#[cfg(unix)]
fn account_home() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    let mut out = std::ptr::null_mut();
    // SAFETY: `pw` and `buf` are owned here and outlive the call, which
    // writes only within them; the result is read before they are dropped
    unsafe {
        let mut pw: libc::passwd = std::mem::zeroed();
        let rc = libc::getpwuid_r(
            libc::getuid(),
            &mut pw,
            buf.as_mut_ptr(),
            buf.len(),
            &mut out,
        );
        if rc != 0 || out.is_null() || pw.pw_dir.is_null() {
            return None;
        }
        let dir = std::ffi::CStr::from_ptr(pw.pw_dir);
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes())))
    }
}

#[cfg(not(unix))]
fn account_home() -> Option<PathBuf> {
    None
}

/// The built binary in a [`sandbox`] under `home`.
pub fn ccv_at(home: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("ccv").expect("binary");
    cmd.envs(sandbox(home));
    cmd
}

/// ccv in a sandbox, building no index behind a search's back: a test
/// says when the index is built.
pub fn ccv_no_index(home: &std::path::Path) -> assert_cmd::Command {
    let mut c = ccv_at(home);
    c.env("CCV_NO_BACKGROUND_INDEX", "1");
    c
}

/// `ccv search --json ARGS ROOT` (no index built behind its back): its
/// exit code and hits.
pub fn search_json(
    home: &std::path::Path,
    root: &std::path::Path,
    args: &[&str],
) -> (i32, Vec<serde_json::Value>) {
    let out = ccv_no_index(home)
        .arg("search")
        .arg("--json")
        .args(args)
        .arg(root)
        .output()
        .expect("runs");
    let hits = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    (out.status.code().unwrap_or(-1), hits)
}

/// Runs `cmd`, which must succeed, and reads its JSON Lines.
pub fn json_lines_of(cmd: &mut assert_cmd::Command) -> Vec<serde_json::Value> {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// ~17 MB of every kind of line, bad ones included, so several chunks
/// start and end in the middle of lines of every kind.
pub fn awkward_session() -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev: Option<String> = None;
    let mut i = 0;
    while out.len() < 17 << 20 {
        let uuid = format!("u{i}");
        let mut line = match i % 7 {
            0 => user_line(
                &uuid,
                serde_json::json!(format!("prompt {i} {}", "word ".repeat(i % 300))),
            ),
            1 => assistant_line(
                &uuid,
                &format!("m{i}"),
                serde_json::json!([{"type":"tool_use","id":format!("t{i}"),"name":"Bash","input":{"command":format!("ls {i}")}}]),
            ),
            2 => user_line(
                &uuid,
                serde_json::json!([{"type":"tool_result","tool_use_id":format!("t{}", i - 1),"content":format!("out\t\"{i}\"\n{}", "line\n".repeat(i % 2000))}]),
            ),
            3 => assistant_line(
                &uuid,
                &format!("m{i}"),
                serde_json::json!([{"type":"text","text":"é ✓ \u{1F600}"}]),
            ),
            4 => {
                serde_json::json!({"type":"brand-new-kind","uuid":uuid,"whatever":[1,2,{"x":null}]})
            }
            5 => serde_json::json!({"type":"summary","summary":format!("s{i}"),"leafUuid":"u0"}),
            _ => user_line(&uuid, serde_json::json!(42)),
        };
        if let Some(p) = &prev {
            line["parentUuid"] = serde_json::json!(p);
        }
        prev = Some(uuid);
        let mut text = serde_json::to_vec(&line).expect("json");
        match i % 53 {
            // two objects on one line
            7 => text.extend_from_slice(
                b"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"joined\"}}",
            ),
            // invalid UTF-8 inside a string
            11 => {
                let at = text.len() - 3;
                text.splice(at..at, [0xff, 0xfe]);
            }
            // truncated JSON
            13 => text.truncate(text.len() / 2),
            // a number where a string belongs
            17 => {
                text = br#"{"type":"user","uuid":17,"message":{"role":"user","content":"typed"}}"#
                    .to_vec()
            }
            // a lone surrogate escape
            19 => {
                text = br#"{"type":"user","message":{"role":"user","content":"half \ud800 pair"}}"#
                    .to_vec()
            }
            23 => text = b"not json at all".to_vec(),
            29 => text.clear(),
            _ => {}
        }
        out.extend_from_slice(&text);
        out.extend_from_slice(if i % 5 == 0 { b"\r\n" } else { b"\n" });
        if i == 900 {
            // lines longer than a chunk, one after the other: a chunk then
            // holds a single newline, or none
            for n in [5 << 20, 3 << 20, 2 << 20] {
                let big = user_line("big", serde_json::json!("x".repeat(n)));
                out.extend_from_slice(&serde_json::to_vec(&big).expect("json"));
                out.push(b'\n');
            }
        }
        i += 1;
    }
    // no newline at the very end
    out.extend_from_slice(br#"{"type":"user","message":{"role":"user","content":"last"}}"#);
    out
}

/// Moves every timestamp in the file at `path` by one span, so that its
/// newest is now: a fixture written just now as a running session writes
/// it (ccv takes a file whose newest entry is old for a copy of an old
/// session, however new the file).
pub fn as_if_written_now(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("fixture");
    let stamp = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z").expect("regex");
    let times = |t: &str| t.parse::<jiff::Timestamp>().ok();
    let Some(newest) = stamp
        .find_iter(&text)
        .filter_map(|m| times(m.as_str()))
        .max()
    else {
        return;
    };
    let shift = jiff::Timestamp::now().duration_since(newest);
    let moved = stamp.replace_all(&text, |c: &regex::Captures<'_>| {
        times(&c[0])
            .and_then(|t| t.checked_add(shift).ok())
            .map_or_else(|| c[0].to_owned(), |t| format!("{t:.3}"))
    });
    std::fs::write(path, moved.as_bytes()).expect("write");
}

/// The figures of a session priced in parts are those of it read whole:
/// its totals, what they leave out, its calls by tool and its slices by
/// model and quarter hour, prompts included (costs to a millionth of a
/// dollar: summed in another order).
pub fn same_figures_as_whole(
    parts: &ccv::model::figures::Figures,
    whole: &ccv::model::figures::Figures,
    name: &str,
) {
    let counts = |f: &ccv::model::figures::Figures| {
        let detail = f.detail.get();
        let slices: Vec<_> = detail
            .slices
            .iter()
            .map(|s| {
                (
                    s.at_ms,
                    s.model.clone(),
                    s.tokens,
                    s.cost.unpriced,
                    s.prompts,
                    s.tool_calls,
                )
            })
            .collect();
        let totals = (
            f.tokens,
            f.agent_tokens,
            f.cost.unpriced,
            f.agent_cost.unpriced,
        );
        (
            totals,
            f.prompts,
            f.tool_calls,
            detail.tools.clone(),
            slices,
        )
    };
    assert_eq!(counts(parts), counts(whole), "{name}");
    // (which a resumed copy of it is known by)
    assert_eq!(parts.first_message, whole.first_message, "{name}");
    assert!((parts.cost.usd - whole.cost.usd).abs() < 1e-6, "{name}");
    let (p, w) = (parts.detail.get(), whole.detail.get());
    for (a, b) in p.slices.iter().zip(&w.slices) {
        assert!((a.cost.usd - b.cost.usd).abs() < 1e-6, "{name}");
    }
}
