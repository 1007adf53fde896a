#!/usr/bin/env bash
# ccv top in a real terminal: two sessions of a generated tree are written
# to while the overview runs; their states change on screen (running a
# tool, waiting for you, failed), and Enter opens one, q comes back.
#
# Usage: tests/tmux_top.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvtop "$@"
FAIL=0
ROOT="$WORK/claude/projects"
mkdir -p "$ROOT/-src-app" "$ROOT/-src-web" "$ROOT/-src-old"
# one line of a session, chained to the previous one
line() { # file kind uuid json-body
  python3 - "$@" <<'PY'
import json, sys, datetime
f, kind, uuid, body = sys.argv[1:5]
parent = None
try:
    for l in open(f):
        try: parent = json.loads(l).get("uuid") or parent
        except ValueError: pass
except FileNotFoundError: pass
e = json.loads(body)
e.update({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s-" + f[-12:-6],
          "cwd": "/src/" + f.split("/")[-2].split("-")[-1],
          "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"})
open(f, "a").write(json.dumps(e) + "\n")
PY
}
A="$ROOT/-src-app/aaaaaaaa-0000-4000-8000-000000000001.jsonl"
B="$ROOT/-src-web/bbbbbbbb-0000-4000-8000-000000000002.jsonl"
OLD="$ROOT/-src-old/cccccccc-0000-4000-8000-000000000003.jsonl"
line "$A" user u1 '{"message":{"role":"user","content":"fix the flaky test"}}'
line "$B" user v1 '{"message":{"role":"user","content":"deploy the web app"}}'
line "$OLD" user w1 '{"message":{"role":"user","content":"an old session"}}'
touch -d '3 hours ago' "$OLD"
tmux -L "$SOCK" -f /dev/null new-session -d -s t -x 150 -y 20 \
  "env TERM=xterm-256color '$CCV' top '$ROOT'; sleep 30"
expect t "2 sessions written in the last 30 min" "the overview lists the two recent sessions, not the old one"
expect t "fix the flaky test" "a session's title"
line "$A" assistant a1 '{"message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test --test flaky"}}]}}'
expect t "Bash cargo test --test flaky" "an appended tool call shows as running"
expect t "▶ running" "its state is running"
line "$A" user u2 '{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}'
line "$A" assistant a2 '{"message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Fixed."}]}}'
line "$A" system s1 '{"subtype":"turn_duration","durationMs":4000}'
expect t "● waiting for you" "the turn's end shows as waiting"
line "$B" assistant b1 '{"isApiErrorMessage":true,"message":{"id":"x","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error: 529 overloaded"}]}}'
expect t "✗ failed" "an API error shows as failed"
expect t "529 overloaded" "with its message"
tmux -L "$SOCK" send-keys -t t g Enter
expect t "FOLLOW" "Enter opens the selected session, following its end"
tmux -L "$SOCK" send-keys -t t q
expect t "ccv top" "q comes back to the overview"
exit $FAIL
