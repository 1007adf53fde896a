#!/usr/bin/env bash
# Prompts edit as readline does, in a real terminal: the picker's filter
# and the viewer's `/` take Ctrl-W, Ctrl-U, Ctrl-A, Alt-B; the picker's
# list moves on Ctrl-J / Ctrl-K; a search comes back with Up, in this run
# and the next (the history is kept in the state directory, 0600).
#
# Usage: tests/tmux_prompts.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvprompts "$@"
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
  line a1 assistant "the quokka bug is in the lexer" 2025-03-01T10:01:00Z
} > "$ROOT/-srv-app/s1.jsonl"
line w1 user "Deploy the site" 2025-03-02T10:00:00Z > "$ROOT/-srv-web/s2.jsonl"

tmux -L "$SOCK" -f /dev/null new-session -d -s p -x 120 -y 30 "$ENV '$CCV'; sleep 30"
expect p "Fix the parser" "the picker lists the sessions"
tmux -L "$SOCK" send-keys -t p "deploy the parser"
tmux -L "$SOCK" send-keys -t p C-w
expect p "filter: deploy the" "Ctrl-W deletes the word before the cursor"
pane p | grep -qF "deploy the parser" && { echo "FAIL: Ctrl-W left the word"; FAIL=1; }
tmux -L "$SOCK" send-keys -t p C-u
tmux -L "$SOCK" send-keys -t p "site"
tmux -L "$SOCK" send-keys -t p C-a
tmux -L "$SOCK" send-keys -t p "the "
expect p "filter: the site" "Ctrl-U clears, Ctrl-A goes to the start"
tmux -L "$SOCK" send-keys -t p C-u "deploy"
expect p "1 of 2 sessions" "the header counts what the filter lets through"
tmux -L "$SOCK" send-keys -t p C-u
expect p "2 sessions" "an empty filter lets all through"
tmux -L "$SOCK" send-keys -t p C-j
tmux -L "$SOCK" send-keys -t p C-k Enter
expect p "Deploy the site" "Ctrl-J / Ctrl-K move the list, Enter opens"
tmux -L "$SOCK" send-keys -t p "/" "quokka lexer"
tmux -L "$SOCK" send-keys -t p C-w
expect p "/quokka" "Ctrl-W in the search prompt"
[ "$(pane p | tail -1 | sed 's/ *$//')" = " /quokka" ] || { echo "FAIL: Ctrl-W left: $(pane p | tail -1)"; FAIL=1; }
tmux -L "$SOCK" send-keys -t p Escape
tmux -L "$SOCK" send-keys -t p "/" "site" Enter
expect p "match 1/1" "the search runs"
tmux -L "$SOCK" send-keys -t p "/" Up
expect p "/site" "Up brings the last search back"
tmux -L "$SOCK" send-keys -t p Escape q q
sleep 0.5
HIST="$WORK/state/ccv/history/search"
[ -f "$HIST" ] && grep -qx site "$HIST" || { echo "FAIL: no search history in $HIST"; FAIL=1; }
mode=$(stat -c %a "$HIST" 2>/dev/null || stat -f %Lp "$HIST")
[ "$mode" = 600 ] || { echo "FAIL: history mode $mode"; FAIL=1; }
# the next run has it
tmux -L "$SOCK" new-session -d -s q -x 120 -y 30 "$ENV '$CCV' '$ROOT/-srv-web/s2.jsonl'; sleep 30"
expect q "Deploy the site" "a second run opens"
tmux -L "$SOCK" send-keys -t q "/" Up
expect q "/site" "the history outlives the run"
tmux -L "$SOCK" send-keys -t q Escape q
exit $FAIL
