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
}
