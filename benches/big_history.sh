#!/usr/bin/env bash
# A heavy history: 200 projects / 10,000 generated sessions (about 5 GB,
# made once in /tmp/ccv-bench/tree10k). Warm `ccv list --json` and an
# indexed `ccv search` (a rare word, a common one, a phrase, an
# identifier of common words joined: `resolve_layout`), each
# alternated in one run with `find` printing every file's size and mtime
# (the least any check of 20,000 files for appends costs), medians; the
# target for both is < 100 ms. CCV_BASELINE=path/to/other/ccv also
# alternates that binary (its own cache and index) and prints before/after.
#
# Usage: benches/big_history.sh [path/to/ccv] [RUNS]   (default: target/release/ccv 11)
set -eu
CCV=${1:-target/release/ccv}
CCV=$(cd "$(dirname "$CCV")" && pwd)/$(basename "$CCV")
GEN=$(dirname "$0")/../../shared/bench/gen-session
TREE=${CCV_TREE:-/tmp/ccv-bench/tree10k}
if [ ! -d "$TREE" ]; then
  [ -x "$GEN" ] || { echo "SKIP: $GEN absent"; exit 77; }
  python3 "$GEN" --tree "$TREE" --projects 200 --sessions 10000 --seed 1
fi
python3 - "$CCV" "$TREE" "${2:-11}" "${CCV_BASELINE:-}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time
ccv, tree, runs, other = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def home_env():
    h = tempfile.mkdtemp()  # never the real ~/.claude
    return h, dict(os.environ, HOME=h, XDG_CACHE_HOME=h + "/cache", XDG_CONFIG_HOME=h,
                   XDG_STATE_HOME=h, CLAUDE_CONFIG_DIR=h + "/claude", CODEX_HOME=h + "/codex",
                   CCV_NO_BACKGROUND_INDEX="1")
bins = [("ccv", ccv)] + ([("baseline ccv", other)] if other else [])
envs = {}
for name, b in bins:
    h, env = home_env()
    envs[name] = (h, env)
    t = time.perf_counter()
    subprocess.run([b, "list", "--json", tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    subprocess.run([b, "index", tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    print("%s: cache and index made in %.0f s" % (name, time.perf_counter() - t))
def timed(cmd, env=None, shell=False):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, shell=shell)
    return (time.perf_counter() - t) * 1000
find = "find %s -name '*.jsonl' -printf '%%s %%T@\\n' > /dev/null" % tree
jobs = [("warm list --json", ["list", "--json", tree]),
        ("indexed search, rare word", ["search", "--json", "zebra", tree]),
        ("indexed search, common word", ["search", "--json", "error", tree]),
        ("indexed search, phrase", ["search", "--json", "deploy it", tree]),
        ("indexed search, identifier", ["search", "--json", "resolve_layout", tree])]
for what, args in jobs:
    r = {name: [] for name, _ in bins}
    f = []
    for _ in range(runs):
        for name, b in bins:
            r[name].append(timed([b] + args, envs[name][1]))
        f.append(timed(find, shell=True))
    k = statistics.median(f)
    line = "%-28s ccv %4.0f ms; find (stat of every file) %4.0f ms: %.2fx (target < 100 ms)" % (
        what, statistics.median(r["ccv"]), k, statistics.median(r["ccv"]) / k)
    if other:
        line += "; baseline ccv %4.0f ms (%.2fx)" % (
            statistics.median(r["baseline ccv"]),
            statistics.median(r["ccv"]) / statistics.median(r["baseline ccv"]))
    print(line)
for h, _ in envs.values():
    shutil.rmtree(h)
PY
