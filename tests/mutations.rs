//! No input crashes ccv: the fixture of every kind, mutated at random
//! (bytes flipped, cut, repeated, control and multi-byte characters
//! inserted, lines swapped), fed in random pieces, exported and drawn
//! expanded. Every line stays accounted for. Deterministic (fixed seeds).

use ccv::app::{Action, State, perform_action};
use ccv::export::{self, Format, Options};
use ccv::model::Session;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common;

use common::Rng;

const NASTY: &[&[u8]] = &[
    b"\x1b]2;pwned\x07",
    b"\x1b[2J",
    b"\r",
    b"\x00",
    "\u{202e}".as_bytes(),
    "\u{200b}".as_bytes(),
    "漢字👩‍💻".as_bytes(),
    b"\xc3",
    b"\\ud800",
    b"}{",
    b"\"",
    b"\n",
];

fn mutate(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(bytes.len());
        match rng.below(6) {
            0 => {
                if let Some(b) = bytes.get_mut(at) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 => {
                let end = (at + rng.below(200)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 => {
                let end = (at + rng.below(400)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            3 => {
                let n = NASTY[rng.below(NASTY.len())];
                bytes.splice(at..at, n.iter().copied());
            }
            4 => bytes.truncate(at),
            _ => {
                // swap two lines: children before parents, results before calls
                let mut lines: Vec<Vec<u8>> =
                    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(i, j);
                bytes = lines.join(&b'\n');
            }
        }
    }
    bytes
}

#[test]
fn mutated_sessions_never_crash_and_every_line_is_accounted_for() {
    // CCV_MUTATION_ROUNDS / CCV_MUTATION_SEED: a longer or another run
    let rounds: usize = std::env::var("CCV_MUTATION_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("CCV_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_cc0f_fee1_2345);
    let mut rng = Rng(seed | 1);
    let mut term = Terminal::new(TestBackend::new(90, 30)).expect("test terminal");
    let mut broken = 0;
    for round in 0..rounds {
        let bytes = mutate(&mut rng, common::fixtures().to_vec());
        broken += usize::from(check(
            &mut rng,
            &mut term,
            &bytes,
            &format!("round {round}"),
            40,
        ));
    }
    assert!(
        broken > rounds / 6,
        "the mutations break lines ({broken} of {rounds} rounds)"
    );
}

/// Real sessions, each mutated a few times.
#[test]
fn mutated_corpus_sessions_never_crash() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut rng = Rng(0x0dd_ba11_cafe);
    let mut term = Terminal::new(TestBackend::new(90, 30)).expect("test terminal");
    for path in files {
        let Ok(data) = std::fs::read(&path) else {
            continue;
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for round in 0..3 {
            let bytes = mutate(&mut rng, data.clone());
            check(&mut rng, &mut term, &bytes, &format!("{name} #{round}"), 8);
        }
    }
}

/// Feeds `bytes` in random pieces, then exports and draws the session
/// (expanded, `pages` pages); true when some line was unreadable.
fn check(
    rng: &mut Rng,
    term: &mut Terminal<TestBackend>,
    bytes: &[u8],
    what: &str,
    pages: usize,
) -> bool {
    let mut s = Session::new(None);
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + 1 + rng.below(700)).min(bytes.len());
        s.feed(0, &bytes[at..end]);
        if rng.below(3) == 0 {
            s.flush_tail(0);
        }
        at = end;
    }
    s.finish(0);
    let _ = s.take_changes();
    let st = &s.stats;
    let unreadable = st.unreadable > 0;
    assert_eq!(
        st.shown + st.hidden + st.unreadable,
        st.entries,
        "{what}: every entry is shown, hidden or unreadable"
    );
    let lines = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count() as u64;
    assert!(
        s.lines() >= lines,
        "{what}: {} lines read of {lines}",
        s.lines()
    );
    assert!(
        st.entries >= lines,
        "{what}: a line was lost ({} entries, {lines} lines)",
        st.entries
    );
    let mut out = Vec::new();
    for format in [Format::Text, Format::Markdown, Format::Json] {
        let opts = Options {
            format,
            ..Options::default()
        };
        export::export(&s, &opts, &mut out).expect("export to memory");
    }
    let text = String::from_utf8_lossy(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{what}: an escape reached an export"
    );
    let mut state = State::new(s);
    perform_action(&mut state, Action::ExpandAll);
    perform_action(&mut state, Action::ToggleMeta);
    perform_action(&mut state, Action::Top);
    for _ in 0..pages {
        term.draw(|f| crate::common::draw(f, &mut state))
            .expect("draw");
        for cell in term.backend().buffer().content() {
            assert!(
                !cell.symbol().chars().any(char::is_control),
                "{what}: control character on screen"
            );
        }
        if state.selected + 1 >= state.rows.len() {
            break;
        }
        perform_action(&mut state, Action::Toggle);
        perform_action(&mut state, Action::ShowAll);
        perform_action(&mut state, Action::PageDown);
    }
    // the info overlay: every line accounted for, nothing raw on screen
    perform_action(&mut state, Action::Info);
    term.draw(|f| crate::common::draw(f, &mut state))
        .expect("draw");
    assert!(
        term.backend()
            .buffer()
            .content()
            .iter()
            .all(|c| !c.symbol().chars().any(char::is_control)),
        "{what}: control character in the info overlay"
    );
    let st = &state.session.stats;
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries, "{what}");
    unreadable
}

/// The viewer under a random stream of follower events: appends in random
/// pieces (of mutated sessions), rewrites, reloads, deletions, subagent
/// files, stdin's end, with the keys a reader presses in between.
#[test]
fn random_live_events_never_crash_the_viewer() {
    use ccv::live::LiveEvent;
    let rounds: usize = std::env::var("CCV_MUTATION_ROUNDS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(60, |r| r / 10);
    let seed: u64 = std::env::var("CCV_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0xfeed_f00d_1234_5678);
    let mut rng = Rng(seed | 1);
    let mut term = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
    let actions = [
        Action::Up(3),
        Action::Down(2),
        Action::Toggle,
        Action::ShowAll,
        Action::ExpandAll,
        Action::CollapseAll,
        Action::Top,
        Action::Follow,
        Action::PageUp,
        Action::ToggleTools,
        Action::ToggleMeta,
        Action::NextPrompt,
        Action::Visual,
        Action::Copy,
        Action::Info,
        Action::NextMatch,
        Action::PrevMatch,
    ];
    // words of the fixtures, searched for in half of the rounds
    let queries = ["the", "error", "file", "\"a b\"", "Read"];
    for round in 0..rounds {
        let mut s = State::new(Session::new(Some("/tmp/x.jsonl".into())));
        s.live.attached = true;
        let query = (rng.below(2) == 0).then(|| queries[rng.below(queries.len())].to_owned());
        if let Some(q) = &query {
            s.begin_search(q.clone());
        }
        let bytes = mutate(&mut rng, common::fixtures().to_vec());
        let mut at = 0;
        let mut agents = 0u16;
        let mut stdin_ended = false;
        for step in 0..200 {
            let ev = match rng.below(20) {
                0 => LiveEvent::Truncated { source: 0 },
                1 => LiveEvent::Reloaded,
                2 => LiveEvent::Deleted { source: 0 },
                3 => {
                    agents += 1;
                    LiveEvent::NewSubagent {
                        source: (s.session.sources.len()) as u16,
                        path: format!("/tmp/x/subagents/agent-a{agents}.jsonl").into(),
                        agent_id: format!("a{agents}"),
                        // now and then a meta file naming a call, which
                        // may be anywhere or nowhere
                        meta: agents
                            .is_multiple_of(2)
                            .then(|| ccv::model::agents::AgentMeta {
                                agent_type: Some("worker".into()),
                                description: Some(format!("job {agents}")),
                                call: Some(format!("toolu_{}", rng.below(4))),
                            }),
                    }
                }
                4 => LiveEvent::Appended {
                    source: rng.below(s.session.sources.len() + 1) as u16,
                    bytes: common::fixtures()[..rng.below(common::fixtures().len())].to_vec(),
                },
                5 => LiveEvent::StdinEof,
                6 => LiveEvent::Replaced { source: 0 },
                _ => {
                    if at >= bytes.len() {
                        at = 0;
                    }
                    let end = (at + 1 + rng.below(900)).min(bytes.len());
                    let ev = LiveEvent::Appended {
                        source: 0,
                        bytes: bytes[at..end].to_vec(),
                    };
                    at = end;
                    ev
                }
            };
            stdin_ended |= matches!(ev, LiveEvent::StdinEof);
            s.on_live(&ev);
            if rng.below(2) == 0 {
                s.absorb();
                perform_action(&mut s, actions[rng.below(actions.len())].clone());
                s.requests.clear();
                term.draw(|f| crate::common::draw(f, &mut s))
                    .unwrap_or_else(|e| panic!("round {round} step {step}: {e}"));
                if rng.below(4) == 0 {
                    // lines kept from frame to frame = lines rendered afresh
                    let kept = term.backend().buffer().clone();
                    crate::common::forget_lines();
                    term.draw(|f| crate::common::draw(f, &mut s))
                        .unwrap_or_else(|e| panic!("round {round} step {step}: {e}"));
                    assert_eq!(
                        &kept,
                        term.backend().buffer(),
                        "round {round} step {step}: screen drifted"
                    );
                }
                // the search going on between frames, as the viewer's loop
                // steps it
                s.search_step(std::time::Duration::ZERO);
                if !s.live.reloading() && rng.below(4) == 0 {
                    // rows kept up to date piecemeal = rows derived afresh
                    let kept = s.rows.clone();
                    s.rebuild();
                    assert_eq!(kept, s.rows, "round {round} step {step}: rows drifted");
                }
                // (after standard input's end nothing comes in real life:
                // a line cut by it, then carried on, makes two rows)
                if !s.live.reloading() && !stdin_ended {
                    assert_eq!(
                        s.session.marks(),
                        &s.session.marks_from_scratch(),
                        "round {round} step {step}: marks drifted"
                    );
                }
                // and so are a search's matches, once it is done
                let done = s.search.job.is_none() && !s.live.reloading();
                if let Some(q) = query.as_deref().filter(|_| done) {
                    let found = ccv::app::search::find_all(&s.session, q);
                    assert_eq!(
                        s.search.hits, found,
                        "round {round} step {step}: matches of {q} drifted"
                    );
                }
            }
        }
    }
}
