#!/usr/bin/env bash
# `ccv stats` over a generated 50-project / 2,000-session tree (about
# 1 GB): with an empty cache (every session read for its tokens and cost)
# against `find … | xargs cat` of every session and subagent file,
# alternated in one run (medians), with 1 and 2 worker threads
# (CCV_THREADS); then warm (stat only). Prints each figure, the baseline
# and the ratio.
#
# Usage: benches/stats_tree.sh [path/to/ccv] [RUNS]   (default: target/release/ccv 5)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
python3 - "$CCV" "$TREE" "${2:-5}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time
ccv, tree, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
cache = tempfile.mkdtemp()
base = dict(os.environ, XDG_CACHE_HOME=cache, HOME=cache, XDG_CONFIG_HOME=cache, XDG_STATE_HOME=cache, CLAUDE_CONFIG_DIR=cache, CODEX_HOME=cache)  # never the real ~/.claude
def timed(cmd, env=None, shell=False):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, shell=shell, check=True)
    return (time.perf_counter() - t) * 1000
cat_cmd = "find %s -name '*.jsonl' -print0 | xargs -0 cat > /dev/null" % tree
timed(cat_cmd, shell=True)
for threads in ("1", "2"):
    env = dict(base, CCV_THREADS=threads)
    cold, cat = [], []
    for _ in range(runs):
        shutil.rmtree(cache); os.makedirs(cache)
        cold.append(timed([ccv, "stats", "--by", "day", tree], env))
        cat.append(timed(cat_cmd, shell=True))
    c, k = statistics.median(cold), statistics.median(cat)
    print("cold ccv stats (%s threads): %.0f ms; find | xargs cat %.0f ms: %.2fx (target <= 1.5x)" % (threads, c, k, c / k))
warm = [timed([ccv, "stats", "--by", "day", tree], base) for _ in range(15)]
print("warm ccv stats: median %.0f ms (max %.0f)" % (statistics.median(warm), max(warm)))
shutil.rmtree(cache)
PY
