//! Live follow through the real follower thread, on temp files.
//! Waits are generous (a loaded CI machine); no elapsed time is asserted.

use crate::common;
use crate::common::entry;

use ccv::live::{self, Applied, FollowSpec, Follower, LiveEvent};
use ccv::model::Session;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(10);

/// Four lines: a prompt with a multibyte char and emoji, an assistant reply
/// in CJK, a tool call and its result.
const FIXTURE: &str = concat!(
    r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"héllo 🎉 wörld"}}"#,
    "\n",
    r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"x","content":[{"type":"text","text":"你好，世界"}]}}"#,
    "\n",
    r#"{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T00:00:02.000Z","message":{"id":"m1","role":"assistant","model":"x","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
    "\n",
    r#"{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"s","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok ✓"}]}}"#,
    "\n",
);

fn line(uuid: &str, text: &str) -> String {
    entry::user(uuid, text)
        .root()
        .session("s")
        .at("2025-01-01T00:00:00.000Z")
        .line_nl()
}

fn summary(s: &Session) -> Vec<(String, Option<String>, String)> {
    s.main
        .items
        .iter()
        .map(|i| {
            (
                i.kind.as_str().to_owned(),
                i.uuid.as_deref().map(str::to_owned),
                i.text.or_marker().to_owned(),
            )
        })
        .collect()
}

fn one_shot(bytes: &[u8]) -> Session {
    let mut s = Session::new(None);
    s.feed(0, bytes);
    s.finish(0);
    s
}

fn append(path: &Path, bytes: &[u8]) {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open for append");
    f.write_all(bytes).expect("append");
}

struct Live {
    session: Session,
    rx: Receiver<LiveEvent>,
    applied: Vec<Applied>,
    _follower: Follower,
}

impl Live {
    fn start(spec: FollowSpec, session: Session) -> Live {
        let (tx, rx) = channel();
        let follower = live::spawn(spec, move |ev| tx.send(ev).is_ok()).expect("spawn follower");
        Live {
            session,
            rx,
            applied: Vec::new(),
            _follower: follower,
        }
    }

    fn file(path: &Path, poll: bool) -> Live {
        let spec = FollowSpec::new(path.to_owned()).force_poll(poll);
        Live::start(spec, Session::new(Some(path.to_owned())))
    }

    /// Applies events until `done` holds, or panics after `WAIT`.
    fn until(&mut self, what: &str, mut done: impl FnMut(&Live) -> bool) {
        let deadline = Instant::now() + WAIT;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "timed out waiting for {what}; have {:?}",
                summary(&self.session)
            );
            if let Ok(ev) = self.rx.recv_timeout(left.min(Duration::from_millis(100))) {
                let a = live::apply(&mut self.session, &ev);
                self.session.take_changes();
                self.applied.push(a);
            }
        }
    }

    fn read(&self) -> u64 {
        self.session.sources.first().map_or(0, |s| s.bytes_read())
    }
}

/// The fixture with its ids made unique per copy (same length for all).
fn copy_of_fixture(n: usize) -> String {
    let mut s = FIXTURE.to_owned();
    for id in ["u1", "u2", "a1", "a2", "m1", "t1"] {
        s = s.replace(&format!("\"{id}\""), &format!("\"{id}-{n:04}\""));
    }
    s
}

#[test]
fn every_split_point_reads_like_a_one_shot_load() {
    assert_eq!(
        summary(&one_shot(FIXTURE.as_bytes())).len(),
        3,
        "the result pairs with its call"
    );
    // one follower (one inotify instance) for all the splits: a copy of the
    // fixture per split point, written in two appends cut at that byte
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, b"");
    let mut l = Live::file(&path, false);
    let mut whole = String::new();
    for cut in 0..=FIXTURE.len() {
        let copy = copy_of_fixture(cut);
        let bytes = copy.as_bytes();
        let base = whole.len() as u64;
        append(&path, &bytes[..cut]);
        l.until("the first part", |l| l.read() == base + cut as u64);
        append(&path, &bytes[cut..]);
        l.until("the second part", |l| l.read() == base + bytes.len() as u64);
        whole.push_str(&copy);
        // copies share no ids: each reads as it would alone
        let want = summary(&one_shot(bytes));
        let have = summary(&l.session);
        assert_eq!(
            have.get(have.len().saturating_sub(want.len())..),
            Some(&want[..]),
            "split at byte {cut}"
        );
        assert_eq!(have.len(), want.len() * (cut + 1));
    }
    assert_eq!(summary(&l.session), summary(&one_shot(whole.as_bytes())));
    assert!(FIXTURE.len() > 500 && !FIXTURE.is_ascii());
}

