#!/usr/bin/env bash
# `ccv export --format html` (and with --redact) against `--format json`
# of the same generated session, in the same run: the target is html
# <= 3x json. Also reports redactions on ../shared/corpus when present.
#
# Usage: benches/html_export.sh [path/to/ccv] [SIZE]   (default: target/release/ccv 100M)
set -eu
CCV=${1:-target/release/ccv}
SIZE=${2:-100M}
GEN="$(dirname "$0")/../../shared/bench/gen-session"
[ -f "$GEN" ] || { echo "SKIP: $GEN is absent"; exit 0; }
DIR=${CCV_BENCH_DIR:-/tmp/ccv-bench}
mkdir -p "$DIR"
FILE="$DIR/session-$SIZE.jsonl"
[ -s "$FILE" ] || python3 "$GEN" --size "$SIZE" --seed 7 -o "$FILE" -q
python3 - "$CCV" "$FILE" <<'PY'
import os, statistics, subprocess, sys, tempfile, time
ccv, f = sys.argv[1], sys.argv[2]
home = tempfile.mkdtemp()
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home, XDG_STATE_HOME=home, CLAUDE_CONFIG_DIR=home)
def run(args):
    t = time.perf_counter()
    subprocess.run([ccv, "export"] + args + [f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - t
subprocess.run(["cat", f], stdout=subprocess.DEVNULL)
times = {k: [] for k in ("json", "html", "html --redact", "text --redact")}
for _ in range(5):
    for k in times:  # interleaved: the same machine state for each
        fmt, *rest = k.split()
        times[k].append(run(["--format", fmt] + rest))
json = statistics.median(times["json"])
size = os.path.getsize(f) / 1e6
for k, v in times.items():
    m = statistics.median(v)
    print(f"{k:14s} {size:.0f} MB: median {m*1000:.0f} ms (max {max(v)*1000:.0f})  {m/json:.2f}x json")
PY
CORPUS="$(dirname "$0")/../../shared/corpus"
if [ -d "$CORPUS" ]; then
  n=0; files=0
  for c in "$CORPUS"/*.jsonl; do
    files=$((files+1))
    k=$("$CCV" export --redact "$c" 2>&1 >/dev/null | sed -n 's/^ccv: \([0-9]*\) redacted.*/\1/p')
    n=$((n+${k:-0}))
  done
  echo "corpus: $n redactions in $files files"
fi
