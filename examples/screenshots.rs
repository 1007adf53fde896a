//! Renders the demo session's main screens to SVG files in screenshots/,
//! at 110 columns and, for the main view, at 50, 80 and 160 (half a tmux
//! split, a tmux split and a wide terminal): `cargo run --example screenshots`; the light theme's
//! with `cargo run --example screenshots -- --light` (one theme a process).

use ccv::app::{Action, State, perform_action};
use ccv::rows::RowKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;

type Setup = fn(&mut State);

const W: u16 = 110;
const H: u16 = 34;

fn main() -> anyhow::Result<()> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/screenshots");
    std::fs::create_dir_all(dir)?;
    let light = std::env::args().any(|a| a == "--light");
    if light {
        ccv::view::theme::install(ccv::view::theme::Theme::light());
    }
    let shots: [(&str, Setup, u16, u16); 9] = [
        ("main", |_| {}, W, H),
        ("main-50", |_| {}, 50, 30),
        ("main-80", |_| {}, 80, 24),
        ("main-160", |_| {}, 160, 40),
        (
            "expanded-group-80",
            |s| {
                open_group(s, 1);
                perform_action(s, Action::Down(1));
                perform_action(s, Action::Toggle);
            },
            80,
            30,
        ),
        (
            "expanded-group",
            |s| {
                open_group(s, 1);
                perform_action(s, Action::Down(1));
                perform_action(s, Action::Toggle);
            },
            W,
            H,
        ),
        (
            "search",
            |s| {
                perform_action(s, Action::SearchStart);
                for c in "reused".chars() {
                    perform_action(s, Action::PromptInput(c));
                }
                perform_action(s, Action::PromptSubmit);
            },
            W,
            H,
        ),
        ("help", |s| perform_action(s, Action::Help), W, H),
        ("info", |s| perform_action(s, Action::Info), W, H),
    ];
    let light_shots = ["main", "expanded-group"];
    for (name, setup, w, h) in shots {
        if light && !light_shots.contains(&name) {
            continue;
        }
        let name = if light {
            format!("{name}-light")
        } else {
            name.to_owned()
        };
        let mut s = State::new(ccv::app::demo::session());
        s.tz = jiff::tz::TimeZone::UTC;
        setup(&mut s);
        let mut t = Terminal::new(TestBackend::new(w, h))?;
        let mut list = ccv::view::ListView::default();
        t.draw(|f| ccv::view::draw(f, &mut s, &mut list))?;
        let path = format!("{dir}/{name}.svg");
        let (fg, bg) = if light { LIGHT } else { DARK };
        std::fs::write(&path, to_svg(t.backend().buffer(), fg, bg))?;
        println!("{path}");
    }
    if !light {
        // a Codex CLI session, its tool group open
        let mut session = ccv::model::Session::new(None);
        session.feed(0, include_bytes!("../assets/demo-codex.jsonl"));
        session.finish(0);
        let _ = session.take_changes();
        let mut s = State::new(session);
        s.tz = jiff::tz::TimeZone::UTC;
        open_group(&mut s, 0);
        let mut t = Terminal::new(TestBackend::new(W, 30))?;
        let mut list = ccv::view::ListView::default();
        t.draw(|f| ccv::view::draw(f, &mut s, &mut list))?;
        let path = format!("{dir}/codex.svg");
        std::fs::write(&path, to_svg(t.backend().buffer(), DARK.0, DARK.1))?;
        println!("{path}");
        let mut t = Terminal::new(TestBackend::new(140, 12))?;
        let top = overview();
        t.draw(|f| ccv::top::draw(f, f.area(), &top))?;
        let path = format!("{dir}/top.svg");
        std::fs::write(&path, to_svg(t.backend().buffer(), DARK.0, DARK.1))?;
        println!("{path}");
    }
    Ok(())
}