#[test]
fn polling_alone_follows_appends_and_rewrites() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, line("p1", "one").as_bytes());
    let mut l = Live::file(&path, true);
    l.until("the first line", |l| l.session.main.items.len() == 1);
    // split mid-line, then finish it
    let two = line("p2", "twö");
    append(&path, &two.as_bytes()[..20]);
    append(&path, &two.as_bytes()[20..]);
    l.until("the second line", |l| l.session.main.items.len() == 2);
    std::fs::write(&path, line("p3", "fresh")).expect("rewrite");
    l.until("the rewrite", |l| {
        summary(&l.session)
            .iter()
            .map(|r| r.1.as_deref())
            .eq([Some("p3")])
    });
    assert!(l.applied.iter().any(|a| matches!(a, Applied::Reset { .. })));
}

#[test]
fn truncation_reloads_and_keeps_an_anchor() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, (line("k1", "a") + &line("k2", "b")).as_bytes());
    let mut l = Live::file(&path, false);
    l.until("two lines", |l| l.session.main.items.len() == 2);
    // same start, shorter: a rewrite that drops the last line
    let f = OpenOptions::new().write(true).open(&path).expect("open");
    f.set_len(line("k1", "a").len() as u64).expect("truncate");
    drop(f);
    l.until("the reset", |l| {
        l.applied.iter().any(|a| matches!(a, Applied::Reset { .. }))
    });
    l.until("the reload", |l| {
        l.session.main.items.len() == 1 && l.read() == line("k1", "a").len() as u64
    });
    let anchor = l.applied.iter().find_map(|a| match a {
        Applied::Reset { anchor, .. } => anchor.clone(),
        _ => None,
    });
    let anchor = anchor.expect("an anchor to the last item");
    assert_eq!(anchor.uuid.as_deref(), Some("k2"));
    l.until("the end of the reload", |l| {
        l.applied.contains(&Applied::Reloaded)
    });
    assert_eq!(anchor.find(&l.session), None, "k2 was cut off");
    // appending again continues after the rewrite
    append(&path, line("k3", "c").as_bytes());
    l.until("the new line", |l| l.session.main.items.len() == 2);
    assert_eq!(summary(&l.session)[1].1.as_deref(), Some("k3"));
}

#[test]
fn replacement_by_rename_reloads_the_new_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, line("r1", "old").as_bytes());
    let mut l = Live::file(&path, false);
    l.until("the old file", |l| l.session.main.items.len() == 1);
    let tmp = dir.path().join("s.tmp");
    std::fs::write(&tmp, line("r2", "new") + &line("r3", "newer")).expect("write new");
    std::fs::rename(&tmp, &path).expect("rename over");
    l.until("the new file", |l| {
        summary(&l.session)
            .iter()
            .map(|r| r.1.clone())
            .eq([Some("r2".into()), Some("r3".into())])
    });
    assert!(l.applied.iter().any(|a| matches!(a, Applied::Reset { .. })));
}

#[test]
fn deletion_keeps_what_was_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, line("d1", "x").as_bytes());
    let mut l = Live::file(&path, false);
    l.until("the line", |l| l.session.main.items.len() == 1);
    std::fs::remove_file(&path).expect("delete");
    l.until("the deletion", |l| {
        l.applied
            .iter()
            .any(|a| matches!(a, Applied::Status(m) if m.contains("deleted")))
    });
    assert_eq!(l.session.main.items.len(), 1);
}

