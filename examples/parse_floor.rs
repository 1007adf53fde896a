//! The floor of a pass that reads every line of a tree's sessions as
//! JSON: each line parsed by serde alone (into `IgnoredAny`: nothing
//! kept), its files spread over N threads as ccv's listing spreads them (the
//! biggest first, one buffer a thread, on ccv's allocator).
//! `benches/list_tree.sh` prints it beside `cat` of the same files, so a
//! listing's ratio can be read against what any reader of every line
//! costs before it finds a title or a price.
//!
//! `cargo run --release --example parse_floor -- THREADS DIR`; prints the
//! lines that parsed and those that did not.

// the allocator ccv's binary runs on
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/tree.rs"]
mod tree;

fn main() {
    let usage = "parse_floor THREADS DIR";
    let (threads, dir) = tree::threads_and_dir(std::env::args().skip(1), usage);
    let files = tree::sessions(&dir);
    let [parsed, failed] = tree::on_threads(&files, threads, |bytes| {
        let (mut ok, mut bad, mut start) = (0, 0, 0);
        // (line ends found as ccv finds them, by memchr)
        for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
            let line = &bytes[start..end];
            start = end + 1;
            if line.is_empty() {
                continue;
            }
            match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
                Ok(_) => ok += 1,
                Err(_) => bad += 1,
            }
        }
        [ok, bad]
    });
    println!("{parsed} lines parsed, {failed} not");
}
