//! How session facts read to a person (relative time, sizes, short model
//! names) and the two outputs of `ccv list` (table, JSON Lines).

use super::scan::SessionInfo;
use crate::model::text::sanitize;
use crate::model::time::format_iso;
use std::io::{self, Write};

pub use crate::model::time::relative_time;

/// `512 B`, `120 KB`, `3.1 MB`, `1.2 GB`.
pub fn human_size(bytes: u64) -> String {
    const K: f64 = 1024.0;
    let b = bytes as f64;
    if b < K {
        format!("{bytes} B")
    } else if b < K * K {
        format!("{:.0} KB", b / K)
    } else if b < K * K * K {
        format!("{:.1} MB", b / (K * K))
    } else {
        format!("{:.1} GB", b / (K * K * K))
    }
}

/// `claude-opus-4-1-20250805` → `opus-4.1`; `claude-3-5-sonnet-20241022`
/// → `sonnet-3.5`; `claude-opus-4-6[1m]` → `opus-4.6[1m]`. Any other
/// shape (a cloud's id, another agent's model) is shown as it is: with
/// its numbers moved to the end, `gpt-5-codex` read `gpt-codex-5`.
pub fn short_model(model: &str) -> String {
    let (base, tail) = model.split_at(model.find('[').unwrap_or(model.len()));
    let Some(rest) = base.strip_prefix("claude-") else {
        return model.to_owned();
    };
    let mut parts: Vec<&str> = rest.split('-').collect();
    if parts
        .last()
        .is_some_and(|p| p.len() == 8 && p.bytes().all(|b| b.is_ascii_digit()))
    {
        parts.pop(); // the release date
    }
    let word = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase());
    let number = |p: &&str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    let version = |ns: &[&str]| (1..=2).contains(&ns.len()) && ns.iter().all(number);
    match parts.as_slice() {
        [name, ns @ ..] if word(name) && version(ns) => format!("{name}-{}{tail}", ns.join(".")),
        [ns @ .., name] if word(name) && version(ns) => format!("{name}-{}{tail}", ns.join(".")),
        _ => model.to_owned(),
    }
}

/// `240` or `~240` when extrapolated.
pub fn message_count(s: &SessionInfo) -> String {
    if s.message_count_exact {
        s.message_count.to_string()
    } else {
        format!("~{}", s.message_count)
    }
}