#[test]
fn a_newer_session_in_the_project_dir_is_reported() {
    newer_session_case(false);
}

#[test]
fn a_newer_session_is_reported_when_polling() {
    newer_session_case(true);
}

fn newer_session_case(poll: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = dir.path().join("aaaa.jsonl");
    let cur = dir.path().join("bbbb.jsonl");
    append(&old, line("o1", "older").as_bytes());
    append(&cur, line("c1", "current").as_bytes());
    append(
        &dir.path().join("agent-zzz.jsonl"),
        line("z", "agent").as_bytes(),
    );
    for (p, age) in [(&old, 100), (&cur, 50)] {
        let f = OpenOptions::new().write(true).open(p).expect("open");
        f.set_modified(std::time::SystemTime::now() - Duration::from_secs(age))
            .expect("set mtime");
    }
    let newest = live::newest_session(dir.path()).expect("a session");
    assert_eq!(newest, cur);
    let spec = FollowSpec::new(newest.clone())
        .project(true)
        .force_poll(poll);
    let mut l = Live::start(spec, Session::new(Some(newest)));
    l.until("the current session", |l| l.session.main.items.len() == 1);
    let fresh: PathBuf = dir.path().join("cccc.jsonl");
    append(&fresh, line("n1", "after /clear").as_bytes());
    l.until("the new session", |l| {
        l.applied.contains(&Applied::NewSession(fresh.clone()))
    });
    assert_eq!(live::newest_session(dir.path()), Some(fresh));
}

#[test]
fn a_subagent_file_appearing_is_followed() {
    subagent_case(false);
}

#[test]
fn a_subagent_file_appearing_is_followed_when_polling() {
    subagent_case(true);
}

fn subagent_case(poll: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sess.jsonl");
    append(&path, line("m1", "main").as_bytes());
    let mut l = Live::file(&path, poll);
    l.until("the main line", |l| l.session.main.items.len() == 1);
    let sub = dir.path().join("sess").join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let agent = sub.join("agent-abc.jsonl");
    append(&agent, line("s1", "sub work").as_bytes());
    l.until("the subagent", |l| {
        l.session
            .agent_by_id("abc")
            .is_some_and(|a| l.session.transcript(Some(a)).items.len() == 1)
    });
    append(&agent, line("s2", "more").as_bytes());
    l.until("more subagent", |l| {
        l.session
            .agent_by_id("abc")
            .is_some_and(|a| l.session.transcript(Some(a)).items.len() == 2)
    });
    // a Workflow run started later: its folder made, then its agents'
    // transcripts in it, then its journal (no transcript)
    // (the runs' folder made first, empty, and watched as such)
    std::fs::create_dir_all(sub.join("workflows")).expect("mkdir");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let run = sub.join("workflows").join("wf_1");
    std::fs::create_dir_all(&run).expect("mkdir");
    let worker = run.join("agent-w1.jsonl");
    std::fs::write(
        run.join("agent-w1.meta.json"),
        r#"{"agentType":"worker","description":"Sweep batch a"}"#,
    )
    .expect("meta");
    append(&worker, line("w1", "run work").as_bytes());
    append(&run.join("journal.jsonl"), b"{\"type\":\"started\"}\n");
    l.until("the run's agent", |l| {
        l.session
            .agent_by_id("w1")
            .is_some_and(|a| l.session.transcript(Some(a)).items.len() == 1)
    });
    append(&worker, line("w2", "more run work").as_bytes());
    l.until("more of the run's agent", |l| {
        l.session
            .agent_by_id("w1")
            .is_some_and(|a| l.session.transcript(Some(a)).items.len() == 2)
    });
    assert_eq!(l.session.agents.len(), 2, "the journal is no agent");
    let w1 = &l.session.agents[l.session.agent_by_id("w1").expect("w1") as usize];
    assert_eq!(
        w1.description.as_deref(),
        Some("Sweep batch a"),
        "its meta file read"
    );
}

