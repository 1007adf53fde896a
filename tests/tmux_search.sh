#!/usr/bin/env bash
# The picker's full-text mode through the real binary in tmux: Ctrl-F,
# type, the hit shows with its session; Enter opens that session on the
# matching row (the match counted for n / N); q comes back to the hits;
# a session that grows is found without a restart.
#
# Usage: tests/tmux_search.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvsearch "$@"
ENV="env HOME='$WORK/home' CLAUDE_CONFIG_DIR='$WORK/claude' XDG_CACHE_HOME='$WORK/cache' XDG_STATE_HOME='$WORK/state' XDG_CONFIG_HOME='$WORK/config' TERM=xterm-256color"
FAIL=0

line() { # uuid type text ts
  if [ "$2" = user ]; then
    printf '{"type":"user","uuid":"%s","sessionId":"s","cwd":"/srv/app","timestamp":"%s","message":{"role":"user","content":"%s"}}\n' "$1" "$4" "$3"
  else
    printf '{"type":"assistant","uuid":"%s","sessionId":"s","timestamp":"%s","message":{"id":"m%s","role":"assistant","content":[{"type":"text","text":"%s"}]}}\n' "$1" "$4" "$1" "$3"
  fi
}
ROOT="$WORK/claude/projects"
mkdir -p "$ROOT/-srv-app" "$ROOT/-srv-web"
{
  line u1 user "Fix the parser" 2025-03-01T10:00:00Z
  for i in $(seq 2 60); do line "a$i" assistant "filler answer number $i" 2025-03-01T10:00:0${i: -1}Z; done
  line a61 assistant "the quokka bug is in the lexer" 2025-03-01T10:01:00Z
  line a62 assistant "a last word" 2025-03-01T10:01:01Z
} > "$ROOT/-srv-app/s1.jsonl"
line w1 user "Deploy the site" 2025-03-02T10:00:00Z > "$ROOT/-srv-web/s2.jsonl"

tmux -L "$SOCK" -f /dev/null new-session -d -s p -x 120 -y 30 "$ENV '$CCV'; sleep 30"
expect p "Fix the parser" "the picker lists the sessions"
tmux -L "$SOCK" send-keys -t p C-f
expect p "search all sessions" "Ctrl-F opens the full-text mode"
tmux -L "$SOCK" send-keys -t p quokka
expect p "the quokka bug is in the lexer" "the hit shows with its snippet"
expect p "1 hit" "the hit is counted"
tmux -L "$SOCK" send-keys -t p Enter
expect p "match 1/1" "Enter opens the session at the match"
expect p "the quokka bug is in the lexer" "the matching row is on screen"
pane p | grep -qF "filler answer number 2 " && { echo "FAIL: the view did not move to the match"; FAIL=1; }
tmux -L "$SOCK" send-keys -t p q
expect p "search all sessions: quokka" "q comes back to the hits"
# a session that grows is searched without a restart
line w2 assistant "a second quokka, on the web" 2025-03-02T10:00:05Z >> "$ROOT/-srv-web/s2.jsonl"
# (appends are read at most every 2 s while typing)
sleep 2.2
tmux -L "$SOCK" send-keys -t p BSpace
tmux -L "$SOCK" send-keys -t p a
expect p "a second quokka, on the web" "an append is found"
expect p "2 hits" "both are counted"
tmux -L "$SOCK" send-keys -t p Escape
expect p "filter:" "Esc goes back to the list"
# a session made since the last query is found by the first query of
# the search opened again: the search's opening (an empty query) does
# not take that query's turn to bring the index up to date
for _ in $(seq 100); do [ -f "$WORK/cache/ccv/search-v9/files.bin" ] && break; sleep 0.1; done
mkdir -p "$ROOT/-srv-new"
line n1 user "the wombat plan" 2025-03-03T10:00:00Z > "$ROOT/-srv-new/s3.jsonl"
sleep 2.2
tmux -L "$SOCK" send-keys -t p C-f
tmux -L "$SOCK" send-keys -t p C-u wombat
expect p "the wombat plan" "a session made meanwhile is found at once"
tmux -L "$SOCK" send-keys -t p Escape
expect p "filter:" "Esc goes back to the list"
tmux -L "$SOCK" send-keys -t p Escape
# with no index made in the background, the picker does not say one is
tmux -L "$SOCK" new-session -d -s q -x 120 -y 30 "env HOME='$WORK/home' CLAUDE_CONFIG_DIR='$WORK/claude' XDG_CACHE_HOME='$WORK/cache2' XDG_STATE_HOME='$WORK/state' XDG_CONFIG_HOME='$WORK/config' TERM=xterm-256color CCV_NO_BACKGROUND_INDEX=1 '$CCV'; sleep 30"
expect q "Fix the parser" "the picker lists the sessions"
tmux -L "$SOCK" send-keys -t q C-f
tmux -L "$SOCK" send-keys -t q quokka
expect q "2 hits" "the hits are counted"
pane q | grep -qF "indexing" && { echo "FAIL: no index is being made, yet the picker says so"; FAIL=1; }
tmux -L "$SOCK" send-keys -t q Escape
tmux -L "$SOCK" send-keys -t q Escape
exit $FAIL
