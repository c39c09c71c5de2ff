#!/usr/bin/env bash
# A storm of hits sent twice: LINES parent-breaker trips of one node, 5 ms apart, in the plain
# log4j layout as ES writes them, scanned once and then twice in a row (a shipper sending the
# storm again, a file read again from its start). The second copy's trips come minutes late,
# inside the windows of the rules they feed: the cost of the two copies should be about twice
# that of one, and the alerts the same. Best of RUNS each.
# usage: bench/storm_replay.sh [BUILD] [LINES] [RUNS]
set -euo pipefail
build="${1:-build}"
lines="${2:-100000}"
runs="${3:-3}"
source "$(dirname "$0")/lib.sh"
foreshock="$(cd "$build" && pwd)/foreshock"  # absolute: the alerts are compared from the files' folders

mkdir -p "$work/once" "$work/twice"  # same names: the alerts quote their source
python3 - "$work/once/es-data-1.log" "$lines" << 'PY'
import sys
out, lines = sys.argv[1], int(sys.argv[2])
with open(out, "w") as f:
    for i in range(lines):
        ms = i * 5
        f.write("[2026-11-29T01:%02d:%02d,%03d][WARN ][o.e.i.b.HierarchyCircuitBreakerService] [es-data-1] [parent] Data "
                "too large, data for [<http_request>] would be [17453315088/16.2gb], which is larger than the limit of "
                "[17072495001/15.8gb], real usage: [17453200400/16.2gb], new bytes reserved: [114688/112kb]\n"
                % ((ms // 60000) % 60, (ms // 1000) % 60, ms % 1000))
PY
cat "$work/once/es-data-1.log" "$work/once/es-data-1.log" > "$work/twice/es-data-1.log"
print_machine
once=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/once/es-data-1.log")
twice=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/twice/es-data-1.log")
same=no
if cmp -s <(cd "$work/once" && "$foreshock" scan --log-level error es-data-1.log) \
  <(cd "$work/twice" && "$foreshock" scan --log-level error es-data-1.log); then
  same=yes
fi
awk -v once="$once" -v twice="$twice" -v lines="$lines" -v same="$same" 'BEGIN{
  printf "%d breaker trips: once %.3f s, twice in a row %.3f s: %.2fx the cost of once (2x is linear); alerts the same: %s\n",
         lines, once, twice, twice / once, same }'
