#!/usr/bin/env bash
# Re-verifies the perft reference numbers in tests/data/perft/*.perft with
# external engines (maintainer tool, not part of CI):
#   variant standard -> stockfish   (`position fen F` + `go perft D`)
#   variant virrey   -> sjaakii     (xboard protocol, built-in variant
#                                    "viceroy" = Virrey chess, `perft D`)
#   variant modern   -> fairy-stockfish (`setoption name UCI_Variant value
#                                    modern`, `position fen F`, `go perft D`;
#                                    same 9x9 FEN and minister letter M)
# For virrey cases without viceroys on the board it also checks the depth-1
# differential against stockfish: V1 = S1 - 3*P (P = standard promotion
# moves / 4; see the header of virrey.perft).
#
# Usage: scripts/crosscheck-perft.sh [--fast] [--python[=DEPTH]] [FILE...]
#   --fast          skip `slow` lines (~20 s instead of ~1-2 min, plus ~2.5
#                   min of fairy-stockfish cpu for the modern slow lines)
#   --python[=D]    also run tests/data/perft/naive_perft.py (a slow,
#                   independent Python perft) on every case up to depth D
#                   (default 3); 8x8 only, so not on modern cases
#   FILE...         .perft files (default: tests/data/perft/*.perft)
# Engines: stockfish, sjaakii, fairy-stockfish (scripts/install-deps.sh --bench;
# they live in /usr/games); override with STOCKFISH=/path SJAAKII=/path
# FAIRY_STOCKFISH=/path (fairy-stockfish is needed only when a modern case is
# checked). Modern FENs are checked for legality by a 9x9 validator inside
# this script (naive_perft.py validates the 8x8 ones). Per-run timeout in seconds:
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
fairy="$(find_engine "${FAIRY_STOCKFISH:-}" fairy-stockfish)"
[[ -x "$stockfish" ]] || { echo "stockfish not found (scripts/install-deps.sh --bench, or set STOCKFISH)" >&2; exit 2; }
[[ -x "$sjaakii" ]] || { echo "sjaakii not found (scripts/install-deps.sh --bench, or set SJAAKII)" >&2; exit 2; }
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
# fairy-stockfish perft of a Modern chess position, one session for several
# depths: prints "depth nodes" lines, or "NOVARIANT" if the engine does not
# know the variant (it then says so on stdout and keeps playing chess).
fsf_perft() { # fen depth...
  local fen="$1" d; shift
  { echo uci; echo "setoption name UCI_Variant value modern"; echo "position fen $fen"
    for d in "$@"; do echo "go perft $d"; done; } |
    timeout "$tmo" "$fairy" 2>&1 |
    awk -v depths="$*" 'BEGIN { split(depths, ds, " ") }
                        /^info string variant modern / { known = 1 }
                        /^Nodes searched:/ { out = out ds[++i] " " $3 "\n" }
                        END { if (!known) print "NOVARIANT"; else printf "%s", out }'
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
  [[ "$variant" == standard || "$variant" == virrey || "$variant" == modern ]] ||
    { report_bad "$id: unknown variant '$variant'"; return; }
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
  elif [[ "$variant" == modern ]]; then
    engine_desc="fairy-stockfish"
    [[ -x "$fairy" ]] || { echo "fairy-stockfish not found (apt-get install fairy-stockfish, or set FAIRY_STOCKFISH)" >&2; exit 2; }
    local depths=() out ; local -A fs=()
    for d in $(printf '%s\n' "${!expect[@]}" | sort -n); do ((d <= maxd)) && depths+=("$d"); done
    out="$(fsf_perft "$fen" "${depths[@]}")"
    if [[ "$out" == NOVARIANT ]]; then
      echo "fairy-stockfish did not start variant 'modern'" >&2
      exit 2
    fi
    while read -r d n; do [[ -n "$d" ]] && fs[$d]="$n"; done <<<"$out"
    for d in "${depths[@]}"; do
      [[ "${fs[$d]:-}" == "${expect[$d]}" ]] || report_bad "$id depth $d: file ${expect[$d]}, fairy-stockfish ${fs[$d]:-<no answer>}"
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
  if ((python_depth)) && [[ "$variant" == modern ]]; then
    engine_desc+=" (no python: 9x9)"
  elif ((python_depth)); then
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

# Legality of 9x9 (Modern chess) FENs, read as "id<TAB>FEN" lines; prints
# "id<TAB>problem" per problem. Same checks as naive_perft.py --validate: one
# king each, no pawn on rank 1/9, the side not to move not in check (the
# minister M attacks as bishop and knight), castling rights with king and rook
# on e1/a1/i1 (e9/a9/i9), an ep square behind a pawn that just double-stepped.
read -r -d '' validate9 <<'PY'
import sys
FILES = "abcdefghi"
KN = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KG = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]

