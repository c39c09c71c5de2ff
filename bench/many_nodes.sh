#!/usr/bin/env bash
# Alerts of many nodes at once: LINES GC-overhead warnings (each its node's alert), STEP_MS
# (10) ms apart, in the plain log4j layout as ES writes them, from one node and then spread
# over NODES node names (a replay of a large cluster, or junk naming a new node on every line).
# Each alert asks which firing groups inhibit it and how long ago its node was warned about,
# and each second of event time the correlator sweeps the groups due: neither should cost in
# proportion to the groups held (up to 10,000), however long the log spans (864 ms apart, the
# lines span a day). Best of RUNS each; the ratio of the two (1x is flat).
# usage: bench/many_nodes.sh [BUILD] [LINES] [NODES] [RUNS] [STEP_MS]
set -euo pipefail
build="${1:-build}"
lines="${2:-100000}"
nodes="${3:-10000}"
runs="${4:-3}"
step_ms="${5:-10}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

write_log() {  # write_log FILE NODES
  python3 - "$1" "$lines" "$2" "$step_ms" << 'PY'
import random, sys
out, lines, nodes, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(3)
with open(out, "w") as f:
    for i in range(lines):
        ms = i * step
        f.write("[2026-11-%02dT%02d:%02d:%02d,%03d][WARN ][o.e.m.j.JvmGcMonitorService] [es-data-%d] [gc][%d] overhead, "
                "spent [1.2s] collecting in the last [1.5s]\n"
                % (29 + ms // 86400000, ms // 3600000 % 24, (ms // 60000) % 60, (ms // 1000) % 60, ms % 1000, rnd.randrange(nodes) + 1, i))
PY
}
write_log "$work/one.log" 1
write_log "$work/many.log" "$nodes"
print_machine
one=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/one.log")
many=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/many.log")
awk -v one="$one" -v many="$many" -v lines="$lines" -v nodes="$nodes" -v step="$step_ms" 'BEGIN{
  printf "%d GC warnings %d ms apart: from one node %.3f s, from %d nodes %.3f s: %.2fx (1x is flat)\n", lines, step, one, nodes, many, many / one }'
