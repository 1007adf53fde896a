//! Rendering costs: a 5 KB markdown answer (and one in Japanese), a 300-line Rust file
//! (cached and uncached highlight), a diff, ANSI output, a plain prompt, a table whose
//! cells wrap, and a line of JSON pretty-printed against the same line wrapped as text.

use ccv::source::claude::raw::Hunk;
use ccv::view::content;
use std::sync::atomic::{AtomicU64, Ordering};

fn main() {
    content::warm_up();
    divan::main();
}

fn answer() -> String {
    let mut s = String::from("# Fixing the flaky tail test\n\n");
    while s.len() < 5_000 {
        s.push_str(
            "The watcher **drops events** when the file is *replaced*; see `notify::Event` and \
             [the docs](https://docs.rs/notify).\n\n- watch the directory\n- re-open on a new inode\n  \
             - nested detail with `code`\n\n| a | b |\n|---|---|\n| 1 | two |\n\n```rust\nlet mut w = \
             notify::recommended_watcher(tx)?;\nw.watch(dir, RecursiveMode::NonRecursive)?;\n```\n\n",
        );
    }
    s
}

fn rust_file() -> String {
    let mut s = String::new();
    for i in 0..300 {
        s.push_str(&match i % 6 {
            0 => format!("/// Doc comment for item {i}.\n"),
            1 => format!("pub fn item_{i}(x: &str) -> Option<usize> {{\n"),
            2 => "    let v: Vec<_> = x.split(',').map(|p| p.trim()).collect();\n".to_string(),
            3 => format!("    if v.len() > {i} {{ return None; }} // early out\n"),
            4 => "    Some(v.iter().map(|s| s.len()).sum::<usize>() + \"lit\".len())\n".to_string(),
            _ => "}\n".to_string(),
        });
    }
    s
}

#[divan::bench]
fn markdown_5kb(b: divan::Bencher<'_, '_>) {
    let text = answer();
    b.bench(|| content::markdown(divan::black_box(&text), 100));
}

/// A 5 KB answer in Japanese (no spaces between words: lines break
/// between characters).
#[divan::bench]
fn markdown_5kb_japanese(b: divan::Bencher<'_, '_>) {
    let mut text = String::from("# 監視の修正\n\n");
    while text.len() < 5_000 {
        text.push_str(
            "ファイルが置き換えられるとウォッチャーがイベントを**取りこぼします**。`notify::Event` \
             を見て、新しい inode で開き直すようにしました（ディレクトリごと監視します）。\n\n\
             - ディレクトリを監視する\n- 新しい inode で開き直す\n\n",
        );
    }
    b.bench(|| content::markdown(divan::black_box(&text), 100));
}

#[divan::bench]
fn code_300_lines_cached(b: divan::Bencher<'_, '_>) {
    let text = rust_file();
    let _ = content::code(&text, "rs", Some(1), 100);
    b.bench(|| content::code(divan::black_box(&text), "rs", Some(1), 100));
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn code_300_lines_uncached(b: divan::Bencher<'_, '_>) {
    static N: AtomicU64 = AtomicU64::new(0);
    let base = rust_file();
    b.with_inputs(|| format!("{base}// {}\n", N.fetch_add(1, Ordering::Relaxed)))
        .bench_refs(|text| content::code(text, "rs", Some(1), 100));
}

#[divan::bench]
fn diff_300_lines(b: divan::Bencher<'_, '_>) {
    let lines = rust_file()
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}{l}", [' ', '+', '-'][i % 3]))
        .collect();
    let hunk = Hunk {
        old_start: 1,
        old_lines: 200,
        new_start: 1,
        new_lines: 200,
        lines,
    };
    b.bench(|| content::diff(std::slice::from_ref(&hunk), "src/lib.rs", 100));
}

#[divan::bench]
fn ansi_cargo_output(b: divan::Bencher<'_, '_>) {
    let text = "\x1b[1m\x1b[32m   Compiling\x1b[0m ccv v0.1.0 (/work)\n\x1b[1;31merror[E0382]\x1b[0m: use of moved value\n"
        .repeat(100);
    b.bench(|| content::ansi(divan::black_box(&text), 100, false));
}

/// A 5 KB prompt of indented list items, wrapped (each item under its text).
#[divan::bench]
fn plain_prompt_5kb(b: divan::Bencher<'_, '_>) {
    let text =
        "1. **Check checklists status** (if FEATURE_DIR/checklists/ exists):\n   - Scan all \
                checklist files in the checklists/ directory and count the items of each one\n     \
                - Total items: All lines matching `- [ ]` or `- [X]` or `- [x]`\n\n"
            .repeat(25);
    b.bench(|| content::plain(divan::black_box(&text), 60));
}

/// An answer's table of 40 rows whose last column wraps in its cell.
#[divan::bench]
fn markdown_table_40_rows(b: divan::Bencher<'_, '_>) {
    let mut text = String::from("| File | Lines | What changed |\n|---|--:|---|\n");
    for i in 0..40 {
        text.push_str(&format!(
            "| `src/view/part_{i}.rs` | {} | the rows are read back from the file when they \
             come into view, and the **fold** is kept |\n",
            i * 37
        ));
    }
    b.bench(|| content::markdown(divan::black_box(&text), 100));
}

/// A 20 KB result that is one line of JSON (an MCP server's page of
/// issues): as the viewer shows it, pretty-printed and highlighted, and
/// as text wrapped, the baseline.
fn json_line() -> String {
    let issue = r#"{"id":"864b2bd6-8b26-4965","identifier":"ENT-108","title":"Create summaries","state":{"name":"In Progress"},"labels":[{"name":"ai"}],"estimate":2.5,"description":"See the plan in ENT-53 and the notes in the thread."}"#;
    let mut s = String::from("{\"issues\":[");
    while s.len() < 20_000 {
        s.push_str(issue);
        s.push(',');
    }
    s.push_str(issue);
    s.push_str("]}");
    s
}

#[divan::bench]
fn json_result_pretty(b: divan::Bencher<'_, '_>) {
    let text = json_line();
    b.bench(|| {
        let p = ccv::json_pretty::pretty_any(divan::black_box(&text)).unwrap_or_default();
        content::code(&p, "json", None, 100)
    });
}

#[divan::bench]
fn json_result_as_text(b: divan::Bencher<'_, '_>) {
    let text = json_line();
    b.bench(|| content::ansi(divan::black_box(&text), 100, false));
}
