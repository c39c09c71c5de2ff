#!/usr/bin/env bash
# Builds the libFuzzer targets in tests/fuzz with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs each for FUZZ_SECONDS (default 30) from seeds made of
# the bundled samples and the shipped catalog. A crash or a violated property stops the
# run and names the input; save it under tests/fuzz/regressions/<target>/ so the normal
# test suite replays it from then on. Called by .ci/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
build=build-fuzz
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFORESHOCK_WERROR=ON \
  -DFORESHOCK_BUILD_TESTS=OFF -DFORESHOCK_FUZZ=ON -DFORESHOCK_SANITIZE=address,undefined,fuzzer-no-link >/dev/null
cmake --build "$build" -j"$(nproc)" --target framing_fuzz decoder_fuzz timestamp_fuzz catalog_fuzz reader_fuzz time_fuzz

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seeds="$work/seeds"
mkdir -p "$seeds"/{framing,decoder,timestamp,catalog,reader,time}
# framing: whole sample files (their first byte also picks the chunk size).
cp samples/formats/* "$seeds/framing/"
# reader: whole sample files (their first byte picks the read sizes).
cp samples/formats/* "$seeds/reader/"
# time: any bytes are a program writing a multi-node stream; the samples make varied ones.
cp samples/formats/* "$seeds/time/"
# decoder and timestamp: single lines of every sample format, and their first 40 bytes.
n=0
for sample in samples/formats/*; do
  while IFS= read -r line && ((n % 1000 < 40)); do
    printf '%s' "$line" > "$seeds/decoder/$n"
    printf '%s' "${line:0:40}" > "$seeds/timestamp/$n"
    n=$((n + 1))
  done < "$sample"
  n=$(((n / 1000 + 1) * 1000))
  # and runs of lines, which the decoders read in turn (the JSON header learns layouts)
  head -n 4 "$sample" > "$seeds/decoder/run-$(basename "$sample")"
done
cp patterns/elasticsearch/*.yaml "$seeds/catalog/"

for target in framing decoder timestamp catalog reader time; do
  echo "== fuzz $target for ${seconds}s"
  mkdir -p "$work/corpus/$target"
  if ! ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$PWD/$build/$target-" \
      "$work/corpus/$target" "$seeds/$target" 2>"$work/$target.log"; then
    tail -60 "$work/$target.log"
    echo "fuzz: $target failed; the input is $build/$target-*; add it to tests/fuzz/regressions/$target/" >&2
    exit 1
  fi
  grep -E 'stat::number_of_executed_units|cov:' "$work/$target.log" | tail -2
done