#[test]
fn continuing_a_loaded_session_reads_only_the_new_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, FIXTURE).expect("write");
    let session = ccv::source::claude::loader::load_with_subagents(&path).expect("load");
    let spec = FollowSpec::from_session(&session);
    let mut l = Live::start(spec, session);
    append(&path, line("n1", "new").as_bytes());
    l.until("the appended line", |l| l.session.main.items.len() == 4);
    let mut whole = FIXTURE.to_owned();
    whole.push_str(&line("n1", "new"));
    assert_eq!(summary(&l.session), summary(&one_shot(whole.as_bytes())));
}

#[test]
fn stdin_streams_until_eof() {
    // a Read fed from a channel, like a pipe that gets bytes over time
    struct ChanRead(Receiver<Vec<u8>>, Vec<u8>);
    impl std::io::Read for ChanRead {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(b) => self.1 = b,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }
    let (wtx, wrx) = channel::<Vec<u8>>();
    let (tx, rx) = channel();
    let handle = live::spawn_reader(ChanRead(wrx, Vec::new()), move |ev| tx.send(ev).is_ok())
        .expect("spawn");
    let mut session = Session::new(None);
    let bytes = FIXTURE.as_bytes();
    // split inside the emoji of the first line
    let cut = FIXTURE.find('🎉').expect("emoji") + 2;
    wtx.send(bytes[..cut].to_vec()).expect("send");
    wtx.send(bytes[cut..].to_vec()).expect("send");
    wtx.send(
        b"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"no newline\"}}".to_vec(),
    )
    .expect("send");
    drop(wtx);
    let mut ended = false;
    while !ended {
        let ev = rx.recv_timeout(WAIT).expect("an event");
        ended = live::apply(&mut session, &ev) == Applied::Ended;
    }
    handle.join().expect("reader thread ends");
    let mut want = summary(&one_shot(bytes));
    want.push(("user".into(), None, "no newline".into()));
    assert_eq!(summary(&session), want);
}

