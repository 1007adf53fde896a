#!/usr/bin/env bash
# Every key counts: 2,000 Up keys sent in one burst (as from a held key
# over SSH) move the selection 2,000 rows, and 1,000 more `j` move it back
# 1,000. (crossterm's default event source reads a burst of more than
# 1 KB only in part; ccv uses its level-triggered /dev/tty source.)
#
# Usage: tests/tmux_keys.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvkeys "$@"
FAIL=0
for i in $(seq 2201); do
  printf '{"type":"user","uuid":"u%s","sessionId":"s","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"prompt %s"}}\n' "$i" "$i"
done > "$WORK/s.jsonl"
tmux -L "$SOCK" -f /dev/null new-session -d -s k -x 120 -y 30 \
  "env HOME='$WORK/home' XDG_CACHE_HOME='$WORK/cache' XDG_STATE_HOME='$WORK/state' TERM=xterm-256color '$CCV' '$WORK/s.jsonl'; sleep 30"
expect k "2201/2201" "the session is shown at its end"
tmux -L "$SOCK" send-keys -t k $(printf 'Up %.0s' $(seq 2000))
expect k " 201/2201" "2,000 Up keys in one burst move 2,000 rows"
tmux -L "$SOCK" send-keys -t k $(printf 'j %.0s' $(seq 1000))
expect k " 1201/2201" "1,000 j keys move 1,000 rows"
# a burst of 100 wheel turns (a trackpad's) moves the screen 300 lines:
# coalesced into one frame, all past the first screen was lost
head_prompt() { pane k | sed -n 3p | grep -o 'prompt [0-9]*' | cut -d' ' -f2; }
P=$(head_prompt)
tmux -L "$SOCK" send-keys -t k -l "$(printf '\e[<65;30;10M%.0s' $(seq 100))"
expect k "prompt $((P + 300))" "100 wheel turns in one burst move 300 lines"
sleep 0.3
Q=$(head_prompt)
[ "$Q" = "$((P + 300))" ] && echo "ok: the head of the screen is prompt $Q" ||
  { echo "FAIL: the head of the screen is prompt $Q, not $((P + 300))"; FAIL=1; }
exit $FAIL
