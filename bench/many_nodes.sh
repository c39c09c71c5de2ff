#!/usr/bin/env bash
# Alerts of many nodes at once: LINES GC-overhead warnings (each its node's alert), 10 ms
# apart, in the plain log4j layout as ES writes them, from one node and then spread over NODES
# node names (a replay of a large cluster, or junk naming a new node on every line). Each
# alert asks which firing groups inhibit it and how long ago its node was warned about: its
# cost should not grow with the number of groups the correlator holds (up to 10,000). Best
# of RUNS each; the ratio of the two (1x is flat).
# usage: bench/many_nodes.sh [BUILD] [LINES] [NODES] [RUNS]
set -euo pipefail
build="${1:-build}"
lines="${2:-100000}"
nodes="${3:-10000}"
runs="${4:-3}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

write_log() {  # write_log FILE NODES
  python3 - "$1" "$lines" "$2" << 'PY'
import random, sys
out, lines, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(3)
with open(out, "w") as f:
    for i in range(lines):
        ms = i * 10
        f.write("[2026-11-29T%02d:%02d:%02d,%03d][WARN ][o.e.m.j.JvmGcMonitorService] [es-data-%d] [gc][%d] overhead, "
                "spent [1.2s] collecting in the last [1.5s]\n"
                % (3 + ms // 3600000, (ms // 60000) % 60, (ms // 1000) % 60, ms % 1000, rnd.randrange(nodes) + 1, i))
PY
}
write_log "$work/one.log" 1
write_log "$work/many.log" "$nodes"
print_machine
one=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/one.log")
many=$(best_elapsed "$runs" "$foreshock" scan --log-level error "$work/many.log")
awk -v one="$one" -v many="$many" -v lines="$lines" -v nodes="$nodes" 'BEGIN{
  printf "%d GC warnings: from one node %.3f s, from %d nodes %.3f s: %.2fx (1x is flat)\n", lines, one, nodes, many, many / one }'