#[test]
fn dropping_the_follower_or_the_receiver_ends_the_thread() {
    use std::sync::Arc;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    append(&path, line("x", "x").as_bytes());
    for drop_follower in [true, false] {
        let token = Arc::new(());
        let held = token.clone();
        let (tx, rx) = channel();
        let f = live::spawn(FollowSpec::new(path.clone()), move |ev| {
            let _ = &held;
            tx.send(ev).is_ok()
        })
        .expect("spawn");
        rx.recv_timeout(WAIT).expect("first event");
        if drop_follower {
            drop(f);
            drop(rx);
        } else {
            drop(rx);
            append(&path, line("y", "y").as_bytes()); // the next send fails
            std::mem::forget(f);
        }
        let deadline = Instant::now() + WAIT;
        while Arc::strong_count(&token) > 1 {
            assert!(Instant::now() < deadline, "the follower thread did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn a_relative_path_is_followed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rel.jsonl");
    append(&path, line("q1", "one").as_bytes());
    let Ok(cwd) = std::env::current_dir() else {
        return;
    };
    let Some(rel) = pathdiff(&path, &cwd) else {
        eprintln!(
            "skipping: no relative path from {} to the temp dir",
            cwd.display()
        );
        return;
    };
    let mut l = Live::file(&rel, false);
    l.until("the first line", |l| l.session.main.items.len() == 1);
    append(&path, line("q2", "two").as_bytes());
    l.until("the second line", |l| l.session.main.items.len() == 2);
}

/// `path` relative to `base` (both absolute), through `..` components.
fn pathdiff(path: &Path, base: &Path) -> Option<PathBuf> {
    let (p, b): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    Some(out)
}

#[cfg(unix)]
#[test]
fn stdin_from_a_real_pipe() {
    use std::process::{Command, Stdio};
    let script = format!(
        "printf '%s' '{}'; sleep 0.2; printf '%s\\n' '{}'",
        line("p1", "first").trim_end(),
        "",
    );
    let Ok(mut child) = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .envs(common::outside_home())
        .stdout(Stdio::piped())
        .spawn()
    else {
        eprintln!("skipping: no sh");
        return;
    };
    let Some(out) = child.stdout.take() else {
        return;
    };
    let (tx, rx) = channel();
    live::spawn_reader(out, move |ev| tx.send(ev).is_ok()).expect("spawn");
    let mut session = Session::new(None);
    let mut ended = false;
    let mut first_seen_before_eof = false;
    while !ended {
        let ev = rx.recv_timeout(WAIT).expect("an event");
        ended = live::apply(&mut session, &ev) == Applied::Ended;
        // the line is complete JSON before its newline comes: shown at once
        first_seen_before_eof |= !ended && session.main.items.len() == 1;
    }
    let _ = child.wait();
    assert!(first_seen_before_eof);
    assert_eq!(session.main.items.len(), 1);
}

#[test]
fn a_file_loaded_mid_line_is_completed_by_the_follower() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let whole = line("m1", "first") + &line("m2", "being written");
    let cut = whole.len() - 10;
    append(&path, &whole.as_bytes()[..cut]);
    let session = ccv::source::claude::loader::load_to_follow(&path).expect("load");
    assert_eq!(session.main.items.len(), 1, "the unfinished line waits");
    assert_eq!(session.stats.unreadable, 0);
    let mut l = Live::start(FollowSpec::from_session(&session), session);
    append(&path, &whole.as_bytes()[cut..]);
    l.until("the rest of the line", |l| l.session.main.items.len() == 2);
    assert_eq!(l.session.stats.unreadable, 0);
    assert_eq!(summary(&l.session), summary(&one_shot(whole.as_bytes())));
}

/// Listing `<session>/subagents/` or opening a file there raises access
/// events on the watched directory; the follower must not take them for
/// changes (it used to rescan thousands of times a second, idle).
#[test]
fn idle_follower_with_a_subagents_folder_does_not_wake_itself() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s1.jsonl");
    std::fs::write(&path, FIXTURE).expect("write");
    let sub = dir.path().join("s1").join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    std::fs::write(sub.join("agent-a1.jsonl"), line("x1", "sub")).expect("write");
    for project in [false, true] {
        let spec = FollowSpec::new(path.clone())
            .force_poll(false)
            .project(project);
        let live = Live::start(spec, Session::new(Some(path.clone())));
        std::thread::sleep(Duration::from_millis(400));
        let before = live._follower.scans();
        std::thread::sleep(Duration::from_millis(1500));
        let woke = live._follower.scans() - before;
        // the safety check runs every 0.5 s, 1 s, 2 s...: at most a couple
        assert!(woke <= 3, "project={project}: {woke} scans while idle");
    }
}

/// A followed path replaced by a symlink to /dev/zero (or a FIFO) is not
/// read: reading it would never end and freeze the viewer.
#[cfg(unix)]
#[test]
fn a_path_turned_into_a_device_is_not_read() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    for poll in [false, true] {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, FIXTURE).expect("write");
        let mut live = Live::file(&path, poll);
        live.until("the fixture", |l| l.read() == FIXTURE.len() as u64);
        let before = live.read();
        std::fs::remove_file(&path).expect("rm");
        std::os::unix::fs::symlink("/dev/zero", &path).expect("symlink");
        let mut said = false;
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline && !said {
            if let Ok(ev) = live.rx.recv_timeout(Duration::from_millis(100)) {
                said |= matches!(&ev, LiveEvent::Error(m) if m.contains("not followed"));
                assert!(
                    !matches!(ev, LiveEvent::Appended { .. }),
                    "poll={poll}: bytes of /dev/zero were read"
                );
            }
        }
        assert!(said, "poll={poll}: the status says why");
        std::thread::sleep(Duration::from_millis(700));
        while let Ok(ev) = live.rx.try_recv() {
            assert!(!matches!(ev, LiveEvent::Appended { .. }), "poll={poll}");
        }
        assert_eq!(live.read(), before);
    }
}
