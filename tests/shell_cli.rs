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

/// The commands a shell pipes into `head`, each with a projects tree to
/// read (one file of which it skips, and says so on stderr).
fn piped_commands(home: &std::path::Path) -> Vec<Vec<String>> {
    let projects = home.join("claude/projects/-tmp-p");
    std::fs::create_dir_all(&projects).expect("mkdir");
    let session = projects.join("s.jsonl");
    std::fs::write(&session, common::fixtures()).expect("write");
    std::fs::write(
        projects.join("only-a-summary.jsonl"),
        "{\"type\":\"summary\",\"summary\":\"x\",\"leafUuid\":\"u\"}\n",
    )
    .expect("write");
    let s = session.to_string_lossy().into_owned();
    [
        "--help",
        "--version",
        "help",
        "stats --help",
        "list",
        "list --json",
        "stats",
        "search the",
        "export S",
        "export --format html S",
        "check S",
        "completions bash",
        "man",
        "prices",
        "config",
        "config --default",
        "top",
        "list --bogus",
        "/nowhere/at/all",
    ]
    .iter()
    .map(|c| c.split(' ').map(|w| w.replace('S', &s)).collect())
    .collect()
}

/// `ccv --help | head -1`, `ccv list 2>&1 | head -1`: a pipe whose reader
/// is gone fails every write, and `println!` panics on a failed write
/// (exit 101, a panic's message). The output ends there; the exit code is
/// the command's own.
#[test]
fn a_reader_that_is_gone_ends_the_output_not_the_process() {
    let home = tempfile::tempdir().expect("tempdir");
    for args in piped_commands(home.path()) {
        let expected = common::ccv_at(home.path())
            .args(&args)
            .output()
            .expect("runs")
            .status
            .code();
        // stdout gone, stderr read; then both gone (`2>&1 | head`)
        for both in [false, true] {
            let (reader, writer) = std::io::pipe().expect("pipe");
            drop(reader);
            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ccv"));
            cmd.args(&args).envs(common::sandbox(home.path()));
            cmd.env("RUST_BACKTRACE", "0");
            if both {
                cmd.stderr(writer.try_clone().expect("clone"));
            }
            let out = cmd.stdout(writer).output().expect("runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !stderr.contains("panicked") && out.status.code() != Some(101),
                "ccv {args:?} (stderr gone too: {both}): {:?} {stderr}",
                out.status
            );
            assert_eq!(out.status.code(), expected, "ccv {args:?} {both}");
        }
    }
}

/// Output to a full disk is a failure, said on stderr: never a panic,
/// never a success.
#[test]
fn a_full_disk_fails_the_command() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full here");
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    for args in piped_commands(home.path()) {
        let quiet = ["check", "list --bogus", "/nowhere/at/all"];
        if quiet.iter().any(|q| args.join(" ").starts_with(q)) {
            continue;
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ccv"))
            .args(&args)
            .envs(common::sandbox(home.path()))
            .env("RUST_BACKTRACE", "0")
            .stdout(full.try_clone().expect("clone"))
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && !stderr.contains("panicked"),
            "ccv {args:?}: {:?} {stderr}",
            out.status
        );
        assert!(stderr.contains("No space left"), "ccv {args:?}: {stderr}");
    }
}
