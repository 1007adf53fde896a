#!/usr/bin/env bash
# ccv top through tmux: a generated tree of 2,000 sessions (made 2 hours
# old) with 10 of them appended to by `gen-session --live`; the time to the
# first screen listing them, the time from an append to its row on
# screen, and the CPU ticks of 10 idle seconds.
#
# Usage: benches/top_tmux.sh [path/to/ccv]   (default: target/release/ccv)
set -eu
CCV=$(realpath "${1:-target/release/ccv}")
GEN="$(dirname "$0")/../../shared/bench/gen-session"
[ -f "$GEN" ] || { echo "SKIP: $GEN is absent"; exit 0; }
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 0; }
W=$(mktemp -d); SOCK=ccvtopbench$$
trap 'tmux -L $SOCK kill-server 2>/dev/null || true; pkill -f "gen-session --live $W" 2>/dev/null || true; rm -rf "$W"' EXIT
export HOME=$W/home XDG_CONFIG_HOME=$W/config XDG_CACHE_HOME=$W/cache XDG_STATE_HOME=$W/state CLAUDE_CONFIG_DIR=$W/claude
ROOT=$W/tree
python3 "$GEN" --tree "$ROOT" --projects 50 --sessions 2000 --scale 0.2 --seed 1 -q
find "$ROOT" -name '*.jsonl' -exec touch -d '2 hours ago' {} +
LIVE=$(find "$ROOT" -maxdepth 2 -name '*.jsonl' | sort | head -10)
for f in $LIVE; do python3 "$GEN" --live "$f" --rate 1 --duration 12 -q >/dev/null 2>&1 & done
sleep 4  # the ten generators start (python) and write: not ccv's time
pane() { tmux -L $SOCK capture-pane -p -t t; }
t0=$(date +%s%N)
tmux -L $SOCK -f /dev/null new-session -d -s t -x 160 -y 20 "env TERM=xterm-256color '$CCV' top '$ROOT'"
until pane | grep -q "10 sessions written"; do sleep 0.005; done
echo "first screen with the 10 live sessions: $(( ($(date +%s%N) - t0) / 1000000 )) ms (through tmux, tmux start included)"
wait
F=$(echo "$LIVE" | head -1)
# the lines are made first; the timed part is one append (printf >>)
python3 - "$F" "$W/lines" <<'PY'
import json, sys, datetime
f, out = sys.argv[1:3]
parent = None
for l in open(f):
    try: parent = json.loads(l).get("uuid") or parent
    except ValueError: pass
with open(out, "w") as o:
    for i in range(10):
        m = "marker%d" % i
        e = {"type": "assistant", "uuid": m, "parentUuid": parent, "sessionId": "x",
             "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
             "message": {"id": m, "role": "assistant", "model": "claude-opus-4-6",
                         "content": [{"type": "tool_use", "id": "t" + m, "name": "Bash", "input": {"command": "echo " + m}}]}}
        o.write(json.dumps(e) + "\n")
        parent = m
PY
lat=()
i=0
while IFS= read -r l; do
  t0=$(date +%s%N)
  printf '%s\n' "$l" >> "$F"
  until pane | grep -q "echo marker$i"; do sleep 0.002; done
  lat+=($(( ($(date +%s%N) - t0) / 1000000 )))
  i=$((i+1))
  sleep 0.3
done < "$W/lines"
echo "append to row on screen: ${lat[*]} ms (tmux capture-pane polling included)"
sleep 2
PID=$(pgrep -f "$CCV top" | head -1)
a=$(awk '{print $14+$15}' /proc/$PID/stat); sleep 10; b=$(awk '{print $14+$15}' /proc/$PID/stat)
echo "CPU ticks (10 ms each) over 10 idle seconds: $((b-a))"
