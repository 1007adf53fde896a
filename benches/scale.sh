#!/usr/bin/env bash
# Every figure issue 19 asks for, each against a baseline of the same run:
# export, viewer load, peak RSS and in-session search (benches/scale.rs),
# first frame p95 over 20 starts (benches/first_frame.sh) and the picker's
# cold scan in the TUI (benches/picker_tmux.sh). Lost keys are a test:
# tests/tmux_keys.sh sends 2,000 keys in one write.
#
# Usage: benches/scale.sh   (CCV_BENCH_SIZES="100M 1G" by default)
set -eu
cd "$(dirname "$0")/.."
cargo build --release -q
cargo bench -q --bench scale
benches/first_frame.sh target/release/ccv ${CCV_BENCH_SIZES:-100M 1G}
benches/picker_tmux.sh target/release/ccv
