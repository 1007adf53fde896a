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
