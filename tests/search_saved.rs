//! `ccv search` finds the words of a tool output Claude Code saved apart
//! (`<session>/tool-results/<call id>.txt`, of which the session holds a
//! 2 KB preview), at the line of its result, with the index and without;
//! never through a link, and not where the file is gone.

use crate::common;
use crate::common::entry;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;

fn wrapper(id: &str, preview: &str) -> String {
    format!(
        "<persisted-output>\nOutput too large (91.2KB). Full output saved to: /Users/a/.claude/projects/-srv-app/s1/tool-results/{id}.txt\n\nPreview (first 2KB):\n{preview}\n...\n</persisted-output>"
    )
}

fn result(uuid: &str, ts: &str, id: &str, text: &str) -> String {
    let v = entry::user(
        uuid,
        json!([{"type":"tool_result","tool_use_id":id,"content":text}]),
    )
    .session("s1")
    .cwd("/srv/app")
    .at(ts)
    .json();
    format!("{v}\n")
}

/// A session of three outputs saved apart: one paired with its call
/// (line 3), one whose call is not in the file (line 4), one whose file
/// is a link (line 5), and one whose file is gone (line 6).
fn tree(root: &Path) {
    let app = root.join("-srv-app");
    let saved = app.join("s1/tool-results");
    fs::create_dir_all(&saved).expect("mkdir");
    let mut s1 = String::new();
    for v in [
        entry::user("u1", json!("run the build"))
            .session("s1")
            .cwd("/srv/app")
            .at("2025-03-01T10:00:00Z")
            .json(),
        entry::call(
            "a1",
            "m1",
            "toolu_01Build",
            "Bash",
            json!({"command":"make"}),
        )
        .session("s1")
        .at("2025-03-01T10:00:01Z")
        .json(),
    ] {
        s1 += &format!("{v}\n");
    }
    let head = "compiling the first crates";
    s1 += &result(
        "u2",
        "2025-03-01T10:00:02Z",
        "toolu_01Build",
        &wrapper("toolu_01Build", head),
    );
    s1 += &result(
        "u3",
        "2025-03-01T10:00:03Z",
        "toolu_01Orphan",
        &wrapper("toolu_01Orphan", "orphan head"),
    );
    s1 += &result(
        "u4",
        "2025-03-01T10:00:04Z",
        "toolu_01Linked",
        &wrapper("toolu_01Linked", "linked head"),
    );
    s1 += &result(
        "u5",
        "2025-03-01T10:00:05Z",
        "toolu_01Gone",
        &wrapper("toolu_01Gone", "gone head"),
    );
    fs::write(app.join("s1.jsonl"), s1).expect("write");
    let filler = "a line of the build's output\n".repeat(3000);
    fs::write(
        saved.join("toolu_01Build.txt"),
        format!(
            "{head}\n{filler}error[E0308]: zebrawhole \u{1b}]0;retitled\u{7}mismatched types\n{filler}token {TOKEN} zebrakey\n"
        ),
    )
    .expect("write");
    fs::write(
        saved.join("toolu_01Orphan.txt"),
        "orphan head\nzebraorphan\n",
    )
    .expect("write");
    let elsewhere = root.join("elsewhere.txt");
    fs::write(&elsewhere, "linked head\nzebralinked\n").expect("write");
    std::os::unix::fs::symlink(&elsewhere, saved.join("toolu_01Linked.txt")).expect("link");
}

/// A token of GitHub's shape, in the whole output only.
const TOKEN: &str = "ghp_R4nd0mL00k1ngT0k3nW1thNoM34n1ngQz7xP";

fn search(home: &Path, root: &Path, args: &[&str]) -> Vec<Value> {
    common::search_json(home, root, args).1
}

#[test]
fn the_words_of_an_output_saved_apart_are_found_at_its_result() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    for how in ["scan", "index"] {
        if how == "index" {
            common::ccv_at(tmp.path())
                .arg("index")
                .arg(&root)
                .assert()
                .success();
        }
        let hits = search(tmp.path(), &root, &["zebrawhole"]);
        assert_eq!(hits.len(), 1, "{how}: {hits:?}");
        let h = &hits[0];
        assert_eq!(h["line"], json!(3), "{how}");
        assert_eq!(h["kind"], json!("tool_result"), "{how}");
        let snippet = h["snippet"].as_str().expect("snippet");
        assert!(snippet.contains("zebrawhole"), "{how}: {snippet}");
        // the output's escape sequences are shown, not sent
        assert!(!snippet.contains('\u{1b}'), "{how}: {snippet}");
        // terms in the line and in the output together, and a phrase
        let n = |args: &[&str]| search(tmp.path(), &root, args).len();
        assert_eq!(n(&["zebrawhole compiling"]), 1, "{how}");
        assert_eq!(n(&["\"error[E0308]: zebrawhole\""]), 1, "{how}");
        assert_eq!(n(&["--regex", "zebra(whole|orphan)"]), 2, "{how}");
        // a word of the preview, which is in the output too: one hit
        assert_eq!(n(&["compiling"]), 1, "{how}");
        // a result whose call is not in the file
        let orphan = search(tmp.path(), &root, &["zebraorphan"]);
        assert_eq!(orphan.len(), 1, "{how}: {orphan:?}");
        assert_eq!(orphan[0]["line"], json!(4), "{how}");
        // not through a link, and nothing where the file is gone
        assert_eq!(n(&["zebralinked"]), 0, "{how}");
        assert_eq!(n(&["gone head"]), 1, "{how}");
        // the words of the session alone are found as before
        assert_eq!(n(&["--kind", "user", "build"]), 1, "{how}");
        // a secret of the whole output is redacted, the match still marked
        let red = search(tmp.path(), &root, &["--redact", "zebrakey"]);
        assert_eq!(red.len(), 1, "{how}: {red:?}");
        let snippet = red[0]["snippet"].as_str().expect("snippet");
        assert!(!snippet.contains("R4nd0m"), "{how}: {snippet}");
        assert!(snippet.contains("[REDACTED:"), "{how}: {snippet}");
        assert!(red[0]["match"].is_array(), "{how}: {red:?}");
    }
}
