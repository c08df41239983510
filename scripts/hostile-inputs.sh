#!/usr/bin/env bash
# Streams lines of 1 GiB (a comment, a movetext token, blanks, NUL bytes, a tag
# value), each followed by a good game, through a pipe into `virrey validate`
# and `virrey import`, and measures the peak memory with /usr/bin/time -v.
# Each run must skip the huge game as oversized-game, read and keep the good
# game, and stay under the bound.
#
# Usage: hostile-inputs.sh [VIRREY]   (default: build/cli/virrey)
# Environment: HOSTILE_BYTES (default 1073741824), VALIDATE_RSS_KB (default
# 262144), IMPORT_RSS_KB (default 524288).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${1:-$root/build/cli/virrey}
bytes=${HOSTILE_BYTES:-1073741824}
validate_bound=${VALIDATE_RSS_KB:-262144}
import_bound=${IMPORT_RSS_KB:-524288}
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (Debian package time)"; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

good='[Event "Hostile"]
[Site "Lima"]
[Date "2024.01.01"]
[Round "1"]
[White "Survivor"]
[Black "Rival"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0
'

# The hostile game of one kind, then the good game, on stdout.
stream() {
  local kind=$1
  case $kind in
    comment) printf '[Event "E"]\n\n1. e4 {'; head -c "$bytes" /dev/zero | tr '\0' c; printf '} 1-0\n\n' ;;
    token) printf '[Event "E"]\n\n1. e4 '; head -c "$bytes" /dev/zero | tr '\0' a; printf ' 1-0\n\n' ;;
    blanks) printf '[Event "E"]\n\n1. e4 '; head -c "$bytes" /dev/zero | tr '\0' ' '; printf ' 1-0\n\n' ;;
    nul) printf '[Event "E"]\n\n1. e4 '; head -c "$bytes" /dev/zero; printf ' 1-0\n\n' ;;
    tag) printf '[Event "'; head -c "$bytes" /dev/zero | tr '\0' x; printf '"]\n\n1. e4 1-0\n\n' ;;
  esac
  printf '%s\n' "$good"
}

# Peak resident memory (kB) from a /usr/bin/time -v report.
peak() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }

status=0
report() {  # name, ok (0/1), detail
  if [[ $2 == 0 ]]; then echo "ok   $1: $3"; else echo "FAIL $1: $3"; status=1; fi
}

for kind in comment token blanks nul tag; do
  stream "$kind" | /usr/bin/time -v -o "$work/time" "$virrey" validate --format jsonl - \
    >"$work/out" 2>"$work/err" && code=0 || code=$?
  rss=$(peak "$work/time")
  summary=$(tail -n 1 "$work/out")
  ok=1
  [[ $code == 1 && $rss -lt $validate_bound && $summary == *'"games":2,"valid":1,'* ]] &&
    grep -q '"code":"oversized-game"' "$work/out" && ok=0
  report "validate $kind" $ok "exit $code, peak ${rss} kB (bound ${validate_bound} kB), ${summary:0:80}"

  rm -rf "$work/db"
  stream "$kind" | /usr/bin/time -v -o "$work/time" "$virrey" import --db "$work/db" --format json - \
    >"$work/out" 2>"$work/err" && code=0 || code=$?
  rss=$(peak "$work/time")
  ok=1
  [[ $code == 1 && $rss -lt $import_bound ]] && grep -q '"read":2,"stored":1,"rejected":1' "$work/out" && ok=0
  report "import $kind" $ok "exit $code, peak ${rss} kB (bound ${import_bound} kB), $(head -c 80 "$work/out")"
done
exit $status
