#!/usr/bin/env bash
# One text of N MB in one entry (an answer of markdown, a tool's output of
# one line, a prompt pasted whole): the viewer opened on it in tmux (peak
# RSS once drawn, after G and after z), `ccv export` and `ccv export
# --format html` (time and peak RSS), each against a plain python
# json.loads of the same file in the same run (which holds the text once).
# A row draws the head of such a text (see src/rows/clip.rs), and a long
# markdown text is made HTML a piece at a time.
#
# Usage: benches/giant_texts.sh [path/to/ccv] [MB]   (default: target/release/ccv 50)
set -eu
CCV=$(realpath "${1:-target/release/ccv}")
MB=${2:-50}
command -v tmux > /dev/null || { echo "giant_texts: tmux not found, skipped"; exit 0; }
W=$(mktemp -d); trap 'tmux kill-session -t ccv-giant 2>/dev/null; rm -rf "$W"' EXIT
export HOME=$W XDG_CONFIG_HOME=$W XDG_CACHE_HOME=$W XDG_STATE_HOME=$W CLAUDE_CONFIG_DIR=$W
python3 - "$W" "$MB" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2]) << 20
def line(t, u, p, msg):
    return {"type": t, "uuid": u, "parentUuid": p, "sessionId": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/x", "message": msg}
ask = line("user", "u1", None, {"role": "user", "content": "go"})
def answer(u, p, text):
    return line("assistant", u, p, {"id": "m" + u, "model": "claude-opus-4-5", "role": "assistant",
        "content": [{"type": "text", "text": text}], "usage": {"input_tokens": 1, "output_tokens": 1}})
md = "".join("## Part %d\n\nSome *text* and `code`.\n\n" % i for i in range(n // 36))
call = line("assistant", "a1", "u1", {"id": "m1", "model": "claude-opus-4-5", "role": "assistant",
    "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat big.log"}}],
    "usage": {"input_tokens": 1, "output_tokens": 1}})
out = line("user", "r1", "a1", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "y" * n}]})
shapes = {
    "answer": [ask, answer("a1", "u1", md)],
    "output": [ask, call, out, answer("a2", "r1", "done")],
    "prompt": [line("user", "u1", None, {"role": "user", "content": "x" * n}), answer("a1", "u1", "ok")],
}
for name, lines in shapes.items():
    with open("%s/%s.jsonl" % (d, name), "w") as f:
        f.writelines(json.dumps(l) + "\n" for l in lines)
PY
peak() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$1/status" 2>/dev/null || echo 0; }
for f in "$W"/*.jsonl; do
  name=$(basename "$f" .jsonl)
  t0=$(date +%s%N); /usr/bin/time -f %M -o "$W/p1" python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$f"; t1=$(date +%s%N)
  /usr/bin/time -f %M -o "$W/p2" "$CCV" export "$f" > /dev/null; t2=$(date +%s%N)
  /usr/bin/time -f %M -o "$W/p3" "$CCV" export --format html "$f" > /dev/null; t3=$(date +%s%N)
  printf '%-7s %3d MB: python json.loads %5d ms (peak %4d MB) | ccv export %5d ms (peak %4d MB), html %5d ms (peak %4d MB)\n' "$name" "$MB" \
    $(( (t1-t0)/1000000 )) $(( $(tail -1 "$W/p1") / 1024 )) $(( (t2-t1)/1000000 )) $(( $(tail -1 "$W/p2") / 1024 )) $(( (t3-t2)/1000000 )) $(( $(tail -1 "$W/p3") / 1024 ))
  tmux kill-session -t ccv-giant 2>/dev/null || true
  tmux new-session -d -s ccv-giant -x 120 -y 40 "env HOME=$W TERM=xterm-256color $CCV $f; sleep 60"
  pid=""
  for _ in $(seq 100); do pid=$(pgrep -f "^$CCV $f" | head -1); [ -n "$pid" ] && break; sleep 0.05; done
  sleep 3; open=$(peak "$pid")
  # the row of the text selected, then shown whole
  tmux send-keys -t ccv-giant g; tmux send-keys -t ccv-giant j; [ "$name" = output ] && tmux send-keys -t ccv-giant Enter
  sleep 2; shown=$(peak "$pid")
  tmux send-keys -t ccv-giant z; sleep 3; whole=$(peak "$pid")
  printf '%-7s %3d MB: viewer peak %4d MB drawn, %4d MB opened, %4d MB after z\n' "$name" "$MB" "$open" "$shown" "$whole"
  tmux kill-session -t ccv-giant
done
