#!/usr/bin/env bash
# The picker's full-text search (Ctrl-F) before any index exists, through
# tmux, on the generated 2,000-session tree: the time from the query typed
# to its hits on screen, for a rare word, a common one and a phrase,
# against `grep -rliF` of the same words in the same run (medians of 5).
# The listing cache is warm (a second start); no index is built meanwhile
# (CCV_NO_BACKGROUND_INDEX), so every run is a first search.
#
# Usage: benches/picker_search_tmux.sh [path/to/ccv]   (default: target/release/ccv)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
W=$(mktemp -d); SOCK=ccvpsearch$$
trap 'tmux -L $SOCK kill-server 2>/dev/null || true; rm -rf "$W"' EXIT
export HOME=$W XDG_CONFIG_HOME=$W/config XDG_STATE_HOME=$W/state CLAUDE_CONFIG_DIR=$W/claude
export XDG_CACHE_HOME=$W/cache CCV_NO_BACKGROUND_INDEX=1
cat "$TREE"/*/*.jsonl > /dev/null
"$CCV" list --json "$TREE" > /dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
pane() { tmux -L $SOCK capture-pane -p -t t 2>/dev/null; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
for word in proportional error '"memory usage"'; do
  shown=(); grep_=()
  for i in 1 2 3 4 5; do
    rm -rf "$W/cache/ccv/search-v"*
    tmux -L $SOCK -f /dev/null new-session -d -s t -x 140 -y 40 \
      "env TERM=xterm-256color '$CCV' --theme dark '$TREE'"
    until pane | grep -q "^▸"; do sleep 0.01; done
    tmux -L $SOCK send-keys -t t C-f
    until pane | head -1 | grep -q "search all sessions"; do sleep 0.01; done
    t0=$(date +%s%N)
    tmux -L $SOCK send-keys -t t -l "$word"
    # the header names the query and what it found
    until pane | head -1 | grep -F "$word" | grep -q "hits\|no match"; do sleep 0.002; done
    shown+=($(ms $t0))
    tmux -L $SOCK kill-server 2>/dev/null || true
    plain=${word//\"/}
    t0=$(date +%s%N); grep -rliF "$plain" "$TREE" > /dev/null || true; grep_+=($(ms $t0))
  done
  s=$(median "${shown[@]}"); g=$(median "${grep_[@]}")
  python3 -c "import sys; s, g = int(sys.argv[2]), int(sys.argv[3]); print('picker Ctrl-F %-16s %5d ms   grep -rliF %5d ms   %.2fx' % (sys.argv[1], s, g, s / max(g, 1)))" "$word" "$s" "$g"
done
