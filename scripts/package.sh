#!/usr/bin/env bash
# Builds the Debian package virrey_VERSION_ARCH.deb from a build tree, then
# runs lintian on it (unless --no-lintian). The package holds what
# `cmake --install` installs (cmake/install.cmake), with the binary linked to
# the system's shared libraries (so Depends comes from dpkg-shlibdeps), the
# man pages compressed and naming /usr/share/virrey, and the copyright file
# and changelog Debian asks for.
#   scripts/package.sh [--build-dir DIR] [--output-dir DIR] [--no-lintian]
# DIR defaults to build/ (configured Release if it is not yet) and the
# repository root. The version is the one `virrey --version` prints
# (project() in CMakeLists.txt). The maintainer is $DEBFULLNAME <$DEBEMAIL>
# when set, else the author of the last commit. Prints the path of the package last.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$root
run_lintian=1
while (($#)); do
  case $1 in
    --build-dir) build=$(realpath -m "$2"); shift 2 ;;
    --output-dir) out=$(realpath -m "$2"); shift 2 ;;
    --no-lintian) run_lintian=0; shift ;;
    *) echo "usage: $0 [--build-dir DIR] [--output-dir DIR] [--no-lintian]" >&2; exit 2 ;;
  esac
done
for tool in dpkg-deb dpkg-shlibdeps strip; do
  command -v "$tool" >/dev/null || { echo "package.sh: $tool is missing (scripts/install-deps.sh)" >&2; exit 3; }
done

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DVIRREY_BUILD_TESTS=OFF -DVIRREY_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target virrey virrey_system virrey_docs >/dev/null

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/root
mkdir -p "$pkg/DEBIAN"
chmod 0755 "$pkg"
DESTDIR=$pkg cmake --install "$build" --prefix /usr >/dev/null
# The binary linked to the system's libraries in place of the static one:
# removed first, as cmake --install keeps a file whose time is the source's
# to the second (both binaries are often linked in the same second).
rm -f "$pkg/usr/bin/virrey"
DESTDIR=$pkg cmake --install "$build" --prefix /usr --component system-binary >/dev/null
virrey=$pkg/usr/bin/virrey
# As dh_strip does: no symbols, no comment or note sections.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$virrey"
version=$("$virrey" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)

# The man pages (the install wrote them naming /usr/share/virrey), compressed.
gzip -9n "$pkg"/usr/share/man/man1/*.1

doc=$pkg/usr/share/doc/virrey
mkdir -p "$doc"
install -m 0644 "$root/scripts/debian/copyright" "$doc/copyright"
# The libraries compiled into the binary (header libraries, and fmt's
# compiled part): their copyright and licence as Debian ships them.
for lib in libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev; do
  [[ -f /usr/share/doc/$lib/copyright ]] ||
    { echo "package.sh: /usr/share/doc/$lib/copyright is missing (scripts/install-deps.sh)" >&2; exit 3; }
  install -D -m 0644 "/usr/share/doc/$lib/copyright" "$doc/third-party/$lib.copyright"
done
# The README describes every format's fields (the man pages point to it).
gzip -9n -c "$root/README.md" >"$doc/README.md.gz"
# The maintainer: $DEBFULLNAME <$DEBEMAIL> (Debian's convention), else the author of the last commit.
if [[ -n ${DEBEMAIL:-} ]]; then
  maintainer="${DEBFULLNAME:-virrey maintainers} <$DEBEMAIL>"
else
  maintainer=$(git -C "$root" log -1 --format='%an <%ae>' 2>/dev/null || echo 'virrey <virrey@localhost>')
fi
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# One time for the changelog and every file's time in the archive: the last
# commit's unless SOURCE_DATE_EPOCH is set, so the same tree gives the same
# bytes (reproducible builds; dpkg-deb reads SOURCE_DATE_EPOCH as well).
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH
when=$(date -R -d "@$SOURCE_DATE_EPOCH")
# A native package (the version has no Debian revision): changelog.gz.
printf 'virrey (%s) unstable; urgency=medium\n\n  * Built from the virrey sources at commit %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$when" | gzip -9n >"$doc/changelog.gz"
find "$pkg/usr" -type d -exec chmod 0755 {} +
find "$pkg/usr" -type f ! -path "$pkg/usr/bin/*" -exec chmod 0644 {} +
# The sample collections' README describes its folder, beside the files it names.
mkdir -p "$pkg/usr/share/lintian/overrides"
printf '%s\n' 'virrey: package-contains-documentation-outside-usr-share-doc [usr/share/virrey/sample-data/README.md]' \
  >"$pkg/usr/share/lintian/overrides/virrey"
chmod 0644 "$pkg/usr/share/lintian/overrides/virrey"
find "$pkg/usr" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

# Depends: the packages of the shared libraries the ELF files link.
mkdir -p "$stage/src/debian"
printf 'Source: virrey\n\nPackage: virrey\nArchitecture: any\n' >"$stage/src/debian/control"
elves=()
for f in "$pkg"/usr/bin/*; do
  [[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" == 177ELF ]] && elves+=("$f")
done
shlibs=$(cd "$stage/src" && dpkg-shlibdeps -O "${elves[@]}") || { echo "package.sh: dpkg-shlibdeps failed" >&2; exit 3; }
depends=$(sed -n 's/^shlibs:Depends=//p' <<<"$shlibs")
[[ -n $depends ]] || { echo "package.sh: dpkg-shlibdeps found no Depends" >&2; exit 3; }

cat >"$pkg/DEBIAN/control" <<CONTROL
Package: virrey
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk "$pkg/usr" | cut -f1)
Depends: $depends, python3
Recommends: stockfish, fairy-stockfish, sjaakii, python3-distributed
Suggests: pgn-extract, scid-data
Section: utils
Priority: optional
Description: PGN database and analysis for chess variants
 virrey stores PGN games in an embedded database and answers questions
 about them: games by exact position (transpositions included), promotion
 and tags; an opening explorer; statistics of results, promotions, lengths
 and endings. It validates every move, tag and result of PGN files with
 located, compiler-style findings, counts perft, and generates legal games.
 .
 It knows Virrey chess (Ajedrez del Virrey: a pawn promotes to the piece
 that started on its file, a viceroy on the e-file), standard chess and
 Modern chess (9x9, with a minister). Chess engines and Dask (Recommends)
 and ECO data (Suggests) are used where virrey's commands ask for them.
CONTROL
(cd "$pkg" && find usr -type f -exec md5sum {} + | sort -k 2) >"$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"

mkdir -p "$out"
deb=$out/virrey_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
if ((run_lintian)); then
  command -v lintian >/dev/null || { echo "package.sh: lintian is missing (scripts/install-deps.sh)" >&2; exit 3; }
  # Errors fail the build; warnings and notes are printed.
  lintian --fail-on error "$deb" >&2
fi
echo "$deb"
