# Shared by the tmux_*.sh acceptance tests (sourced, not run):
#   . "$(dirname "$0")/tmux_lib.sh"; tmux_setup <socket-name> "$@"
# sets CCV (absolute path of the binary under test), SOCK (a tmux server of
# the test's own), WORK (a scratch directory, removed on exit), and exits
# 77 (skipped) when tmux is not installed.
tmux_setup() {
  local name=$1
  shift
  CCV=${1:?usage: $0 path/to/ccv}
  CCV=$(cd "$(dirname "$CCV")" && pwd)/$(basename "$CCV")
  command -v tmux >/dev/null || { echo "SKIP: tmux not installed"; exit 77; }
  SOCK=$name$$
  WORK=$(mktemp -d)
  trap 'tmux -L "$SOCK" kill-server 2>/dev/null; sleep 0.2; rm -rf "$WORK" 2>/dev/null' EXIT
  # whatever a script does not set itself, ccv finds here, never in the
  # real home (the tmux server and so every ccv inherit these)
  export HOME="$WORK/home" CLAUDE_CONFIG_DIR="$WORK/claude" XDG_CONFIG_HOME="$WORK/config" \
    XDG_CACHE_HOME="$WORK/cache" XDG_STATE_HOME="$WORK/state"
}

# the screen of window NAME
pane() { tmux -L "$SOCK" capture-pane -p -t "$1"; }
# waits up to 5 s for TEXT in window NAME; says ok, or FAIL (and sets FAIL=1)
expect() { # name text what
  for _ in $(seq 50); do
    pane "$1" | grep -qF -- "$2" && { echo "ok: $3"; return 0; }
    sleep 0.1
  done
  echo "FAIL: $3 (no '$2' on screen); the screen:"; pane "$1"; FAIL=1
}
