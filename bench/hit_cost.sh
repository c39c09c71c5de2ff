#!/usr/bin/env bash
# What a record that hits a pattern costs `foreshock scan` on top of an ordinary line: two
# generated logs of the same size and format, one without hits and one with HIT_RATE of its
# records hitting (counted by `foreshock match`), scanned page-cached and interleaved, best
# of RUNS each; the cost per hit is the difference in wall time over the hits. Also the
# instructions per hit, by callgrind on 16 MB slices of both (start-up cancels out), which
# the machine's load does not move.
# usage: bench/hit_cost.sh [BUILD] [MB] [FORMAT: ecs|es-json|plain] [HIT_RATE] [RUNS]
set -euo pipefail
build="${1:-build}"
mb="${2:-256}"
format="${3:-plain}"
hit_rate="${4:-0.08}"
runs="${5:-5}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

generate_logs "$mb" "$format" 1 0
mv "$work/logs" "$work/quiet"
generate_logs "$mb" "$format" 1 "$hit_rate"
quiet=$(ls "$work"/quiet/*)
busy=$(ls "$work"/logs/*)
cat "$quiet" "$busy" > /dev/null
print_machine
read -r records hits < <("$foreshock" match --summary-only "$busy" 2> /dev/null | awk '/ records?, .* matched/{print $1, $3}')
echo "input: $mb MB of $format twice: no hits, and $hits of $records records hitting a pattern"

best() {
  local seconds
  seconds=$(elapsed "$foreshock" scan --log-level error "$1")
  awk -v s="$seconds" -v b="${2:-}" 'BEGIN{print (b == "" || s < b) ? s : b}'
}
quiet_best=""
busy_best=""
for _ in $(seq "$runs"); do
  quiet_best=$(best "$quiet" "$quiet_best")
  busy_best=$(best "$busy" "$busy_best")
done
awk -v q="$quiet_best" -v b="$busy_best" -v h="$hits" -v mb="$mb" 'BEGIN{
  printf "scan without hits %.3f s (%.0f MB/s), with hits %.3f s (%.0f MB/s)\n", q, mb / q, b, mb / b
  printf "cost of a hit on top of the quiet cost: %.2f us\n", (b - q) * 1e6 / h }'

if command -v valgrind > /dev/null; then
  head -c 16000000 "$quiet" > "$work/quiet.slice"
  head -c 16000000 "$busy" > "$work/busy.slice"
  slice_hits=$("$foreshock" match --summary-only "$work/busy.slice" 2> /dev/null | awk '/ records?, .* matched/{print $3}')
  count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$foreshock" scan --log-level error "$1" 2>&1 > /dev/null |
      grep -o 'Collected : [0-9]*' | awk '{print $3}'
  }
  awk -v q="$(count "$work/quiet.slice")" -v b="$(count "$work/busy.slice")" -v h="$slice_hits" \
    'BEGIN{printf "instructions per hit on top of an ordinary line: %.0f (callgrind, 16 MB slices, %d hits)\n", (b - q) / h, h}'
fi
