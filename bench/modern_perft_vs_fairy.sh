#!/usr/bin/env bash
# Times Modern chess perft (9x9, prime minister) in virrey beside
# fairy-stockfish (variant `modern`, `go perft N`) on the start position at
# depths 5 and 6, both single-threaded, in the same run.
# Every figure is the best of $RUNS runs. Node counts are checked against the
# published table (13403293, 411178941), between the programs and between runs:
# the script exits 1 if any disagree. Target: virrey >= 5x fairy-stockfish's
# nodes/s; a miss is reported as MISS and fails the run only with STRICT=1.
#
# Environment: VIRREY (default build/cli/virrey, built if missing),
# FAIRY_STOCKFISH (/usr/games/fairy-stockfish), RUNS (3), DEPTHS ("5 6"),
# TARGET (5), STRICT (0).
#
# Three clocks, all reported as leaf nodes per second:
#   own  - virrey's own perft timer (`--format json` "seconds": the tree walk);
#          fairy-stockfish prints no time for perft, so it has none;
#   wall - wall clock around the whole process (start-up included);
#   cpu  - user + system time of the process; the one to trust when the
#          machine is shared, since waiting for a CPU does not count;
#   net  - cpu minus the program's start-up cpu (best perft-1 run), since
#          fairy-stockfish spends ~0.5 s cpu initialising before it counts.
# The verdict uses net/net. Both programs count the last ply in bulk (the size
# of the legal move list), so their totals and their work are comparable.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FAIRY=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
RUNS=${RUNS:-3}
DEPTHS=${DEPTHS:-5 6}
TARGET=${TARGET:-5}
STRICT=${STRICT:-0}

if [[ -n "${VIRREY:-}" ]]; then
  [[ -x "$VIRREY" ]] || { echo "VIRREY=$VIRREY is not an executable" >&2; exit 2; }
else
  VIRREY=$ROOT/build/cli/virrey
  if [[ ! -x "$VIRREY" ]]; then
    echo "# $VIRREY is missing; building it (Release)" >&2
    cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$ROOT/build" -j"$(nproc)" --target virrey >&2
  fi
fi
for tool in "$FAIRY" python3; do
  command -v "$tool" >/dev/null || { echo "missing: $tool (scripts/install-deps.sh --bench)" >&2; exit 2; }
done

readonly START="rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1"
declare -A PUBLISHED=([1]=24 [2]=576 [3]=15831 [4]=433729 [5]=13403293 [6]=411178941)

# Runs a command with this script's stdin, prints its output (stderr merged)
# and then "#timing <wall seconds> <cpu seconds>"; exits with its status.
readonly TIMER='
import resource, subprocess, sys, time
data = sys.stdin.buffer.read()
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1:], input=data, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.buffer.write(r.stdout)
cpu = ru.ru_utime + ru.ru_stime - before.ru_utime - before.ru_stime
print(f"#timing {wall:.6f} {cpu:.6f}")
sys.exit(r.returncode)
'
timed() { python3 -c "$TIMER" "$@"; }

min() { awk -v a="$1" -v b="${2:-1e99}" 'BEGIN { print (a + 0 < b + 0 ? a : b) }'; }
mnps() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%7.2f M/s", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# measure virrey|fairy DEPTH: best of $RUNS; sets nodes, own, wall, cpu. A
# node count that changes between runs becomes "inconsistent".
measure() {
  local kind=$1 depth=$2 i out n o t c
  nodes="" own="" wall="" cpu=""
  for ((i = 0; i < RUNS; ++i)); do
    case $kind in
      virrey)
        out=$(timed "$VIRREY" perft --variant modern --depth "$depth" --threads 1 --format json </dev/null)
        read -r n o < <(grep '^{' <<<"$out" |
          python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["nodes"], d["seconds"])') || true
        ;;
      fairy)
        # `quit` after `go perft` is safe: perft does not stop early, and the
        # engine waits for the search thread before it exits.
        out=$(printf 'uci\nsetoption name UCI_Variant value modern\nsetoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' \
          "$depth" | timed "$FAIRY")
        grep -q '^info string variant modern ' <<<"$out" ||
          { echo "fairy-stockfish did not start variant modern:" >&2; echo "$out" >&2; exit 2; }
        n=$(sed -n 's/^Nodes searched: *\([0-9]*\).*/\1/p' <<<"$out")
        o=""
        ;;
    esac
    [[ -n "$n" ]] || { echo "$kind printed no node count:" >&2; echo "$out" >&2; exit 2; }
    read -r _ t c < <(grep '^#timing' <<<"$out")
    [[ -z "$nodes" || "$n" == "$nodes" ]] || n=inconsistent
    nodes=$n
    [[ -n "$o" ]] && own=$(min "$o" "$own")
    wall=$(min "$t" "$wall")
    cpu=$(min "$c" "$cpu")
  done
}

