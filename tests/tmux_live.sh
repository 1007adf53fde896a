#!/usr/bin/env bash
# Live follow through the real binary in tmux: appends show up, a project
# directory offers a newer session (`>` opens it, `<` goes back), a
# rewritten file is reloaded, and `ccv -` shows a pipe to its end.
#
# Usage: tests/tmux_live.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvlive "$@"
ENV="env HOME='$WORK/home' CLAUDE_CONFIG_DIR='$WORK/claude' TERM=xterm-256color"
FAIL=0

user() { # uuid text
  printf '{"type":"user","uuid":"%s","sessionId":"s","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"%s"}}\n' "$1" "$2"
}
start() { # name command...
  local name=$1; shift
  tmux -L "$SOCK" -f /dev/null new-session -d -s "$name" -x 120 -y 30 "$ENV $*; sleep 30"
}

# 1. a file: appends appear, follow stays at the bottom
mkdir -p "$WORK/proj"
user u1 "first prompt" > "$WORK/proj/a.jsonl"
start file "'$CCV' '$WORK/proj/a.jsonl'"
expect file "first prompt" "the session is shown"
user u2 "appended while watching" >> "$WORK/proj/a.jsonl"
expect file "appended while watching" "an append is shown"
printf '{"type":"user","uuid":"u3","sessionId":"s","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"split ' >> "$WORK/proj/a.jsonl"
sleep 0.3
printf 'across writes"}}\n' >> "$WORK/proj/a.jsonl"
expect file "split across writes" "a line written in two parts is shown once complete"
# 2. rewritten: reload
{ user u1 "first prompt"; user u9 "rewritten content"; } > "$WORK/proj/a.jsonl.tmp"
mv "$WORK/proj/a.jsonl.tmp" "$WORK/proj/a.jsonl"
expect file "rewritten content" "a replaced file is re-read"
tmux -L "$SOCK" send-keys -t file q

# 3. a project directory: a newer session is offered, > opens it, < goes back
start proj "'$CCV' '$WORK/proj'"
expect proj "rewritten content" "the project's newest session is shown"
sleep 1.1
user n1 "hello from the new session" > "$WORK/proj/b.jsonl"
expect proj "newer session" "a newer session is announced"
tmux -L "$SOCK" send-keys -t proj '>'
expect proj "hello from the new session" "> opens the newer session"
tmux -L "$SOCK" send-keys -t proj '<'
expect proj "rewritten content" "< goes back"
tmux -L "$SOCK" send-keys -t proj q

# 4. stdin: a pipe shown as it arrives, to its end
{ user p1 "from the pipe"; user p2 "later in the pipe"; } > "$WORK/pipe.jsonl"
start pipe "sh -c \"{ head -1 '$WORK/pipe.jsonl'; sleep 1; tail -1 '$WORK/pipe.jsonl'; } | '$CCV' -\""
expect pipe "from the pipe" "stdin is shown"
expect pipe "later in the pipe" "stdin is followed"
expect pipe "ended" "the end of input is reported"
tmux -L "$SOCK" send-keys -t pipe q

# 5. a copy made now of an old session: followed, but not live (its
# newest entry is of 2025), until a line is appended to it
user c1 "copied today" > "$WORK/copy.jsonl"
start copy "'$CCV' '$WORK/copy.jsonl'"
expect copy "last written 2025-01-01" "a copy of an old session says when it was written"
if pane copy | grep -qF "● live"; then echo "FAIL: a copy made now is called live"; FAIL=1
else echo "ok: a copy made now is not live"; fi
user c2 "written today" >> "$WORK/copy.jsonl"
expect copy "● live" "an append makes it live"
tmux -L "$SOCK" send-keys -t copy q

[ $FAIL = 0 ] && echo "PASS" && exit 0
exit 1
