# Shared by the benches/*_tree.sh benchmarks (sourced, not run):
#   . "$(dirname "$0")/tree_lib.sh" "$@"
# sets CCV (absolute path of the binary, default target/release/ccv) and
# TREE (a generated 50-project / 2,000-session tree, about 1 GB, made once
# in /tmp/ccv-bench/tree), and exits 77 (skipped) without the generator.
CCV=${1:-target/release/ccv}
CCV=$(cd "$(dirname "$CCV")" && pwd)/$(basename "$CCV")
GEN=$(dirname "$0")/../../shared/bench/gen-session
# CCV_TREE=DIR measures another tree (a copy of real sessions) instead
TREE=${CCV_TREE:-/tmp/ccv-bench/tree}
if [ -z "${CCV_TREE:-}" ]; then
  [ -x "$GEN" ] || { echo "SKIP: $GEN absent"; exit 77; }
  [ -d "$TREE" ] || python3 "$GEN" --tree "$TREE" --projects 50 --sessions 2000 --seed 1
fi
