#!/usr/bin/env bash
# Grapheme clusters in a real terminal. A zero-width joiner that joins
# nothing (`a` + U+200D + `b`, one at the end of a text): tmux joins the
# next character it is sent to it, wherever ccv meant it to go, and the
# screen drifted from what ccv drew (a row's `❯` one column off, a letter
# of the status bar gone). A letter under 5,000 combining marks in the
# title (one cluster, one cell: cut to its first 64 bytes, it no longer
# sends 10 KB at every redraw of its row). Every row's text must start in
# the same column, whole, and the rule under the header must be whole.
#
# Usage: tests/tmux_clusters.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvclusters "$@"
FAIL=0
J=$(printf '\xe2\x80\x8d')
M=$(printf '\xcc\x81%.0s' $(seq 5000))
# the prompts open with the long cluster (the header shows the first), the
# answers hold the joiners
PROMPT="AAA e${M} BBB CCC"
TEXT="AAA a${J}b ${J}${J}${J} BBB CCC${J}"
: > "$WORK/s.jsonl"
prev=null
for i in 0 1 2 3 4 5; do
  printf '{"type":"user","message":{"role":"user","content":"%s"},"uuid":"u%s","parentUuid":%s,"timestamp":"2026-01-01T00:00:0%sZ","sessionId":"s"}\n' "$PROMPT" $i "$prev" $i >> "$WORK/s.jsonl"
  printf '{"type":"assistant","message":{"id":"m%s","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"%s"}],"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"a%s","parentUuid":"u%s","timestamp":"2026-01-01T00:00:0%sZ"}\n' $i "$TEXT" $i $i $i >> "$WORK/s.jsonl"
  prev="\"a$i\""
done
tmux -L "$SOCK" -f /dev/null new-session -d -s j -x 100 -y 30 "env TERM=xterm-256color '$CCV' '$WORK/s.jsonl'; sleep 30"
expect j "FOLLOW" "the session is shown"
tmux -L "$SOCK" send-keys -t j g j k
sleep 0.5
rows=$(pane j | grep -F "AAA" | grep -E "User|Assistant")
if [ "$(printf '%s\n' "$rows" | wc -l)" -lt 12 ]; then
  echo "FAIL: not every row is on screen"; pane j; FAIL=1
fi
columns=$(printf '%s\n' "$rows" | awk '{ print index($0, "AAA") }' | sort -u | wc -l)
if [ "$columns" -ne 1 ]; then
  echo "FAIL: the rows' texts start in $columns different columns"; pane j; FAIL=1
else
  echo "ok: every row's text starts in the same column"
fi
if printf '%s\n' "$rows" | grep -vqF "BBB CCC"; then
  echo "FAIL: a row lost letters"; pane j; FAIL=1
else
  echo "ok: every row is whole"
fi
rule=$(pane j | sed -n 2p)
if [ "$rule" != "$(printf '─%.0s' $(seq 100))" ]; then
  echo "FAIL: the rule under the header is not whole: $rule"; FAIL=1
else
  echo "ok: the rule under the header is whole"
fi
exit $FAIL
