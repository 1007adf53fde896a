#![deny(clippy::unwrap_used)]

// mimalloc: sessions are millions of small strings; glibc's allocator
// spent a fifth of a 100 MB export in malloc/free (see benches/export.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` (mimalloc 2's `mi_option_e`; libmimalloc-sys
/// names no constant for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Freed pages go back to the system at once rather than 10 ms later:
    // a load frees its read buffers and decoded lines as it goes, and with
    // the delay they were still held when the model peaked (the viewer of
    // a 100 MB session: 78 MB peak with the delay, 69 MB without).
    // SAFETY: sets a plain integer option; mimalloc reads options at any time.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
    std::process::exit(ccv::cli::main());
}
