#!/usr/bin/env bash
# Acceptance test for OSC 52 copy through tmux: with no X11/Wayland display,
# `Y` in ccv copies the filtered transcript via OSC 52; tmux (set-clipboard
# on) turns that into a paste buffer, which must hold the transcript.
#
# Usage: tests/tmux_copy.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvcopy "$@"

# A small session; never the machine's real ~/.claude.
mkdir -p "$WORK/home" "$WORK/claude"
cat > "$WORK/s1.jsonl" <<'JSONL'
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"Fix the bug please"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/src/main.rs"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s1","timestamp":"2025-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"fn main() {}"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"r1","sessionId":"s1","timestamp":"2025-01-01T10:00:03Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Fixed it."}]}}
JSONL

tmux -L "$SOCK" -f /dev/null new-session -d -s copy -x 120 -y 40 \
  "env -u DISPLAY -u WAYLAND_DISPLAY HOME='$WORK/home' CLAUDE_CONFIG_DIR='$WORK/claude' TERM=xterm-256color '$CCV' '$WORK/s1.jsonl'; sleep 5"
tmux -L "$SOCK" set -g set-clipboard on
# With set-clipboard on, tmux stores an application's OSC 52 in a paste
# buffer even with no client attached (checked with tmux 3.3a).
for _ in $(seq 100); do
  tmux -L "$SOCK" capture-pane -p -t copy | grep -qF 'Fixed it.' && break
  sleep 0.1
done
tmux -L "$SOCK" send-keys -t copy Y
BUF=
for _ in $(seq 100); do
  BUF=$(tmux -L "$SOCK" show-buffer 2>/dev/null) && [ -n "$BUF" ] && break
  sleep 0.1
done
STATUS=$(tmux -L "$SOCK" capture-pane -p -t copy | tail -n 2)
tmux -L "$SOCK" send-keys -t copy q

if grep -qF '[User]' <<<"$BUF" && grep -qF 'Fix the bug please' <<<"$BUF" && grep -qF '[Tool Call] Read' <<<"$BUF"; then
  echo "PASS: tmux buffer holds the transcript ($(wc -c <<<"$BUF") bytes)"
  exit 0
fi
echo "FAIL: tmux buffer does not hold the transcript"
echo "--- buffer:"; printf '%s\n' "$BUF" | head -20
echo "--- status line:"; printf '%s\n' "$STATUS"
exit 1
