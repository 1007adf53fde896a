#![deny(clippy::unwrap_used)]

// mimalloc: sessions are millions of small strings; glibc's allocator
// spent a fifth of a 100 MB export in malloc/free (see benches/export.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(ccv::cli::main());
}
