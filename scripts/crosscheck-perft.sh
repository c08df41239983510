#!/usr/bin/env bash
# Re-verifies the perft reference numbers in tests/data/perft/*.perft with
# external engines (maintainer tool, not part of CI):
#   variant standard -> stockfish   (`position fen F` + `go perft D`)
#   variant virrey   -> sjaakii     (xboard protocol, built-in variant
#                                    "viceroy" = Virrey chess, `perft D`)
# For virrey cases without viceroys on the board it also checks the depth-1
# differential against stockfish: V1 = S1 - 3*P (P = standard promotion
# moves / 4; see the header of virrey.perft).
#
# Usage: scripts/crosscheck-perft.sh [--fast] [--python[=DEPTH]] [FILE...]
#   --fast          skip `slow` lines (~20 s instead of ~1-2 min)
#   --python[=D]    also run tests/data/perft/naive_perft.py (a slow,
#                   independent Python perft) on every case up to depth D
#                   (default 3)
#   FILE...         .perft files (default: tests/data/perft/*.perft)
# Engines: apt-get install stockfish sjaakii (they live in /usr/games);
# override with STOCKFISH=/path SJAAKII=/path. Per-run timeout in seconds:
# CROSSCHECK_TIMEOUT (default 3600).
# Exit status: 0 all agree, 1 any mismatch or invalid case, 2 usage/engine
# problem.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
naive="$root/tests/data/perft/naive_perft.py"
tmo="${CROSSCHECK_TIMEOUT:-3600}"

fast=0 python_depth=0 files=()
for a in "$@"; do
  case "$a" in
    --fast) fast=1 ;;
    --python) python_depth=3 ;;
    --python=*) python_depth="${a#--python=}" ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $a" >&2; exit 2 ;;
    *) files+=("$a") ;;
  esac
