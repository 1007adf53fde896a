#!/usr/bin/env bash
# `ccv --redact` for sharing a screen: a key in a session's title, its
# prompt and its branch is redacted in the picker's list, in its full-text
# hits and in the session opened; piped, the text is redacted too. Without
# the flag the list shows it (the key is real-shaped, made when the test
# runs: none sits in the repository).
#
# Usage: tests/tmux_redact.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvred "$@"
FAIL=0
BODY=$(head -c 400 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 93)
KEY="sk-ant-api03-${BODY}AA"
SEEN=${BODY:0:24}
mkdir -p "$WORK/proj/-srv-app"
F="$WORK/proj/-srv-app/22222222-2222-2222-2222-222222222222.jsonl"
{
  printf '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/srv/app","gitBranch":"main","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"call the api with %s now"}}\n' "$KEY"
  printf '{"type":"custom-title","customTitle":"key %s","sessionId":"s"}\n' "$KEY"
  printf '{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1,"output_tokens":1}}}\n'
} > "$F"

run() { # window flag
  tmux -L "$SOCK" -f /dev/null new-session -d -s "$1" -x 140 -y 30 \
    "env CCV_NO_BACKGROUND_INDEX=1 '$CCV' $2 '$WORK/proj'; sleep 30"
}
leaks() { pane "$1" | grep -qF -- "$SEEN"; }

run plain ""
expect plain "key sk-ant" "without --redact the list shows the title as written"
leaks plain || { echo "FAIL: the key was expected on screen without --redact"; FAIL=1; }

run red "--redact"
expect red "[REDACTED:anthropic-api-key]" "the list shows the title redacted"
if leaks red; then echo "FAIL: the list shows the key"; FAIL=1; else echo "ok: no key in the list"; fi
tmux -L "$SOCK" send-keys -t red C-f
sleep 0.3
tmux -L "$SOCK" send-keys -t red "call"
expect red "User" "a full-text hit"
if leaks red; then echo "FAIL: the hits show the key"; FAIL=1; else echo "ok: no key in the hits"; fi
tmux -L "$SOCK" send-keys -t red Enter
expect red "call the api with [REDACTED" "the session opened at the hit, redacted"
if leaks red; then echo "FAIL: the session shows the key"; FAIL=1; else echo "ok: no key in the session"; fi

OUT=$("$CCV" --redact "$F" 2>/dev/null)
if printf '%s' "$OUT" | grep -qF -- "$SEEN"; then echo "FAIL: piped, the key is printed"; FAIL=1
else echo "ok: piped, redacted"; fi
exit $FAIL
