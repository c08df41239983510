#!/usr/bin/env bash
# The install rules and the Debian package, end to end.
#   install_test.sh prefix BUILD   `cmake --install BUILD --prefix TMP` installs
#                                  exactly the binary, man pages, completion,
#                                  sample data and the Dask driver, and the
#                                  binary runs there.
#   install_test.sh deb BUILD      scripts/package.sh builds the package
#                                  (lintian: no errors), dpkg-deb -x unpacks
#                                  it into a fresh root, and the unpacked
#                                  binary, man pages and completion work.
# Expected values come from outside the binary: the version from project()
# in CMakeLists.txt, game counts from sample-data/README.md and the README,
# the command list from `virrey --help`.
set -euo pipefail
mode=$1
build=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { # description command...
  local what=$1
  shift
  "$@" || fail "$what"
}

version=$(sed -n 's/^project(virrey VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ -n $version ]] || { echo "no version in CMakeLists.txt"; exit 1; }

if [[ $mode == prefix ]]; then
  root=$work/prefix
  cmake --build "$build" --target virrey virrey_docs >/dev/null
  # Installing only reads the build tree: the man pages for the prefix are
  # written elsewhere (other tests running meanwhile write in the tree, so
  # only what the build made is looked at).
  touch "$work/before-install"
  sleep 1
  cmake --install "$build" --prefix "$root" >/dev/null
  written=$(find "$build/docs" "$build/cli" -newer "$work/before-install" | head -3)
  [[ -z $written ]] || fail "cmake --install wrote into the build tree: $written"
  # A relative --prefix: the man pages name the sample data by its absolute path.
  (cd "$work" && cmake --install "$build" --prefix relative >/dev/null)
  LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$work/relative/share/man/man1/virrey.1" 2>/dev/null >"$work/relative.txt"
  check "relative --prefix" grep -qF -- "$work/relative/share/virrey/sample-data/" "$work/relative.txt"
  bin=$root/bin/virrey
  man=$root/share/man/man1
  completion=$root/share/bash-completion/completions/virrey
  data=$root/share/virrey/sample-data
  suffix=.1
else
  command -v dpkg-deb >/dev/null || { echo "dpkg-deb missing: skipped"; exit 77; }
  lintian_flag=()
  command -v lintian >/dev/null || { echo "lintian missing: not run"; lintian_flag=(--no-lintian); }
  if ! deb=$("$src/scripts/package.sh" --build-dir "$build" --output-dir "$work" "${lintian_flag[@]}" \
             2>"$work/package.log" | tail -n 1); then
    cat "$work/package.log"
    echo "FAIL: package.sh"
    exit 1
  fi
  echo "lintian: $(cat "$work/package.log")"
  check "package name $deb" test "$(basename "$deb")" = "virrey_${version}_$(dpkg --print-architecture).deb"
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "Depends: $depends"
  for lib in libc6 libstdc++6 libgcc-s1 librocksdb; do
    [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
  done
  check "Recommends" test "$(dpkg-deb -f "$deb" Recommends)" = "stockfish, fairy-stockfish, sjaakii, python3-distributed"
  check "Suggests" test "$(dpkg-deb -f "$deb" Suggests)" = "pgn-extract, scid-data"
  root=$work/root
  dpkg-deb -x "$deb" "$root"
  bin=$root/usr/bin/virrey
  man=$root/usr/share/man/man1
  completion=$root/usr/share/bash-completion/completions/virrey
  data=$root/usr/share/virrey/sample-data
  suffix=.1.gz
  check "copyright" test -s "$root/usr/share/doc/virrey/copyright"
  check "changelog" test -s "$root/usr/share/doc/virrey/changelog.gz"
  # The libraries compiled in: their licences, as Debian ships them.
  for lib in libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev; do
    check "$lib's copyright" cmp -s "$root/usr/share/doc/virrey/third-party/$lib.copyright" \
      "/usr/share/doc/$lib/copyright"
  done
  # The same build packaged again: the same bytes.
  again=$("$src/scripts/package.sh" --build-dir "$build" --output-dir "$work/again" --no-lintian 2>/dev/null | tail -n 1)
  check "package.sh again gives the same bytes" cmp -s "$deb" "$again"
  # The packaged binary uses the system's shared libraries, and all are found.
  check "dynamically linked" bash -c "ldd '$bin' | grep -q librocksdb"
  check "every library found" bash -c "! ldd '$bin' | grep -q 'not found'"
fi

# Nothing but the binary, man pages, completion, sample data (and the
# package's doc files).
(cd "$root" && find . -type f | sed 's|^\./||' | sort) >"$work/files"
unexpected=$(grep -Ev '^(usr/)?(bin/virrey|bin/virrey-dask|share/virrey/cluster/virrey_dask\.py|share/man/man1/virrey(-[a-z-]+)?\.1(\.gz)?|share/bash-completion/completions/virrey|share/virrey/sample-data/[^/]+|share/doc/virrey/(copyright|changelog\.gz|README\.md\.gz|third-party/[a-z0-9-]+\.copyright)|share/lintian/overrides/virrey)$' \
             "$work/files" || true)
[[ -z $unexpected ]] || fail "unexpected files installed: $unexpected"
for f in virrey-games.pgn standard-games.pgn modern-club.pgn; do
  cmp -s "$data/$f" "$src/sample-data/$f" || fail "sample data $f differs from sample-data/"
done

# The binary, run from an empty folder: it names no source or build path.
cd "$work"
check "--version" test "$("$bin" --version)" = "virrey $version"
# The Dask driver finds its module where it was installed.
if /usr/bin/python3 -c "import distributed" 2>/dev/null; then
  check "virrey-dask --help" env -u PYTHONDONTWRITEBYTECODE "$(dirname "$bin")/virrey-dask" --help >/dev/null
  # Running it leaves the installed tree as it was: no __pycache__.
  cached=$(find "$root" -name __pycache__)
  [[ -z $cached ]] || fail "virrey-dask wrote $cached"
fi
# (Debug sections aside: a copy stripped of them is searched.)
strip --strip-debug -o "$work/stripped" "$bin"
if strings "$work/stripped" | grep -F -e "$src" -e "$build" >"$work/paths"; then
  fail "the binary names the source or build tree: $(head -3 "$work/paths")"
fi
summary=$("$bin" import --db "$work/db" --format json "$data/virrey-games.pgn" "$data/standard-games.pgn" \
          "$data/modern-club.pgn" 2>/dev/null) || fail "import of the installed sample data"
# sample-data/README.md: 180 + 180 + 45 games.
[[ $summary == *'"stored":405'* ]] || fail "import summary: $summary"
# The README's example: one Modern game with a minister promotion on the
# i-file, Martínez - Iyer 2021.05.18 at the Memorial Maura, the promotion
# at ply 88.
found=$("$bin" search --db "$work/db" --variant modern --promotion M --file i --format csv 2>/dev/null)
check "search of the sample data: $found" test "$(printf '%s\n' "$found" | tail -n +2 | cut -d, -f2-)" \
  = '2021.05.18,"Martínez, Pierre","Iyer, Valentina",0-1,Memorial Maura La Habana 2021,La Habana CUB,3.1,,modern,88'

# A man page for virrey and every command `virrey --help` lists; each
# renders without a warning.
commands=$("$bin" --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[[ -n $commands ]] || fail "no commands in virrey --help"
for page in virrey $(printf 'virrey-%s ' $commands); do
  file=$man/$page$suffix
  if [[ ! -s $file ]]; then
    fail "no man page $page"
    continue
  fi
  warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$file" 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "man $page: $warnings"
  warnings=$( (if [[ $file == *.gz ]]; then zcat "$file"; else cat "$file"; fi) |
             groff -ww -man -Tutf8 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "groff -ww $page: $warnings"
  name=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$file" 2>/dev/null | sed -n '/^NAME/{n;p}')
  [[ $name == *"${page} "* ]] || fail "man $page NAME line: $name"
done
# The Dask driver's page, and the sample data named where this install put
# it (the pages are written for the prefix given at install time).
check "man page virrey-dask" test -s "$man/virrey-dask$suffix"
LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man/virrey-dask$suffix" 2>/dev/null >"$work/dask.txt"
check "virrey-dask(1) names virrey $version" grep -qF "virrey $version" "$work/dask.txt"
data_named=${data#"$root"}
[[ $mode == prefix ]] && data_named=$data
LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$man/virrey$suffix" 2>/dev/null >"$work/virrey.txt"
check "virrey(1) names $data_named" grep -qF -- "$data_named/virrey-games.pgn" "$work/virrey.txt"
check "virrey(1) sees also virrey-dask(1)" grep -qF "virrey-dask(1)" "$work/virrey.txt"
LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man/virrey-search$suffix" 2>/dev/null >"$work/search.txt"
for want in '--fail-empty' 'EXIT STATUS' 'VIRREY_DB' 'EXAMPLES' 'jsonl'; do
  grep -qF -- "$want" "$work/search.txt" || fail "virrey-search(1) lacks $want"
done

# The completion: driven as bash drives it, through COMP_WORDS.
complete_words() { # the words, the last one being completed
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _virrey
           if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; fi' \
    _ "$completion" "$@"
}
check "complete -p" test "$(bash -c "source '$completion'; complete -p virrey")" = "complete -F _virrey virrey"
got=$(complete_words virrey "")
check "commands: $got" test "$got" = "$(printf '%s\n' $commands | sort | tr '\n' ' ')"
# The README's synopses: search --format text|pgn|json|jsonl|csv, db info|check|upgrade|classify|squares, db merge, the variants.
check "search --format: $(complete_words virrey search --format "")" \
  test "$(complete_words virrey search --format "")" = "csv json jsonl pgn text "
check "search --format j" test "$(complete_words virrey -q search --db x --format j)" = "json jsonl "
check "db" test "$(complete_words virrey db "")" = "check classify info merge squares upgrade "
check "stats openings --variant" \
  test "$(complete_words virrey stats openings --variant "")" = "modern standard virrey "
check "search --fo" test "$(complete_words virrey search --fo)" = "--format "
mkdir -p "$work/games" && touch "$work/games/one.pgn"
check "validate files" test "$(complete_words virrey validate "$work/games/o")" = "$work/games/one.pgn "
check "no file for --depth" test "$(complete_words virrey perft --depth "")" = ""

if ((failures)); then
  echo "$failures failures"
  exit 1
fi
echo "ok ($mode)"
