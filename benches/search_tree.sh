#!/usr/bin/env bash
# `ccv search` over a generated 50-project / 2,000-session tree (about
# 1 GB), against `grep -rlF WORD` measured in the same run:
# - the first query, before any index exists (a raw scan);
# - building the index (`ccv index`): time (against a cold listing of the
#   same tree, in turns), peak RSS, size on disk;
# - queries once the index exists (each one also checks the tree for
#   appended bytes first), and their peak RSS;
# - the floors of the build without an index, in the same turns
#   (`examples/index_floor.rs`): every shown text walked, and its words
#   listed once per span, on as many threads.
#
# Usage: benches/search_tree.sh [path/to/ccv]   (default: target/release/ccv)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
cargo build --quiet --release --example index_floor
FLOOR=$(cd "$(dirname "$0")/.." && pwd)/target/release/examples/index_floor
python3 - "$CCV" "$TREE" "$FLOOR" <<'PY'
import glob, os, shutil, statistics, subprocess, sys, tempfile, time, resource
ccv, tree, floor = sys.argv[1], sys.argv[2], sys.argv[3]
home = tempfile.mkdtemp()
env = dict(os.environ, HOME=home, XDG_CACHE_HOME=home + "/cache", XDG_CONFIG_HOME=home, XDG_STATE_HOME=home, CLAUDE_CONFIG_DIR=home, CCV_NO_BACKGROUND_INDEX="1")
def timed(cmd, **kw):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env=env, text=True, **kw)
    rss = int(p.stderr.strip().splitlines()[-1]) // 1024
    return (time.perf_counter() - t) * 1000, rss
def drop_index():
    # (whatever its version: the binary measured may be an older one)
    for v in glob.glob(home + "/cache/ccv/search-v*"):
        shutil.rmtree(v, ignore_errors=True)
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tree) for f in fs)
subprocess.run("cat %s/*/*.jsonl %s/*/*/subagents/*.jsonl > /dev/null" % (tree, tree), shell=True)
words = ["proportional", "resolve_layout", "flamegraph", "error", "memory usage"]
# a list first, so that every run below finds the listing cached
subprocess.run([ccv, "list", tree], stdout=subprocess.DEVNULL, env=env)
base_env = env
for threads in ("1", "2"):
    env = dict(base_env, CCV_THREADS=threads)
    for w in words:
        g, first = [], []
        for _ in range(3):  # alternated: the same machine state for both
            g.append(timed(["grep", "-rliF", w, tree])[0])
            drop_index()
            first.append(timed([ccv, "search", w, tree]))
        print("%s thread(s) %-14s grep -rliF %5.0f ms | first query (no index) %5.0f ms: %.2fx (target <= 1x), peak %d MB"
              % (threads, w, statistics.median(g), statistics.median(x[0] for x in first),
                 statistics.median(x[0] for x in first) / statistics.median(g), max(x[1] for x in first)))
env = base_env
# the build against a cold listing (empty cache) of the same tree, and
# the build's floors, in turns
builds, listings, texts, listed = [], [], [], []
threads = env.get("CCV_THREADS") or str(min(os.cpu_count() or 1, 8))
for _ in range(3):
    drop_index()
    builds.append(timed([ccv, "index", tree]))
    for f in os.listdir(home + "/cache/ccv"):
        if f.startswith("sessions"):
            os.remove(os.path.join(home + "/cache/ccv", f))
    listings.append(timed([ccv, "list", "--json", tree])[0])
    texts.append(timed([floor, "texts", threads, tree])[0])
    listed.append(timed([floor, "words", threads, tree])[0])
t, rss = statistics.median(b[0] for b in builds), max(b[1] for b in builds)
cold = statistics.median(listings)
tx, wd = statistics.median(texts), statistics.median(listed)
print("floors of the build, no index (%s threads): every shown text walked %.2f s (%.1fx the cold listing);"
      " and its words listed once per span %.2f s (%.1fx); the build %.1fx the words listed"
      % (threads, tx / 1000, tx / cold, wd / 1000, wd / cold, t / wd))
idx = sum(os.path.getsize(os.path.join(d, f)) for v in glob.glob(home + "/cache/ccv/search-v*") for d, _, fs in os.walk(v) for f in fs)
print("index build %.2f s (cold ccv list --json %.2f s: %.1fx, target <= 1.5x), peak %d MB; index %.1f MB = %.1f%% of %.0f MB of sessions"
      % (t / 1000, cold / 1000, t / cold, rss, idx / 1e6, 100 * idx / size, size / 1e6))
for w in words:
    warm = [timed([ccv, "search", w, tree]) for _ in range(10)]
    print("%-16s indexed query median %4.0f ms (max %4.0f), peak %d MB"
          % (w, statistics.median(x[0] for x in warm), max(x[0] for x in warm), max(x[1] for x in warm)))
shutil.rmtree(home)
PY
