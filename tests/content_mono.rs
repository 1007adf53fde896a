//! Under NO_COLOR (the mono theme) renderers draw no colour at all.

use ccv::source::claude::raw::Hunk;
use ccv::view::content::{ansi, code, diff, markdown};
use ccv::view::theme;
use ratatui::style::Modifier;
use ratatui::text::Line;

fn no_colour(lines: &[Line<'_>]) {
    for s in lines.iter().flat_map(|l| &l.spans) {
        assert!(
            s.style.fg.is_none() && s.style.bg.is_none(),
            "coloured span {s:?}"
        );
    }
}

#[test]
fn mono_theme_draws_without_colour() {
    if alone!(&[]) {
        return;
    }
    theme::init(false);
    assert!(!theme::current().color);

    let out = ansi("\x1b[1;4;31mbad\x1b[0m \x1b[48;5;17mbg", 40, false);
    no_colour(&out);
    let bad = &out[0].spans[0];
    assert_eq!(bad.content, "bad");
    assert!(
        bad.style
            .add_modifier
            .contains(Modifier::BOLD | Modifier::UNDERLINED)
    );

    no_colour(&code("fn main() { let x = \"s\"; }", "rust", Some(1), 40));
    no_colour(&markdown(
        "# T\n\n`c` [l](http://x) > q\n\n```rust\nlet x = 1;\n```",
        40,
    ));
    let hunk = Hunk {
        old_start: 1,
        old_lines: 1,
        new_start: 1,
        new_lines: 1,
        lines: ["-let a = 1;", "+let a = 2;"].into_iter().collect(),
    };
    let d = diff(&[hunk], "a.rs", 40);
    no_colour(&d);
    // added lines stay distinguishable without colour
    assert!(
        d[2].spans
            .iter()
            .any(|s| s.style.add_modifier.contains(Modifier::BOLD))
    );
}