done
((${#files[@]})) || files=("$root"/tests/data/perft/*.perft)

find_engine() { # $1 = env override, $2 = name
  if [[ -n "$1" ]]; then echo "$1"; return; fi
  command -v "$2" 2>/dev/null || { [[ -x "/usr/games/$2" ]] && echo "/usr/games/$2"; }
}
stockfish="$(find_engine "${STOCKFISH:-}" stockfish)"
sjaakii="$(find_engine "${SJAAKII:-}" sjaakii)"
[[ -x "$stockfish" ]] || { echo "stockfish not found (apt-get install stockfish, or set STOCKFISH)" >&2; exit 2; }
[[ -x "$sjaakii" ]] || { echo "sjaakii not found (apt-get install sjaakii, or set SJAAKII)" >&2; exit 2; }
have_python=0; command -v python3 >/dev/null && [[ -f "$naive" ]] && have_python=1
if ((python_depth)) && ! ((have_python)); then echo "--python needs python3 and $naive" >&2; exit 2; fi

# stockfish perft, one session for several depths: prints "depth nodes" lines
# (stockfish runs queued `go` commands one after the other).
sf_perft() { # fen depth...
  local fen="$1" d; shift
  { echo uci; echo "position fen $fen"; for d in "$@"; do echo "go perft $d"; done; } |
    timeout "$tmo" "$stockfish" 2>/dev/null |
    awk -v depths="$*" 'BEGIN { split(depths, ds, " ") }
                        /^Nodes searched:/ { print ds[++i], $3 }'
}
# stockfish depth-1 divide -> "S1 promotion_moves"
sf_divide1() { # fen
  { echo uci; echo "position fen $1"; echo "go perft 1"; } |
    timeout "$tmo" "$stockfish" 2>/dev/null |
    awk '/^[a-h][1-8][a-h][1-8][qrbn]?: / {n++; if (length($1) == 6) p++}
         END {print n + 0, p + 0}'
}
# sjaakii perft: prints "depth nodes" lines for 1..depth, or "NOVARIANT".
# `force` matters: after `new` sjaakii plays Black and would start thinking
# (and move) as soon as a black-to-move position is set.
sj_perft() { # variant fen depth
  printf 'xboard\nprotover 2\nnew\nvariant %s\nforce\nsetboard %s\nperft %s\nquit\n' "$1" "$2" "$3" |
    timeout "$tmo" "$sjaakii" 2>&1 |
    awk -v want="$1" -v q="'" '
      /^# New game / { game = tolower($0) }
      $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /nps$/ { out = out $1 " " $2 "\n" }
      END { if (index(game, q want q) == 0) print "NOVARIANT"; else printf "%s", out }'
}

mismatches=0 cases=0 checked=0
report_bad() { echo "MISMATCH $*"; mismatches=$((mismatches + 1)); }

check_case() { # file id variant fen source lines(kind:depth:count ...)
  local file="$1" id="$2" variant="$3" fen="$4" src="$5"; shift 5
  local entries=("$@") e kind d n got maxd=0 maxperft=0 bad0=$mismatches
  local -A expect=()
  cases=$((cases + 1))
  [[ -n "$id" ]] || { report_bad "$file: case without id (fen '$fen')"; return; }
  [[ -n "$fen" && -n "$variant" && -n "$src" ]] || { report_bad "$id: missing fen/variant/source"; return; }
  [[ "$variant" == standard || "$variant" == virrey ]] || { report_bad "$id: unknown variant '$variant'"; return; }
  set -- $fen
  [[ $# -eq 6 ]] || { report_bad "$id: FEN must have 6 fields: '$fen'"; return; }
  ((${#entries[@]})) || { report_bad "$id: no perft lines"; return; }
  [[ -z "${invalid[$id]:-}" ]] || { report_bad "$id: invalid position:${invalid[$id]}"; return; }
  [[ -z "${seen[$id]:-}" ]] || { report_bad "$id: duplicate id (also in ${seen[$id]})"; return; }
  seen[$id]="$file"
  for e in "${entries[@]}"; do
    IFS=: read -r kind d n <<<"$e"
    [[ -n "${expect[$d]:-}" ]] && { report_bad "$id: depth $d listed twice"; return; }
    expect[$d]="$n"
    [[ "$kind" == perft ]] && ((d > maxperft)) && maxperft=$d
    [[ "$kind" == slow ]] && ((fast)) && continue
    ((d > maxd)) && maxd=$d
  done
  local engine_desc
  if [[ "$variant" == standard ]]; then
    engine_desc="stockfish"
    local depths=() ; local -A sf=()
    for d in $(printf '%s\n' "${!expect[@]}" | sort -n); do ((d <= maxd)) && depths+=("$d"); done
    while read -r d n; do [[ -n "$d" ]] && sf[$d]="$n"; done <<<"$(sf_perft "$fen" "${depths[@]}")"
    for d in "${depths[@]}"; do
      [[ "${sf[$d]:-}" == "${expect[$d]}" ]] || report_bad "$id depth $d: file ${expect[$d]}, stockfish ${sf[$d]:-<no answer>}"
      checked=$((checked + 1))
    done
  else
    engine_desc="sjaakii"
    local out; out="$(sj_perft viceroy "$fen" "$maxd")"
    if [[ "$out" == NOVARIANT ]]; then
      echo "sjaakii did not start variant 'viceroy' (is /usr/share/games/sjaakii/variants.txt installed?)" >&2
      exit 2
    fi
    local -A sj=()
    while read -r d n; do [[ -n "$d" ]] && sj[$d]="$n"; done <<<"$out"
    for d in $(printf '%s\n' "${!expect[@]}" | sort -n); do
      ((d > maxd)) && continue
      [[ "${sj[$d]:-}" == "${expect[$d]}" ]] || report_bad "$id depth $d: file ${expect[$d]}, sjaakii ${sj[$d]:-<no answer>}"
      checked=$((checked + 1))
    done
    if [[ "${fen%% *}" != *[Vv]* && -n "${expect[1]:-}" ]]; then
      local s1 p
      read -r s1 p <<<"$(sf_divide1 "$fen")"
      if ((p % 4)); then
        report_bad "$id: stockfish promotion moves $p not a multiple of 4"
      elif [[ $((s1 - 3 * p / 4)) != "${expect[1]}" ]]; then
        report_bad "$id depth 1 differential: file ${expect[1]}, stockfish $s1 - 3*$((p / 4)) = $((s1 - 3 * p / 4))"
      fi
      engine_desc+=" + stockfish diff1 ($s1 - 3*$((p / 4)))"
      checked=$((checked + 1))
    fi
  fi
  if ((python_depth)); then
    local pd=$((python_depth < maxperft ? python_depth : maxperft))
    local -A py=()
    while read -r d n; do [[ -n "$d" ]] && py[$d]="$n"; done <<<"$(timeout "$tmo" python3 "$naive" "$variant" "$fen" "$pd")"
    for ((d = 1; d <= pd; d++)); do
      [[ -n "${expect[$d]:-}" ]] || continue
      [[ "${py[$d]:-}" == "${expect[$d]}" ]] || report_bad "$id depth $d: file ${expect[$d]}, naive_perft.py ${py[$d]:-<no answer>}"
      checked=$((checked + 1))
    done
    engine_desc+=" + python<=$pd"
  fi
  ((mismatches == bad0)) && echo "ok       $id ($variant, depth<=$maxd, $engine_desc)"
}

# Parse every file first, then validate all FENs in one python run, then check.
c_file=() c_id=() c_var=() c_fen=() c_src=() c_ent=()
flush_case() {
  if [[ -n "$id$fen${entries[*]}" ]]; then
    c_file+=("$f") c_id+=("$id") c_var+=("$variant") c_fen+=("$fen") c_src+=("$src")
    c_ent+=("${entries[*]}")
  fi
  id="" variant="" fen="" src="" entries=()
}
for f in "${files[@]}"; do
  [[ -r "$f" ]] || { echo "cannot read $f" >&2; exit 2; }
  id="" variant="" fen="" src="" entries=()
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%$'\r'}"
    if [[ -z "${line//[[:space:]]/}" ]]; then flush_case; continue; fi
    [[ "$line" == \#* ]] && continue
    key="${line%% *}" val="${line#* }"
    case "$key" in
      id) id="$val" ;;
      variant) variant="$val" ;;
      fen) fen="$val" ;;
      source) src="$val" ;;
      perft|slow)
        read -r d n extra <<<"$val"
        if [[ ! "$d" =~ ^[0-9]+$ || ! "$n" =~ ^[0-9]+$ || -n "${extra:-}" ]]; then
          report_bad "$f: bad line '$line'"
        else
          entries+=("$key:$d:$n")
        fi ;;
      *) report_bad "$f: unknown line '$line'" ;;
    esac
  done <"$f"
  flush_case
done

declare -A invalid=() seen=()
if ((have_python)); then
  while IFS=$'\t' read -r vid problem; do
    [[ -n "$vid" ]] && invalid[$vid]+=" $problem;"
  done < <(for i in "${!c_id[@]}"; do printf '%s\t%s\n' "${c_id[$i]}" "${c_fen[$i]}"; done |
           python3 "$naive" --validate-stdin)
else
  echo "(python3 not found: skipping the position-legality check)"
fi

last=""
for i in "${!c_id[@]}"; do
  [[ "${c_file[$i]}" == "$last" ]] || { echo "== ${c_file[$i]}"; last="${c_file[$i]}"; }
  read -r -a ents <<<"${c_ent[$i]}"
  check_case "${c_file[$i]}" "${c_id[$i]}" "${c_var[$i]}" "${c_fen[$i]}" "${c_src[$i]}" "${ents[@]}"
done

echo "-- $cases cases, $checked counts checked, $mismatches mismatches"
((mismatches == 0))
