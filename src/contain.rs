//! Panics of a library ccv cannot vouch for (the search index reading a
//! damaged file) stop at a boundary: the work fails, ccv goes on, and
//! nothing is printed over the user's screen.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static CONTAINING: Cell<u32> = const { Cell::new(0) };
}

static HOOK: AtomicBool = AtomicBool::new(false);

/// Whether the current thread is inside [`contain`]: a panic hook leaves
/// such a panic alone (no message, no terminal restore).
pub fn active() -> bool {
    CONTAINING.with(Cell::get) > 0
}

/// Runs `f`; a panic in it becomes `Err(its message)`.
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_quiet_hook();
    CONTAINING.with(|c| c.set(c.get() + 1));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINING.with(|c| c.set(c.get().saturating_sub(1)));
    r.map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_owned())
    })
}

/// Keeps the default hook from printing a contained panic; every other
/// panic is reported as before.
fn install_quiet_hook() {
    if HOOK.swap(true, Ordering::SeqCst) {
        return;
    }
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !active() {
            prev(info);
        }
    }));
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_an_error() {
        let r: Result<(), String> = super::contain(|| panic!("boom"));
        assert_eq!(r, Err("boom".to_owned()));
        assert!(!super::active());
        assert_eq!(super::contain(|| 3), Ok(3));
    }
}
