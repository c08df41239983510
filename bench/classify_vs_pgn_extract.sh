#!/usr/bin/env bash
# Openings: `virrey db classify` beside `pgn-extract -e`, both with
# pgn-extract's eco.pgn, on the same games (virrey imports them first). Prints
# the wall time of each, the games given the same ECO code, and a sample of
# the games where they differ, with both names.
#
#   bench/classify_vs_pgn_extract.sh [--games N] [--sample K] [--work DIR] [--eco FILE]
#     --games N   the first N games of the input (default: all)
#     --sample K  differences printed (default 12)
#     --work DIR  scratch (default /var/tmp/virrey-classify-bench)
#     --eco FILE  the ECO file (default /usr/share/pgn-extract/eco.pgn)
# Environment: VIRREY (default build/cli/virrey), PGN_EXTRACT, INPUT (default
# the shared corpus pgnmentor-players-01.pgn.zst).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
input=${INPUT:-$root/../shared/corpora/real/pgnmentor-players-01.pgn.zst}
games=0 sample=12 work=/var/tmp/virrey-classify-bench eco=/usr/share/pgn-extract/eco.pgn
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --eco) eco=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
[[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh)" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work"
if ((games > 0)); then
  zstd -dcq <"$input" | awk -v n="$games" '/^\[Event /{ if (++g > n) exit } { print }' >"$work/games.pgn"
else
  zstd -dcq <"$input" >"$work/games.pgn"
fi
"$virrey" -q import "$work/games.pgn" --db "$work/db" --threads 2 >/dev/null || true
echo "virrey db classify:"
/usr/bin/time -f "  %e s wall, %U s user, %M KiB peak" "$virrey" db classify --db "$work/db" --openings "$eco"
echo "pgn-extract -e:"
/usr/bin/time -o "$work/peer.time" -f "  %e s wall, %U s user, %M KiB peak" \
  "$pgn_extract" -s -e"$eco" --output "$work/peer.pgn" "$work/games.pgn" 2>/dev/null
cat "$work/peer.time"
"$virrey" search --db "$work/db" --limit 0 --format csv >"$work/ours.csv"
python3 - "$work/ours.csv" "$work/peer.pgn" "$sample" <<'PY'
import csv, re, sys
from collections import defaultdict
ours_csv, peer_pgn, sample = sys.argv[1], sys.argv[2], int(sys.argv[3])
key_fields = ("White", "Black", "Date", "Round", "Event")
ours = defaultdict(list)
with open(ours_csv, newline="", encoding="utf-8", errors="replace") as f:
    for row in csv.DictReader(f):
        ours[tuple(row[k.lower()] for k in key_fields)].append(row["eco"])
same = differ = unmatched = 0
examples = []
tags = {}
def flush():
    global same, differ, unmatched
    if not tags: return
    k = tuple(tags.get(t, "?") for t in key_fields)
    if not ours.get(k):
        unmatched += 1
        return
    mine = ours[k].pop(0)
    theirs = tags.get("ECO", "")
    if mine == theirs: same += 1
    else:
        differ += 1
        if len(examples) < sample:
            examples.append((k, mine, theirs, tags.get("Opening", "") + ": " + tags.get("Variation", "")))
with open(peer_pgn, encoding="utf-8", errors="replace") as f:
    for line in f:
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            if m.group(1) == "Event": flush(); tags.clear()
            tags[m.group(1)] = m.group(2)
flush()
total = same + differ
print(f"same ECO code: {same} of {total} games ({100.0 * same / max(total, 1):.1f}%); "
      f"{differ} differ; {unmatched} games of pgn-extract not matched to a stored game")
for k, mine, theirs, name in examples:
    print(f"  {k[0]} - {k[1]} {k[2]}: virrey {mine or '-'}, pgn-extract {theirs} ({name})")
PY
