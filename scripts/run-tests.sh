#!/usr/bin/env bash
# Builds virrey with its tests and runs every test (the README's test command).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${VIRREY_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
