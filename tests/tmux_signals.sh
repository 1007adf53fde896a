#!/usr/bin/env bash
# Signals and idling through the real binary in tmux: SIGTSTP and Ctrl-Z
# give the shell a normal terminal and `fg` brings the view back; SIGTERM
# exits 143, and any other signal that ends a process (an abort too)
# leaves a cooked terminal; a session with a <session>/subagents/ folder
# idles at ~0 CPU.
#
# Usage: tests/tmux_signals.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvsig "$@"
FAIL=0
# this test's own ccv (other tests run the same binary at the same time)
ccv_pid() { pgrep -n -f "^$CCV $WORK/proj/s1.jsonl" ; }

mkdir -p "$WORK/proj/s1/subagents"
printf '{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"watch me idle"}}\n' > "$WORK/proj/s1.jsonl"
printf '{"type":"user","uuid":"x1","sessionId":"s1","isSidechain":true,"agentId":"a1","timestamp":"2025-01-01T10:00:01Z","message":{"role":"user","content":"sub"}}\n' > "$WORK/proj/s1/subagents/agent-a1.jsonl"

# an interactive shell, so that job control (SIGTSTP, fg) works as for a user
tmux -L "$SOCK" -f /dev/null new-session -d -s sh -x 120 -y 30 \
  "env -i PATH='$PATH' HOME='$WORK' CLAUDE_CONFIG_DIR='$WORK/claude' XDG_CACHE_HOME='$WORK/cache' XDG_STATE_HOME='$WORK/state' TERM=xterm-256color PS1='PROMPT\$ ' bash --norc -i"
sleep 0.5
tmux -L "$SOCK" send-keys -t sh "'$CCV' '$WORK/proj/s1.jsonl'; echo EXIT=\$?" Enter
expect sh "watch me idle" "the session is shown"
PID=$(ccv_pid)
[ -n "$PID" ] || { echo "FAIL: no ccv process"; exit 1; }

# idle: utime+stime over 3 s
ticks() { awk '{print $14+$15}' "/proc/$PID/stat"; }
sleep 1; A=$(ticks); sleep 3; B=$(ticks)
if [ $((B - A)) -le 2 ]; then echo "ok: idle with a subagents folder ($((B - A)) ticks in 3 s)"
else echo "FAIL: idle CPU $((B - A)) ticks in 3 s"; FAIL=1; fi

# external SIGTSTP: back at the prompt, terminal sane, then fg
kill -TSTP "$PID"
expect sh "PROMPT\$" "SIGTSTP returns to the shell"
if pane sh | grep -qF "watch me idle"; then echo "FAIL: still in the alternate screen"; FAIL=1
else echo "ok: the alternate screen was left"; fi
tmux -L "$SOCK" send-keys -t sh "clear; stty -a | grep -o ' icanon'" Enter
expect sh " icanon" "the shell's terminal is cooked while ccv is stopped"
tmux -L "$SOCK" send-keys -t sh "fg" Enter
expect sh "watch me idle" "fg redraws the view"
sleep 0.3
# Ctrl-Z inside ccv
tmux -L "$SOCK" send-keys -t sh C-z
sleep 0.5
tmux -L "$SOCK" send-keys -t sh "jobs" Enter
expect sh "Stopped" "Ctrl-Z suspends"
tmux -L "$SOCK" send-keys -t sh "fg" Enter
expect sh "watch me idle" "fg after Ctrl-Z redraws the view"
sleep 0.3
tmux -L "$SOCK" send-keys -t sh q
sleep 0.3
# a stopped job's list went on without it: run it again for its exit code
tmux -L "$SOCK" send-keys -t sh "clear; '$CCV' '$WORK/proj/s1.jsonl'; echo EXIT=\$?" Enter
expect sh "watch me idle" "the session is shown again"
kill -TERM "$(ccv_pid)"
expect sh "EXIT=143" "SIGTERM exits with 128+15"
# every other signal that ends a process, and an abort (an allocation that
# failed), leave the shell a cooked terminal on its own screen
for sig in USR1:138 ALRM:142 QUIT:131 ABRT:134; do
  tmux -L "$SOCK" send-keys -t sh "clear; '$CCV' '$WORK/proj/s1.jsonl'; echo EXIT=\$?; stty -a | grep -o ' icanon'" Enter
  expect sh "watch me idle" "the session is shown for SIG${sig%:*}"
  kill "-${sig%:*}" "$(ccv_pid)"
  expect sh "EXIT=${sig#*:}" "SIG${sig%:*} exits with 128+n"
  expect sh " icanon" "SIG${sig%:*} leaves the terminal cooked"
  if [ "$(tmux -L "$SOCK" display -p -t sh '#{alternate_on}')" != 0 ]; then
    echo "FAIL: SIG${sig%:*} left the alternate screen on"; FAIL=1
  else echo "ok: SIG${sig%:*} left the alternate screen"; fi
done
exit $FAIL
