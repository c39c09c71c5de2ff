#!/usr/bin/env bash
# The README's second command, and what CI runs: installs what is missing, builds with
# warnings as errors, runs every test (unit, end-to-end on the built binary, the catalog's
# own examples, the fuzz targets' regression inputs), builds the .deb and checks it
# installed, runs each libFuzzer target for a while, then builds again with AddressSanitizer
# + UndefinedBehaviorSanitizer and runs the whole suite under them, and with ThreadSanitizer
# for the tests whose code runs threads (watch, delivery, spool, self-monitor). The first
# build is GCC's, the sanitizer build Clang's: both compilers Debian 12 ships build the
# whole tree, tests included, with warnings as errors (each warns of things the other
# lets pass).
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-deps.sh --with-test-tools
jobs="$(nproc)"

# run_suite DIR [CMAKE_ARGS...] [-- CTEST_ARGS...]
run_suite() {
  local dir="$1"; shift
  local cmake_args=() ctest_args=()
  while (($#)) && [[ "$1" != "--" ]]; do cmake_args+=("$1"); shift; done
  (($#)) && shift
  ctest_args=("$@")
  echo "== build $dir (${cmake_args[*]})"
  cmake -S . -B "$dir" -DFORESHOCK_WERROR=ON "${cmake_args[@]}" >/dev/null
  cmake --build "$dir" -j"$jobs"
  echo "== test $dir"
  ctest --test-dir "$dir" -j"$jobs" --output-on-failure --timeout 300 "${ctest_args[@]}"
}

run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== package: build the .deb, install it, check the installed foreshock, remove it"
bash .ci/package-test.sh build
echo "== fuzz: each libFuzzer target for ${FUZZ_SECONDS:-30}s"
bash .ci/fuzz.sh
# The same suite under the sanitizers, built by Clang.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 \
  -DFORESHOCK_SANITIZE=address,undefined
# The threaded parts under ThreadSanitizer; the end-to-end tests run the TSan-built binary,
# which exits 66 on a race report, so a race fails the test that provoked it.
TSAN_OPTIONS="suppressions=$PWD/.ci/tsan-suppressions.txt" \
  run_suite build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFORESHOCK_SANITIZE=thread \
  -- -R 'Watch|Delivery|Spool|SelfMonitor|ConfigFile'
