#!/usr/bin/env bash
# Write-to-drawn latency through a real terminal: ccv follows a file in a
# tmux pane (120x40) while a writer appends the lines of a generated session
# at gen-session --live's pace (20 lines/s, 10% of lines in two writes 2-25
# ms apart). ccv logs, per frame, the bytes on screen (CCV_TRACE_LIVE); the
# writer logs when each line's last byte was written. Latency of a line =
# first frame holding it - its write.
#
# Usage: benches/live_tmux.sh [path/to/ccv] [seconds]   (default: release build, 20 s)
# Needs tmux and python3. Never touches ~/.claude (HOME points at a temp dir).
set -eu
CCV=${1:-target/release/ccv}
SECS=${2:-20}
CCV=$(cd "$(dirname "$CCV")" && pwd)/$(basename "$CCV")
GEN=$(dirname "$0")/../../shared/bench/gen-session
command -v tmux >/dev/null || { echo "SKIP: tmux not installed"; exit 77; }
[ -x "$GEN" ] || { echo "SKIP: $GEN absent"; exit 77; }

WORK=$(mktemp -d)
SOCK=ccvlat$$
cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

python3 "$GEN" --size 1M --seed 3 -o "$WORK/src.jsonl" 2>/dev/null
: > "$WORK/live.jsonl"
tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 \
  "env HOME='$WORK' CLAUDE_CONFIG_DIR='$WORK/claude' XDG_CONFIG_HOME='$WORK/config' XDG_CACHE_HOME='$WORK/cache' XDG_STATE_HOME='$WORK/state' CCV_TRACE_LIVE='$WORK/drawn.txt' '$CCV' '$WORK/live.jsonl'"
sleep 1

python3 - "$WORK/src.jsonl" "$WORK/live.jsonl" "$WORK/written.txt" "$SECS" <<'PY'
import os, random, sys, time
src, dst, log, secs = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
rng = random.Random(7)
fd = os.open(dst, os.O_WRONLY | os.O_APPEND)
off = 0
start = time.monotonic()
nxt = start
with open(src, "rb") as f, open(log, "w") as out:
    for line in f:
        nxt += rng.expovariate(20.0)
        d = nxt - time.monotonic()
        if d > 0:
            time.sleep(d)
        if time.monotonic() - start > secs:
            break
        if len(line) > 8 and rng.random() < 0.1:
            cut = rng.randint(1, len(line) - 2)
            os.write(fd, line[:cut])
            time.sleep(rng.uniform(0.002, 0.025))
            os.write(fd, line[cut:])
        else:
            os.write(fd, line)
        off += len(line)
        out.write("%d %d\n" % (time.time_ns() // 1000, off))
PY
sleep 1
tmux -L "$SOCK" send-keys q
sleep 0.5

python3 - "$WORK/written.txt" "$WORK/drawn.txt" <<'PY'
import sys
written = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
drawn = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
lat, j = [], 0
for t, off in written:
    while j < len(drawn) and drawn[j][1] < off:
        j += 1
    if j == len(drawn):
        break
    lat.append((drawn[j][0] - t) / 1000.0)
lat.sort()
p = lambda q: lat[min(len(lat) - 1, int(round((len(lat) - 1) * q)))]
print("write->drawn in tmux: %d of %d lines, %d frames; p50 %.1f ms, p95 %.1f ms, max %.1f ms"
      % (len(lat), len(written), len(drawn), p(0.5), p(0.95), lat[-1]))
PY
