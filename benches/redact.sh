#!/usr/bin/env bash
# `ccv export --redact` against the same export without it, for text,
# markdown and JSON, on a generated session, in the same run (interleaved,
# medians): the target is redact <= 1.5x plain. Then the redactions on
# ../shared/corpus, when present, with --report's places.
#
# Usage: benches/redact.sh [path/to/ccv] [SIZE] [RUNS]   (default: target/release/ccv 100M 11)
set -eu
CCV=${1:-target/release/ccv}
SIZE=${2:-100M}
RUNS=${3:-11}
GEN="$(dirname "$0")/../../shared/bench/gen-session"
[ -f "$GEN" ] || { echo "SKIP: $GEN is absent"; exit 0; }
DIR=${CCV_BENCH_DIR:-/tmp/ccv-bench}
mkdir -p "$DIR"
FILE="$DIR/session-$SIZE.jsonl"
[ -s "$FILE" ] || python3 "$GEN" --size "$SIZE" --seed 7 -o "$FILE" -q
python3 - "$CCV" "$FILE" "$RUNS" <<'PY'
import os, statistics, subprocess, sys, tempfile, time
ccv, f, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
home = tempfile.mkdtemp()
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home, XDG_STATE_HOME=home, CLAUDE_CONFIG_DIR=home)
def run(args):
    t = time.perf_counter()
    subprocess.run([ccv, "export"] + args + [f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - t
subprocess.run(["cat", f], stdout=subprocess.DEVNULL)
size = os.path.getsize(f) / 1e6
for fmt in ("text", "markdown", "json"):
    plain, red = [], []
    for _ in range(runs):  # in turns: the same machine state for both
        plain.append(run(["--format", fmt]))
        red.append(run(["--format", fmt, "--redact"]))
    p, r = statistics.median(plain), statistics.median(red)
    print(f"{fmt:8s} {size:.0f} MB: plain {p*1000:.0f} ms, --redact {r*1000:.0f} ms: {r/p:.2f}x (target 1.5x)")
PY
CORPUS="$(dirname "$0")/../../shared/corpus"
if [ -d "$CORPUS" ]; then
  n=0; files=0
  for c in "$CORPUS"/*.jsonl; do
    files=$((files+1))
    k=$("$CCV" export --redact --report "$c" 2>&1 >/dev/null | tee -a "$DIR/corpus-redactions.txt" | sed -n 's/^ccv: \([0-9]*\) redacted.*/\1/p')
    n=$((n+${k:-0}))
  done
  echo "corpus: $n redactions in $files files (places: $DIR/corpus-redactions.txt)"
fi
