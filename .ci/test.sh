#!/usr/bin/env bash
# The README's second command, and what CI runs: installs what is missing, builds with
# warnings as errors, runs every test (unit, end-to-end on the built binary, the catalog's
# own examples), then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and
# runs the whole suite under them.
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-deps.sh --with-test-tools
jobs="$(nproc)"

run_suite() {
  local dir="$1"; shift
  echo "== build $dir ($*)"
  cmake -S . -B "$dir" -DFORESHOCK_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
  echo "== test $dir"
  ctest --test-dir "$dir" -j"$jobs" --output-on-failure --timeout 300
}

run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DFORESHOCK_SANITIZE=address,undefined
