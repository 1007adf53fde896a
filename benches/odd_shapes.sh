#!/usr/bin/env bash
# Files shaped oddly (no parent links, one parent for all, a chain written
# backwards, one message of N calls, N results written ahead of their calls,
# N session ids, 40N lines of `{}`, 40N objects joined on one line): `ccv export` and
# `ccv check` must stay linear, and hold a bounded multiple of the file (peak RSS). Each is
# timed against a plain `python3 -c json.loads` pass over the same lines in the same run.
# Then one line of N results saved apart, its session's `tool-results/` there: a first
# `ccv search` of it must stay linear in the line.
#
# Usage: benches/odd_shapes.sh [path/to/ccv] [LINES]   (default: target/release/ccv 50000)
set -eu
CCV=$(realpath "${1:-target/release/ccv}")
N=${2:-50000}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
# ccv finds its config, cache and projects here, never in the real home
export HOME=$W XDG_CONFIG_HOME=$W XDG_CACHE_HOME=$W XDG_STATE_HOME=$W CLAUDE_CONFIG_DIR=$W
python3 - "$W" "$N" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
def user(i, parent):
    return {"type": "user", "uuid": "u%d" % i, "parentUuid": parent, "sessionId": "s",
            "timestamp": "2025-01-01T10:00:00.000Z", "message": {"role": "user", "content": "line %d" % i}}
def assistant(i):
    return {"type": "assistant", "uuid": "a%d" % i, "sessionId": "s", "timestamp": "2025-01-01T10:00:00.000Z",
            "message": {"id": "m%d" % i, "role": "assistant", "model": "x", "content": [{"type": "text", "text": "line %d" % i}]}}
shapes = {
    "no-parents": [user(i, None) for i in range(n)],
    "no-parents-assistant": [assistant(i) for i in range(n)],
    "one-parent-for-all": [user(i, "u0" if i else None) for i in range(n)],
    "chain-backwards": [user(i, "u%d" % (i - 1) if i else None) for i in reversed(range(n))],
    "one-message-of-calls": [{"type": "assistant", "uuid": "a", "sessionId": "s", "message": {"id": "m",
        "role": "assistant", "model": "x", "content": [{"type": "tool_use", "id": "t%d" % i, "name": "Read",
        "input": {"file_path": "/f%d" % i}} for i in range(n)]}}],
    "results-ahead-of-calls": [{"type": "user", "uuid": "r%d" % i, "sessionId": "s", "message": {"role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t%d" % i, "content": "out"}]}} for i in range(n)]
        + [{"type": "assistant", "uuid": "c%d" % i, "sessionId": "s", "message": {"id": "m%d" % i, "role": "assistant",
        "model": "x", "content": [{"type": "tool_use", "id": "t%d" % i, "name": "Read", "input": {}}]}} for i in range(n)],
    "a-session-id-a-line": [dict(user(i, None), sessionId="s%d" % i) for i in range(n)],
}
for name, lines in shapes.items():
    with open("%s/%s.jsonl" % (d, name), "w") as f:
        f.writelines(json.dumps(l) + "\n" for l in lines)
# tiny lines (past 4 MB: read on every core) and objects joined on one line
with open("%s/tiny-lines.jsonl" % d, "w") as f:
    f.write("{}\n" * (40 * n))
with open("%s/joined-objects.jsonl" % d, "w") as f:
    f.write("{}" * (40 * n) + "\n")
PY
for f in "$W"/*.jsonl; do
  t0=$(date +%s%N); /usr/bin/time -f %M -o "$W/peak" "$CCV" export "$f" > /dev/null; t1=$(date +%s%N)
  "$CCV" check "$f" > /dev/null || true; t2=$(date +%s%N)
  python3 -c "import json,sys; [json.loads(o) for l in open(sys.argv[1]) for o in l.replace('}{', '}\n{').splitlines()]" "$f"; t3=$(date +%s%N)
  printf '%-22s %6d: ccv export %5d ms (peak %4d MB for %4d MB), check %5d ms, python json.loads %5d ms\n' "$(basename "$f" .jsonl)" "$N" $(( (t1-t0)/1000000 )) $(( $(tail -1 "$W/peak") / 1024 )) $(( $(stat -c %s "$f") / 1048576 )) $(( (t2-t1)/1000000 )) $(( (t3-t2)/1000000 ))
done
S="$W/projects/-x"
mkdir -p "$S/s/tool-results"
python3 - "$S" "$N" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
def result(i):
    text = ("<persisted-output>\nOutput too large (9KB). Full output saved to: /s/tool-results/toolu_%d.txt"
            "\n\nPreview (first 2KB):\nx\n</persisted-output>" % i)
    return {"type": "tool_result", "tool_use_id": "toolu_%d" % i, "content": text}
line = {"type": "user", "uuid": "u", "parentUuid": None, "sessionId": "s", "timestamp": "2025-01-01T10:00:00.000Z",
        "message": {"role": "user", "content": [result(i) for i in range(n)]}}
with open("%s/s.jsonl" % d, "w") as f:
    f.write(json.dumps(line) + "\n")
for i in range(min(n, 100)):
    with open("%s/s/tool-results/toolu_%d.txt" % (d, i), "w") as f:
        f.write("a line of output\n" * 10000)
PY
f="$S/s.jsonl"
t0=$(date +%s%N); /usr/bin/time -f %M -o "$W/peak" "$CCV" search zebra "$W/projects" > /dev/null 2>&1 || true; t1=$(date +%s%N)
python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$f"; t2=$(date +%s%N)
printf '%-22s %6d: ccv search %5d ms (peak %4d MB for %4d MB), python json.loads %5d ms\n' "saved-apart-wrappers" "$N" $(( (t1-t0)/1000000 )) $(( $(tail -1 "$W/peak") / 1024 )) $(( $(stat -c %s "$f") / 1048576 )) $(( (t2-t1)/1000000 ))
