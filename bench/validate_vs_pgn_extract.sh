#!/usr/bin/env bash
# Times `virrey validate` beside Debian's `pgn-extract -r` (which also replays
# every move) on the same decompressed files, in the same run. Reports games/s
# by CPU time (user + system), the ratio to pgn-extract, the wall-clock
# speed-up of --threads 2, and peak memory. The control is two one-thread
# runs side by side: the most this machine gives two threads at that moment
# (on a shared virtual machine one core is sometimes much slower).
#   bench/validate_vs_pgn_extract.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
corpus=${CORPUS:-$root/../shared/corpora/real}
runs=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -x "$virrey" ]] || "$root/scripts/build.sh" >/dev/null
[[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh --bench)"; exit 2; }

# best-of-N: prints "cpu_seconds wall_seconds max_rss_kb"
measure() {
  local best_cpu=999999 best_wall=999999 best_rss=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%U %S %e %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
    read -r user sys wall rss < <(tail -n 1 "$work/time")
    cpu=$(python3 -c "print($user + $sys)")
    if python3 -c "import sys; sys.exit(0 if $cpu < $best_cpu else 1)"; then best_cpu=$cpu; fi
    if python3 -c "import sys; sys.exit(0 if $wall < $best_wall else 1)"; then best_wall=$wall; fi
    (( rss > best_rss )) && best_rss=$rss
  done
  echo "$best_cpu $best_wall $best_rss"
}

for name in pgnmentor-players-01 tcec-standard-s1-s5-matches-cup16; do
  zstd -dcq "$corpus/$name.pgn.zst" > "$work/$name.pgn"
  games=$({ "$virrey" validate --format jsonl "$work/$name.pgn" || true; } | tail -n 1 |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["games"])')
  read -r pe_cpu pe_wall pe_rss < <(measure "$pgn_extract" -r -s "$work/$name.pgn")
  read -r v1_cpu v1_wall v1_rss < <(measure "$virrey" validate --threads 1 "$work/$name.pgn")
  read -r v2_cpu v2_wall v2_rss < <(measure "$virrey" validate --threads 2 "$work/$name.pgn")
  read -r _ pair_wall _ < <(measure bash -c '"$0" validate --threads 1 "$1" & "$0" validate --threads 1 "$1" & wait' \
                               "$virrey" "$work/$name.pgn")
  python3 - "$name" "$games" "$pe_cpu" "$v1_cpu" "$v1_wall" "$v2_cpu" "$v2_wall" "$v1_rss" "$v2_rss" "$pe_rss" "$pair_wall" <<'PY'
import sys
name, games = sys.argv[1], int(sys.argv[2])
pe_cpu, v1_cpu, v1_wall, v2_cpu, v2_wall = map(float, sys.argv[3:8])
v1_rss, v2_rss, pe_rss = map(int, sys.argv[8:11])
pair_wall = float(sys.argv[11])
print(f"{name}: {games} games")
print(f"  pgn-extract -r      {games/pe_cpu:10.0f} games/s (CPU {pe_cpu:.2f} s)  peak {pe_rss/1024:.1f} MiB")
print(f"  virrey, 1 thread    {games/v1_cpu:10.0f} games/s (CPU {v1_cpu:.2f} s)  peak {v1_rss/1024:.1f} MiB"
      f"  ratio {pe_cpu/v1_cpu:.1f}x")
print(f"  virrey, 2 threads   {games/v2_wall:10.0f} games/s (wall {v2_wall:.2f} s)  peak {v2_rss/1024:.1f} MiB"
      f"  ratio {pe_cpu/v2_wall:.1f}x (vs pgn-extract CPU), speed-up {v1_wall/v2_wall:.2f}x"
      f" (control {2*v1_wall/pair_wall:.2f}x)")
PY
done
