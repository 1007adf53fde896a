//! Names of the files ccv writes on request (copy fallback, `e` export);
//! how they are written is `crate::writes`.

/// `20250131-142233`, local time.
pub fn timestamp() -> String {
    crate::model::time::local_now()
        .strftime("%Y%m%d-%H%M%S")
        .to_string()
}

/// A file-name-safe slug: `fix-the-login-bug`.
pub fn slug(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.chars().count() >= max {
            break;
        }
    }
    out.trim_end_matches('-').to_owned()
}