/// `ccv top` over four made-up sessions, one in each state worth seeing.
fn overview() -> ccv::top::TopState {
    use ccv::top::{TopEvent, TopState};
    use serde_json::json;
    let now = 1_767_261_600_000_i64;
    let iso = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .map(|t| t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
            .unwrap_or_default()
    };
    let mut top = TopState::new("/p".into(), 30 * 60_000, now);
    top.apply(TopEvent::Scanned);
    let prompt = |cwd: &str, text: &str, ago: i64| json!({"type":"user","uuid":"u1","sessionId":"s","cwd":cwd,"timestamp":iso(now - ago),"message":{"role":"user","content":text}});
    let call = |name: &str, input: serde_json::Value, ago: i64| json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":iso(now - ago),"message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":name,"input":input}],"usage":{"input_tokens":1200,"output_tokens":800,"cache_read_input_tokens":90000}}});
    let end = |ago: i64| json!({"type":"system","subtype":"turn_duration","durationMs":9000,"uuid":"s1","parentUuid":"a1","sessionId":"s","timestamp":iso(now - ago)});
    let sessions = [
        (
            "/p/a/1.jsonl",
            vec![
                prompt(
                    "/home/ada/src/tinyhttp",
                    "Fix the flaky keep-alive test",
                    200_000,
                ),
                call(
                    "Bash",
                    json!({"command":"cargo test --test keepalive"}),
                    12_000,
                ),
            ],
        ),
        (
            "/p/b/2.jsonl",
            vec![
                prompt(
                    "/home/ada/src/web",
                    "Add dark mode to the settings page",
                    400_000,
                ),
                call(
                    "Edit",
                    json!({"file_path":"/home/ada/src/web/src/theme.ts","old_string":"a","new_string":"b"}),
                    300_000,
                ),
                end(95_000),
            ],
        ),
        (
            "/p/c/3.jsonl",
            vec![
                prompt(
                    "/home/ada/src/infra",
                    "Rotate the staging certificates",
                    600_000,
                ),
                call("Bash", json!({"command":"terraform apply"}), 240_000),
            ],
        ),
        (
            "/p/d/4.jsonl",
            vec![prompt(
                "/home/ada/src/docs",
                "Proofread the install guide",
                30_000,
            )],
        ),
    ];
    for (path, lines) in sessions {
        let path = std::path::PathBuf::from(path);
        top.apply(TopEvent::Candidate {
            path: path.clone(),
            mtime_ms: now,
        });
        for l in lines {
            let event = ccv::live::LiveEvent::Appended {
                source: 0,
                bytes: format!("{l}\n").into_bytes(),
            };
            top.apply(TopEvent::Live {
                path: path.clone(),
                event,
            });
        }
    }
    // the files were written when their last lines were
    for w in top.rows.iter_mut() {
        let ago = match w.path.to_str() {
            Some("/p/a/1.jsonl") => 12_000,
            Some("/p/b/2.jsonl") => 95_000,
            Some("/p/c/3.jsonl") => 240_000,
            _ => 30_000,
        };
        w.last_write_ms = now - ago;
    }
    let _ = top.tick(now);
    top
}

fn open_group(s: &mut State, nth: usize) {
    let g = s
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.kind, RowKind::Group { .. }))
        .nth(nth)
        .map(|x| x.0);
    perform_action(s, Action::Top);
    perform_action(s, Action::Down(g.unwrap_or(0)));
    perform_action(s, Action::Toggle);
}

/// The terminal's own foreground and background behind each theme.
const DARK: (&str, &str) = ("#d7dae0", "#1e2127");
const LIGHT: (&str, &str) = ("#383a42", "#fafafa");

fn color(c: Color, default: &str) -> String {
    match c {
        Color::Reset => default.into(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Black => "#000000".into(),
        Color::Red | Color::LightRed => "#e06c75".into(),
        Color::Green | Color::LightGreen => "#98c379".into(),
        Color::Yellow | Color::LightYellow => "#e5c07b".into(),
        Color::Blue | Color::LightBlue => "#61afef".into(),
        Color::Magenta | Color::LightMagenta => "#c678dd".into(),
        Color::Cyan | Color::LightCyan => "#56b6c2".into(),
        Color::Gray => "#abb2bf".into(),
        Color::DarkGray => "#5c6370".into(),
        Color::White => "#ffffff".into(),
        Color::Indexed(_) => default.into(),
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One `<text>` per screen line, one `<tspan>` per run of equally styled
/// cells; backgrounds as `<rect>`s.
#[allow(non_snake_case)]
fn to_svg(buf: &Buffer, FG: &str, BG: &str) -> String {
    let (cw, ch) = (8.4f32, 17.0f32);
    let (w, h) = (buf.area.width, buf.area.height);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="ui-monospace,Menlo,Consolas,monospace" font-size="14px"><rect width="100%" height="100%" fill="{BG}"/>"#,
        w as f32 * cw,
        h as f32 * ch
    );
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let cell = &buf[(x, y)];
            let bg = color(cell.bg, BG);
            let mut run = 1;
            while x + run < w && color(buf[(x + run, y)].bg, BG) == bg {
                run += 1;
            }
            if bg != BG {
                let _ = write!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{ch}" fill="{bg}"/>"#,
                    x as f32 * cw,
                    y as f32 * ch,
                    run as f32 * cw
                );
            }
            x += run;
        }
        let _ = write!(
            out,
            r#"<text y="{}" xml:space="preserve">"#,
            y as f32 * ch + 13.0
        );
        let mut x = 0;
        while x < w {
            let cell = &buf[(x, y)];
            let key = (cell.fg, cell.modifier);
            let mut text = String::new();
            let start = x;
            while x < w && (buf[(x, y)].fg, buf[(x, y)].modifier) == key {
                text.push_str(buf[(x, y)].symbol());
                x += 1;
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut attrs = format!(r#"x="{}" fill="{}""#, start as f32 * cw, color(key.0, FG));
            if key.1.contains(Modifier::BOLD) {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if key.1.contains(Modifier::ITALIC) {
                attrs.push_str(r#" font-style="italic""#);
            }
            if key.1.contains(Modifier::DIM) {
                attrs.push_str(r#" opacity="0.6""#);
            }
            let _ = write!(out, "<tspan {attrs}>{}</tspan>", esc(&text));
        }
        out.push_str("</text>");
    }
    out.push_str("</svg>\n");
    out
}
