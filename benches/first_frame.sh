#!/usr/bin/env bash
# Time to the first frame (ccv's own trace, CCV_TRACE_STARTUP) over 20
# starts in tmux, on generated sessions of 10 MB, 100 MB and 1 GB: median,
# p95 and max, with `cat` of the file measured in the same run.
#
# Usage: benches/first_frame.sh [path/to/ccv] [SIZES...]   (default: target/release/ccv 10M 100M 1G)
set -eu
CCV=$(realpath "${1:-target/release/ccv}")
shift || true
SIZES=${*:-10M 100M 1G}
GEN="$(dirname "$0")/../../shared/bench/gen-session"
[ -f "$GEN" ] || { echo "SKIP: $GEN is absent"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 0; }
DIR=${CCV_BENCH_DIR:-/tmp/ccv-bench}; mkdir -p "$DIR"
W=$(mktemp -d); SOCK=ccvff$$
trap 'rm -rf "$W"' EXIT
export HOME=$W XDG_CONFIG_HOME=$W XDG_CACHE_HOME=$W XDG_STATE_HOME=$W CLAUDE_CONFIG_DIR=$W
for size in $SIZES; do
  F="$DIR/session-$size.jsonl"
  [ -s "$F" ] || python3 "$GEN" --size "$size" --seed 7 -o "$F" -q
  cat "$F" > /dev/null
  t0=$(date +%s%N); cat "$F" > /dev/null; cat_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  : > "$W/times"
  for i in $(seq 20); do
    SOCK=ccvff$$-$size-$i  # a server of its own: the last one may still be ending
    rm -f "$W/trace"
    tmux -L $SOCK -f /dev/null new-session -d -s t -x 120 -y 40 \
      "env CCV_TRACE_STARTUP=$W/trace TERM=xterm-256color '$CCV' --theme dark '$F' 2>$W/err; echo \$? > $W/rc"
    until tmux -L $SOCK capture-pane -p -t t 2>/dev/null | grep -q "FOLLOW\|SCROLL"; do sleep 0.01; done
    sleep 0.2
    tmux -L $SOCK send-keys -t t q 2>/dev/null || echo "run $i: ccv ended by itself: rc $(cat $W/rc 2>/dev/null) $(cat $W/err 2>/dev/null)" >&2
    for _ in $(seq 200); do [ -s "$W/trace" ] && break; sleep 0.01; done
    if [ -s "$W/trace" ]; then sed -n 's/.*first frame in \([0-9.]*\) ms.*/\1/p' "$W/trace" >> "$W/times"; else echo "run $i: no trace" >&2; fi
    tmux -L $SOCK kill-server 2>/dev/null || true
  done
  python3 - "$size" "$cat_ms" "$W/times" <<'PY'
import statistics, sys
size, cat_ms, f = sys.argv[1], sys.argv[2], sys.argv[3]
t = sorted(float(x) for x in open(f) if x.strip())
p95 = t[min(len(t) - 1, int(round(0.95 * (len(t) - 1))))]
print(f"{size:>5}: first frame over {len(t)} starts: median {statistics.median(t):.1f} ms, p95 {p95:.1f} ms, max {t[-1]:.1f} ms (cat of the file: {cat_ms} ms)")
PY
done
