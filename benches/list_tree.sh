#!/usr/bin/env bash
# `ccv list --json` over a generated 50-project / 2,000-session tree (about
# 1 GB): with an empty cache (every file's head and tail read) and warm
# (stat only), against `cat` of every file in the same run.
#
# Usage: benches/list_tree.sh [path/to/ccv]   (default: target/release/ccv)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
python3 - "$CCV" "$TREE" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time
ccv, tree = sys.argv[1], sys.argv[2]
cache = tempfile.mkdtemp()
env = dict(os.environ, XDG_CACHE_HOME=cache, HOME=cache, XDG_CONFIG_HOME=cache, XDG_STATE_HOME=cache, CLAUDE_CONFIG_DIR=cache)  # never the real ~/.claude
def run():
    t = time.perf_counter()
    subprocess.run([ccv, "list", "--json", tree], stdout=subprocess.DEVNULL, env=env, check=True)
    return (time.perf_counter() - t) * 1000
subprocess.run("cat %s/*/*.jsonl > /dev/null" % tree, shell=True)  # page cache warm for both
cold, warm = [], []
for _ in range(7):
    shutil.rmtree(cache); os.makedirs(cache)
    cold.append(run())
for _ in range(15):
    warm.append(run())
t = time.perf_counter()
subprocess.run("cat %s/*/*.jsonl > /dev/null" % tree, shell=True)
cat = (time.perf_counter() - t) * 1000
shutil.rmtree(cache)
print("ccv list --json, 2000 sessions: empty cache median %.0f ms (max %.0f), warm median %.0f ms (max %.0f); cat of every file %.0f ms"
      % (statistics.median(cold), max(cold), statistics.median(warm), max(warm), cat))
PY