row() {  # NAME NODES OWN WALL CPU NETCPU
  printf '  %-16s' "$1"
  if [[ -n "$3" ]]; then printf '  own %s' "$(mnps "$2" "$3")"; else printf '  %16s' ""; fi
  printf '  wall %s (%8.3f s)  cpu %s (%8.3f s)  net %s\n' "$(mnps "$2" "$4")" "$4" \
    "$(mnps "$2" "$5")" "$5" "$(mnps "$2" "$6")"
}
net() { awk -v c="$1" -v s="$2" 'BEGIN { d = c - s; if (d < 1e-6) d = 1e-6; printf "%.6f", d }'; }

load_now() { cut -d' ' -f1-3 /proc/loadavg; }

mismatches=0 misses=0
echo "# virrey: $VIRREY"
echo "# $(printf 'quit\n' | "$FAIRY" | head -n 1)"
echo "# $(nproc) cpus; load average at start: $(load_now); best of $RUNS runs; 1 thread each"
if awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v n="$(nproc)" 'BEGIN { exit !(l > n - 1) }'; then
  echo "# WARNING: the machine is busy; trust the cpu figures more than the wall ones"
fi
measure virrey 1
vstart=$cpu
echo "# start-up alone (perft depth 1): virrey wall $wall s cpu $cpu s"
measure fairy 1
fstart=$cpu
echo "# start-up alone (perft depth 1): fairy-stockfish wall $wall s cpu $cpu s"

echo
echo "== Modern chess start position, virrey vs fairy-stockfish (target: >= ${TARGET}x n/s)"
for depth in $DEPTHS; do
  measure virrey "$depth"
  vn=$nodes vo=$own vw=$wall vc=$cpu
  measure fairy "$depth"
  fn=$nodes fw=$wall fc=$cpu
  want=${PUBLISHED[$depth]:-}
  status=ok
  if [[ "$vn" != "$fn" || ( -n "$want" && "$vn" != "$want" ) ]]; then
    status=MISMATCH
    mismatches=$((mismatches + 1))
    echo "MISMATCH: depth $depth: virrey $vn, fairy-stockfish $fn, published ${want:-?}" >&2
  fi
  echo "depth $depth: virrey $vn nodes, fairy-stockfish $fn, published ${want:-?}: $status"
  vnet=$(net "$vc" "$vstart") fnet=$(net "$fc" "$fstart")
  row virrey "$vn" "$vo" "$vw" "$vc" "$vnet"
  row fairy-stockfish "$fn" "" "$fw" "$fc" "$fnet"
  r=$(ratio "$fnet" "$vnet")
  verdict=$(awk -v r="$r" -v t="$TARGET" 'BEGIN { print (r >= t) ? "ok" : "MISS" }')
  [[ "$verdict" == ok ]] || misses=$((misses + 1))
  echo "  virrey/fairy-stockfish n/s: net/net ${r}x -> $verdict  (cpu/cpu $(ratio "$fc" "$vc")x, wall/wall $(ratio "$fw" "$vw")x, own/wall $(ratio "$fw" "$vo")x)"
done

echo
echo "# load average at end: $(load_now)"
if ((mismatches > 0)); then
  echo "FAIL: $mismatches node count mismatch(es)"
  exit 1
fi
echo "node counts: all agree; speed targets missed: $misses"
if ((misses > 0 && STRICT == 1)); then exit 1; fi
exit 0
