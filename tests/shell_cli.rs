//! What a shell needs: completion scripts for each shell, a man page, and
//! a `--help` that points at the keys and the config file.

use crate::common;

#[test]
fn completions_and_man_page_render() {
    let home = tempfile::tempdir().expect("tempdir");
    for (shell, mark) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef ccv"),
        ("fish", "complete -c ccv"),
        ("elvish", "edit:completion"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = common::ccv_at(home.path())
            .args(["completions", shell])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(mark),
            "{shell}: {}",
            &text[..text.len().min(300)]
        );
        assert!(
            text.contains("search") && text.contains("stats"),
            "{shell}: subcommands"
        );
    }
    let out = common::ccv_at(home.path())
        .arg("man")
        .output()
        .expect("runs");
    let man = String::from_utf8_lossy(&out.stdout);
    assert!(man.contains(".TH ccv 1"), "{man}");
    assert!(man.contains("search"), "subcommands are listed");
    // the commands in the page itself: no ccv-export(1) that does not exist
    assert!(!man.contains("ccv\\-export(1)"), "{man}");
    assert!(man.contains("\\fBccv export\\fR"), "{man}");
    for section in ["COMMANDS", "KEYS", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
        assert!(man.contains(&format!(".SH {section}\n")), "no {section}");
    }
    assert!(man.contains("CLAUDE_CONFIG_DIR") && man.contains("128+N"));
    assert!(man.contains("go to a mark"), "the viewer's keys");
    let out = common::ccv_at(home.path())
        .arg("--help")
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("? shows the keys") && help.contains("config.toml"),
        "{help}"
    );
}

/// The README's layout names every top-level module of the tree, and
/// none that is gone (`.ci/layout.py` writes it).
#[test]
fn the_readme_layout_is_the_tree() {
    let readme = include_str!("../README.md");
    let start = readme.find("## Layout").expect("a layout section");
    let end = start
        + readme[start..]
            .find("Screenshots are rendered")
            .expect("its end");
    let layout = &readme[start..end];
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut modules = Vec::new();
    for e in std::fs::read_dir(src).expect("src").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            modules.push(format!("`src/{name}/`"));
        } else if name.ends_with(".rs") && name != "lib.rs" && name != "main.rs" {
            modules.push(format!("`src/{name}`"));
        }
    }
    for m in &modules {
        assert!(
            layout.contains(m.as_str()),
            "{m} is not in the README's layout"
        );
    }
    let named = layout.matches("- `src/").count();
    assert_eq!(
        named,
        modules.len(),
        "the layout names a module that is gone"
    );
}
