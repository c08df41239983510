#!/usr/bin/env bash
# Installs the Debian 12 packages virrey needs to build and test, skipping
# those already present; with --bench also the peers that bench/*.sh time
# virrey against. Run as root.
#   scripts/install-deps.sh [--bench]
set -euo pipefail
packages=(cmake g++ make libcli11-dev libspdlog-dev libfmt-dev librocksdb-dev
          libgtest-dev libgmock-dev libbenchmark-dev
          zlib1g-dev libzstd-dev liblz4-dev libsnappy-dev libbz2-dev  # static archives too
          nlohmann-json3-dev  # JSON reader of partial statistics (stats merge)
          zstd python3 python3-distributed  # python3-distributed: the Dask driver (cluster/)
          stockfish sjaakii fairy-stockfish  # the engines `virrey analyse` drives (tests/engine)
          clang-14 libclang-rt-14-dev  # libFuzzer and clang's sanitizers (scripts/fuzz.sh)
          dpkg-dev lintian man-db groff-base  # scripts/package.sh and its test (tests/package/)
          chromium  # headless, renders the HTML page of `virrey event` in its test
          pgn-extract scid-data)  # ECO files of `--openings` and pgn-extract -e, its peer (tests/query)
case ${1:-} in
  "") ;;
  --bench)
    # scid: tkscid (import_vs_scid.sh); pgn-extract, in the list above, also serves
    # validate_vs_pgn_extract.sh;
    # the engines above also serve perft_vs_peers.sh, crosscheck-perft.sh,
    # modern_perft_vs_fairy.sh and analyse_overhead.sh; time: /usr/bin/time,
    # which the scripts time runs with.
    packages+=(scid time) ;;
  *) echo "usage: $0 [--bench]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
