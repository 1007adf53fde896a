//! Shapes of rendered markdown, as text (styles are checked separately).

use ccv::view::content::{display_width, markdown};
use ratatui::style::Modifier;
use ratatui::text::Line;

fn text(lines: &[Line<'_>]) -> String {
    lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_fits(lines: &[Line<'_>], width: usize) {
    for l in lines {
        let w: usize = l.spans.iter().map(|s| display_width(&s.content)).sum();
        assert!(w <= width, "line wider than {width}: {l:?}");
    }
}

#[test]
fn headings_paragraphs_and_emphasis() {
    let md = "# Title\n\nSome *italic* and **bold** and ~~gone~~ and `code` text that wraps here.\n\n## Sub\n\n---\nend";
    let out = markdown(md, 30);
    assert_fits(&out, 30);
    insta::assert_snapshot!(text(&out), @r"
    # Title

    Some italic and bold and gone
    and code text that wraps here.

    ## Sub

    ──────────────────────────────

    end
    ");
    let spans: Vec<_> = out.iter().flat_map(|l| l.spans.iter()).collect();
    let find = |s: &str| {
        spans
            .iter()
            .find(|sp| sp.content.contains(s))
            .map(|sp| sp.style)
    };
    assert!(
        find("italic")
            .unwrap()
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    assert!(find("bold").unwrap().add_modifier.contains(Modifier::BOLD));
    assert!(
        find("gone")
            .unwrap()
            .add_modifier
            .contains(Modifier::CROSSED_OUT)
    );
}

#[test]
fn lists_hang_and_nest() {
    let md = "- first item that is long enough to wrap\n- second\n  - nested one\n  - nested two\n- third\n\n1. one\n2. two that also wraps around\n\n- [ ] todo\n- [x] done";
    let out = markdown(md, 24);
    assert_fits(&out, 24);
    insta::assert_snapshot!(text(&out), @r"
    • first item that is
      long enough to wrap
    • second
      ◦ nested one
      ◦ nested two
    • third

    1. one
    2. two that also wraps
       around

    • [ ] todo
    • [x] done
    ");
}

#[test]
fn quotes_and_links() {
    let md = "> quoted text that wraps over lines\n> > nested\n\nSee [the docs](https://example.com/docs) or <https://x.io>.";
    let out = markdown(md, 22);
    assert_fits(&out, 22);
    insta::assert_snapshot!(text(&out), @r"
    │ quoted text that
    │ wraps over lines
    │
    │ │ nested

    See the docs (https://
    example.com/docs) or
    https://x.io.
    ");
}

#[test]
fn fenced_code_gets_a_frame() {
    let md = "Look:\n\n```rust\nfn main() {\n\tprintln!(\"hi\");\n}\n```\n\nAfter.";
    let out = markdown(md, 30);
    assert_fits(&out, 30);
    insta::assert_snapshot!(text(&out), @r#"
    Look:

    ┌ rust ───────────────────────
    │ fn main() {
    │     println!("hi");
    │ }
    └─────────────────────────────

    After.
    "#);
}

#[test]
fn tables_are_boxed_and_fitted() {
    let md = "| Name | Size | Notes |\n|:-----|-----:|:-----:|\n| a.rs | 12 | short |\n| 日本語.rs | 3400 | a much longer note that will not fit |";
    let wide = markdown(md, 80);
    assert_fits(&wide, 80);
    insta::assert_snapshot!(text(&wide), @r"
    ┌───────────┬──────┬──────────────────────────────────────┐
    │ Name      │ Size │                Notes                 │
    ├───────────┼──────┼──────────────────────────────────────┤
    │ a.rs      │   12 │                short                 │
    │ 日本語.rs │ 3400 │ a much longer note that will not fit │
    └───────────┴──────┴──────────────────────────────────────┘
    ");
    let narrow = markdown(md, 34);
    assert_fits(&narrow, 34);
    insta::assert_snapshot!(text(&narrow), @r"
    ┌───────────┬──────┬─────────────┐
    │ Name      │ Size │    Notes    │
    ├───────────┼──────┼─────────────┤
    │ a.rs      │   12 │    short    │
    ├───────────┼──────┼─────────────┤
    │ 日本語.rs │ 3400 │   a much    │
    │           │      │ longer note │
    │           │      │  that will  │
    │           │      │   not fit   │
    └───────────┴──────┴─────────────┘
    ");
    let tiny = markdown(md, 10);
    assert_fits(&tiny, 10);
}

#[test]
fn list_with_code_and_quote_inside() {
    let md = "1. step\n\n   ```sh\n   cargo test\n   ```\n2. > quoted in item";
    let out = markdown(md, 30);
    assert_fits(&out, 30);
    insta::assert_snapshot!(text(&out), @r"
    1. step

       ┌ sh ──────────────────────
       │ cargo test
       └──────────────────────────

    2. │ quoted in item
    ");
}

#[test]
fn empty_and_whitespace_markdown() {
    assert_eq!(markdown("", 20).len(), 1);
    assert_eq!(markdown("   \n\n", 20).len(), 1);
    let _ = markdown("# ", 0);
}

#[test]
fn a_wrapped_code_line_hangs_at_its_own_indent() {
    let md = "```rust\nfn f() {\n    let value = call_something(with_a_long_argument, and_another_one, and_more);\n}\n```\n";
    let lines = markdown(md, 40);
    assert_fits(&lines, 40);
    let t = text(&lines);
    let rows: Vec<&str> = t.lines().collect();
    let at = rows
        .iter()
        .position(|l| l.contains("let value"))
        .expect("the long line");
    let next = rows[at + 1];
    let indent =
        |l: &str| l.trim_start_matches("│ ").len() - l.trim_start_matches("│ ").trim_start().len();
    assert!(
        indent(next) >= 4,
        "continuation keeps the code's indent:\n{t}"
    );
}

/// A paragraph written over several lines reads as one: its line breaks
/// are spaces, but between two Chinese or Japanese characters nothing
/// (those languages put no space between words; a space showed at each
/// line's end of the source).
#[test]
fn a_line_break_between_japanese_characters_joins_them() {
    let md = |s: &str| text(&markdown(s, 100));
    assert_eq!(
        md("first line\nsecond line").trim(),
        "first line second line"
    );
    assert_eq!(md("日本語の行\n次の行です").trim(), "日本語の行次の行です");
    assert_eq!(md("行の終わり。\n次の文").trim(), "行の終わり。次の文");
    // a Latin word on either side keeps its space
    assert_eq!(md("API\nを使う").trim(), "API を使う");
    assert_eq!(md("使う\nAPI").trim(), "使う API");
    // emphasis between them changes nothing
    assert_eq!(md("**強調**\n次").trim(), "強調次");
    // Korean is written with spaces between words
    assert_eq!(md("한국어\n문장").trim(), "한국어 문장");
}