/// Sanitised, on one line, cut or padded to `width` columns.
pub fn fit(s: &str, width: usize) -> String {
    let one = sanitize(s).replace(['\n', '\t'], " ");
    let mut out = crate::model::text::fit_end(&one, width);
    let used = unicode_width::UnicodeWidthStr::width(out.as_str());
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

/// The `ccv list` table, fitted to `width` columns: the title takes the
/// room the rest leaves, a project path loses its middle, and branch,
/// model and size go when even that does not fit.
pub fn write_table(
    out: &mut dyn Write,
    sessions: &[SessionInfo],
    now_ms: i64,
    width: usize,
) -> io::Result<()> {
    use crate::columns::{Column, Cut, render};
    // which agent wrote a session, when the list holds more than one
    let agents = sessions.iter().any(|s| s.agent() != sessions[0].agent());
    let mut cols = vec![
        Column::fixed(" ", false),
        Column::flex("PROJECT", 14, 40, Cut::Middle),
        Column::flex("TITLE", 24, 120, Cut::End),
        Column::fixed("ACTIVITY", false),
        Column::fixed("MSGS", true).dropped_at(2),
        Column::fixed("SIZE", true).dropped_at(3),
        Column::fixed("COST", true),
        Column::fixed("MODEL", false).dropped_at(4),
        Column::flex("BRANCH", 8, 24, Cut::Middle).dropped_at(5),
    ];
    if agents {
        cols.insert(1, Column::fixed("AGENT", false).dropped_at(1));
    }
    let rows: Vec<Vec<String>> = sessions
        .iter()
        .map(|s| {
            let mut row = vec![
                if s.live { "●" } else { " " }.to_owned(),
                crate::paths::tilde(&s.project),
                s.shown_title().into_owned(),
                relative_time(now_ms, s.last_activity_ms),
                message_count(s),
                human_size(s.size),
                s.figures
                    .as_ref()
                    .and_then(|f| f.cost.label())
                    .unwrap_or_default(),
                s.model.as_deref().map(short_model).unwrap_or_default(),
                s.git_branch.clone().unwrap_or_default(),
            ];
            if agents {
                row.insert(1, s.agent().to_owned());
            }
            row
        })
        .collect();
    for line in render(&cols, &rows, width) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `ccv list | …`: a header, then a line per session of whole values,
/// tab-separated (for `cut`, `awk`, `column -t`).
pub fn write_tsv(out: &mut dyn Write, sessions: &[SessionInfo]) -> io::Result<()> {
    use crate::columns::tsv_field as f;
    writeln!(
        out,
        "project\ttitle\tlast_activity\tmessages\tsize\tcost_usd\tmodel\tbranch\tlive\tsession_id\tpath\tagent"
    )?;
    for s in sessions {
        let cost = s
            .figures
            .as_ref()
            .and_then(|f| f.cost_usd())
            .map(
                |c| match s.figures.as_ref().map_or(0, |f| f.cost.unpriced) {
                    0 => format!("{c}"),
                    _ => format!("{c}+?"),
                },
            )
            .unwrap_or_default();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f(&s.project),
            f(&s.title),
            format_iso(s.last_activity_ms),
            message_count(s),
            s.size,
            cost,
            f(s.model.as_deref().unwrap_or("")),
            f(s.git_branch.as_deref().unwrap_or("")),
            s.live,
            // a file's name shown whole, its controls as `^[`: a name with
            // its escape sequences dropped names no file there is
            crate::model::text::term_line(&s.session_id),
            crate::model::text::term_path(&s.path),
            s.agent(),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names() {
        assert_eq!(short_model("claude-opus-4-1-20250805"), "opus-4.1");
        assert_eq!(short_model("claude-sonnet-4-20250514"), "sonnet-4");
        assert_eq!(short_model("claude-3-5-sonnet-20241022"), "sonnet-3.5");
        assert_eq!(short_model("claude-opus-4-6"), "opus-4.6");
        assert_eq!(short_model("gpt"), "gpt");
        assert_eq!(short_model("claude-haiku-4-5-20251001"), "haiku-4.5");
        assert_eq!(short_model("claude-3-haiku-20240307"), "haiku-3");
        assert_eq!(short_model("claude-opus-4-6[1m]"), "opus-4.6[1m]");
        assert_eq!(short_model("claude-fable-5-1"), "fable-5.1");
        // other shapes as they are, never reordered
        for other in [
            "gpt-5-codex",
            "gpt-5.1-codex-max",
            "us.anthropic.claude-opus-4-5-20251101-v1:0",
            "claude-opus-4-5@20251101",
            "claude-opus-4-5-preview",
            "<synthetic>",
            "claude-",
            "",
        ] {
            assert_eq!(short_model(other), other);
        }
    }

    #[test]
    fn times_and_sizes() {
        let now = 1_000_000_000_000;
        assert_eq!(relative_time(now, now - 5_000), "just now");
        assert_eq!(relative_time(now, now - 120_000), "2 min ago");
        assert_eq!(relative_time(now, now - 30 * 3_600_000), "yesterday");
        assert_eq!(human_size(3_250_000), "3.1 MB");
        assert_eq!(human_size(900), "900 B");
    }

    #[test]
    fn fit_cuts_by_width_and_sanitizes() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("日本語", 4), "日… ");
        assert_eq!(fit("a\x1b[31mb", 3), "ab ");
    }
}
