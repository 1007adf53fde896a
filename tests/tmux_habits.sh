#!/usr/bin/env bash
# Terminal habits in a real terminal: a config remaps a key and the help
# shows it; `!` shows only errors; `:set` changes a filter; `E` hands the
# terminal to the editor (vim, read-only, at the row's line) and every key
# after it is ccv's again.
#
# Usage: tests/tmux_habits.sh path/to/ccv
# Exit status: 0 pass, 1 fail, 77 skipped (no tmux).
set -u
. "$(dirname "$0")/tmux_lib.sh"
tmux_setup ccvhabits "$@"
FAIL=0
DEMO="$(dirname "$0")/../assets/demo.jsonl"
cp "$DEMO" "$WORK/s.jsonl"
mkdir -p "$WORK/config/ccv"
printf '[keys]\nhelp = ["?", "F2"]\ntoggle_errors = "e"\nexport_markdown = []\n' > "$WORK/config/ccv/config.toml"
EDIT=vi
command -v vim >/dev/null && EDIT=vim
tmux -L "$SOCK" -f /dev/null new-session -d -s h -x 120 -y 30 \
  "env EDITOR=$EDIT TERM=xterm-256color '$CCV' '$WORK/s.jsonl'; sleep 30"
expect h "FOLLOW" "the session is shown"
tmux -L "$SOCK" send-keys -t h F2
expect h "? F2" "the help shows the key the config added"
tmux -L "$SOCK" send-keys -t h q
tmux -L "$SOCK" send-keys -t h e
expect h "errors only" "the remapped e shows only errors"
expect h "cargo test --test keepalive" "the failed call is there"
tmux -L "$SOCK" send-keys -t h e ':set notools' Enter
expect h "tools hidden" ":set notools hides the tools"
tmux -L "$SOCK" send-keys -t h ':set tools' Enter g
# E is sent once ccv has moved: a key sent before is typed ahead, and
# the session's own rows show JSON (an unknown entry's), so the editor is
# told by its read-only mark, which no row of ccv's shows
expect h " 1/" "g goes to the first row"
if command -v "$EDIT" >/dev/null; then
  tmux -L "$SOCK" send-keys -t h E
  expect h '[readonly]' "E opens the JSONL in the editor, read-only"
  tmux -L "$SOCK" send-keys -t h Escape ':q!' Enter
  expect h "SCROLL" "ccv is back after the editor"
  tmux -L "$SOCK" send-keys -t h j j
  expect h " 3/" "keys move the selection again after the editor"
fi
exit $FAIL
