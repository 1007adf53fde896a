#!/usr/bin/env bash
# `ccv export --all` against its baselines, in the same run: claude-code-log
# `--all-projects` (PyPI; its venv at $CCL, default /tmp/cclvenv, made if
# missing when pip can reach PyPI; it writes a cache into the projects
# folder, so it runs on a copy) and the sum of `ccv export --format html`
# of every session one by one. On a tree of ../shared/corpus and on
# `gen-session --tree --scale 0.2`: cold (empty output and caches) and
# warm (nothing changed) times, output size, peak RSS.
#
# Usage: benches/archive.sh [path/to/ccv]   (default: target/release/ccv)
set -u
CCV=$(cd "$(dirname "${1:-target/release/ccv}")" && pwd)/$(basename "${1:-target/release/ccv}")
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED="$HERE/../../shared"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CCL=${CCL:-/tmp/cclvenv}
if [ ! -x "$CCL/bin/claude-code-log" ]; then
  python3 -m venv "$CCL" >/dev/null 2>&1 && "$CCL/bin/pip" install -q claude-code-log >/dev/null 2>&1
fi
HAVE_CCL=0; [ -x "$CCL/bin/claude-code-log" ] && HAVE_CCL=1
# the environment of a run: caches of its own (`$1`), never the real home
sandbox() { echo env HOME="$WORK/home" XDG_CACHE_HOME="$WORK/cache$1" XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config" CLAUDE_CONFIG_DIR="$WORK/none"; }
now() { python3 -c 'import time; print(time.perf_counter())'; }
# seconds and peak RSS (KB) of a command
timed() { /usr/bin/time -f '%e %M' -o "$WORK/t" "$@" >/dev/null 2>&1; cat "$WORK/t"; }

bench() { # name root
  local name=$1 root=$2
  local n; n=$(find "$root" -name '*.jsonl' -not -path '*/subagents/*' -not -name 'agent-*' | wc -l)
  local mb; mb=$(du -sm "$root" | cut -f1)
  read -r cold rss < <(timed $(sandbox 1) "$CCV" export --all "$WORK/out-$name" "$root")
  local size; size=$(du -sk "$WORK/out-$name" | cut -f1)
  read -r warm _ < <(timed $(sandbox 1) "$CCV" export --all "$WORK/out-$name" "$root")
  local t0 t1 sum
  t0=$(now)
  find "$root" -name '*.jsonl' -not -path '*/subagents/*' -not -name 'agent-*' -print0 |
    while IFS= read -r -d '' f; do $(sandbox 2) "$CCV" export --format html "$f" >/dev/null 2>&1; done
  t1=$(now)
  sum=$(python3 -c "print(round($t1-$t0,2))")
  printf '%s: %d sessions, %d MB\n' "$name" "$n" "$mb"
  printf '  ccv --all cold %.2f s (peak %d MB, %d KB written), warm %.2f s; sum of single exports %.2f s: cold / sum = %.2f\n' \
    "$cold" $((rss / 1024)) "$size" "$warm" "$sum" "$(python3 -c "print($cold/$sum if $sum else 0)")"
  if [ "$HAVE_CCL" = 1 ]; then
    cp -r "$root" "$WORK/copy-$name"
    read -r ccold crss < <(timed env HOME="$WORK/home" "$CCL/bin/claude-code-log" convert "$WORK/copy-$name" --all-projects -o "$WORK/ccl-$name")
    local csize; csize=$(du -sk "$WORK/ccl-$name" 2>/dev/null | cut -f1)
    read -r cwarm _ < <(timed env HOME="$WORK/home" "$CCL/bin/claude-code-log" convert "$WORK/copy-$name" --all-projects -o "$WORK/ccl-$name")
    printf '  claude-code-log cold %.2f s (peak %d MB, %d KB written), warm %.2f s: ccv cold is %.3f of it, size %.2f of it\n' \
      "$ccold" $((crss / 1024)) "${csize:-0}" "$cwarm" "$(python3 -c "print($cold/$ccold if $ccold else 0)")" "$(python3 -c "print($size/${csize:-1})")"
  else
    echo "  claude-code-log: not installed (pip could not reach PyPI): skipped"
  fi
}

if [ -d "$SHARED/corpus" ]; then
  mkdir -p "$WORK/corpus"
  for f in "$SHARED"/corpus/*.jsonl; do
    b=$(basename "$f"); p=${b%%__*}
    mkdir -p "$WORK/corpus/-$p"; cp "$f" "$WORK/corpus/-$p/"
  done
  bench corpus "$WORK/corpus"
else
  echo "SKIP corpus: $SHARED/corpus is absent"
fi
if [ -f "$SHARED/bench/gen-session" ]; then
  $(sandbox 0) python3 "$SHARED/bench/gen-session" --tree "$WORK/gen" --scale 0.2 -q
  bench generated "$WORK/gen"
else
  echo "SKIP generated: gen-session is absent"
fi
