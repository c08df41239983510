#!/usr/bin/env bash
# Runs the commands of tests/snapshot/commands.txt and compares what each
# prints (standard output, standard error and exit code, with timings, sizes
# and rates masked) with tests/snapshot/expected/NAME. A refactoring keeps
# every byte a user sees; this is the net that says so.
# Usage: snapshot.sh VIRREY CORPORA_DIR [--record]
#   --record writes the expected files anew instead of comparing.
set -euo pipefail
virrey=$(realpath "$1")
corpora=$2
record=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
expected="$here/expected"
if [[ ! -d "$corpora/tricky" || ! -d "$corpora/real" ]]; then
  echo "no corpora at $corpora: skipped"
  exit 77  # ctest's SKIP_RETURN_CODE (tests/CMakeLists.txt)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$here/../../sample-data" "$work/sample"
ln -s "$(realpath "$corpora/tricky")" "$work/tricky"
ln -s "$(realpath "$corpora/real")" "$work/real"
cd "$work"
[[ -n "$record" ]] && mkdir -p "$expected"

# Figures that change from run to run: times, rates, sizes on disk.
mask() {
  sed -E \
    -e 's/"(seconds|total_bytes|files|level0_files|games_per_second|nps|database_bytes|bytes|sst_bytes|size_bytes)":[0-9.e+-]+/"\1":#/g' \
    -e 's/[0-9]+(\.[0-9]+)? (s|ms|games\/s|nodes\/s|MB|KB|GB|MiB|KiB|bytes)\b/# \2/g' \
    -e 's/^\[[0-9-]+ [0-9:.]+\] //' \
    -e 's#^(nodes/s|seconds) +[0-9.]+#\1 \##' \
    -e 's/^(on disk .*[^0-9.])[0-9.]+$/\1#/' \
    -e 's/^([a-z]+ +[a-z].*[^ ]) +[0-9]+\.[0-9]+ +([0-9]+) +[0-9]+$/\1 # \2 #/'
}

status=0
count=0
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  name=${line%% *}
  args=${line#"$name"}
  count=$((count + 1))
  set +e
  # As `virrey`, so that usage lines do not name the build folder.
  out=$(eval "(exec -a virrey \"$virrey\" $args)" 2>"$work/stderr" </dev/null)
  code=$?
  set -e
  got=$(printf '%s\n--- stderr\n%s\n--- exit %d\n' "$out" "$(cat "$work/stderr")" "$code" | mask)
  if [[ -n "$record" ]]; then
    printf '%s\n' "$got" >"$expected/$name"
  elif [[ ! -f "$expected/$name" ]]; then
    echo "FAIL $name: no expected output (run with --record)"
    status=1
  elif ! diff -u "$expected/$name" <(printf '%s\n' "$got") >"$work/diff"; then
    echo "FAIL $name:"
    head -n 40 "$work/diff"
    status=1
  fi
done <"$here/commands.txt"
echo "$count commands compared"
exit $status
