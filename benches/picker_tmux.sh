#!/usr/bin/env bash
# The picker's cold scan in the TUI, through tmux, on the generated
# 2,000-session tree with an empty cache: the time to the first session row,
# to the whole list (no `scanning…`), and how long a key pressed during the
# scan takes to move the selection; `ccv list --json` with an empty cache in
# the same run for comparison.
#
# Usage: benches/picker_tmux.sh [path/to/ccv]   (default: target/release/ccv)
set -eu
. "$(dirname "$0")/tree_lib.sh" "$@"
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
W=$(mktemp -d); SOCK=ccvpick$$
trap 'tmux -L $SOCK kill-server 2>/dev/null || true; rm -rf "$W"' EXIT
export HOME=$W XDG_CONFIG_HOME=$W/config XDG_STATE_HOME=$W/state CLAUDE_CONFIG_DIR=$W/claude
cat "$TREE"/*/*.jsonl > /dev/null
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
pane() { tmux -L $SOCK capture-pane -p -t t 2>/dev/null; }
first=(); done_=(); key=(); list=()
for i in 1 2 3 4 5; do
  rm -rf "$W/cache"; mkdir -p "$W/cache"
  t0=$(date +%s%N)
  XDG_CACHE_HOME=$W/cache "$CCV" list --json "$TREE" > /dev/null
  list+=($(ms $t0))
  rm -rf "$W/cache"; mkdir -p "$W/cache"
  t0=$(date +%s%N)
  tmux -L $SOCK -f /dev/null new-session -d -s t -x 140 -y 40 \
    "env XDG_CACHE_HOME=$W/cache TERM=xterm-256color '$CCV' --theme dark '$TREE'"
  until pane | grep -q "^▸"; do sleep 0.002; done
  first+=($(ms $t0))
  # a key during the scan: the selection leaves the first row
  sel=$(pane | grep -n "^▸" | cut -d: -f1)
  t1=$(date +%s%N)
  tmux -L $SOCK send-keys -t t Down
  until [ "$(pane | grep -n "^▸" | cut -d: -f1)" != "$sel" ]; do sleep 0.002; done
  key+=($(ms $t1))
  until ! pane | head -1 | grep -q "scanning"; do sleep 0.005; done
  done_+=($(ms $t0))
  tmux -L $SOCK kill-server 2>/dev/null || true
  sleep 0.3
done
echo "picker in tmux, 2000 sessions, empty cache: first row ${first[*]} ms; whole list ${done_[*]} ms; a key during the scan moved the selection after ${key[*]} ms"
echo "ccv list --json, empty cache, same runs: ${list[*]} ms"
