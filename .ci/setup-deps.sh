#!/usr/bin/env bash
# Installs foreshock's build and test dependencies from Debian 12 packages.
# Idempotent: packages already present are left alone and apt is not touched at all.
# Usage: .ci/setup-deps.sh [--with-test-tools] [--with-bench-tools]
# Called by .ci/demo.sh (build packages) and .ci/test.sh (build and test packages).
set -euo pipefail

build_packages=(
  build-essential cmake pkg-config
  libre2-dev libboost-program-options-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libsimdjson-dev
  libyaml-dev zlib1g-dev tzdata libcurl4-openssl-dev prometheus-cpp-dev libcivetweb-dev ca-certificates libzstd-dev
)
test_packages=(
  libgtest-dev libgmock-dev python3
  prometheus  # promtool checks the metrics exposition
  openssl     # a self-signed certificate for the HTTPS delivery test
  chromium    # renders replay's HTML report in a test
  libpng-dev poppler-utils  # the test reads the report's screenshot and its PDF's text
  zstd        # makes .zst archives for the replay tests
  clang-14 libclang-rt-14-dev  # libFuzzer targets (.ci/fuzz.sh) and the sanitizer build
  systemd     # systemd-analyze verifies the packaged unit (the service is never started)
)
# bench/ (not CI): Google Benchmark for bench/micro, and the peers the scripts measure against.
bench_packages=(libbenchmark-dev ripgrep sec valgrind)

wanted=("${build_packages[@]}")
for option in "$@"; do
  case "$option" in
    --with-test-tools) wanted+=("${test_packages[@]}") ;;
    --with-bench-tools) wanted+=("${bench_packages[@]}") ;;
    *) echo "setup-deps: unknown option '$option' (known: --with-test-tools, --with-bench-tools)" >&2; exit 2 ;;
  esac
done

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