def parse(fen):
    f = fen.split()
    if len(f) != 6: raise ValueError("FEN needs 6 fields")
    rows = f[0].split("/")
    if len(rows) != 9: raise ValueError("FEN needs 9 ranks")
    b = {}
    for i, row in enumerate(rows):
        r, c, num = 8 - i, 0, ""
        for ch in row + "/":
            if ch.isdigit():
                num += ch; continue
            if num: c += int(num); num = ""
            if ch == "/": break
            if ch not in "PNBRQKMpnbrqkm": raise ValueError("bad piece letter " + ch)
            if c > 8: raise ValueError("rank too long: " + row)
            b[(c, r)] = ch; c += 1
        if c != 9: raise ValueError("rank without 9 files: " + row)
    if f[1] not in ("w", "b"): raise ValueError("side to move must be w or b")
    if f[2] != "-" and set(f[2]) - set("KQkq"): raise ValueError("castling field " + f[2])
    return b, f[1] == "w", set(f[2]) - {"-"}, f[3]

def attacked(b, s, by_white):
    f0, r0 = s
    own = (lambda p: p.isupper()) if by_white else (lambda p: p.islower())
    dr = -1 if by_white else 1  # a white pawn attacking s stands one rank below
    for df in (-1, 1):
        if b.get((f0 + df, r0 + dr)) == ("P" if by_white else "p"): return True
    for df, dr2 in KN:
        p = b.get((f0 + df, r0 + dr2))
        if p and own(p) and p.upper() in "NM": return True
    for df, dr2 in KG:
        p = b.get((f0 + df, r0 + dr2))
        if p and own(p) and p.upper() == "K": return True
    for dirs, kinds in ((((1, 1), (1, -1), (-1, 1), (-1, -1)), "BQM"),
                        (((1, 0), (-1, 0), (0, 1), (0, -1)), "RQ")):
        for df, dr2 in dirs:
            f, r = f0 + df, r0 + dr2
            while 0 <= f < 9 and 0 <= r < 9:
                p = b.get((f, r))
                if p:
                    if own(p) and p.upper() in kinds: return True
                    break
                f += df; r += dr2
    return False

def problems(fen):
    try:
        b, w, cr, ep = parse(fen)
    except ValueError as e:
        return ["parse: %s" % e]
    out = []
    ks = {p: [s for s, q in b.items() if q == p] for p in "Kk"}
    if len(ks["K"]) != 1 or len(ks["k"]) != 1: return ["need exactly one king each"]
    for s, p in b.items():
        if p in "Pp" and s[1] in (0, 8): out.append("pawn on rank 1/9 at %s%d" % (FILES[s[0]], s[1] + 1))
    if attacked(b, ks["k" if w else "K"][0], w): out.append("side not to move is in check")
    for ch, king, rook in (("K", (4, 0, "K"), (8, 0, "R")), ("Q", (4, 0, "K"), (0, 0, "R")),
                           ("k", (4, 8, "k"), (8, 8, "r")), ("q", (4, 8, "k"), (0, 8, "r"))):
        if ch in cr and not (b.get(king[:2]) == king[2] and b.get(rook[:2]) == rook[2]):
            out.append("castling right %s without king/rook" % ch)
    if ep != "-":
        try:
            e = (FILES.index(ep[0]), int(ep[1:]) - 1)
        except ValueError:
            return out + ["bad ep square " + ep]
        if w:
            ok = e[1] == 6 and e not in b and (e[0], 7) not in b and b.get((e[0], 5)) == "p"
        else:
            ok = e[1] == 2 and e not in b and (e[0], 1) not in b and b.get((e[0], 3)) == "P"
        if not ok: out.append("inconsistent ep square")
    return out

for line in sys.stdin:
    if not line.strip(): continue
    name, _, fen = line.rstrip("\n").partition("\t")
    for x in problems(fen.strip()):
        print("%s\t%s" % (name, x))
PY

declare -A invalid=() seen=()
if ((have_python)); then
  while IFS=$'\t' read -r vid problem; do
    [[ -n "$vid" ]] && invalid[$vid]+=" $problem;"
  done < <(for i in "${!c_id[@]}"; do
             [[ "${c_var[$i]}" == modern ]] || printf '%s\t%s\n' "${c_id[$i]}" "${c_fen[$i]}"; done |
           python3 "$naive" --validate-stdin)
  while IFS=$'\t' read -r vid problem; do
    [[ -n "$vid" ]] && invalid[$vid]+=" $problem;"
  done < <(for i in "${!c_id[@]}"; do
             [[ "${c_var[$i]}" != modern ]] || printf '%s\t%s\n' "${c_id[$i]}" "${c_fen[$i]}"; done |
           python3 -c "$validate9")
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
