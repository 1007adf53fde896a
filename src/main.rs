#![deny(clippy::unwrap_used)]

// mimalloc: sessions are millions of small strings; glibc's allocator
// spent a fifth of a 100 MB export in malloc/free (see benches/export.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` (in mimalloc's `mi_option_e`; libmimalloc-sys
/// names no constant for it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
/// `mi_option_destroy_on_exit`: above 1, mimalloc's handler at exit
/// returns at once.
const DESTROY_ON_EXIT: libmimalloc_sys::mi_option_t = 22;

fn main() {
    let code = ccv::cli::main_with(&|| {
        // The viewer gives freed pages back to the system at once rather
        // than 10 ms later: its load frees read buffers and decoded lines as
        // it goes, and with the delay they were still held when the model
        // peaked (a 100 MB session: 58 MB peak with the delay, 50 MB
        // without). Commands keep the delay: without it, `ccv list` of 2,000
        // sessions made 8 times the system calls and took 1.6 times as long.
        // SAFETY: sets a plain integer option; mimalloc reads options at
        // any time.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
    });
    // The process ends: mimalloc's handler would first hand every free
    // page back to the system, one call each (a tenth of a search of a
    // small history, a twentieth of a cold listing), which ending the
    // process does at once.
    // SAFETY: as above; nothing allocates after it but exit's own code
    unsafe { libmimalloc_sys::mi_option_set(DESTROY_ON_EXIT, 2) };
    std::process::exit(code);
}
