#!/usr/bin/env bash
# One session that started N subagents, each with its transcript in
# `<session>/subagents/`: a cold `ccv list --json` (its figures read the
# session and every agent) must stay linear in N. Timed against `cat` of
# the same files in the same run (medians of 5), for N and 4N.
#
# Usage: benches/many_agents.sh [path/to/ccv] [N]   (default: target/release/ccv 1000)
set -eu
CCV=$(realpath "${1:-target/release/ccv}")
N=${2:-1000}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
# ccv finds its config, cache and projects here, never in the real home
export HOME=$W XDG_CONFIG_HOME=$W XDG_CACHE_HOME=$W/cache XDG_STATE_HOME=$W CLAUDE_CONFIG_DIR=$W CODEX_HOME=$W
python3 - "$W" "$N" "$CCV" <<'PY'
import json, os, shutil, statistics, subprocess, sys, time
w, n, ccv = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def tree(root, n):
    d = os.path.join(root, "projects", "-src-app")
    sid = "99999999-aaaa-4bbb-8ccc-dddddddddddd"
    sub = os.path.join(d, sid, "subagents")
    os.makedirs(sub)
    lines, prev = [{"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": sid, "cwd": "/src/app",
                    "timestamp": "2026-01-01T10:00:00Z", "message": {"role": "user", "content": "spawn"}}], "u0"
    for i in range(n):
        aid, tid = "a%06x" % i, "toolu_%06d" % i
        lines.append({"type": "assistant", "uuid": "c%d" % i, "parentUuid": prev, "sessionId": sid,
                      "timestamp": "2026-01-01T10:00:01Z", "message": {"id": "msg_%d" % i, "model": "claude-opus-4-5",
                      "role": "assistant", "content": [{"type": "tool_use", "id": tid, "name": "Task",
                      "input": {"description": "job %d" % i, "prompt": "do job %d" % i}}],
                      "usage": {"input_tokens": 10, "output_tokens": 5}}})
        lines.append({"type": "user", "uuid": "r%d" % i, "parentUuid": "c%d" % i, "sessionId": sid,
                      "timestamp": "2026-01-01T10:00:02Z", "message": {"role": "user", "content": [
                      {"type": "tool_result", "tool_use_id": tid, "content": "done %d" % i}]},
                      "toolUseResult": {"status": "completed", "agentId": aid}})
        prev = "r%d" % i
        agent = [{"type": "user", "uuid": "s%d-0" % i, "parentUuid": None, "isSidechain": True, "agentId": aid,
                  "sessionId": sid, "timestamp": "2026-01-01T10:00:01Z", "message": {"role": "user", "content": "do job %d" % i}},
                 {"type": "assistant", "uuid": "s%d-1" % i, "parentUuid": "s%d-0" % i, "isSidechain": True,
                  "agentId": aid, "sessionId": sid, "timestamp": "2026-01-01T10:00:02Z", "message": {"id": "msg_s%d" % i,
                  "model": "claude-haiku-4-5", "role": "assistant", "content": [{"type": "text", "text": "done"}],
                  "usage": {"input_tokens": 3, "output_tokens": 2}}}]
        with open(os.path.join(sub, "agent-%s.jsonl" % aid), "w") as f:
            f.writelines(json.dumps(l) + "\n" for l in agent)
    with open(os.path.join(d, sid + ".jsonl"), "w") as f:
        f.writelines(json.dumps(l) + "\n" for l in lines)
    return os.path.join(root, "projects")
def timed(cmd, **kw):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, **kw)
    return (time.perf_counter() - t) * 1000
for k in (n, 4 * n):
    root = tree(os.path.join(w, "n%d" % k), k)
    cat = "find %s -name '*.jsonl' -print0 | xargs -0 cat > /dev/null" % root
    timed(cat, shell=True)
    ccv_ms, cat_ms = [], []
    for _ in range(5):
        shutil.rmtree(os.path.join(w, "cache"), ignore_errors=True)
        ccv_ms.append(timed([ccv, "list", "--json", root]))
        cat_ms.append(timed(cat, shell=True))
    c, b = statistics.median(ccv_ms), statistics.median(cat_ms)
    print("%5d agents: cold ccv list --json %.0f ms; find | xargs cat %.0f ms: %.1fx" % (k, c, b, c / b))
PY
