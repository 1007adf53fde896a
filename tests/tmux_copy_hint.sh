#!/usr/bin/env bash
# What a copy says in tmux: the hint to turn set-clipboard on shows while
# tmux needs it, and goes once it is set; a visual range says the rows it
# was made of and the entries the copy holds.
#
# Usage: tests/tmux_copy_hint.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvhint "$@"
FAIL=0
mkdir -p "$WORK/home" "$WORK/claude"
cat > "$WORK/s1.jsonl" <<'JSONL'
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"Fix the bug please"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/src/main.rs"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s1","timestamp":"2025-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"fn main() {}"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"r1","sessionId":"s1","timestamp":"2025-01-01T10:00:03Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Fixed it."}]}}
{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"s1","timestamp":"2025-01-01T10:00:04Z","message":{"role":"user","content":"Thanks"}}
JSONL
tmux -L "$SOCK" -f /dev/null new-session -d -s c -x 120 -y 30 \
  "env -u DISPLAY -u WAYLAND_DISPLAY HOME='$WORK/home' CLAUDE_CONFIG_DIR='$WORK/claude' TERM=xterm-256color '$CCV' '$WORK/s1.jsonl'; sleep 5"
tmux -L "$SOCK" set -g set-clipboard off
expect c "Fixed it." "the session shows"
tmux -L "$SOCK" send-keys -t c y
expect c "set -g set-clipboard on" "the hint while tmux drops the copy"
tmux -L "$SOCK" set -g set-clipboard on
tmux -L "$SOCK" send-keys -t c y
expect c "via OSC 52" "copied again"
pane c | tail -1 | grep -qF "set-clipboard" && { echo "FAIL: the hint stays once set"; FAIL=1; }
# a visual range of 4 rows: the rows and the entries
tmux -L "$SOCK" send-keys -t c g g v j j j y
expect c "Copied 4 rows: " "a range says its rows"
pane c | tail -1 | grep -qE "4 rows: [0-9]+ entries" || { echo "FAIL: $(pane c | tail -1)"; FAIL=1; }
tmux -L "$SOCK" send-keys -t c q
exit $FAIL
