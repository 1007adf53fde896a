#!/usr/bin/env bash
# `ccv list --json` over a generated 50-project / 2,000-session tree (about
# 1 GB): with an empty cache (every file read: titles, counts and costs)
# against `find … | xargs cat` of the same files, alternated in one run
# (medians), with 1 and 2 worker threads (CCV_THREADS) and the default;
# then warm (stat only). Prints each figure, the baseline and the ratio.
# A second baseline, in the same turns: every line parsed by serde alone
# on as many threads (`examples/parse_floor.rs`), the floor of any pass
# that reads each line as JSON.
#
# Usage: benches/list_tree.sh [path/to/ccv] [RUNS]   (default: target/release/ccv 5)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
cargo build --quiet --release --example parse_floor
FLOOR=$(cd "$(dirname "$0")/.." && pwd)/target/release/examples/parse_floor
python3 - "$CCV" "$TREE" "${2:-5}" "$FLOOR" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time
ccv, tree, runs, floor = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cache = tempfile.mkdtemp()
base = dict(os.environ, XDG_CACHE_HOME=cache, HOME=cache, XDG_CONFIG_HOME=cache, XDG_STATE_HOME=cache, CLAUDE_CONFIG_DIR=cache, CODEX_HOME=cache)  # never the real ~/.claude
def timed(cmd, env=None, shell=False):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, shell=shell, check=True)
    return (time.perf_counter() - t) * 1000
cat_cmd = "find %s -name '*.jsonl' -print0 | xargs -0 cat > /dev/null" % tree
timed(cat_cmd, shell=True)  # page cache warm for both
for threads in ("1", "2", None):
    env = dict(base)
    if threads:
        env["CCV_THREADS"] = threads
    cold, cat, parse = [], [], []
    for _ in range(runs):
        shutil.rmtree(cache); os.makedirs(cache)
        cold.append(timed([ccv, "list", "--json", tree], env))
        cat.append(timed(cat_cmd, shell=True))
        parse.append(timed([floor, threads or str(os.cpu_count() or 1), tree]))
    c, k, p = statistics.median(cold), statistics.median(cat), statistics.median(parse)
    print("cold ccv list --json (%s threads): %.0f ms; find | xargs cat %.0f ms: %.2fx (target <= 1.5x);"
          " every line parsed by serde alone %.0f ms (%.2fx cat): ccv %.2fx that"
          % (threads or "default", c, k, c / k, p, p / k, c / p))
warm = [timed([ccv, "list", "--json", tree], base) for _ in range(15)]
print("warm ccv list --json: median %.0f ms (max %.0f) (target < 50 ms)" % (statistics.median(warm), max(warm)))
shutil.rmtree(cache)
PY
