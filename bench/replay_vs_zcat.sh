#!/usr/bin/env bash
# foreshock replay over gzip archives of several nodes, against zcat decompressing the same
# archives to /dev/null, measured in the same run. Prints wall time, CPU time (user+sys; above
# the wall time means more than one core was used), peak RSS and the ratio.
# usage: bench/replay_vs_zcat.sh [BUILD_DIR] [TOTAL_MB] [NODES] [FORMAT]
set -euo pipefail
build="${1:-build}"
mb="${2:-512}"
nodes="${3:-4}"
format="${4:-ecs}"
source "$(dirname "$0")/lib.sh"

generate_logs "$mb" "$format" "$nodes"
gzip -1 "$work"/logs/*
ls "$work"/logs/*.gz > /dev/null
compressed=$(du -cm "$work"/logs/*.gz | tail -1 | cut -f1)

# run LABEL COMMAND...: best of three; prints "LABEL wall cpu rss_mb"
run() {
  local label="$1"; shift
  local best_wall="" best_line=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || {
      cat "$work/stderr" >&2; exit 1; }
    read -r wall user sys rss < "$work/time"
    if [[ -z "$best_wall" ]] || awk "BEGIN{exit !($wall < $best_wall)}"; then
      best_wall="$wall"
      best_line=$(awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
        'BEGIN{printf "%-22s wall %6.2fs  cpu %6.2fs  peak RSS %6.1f MB", l, w, u + s, r / 1024}')
    fi
  done
  echo "$best_line"
  echo "$best_wall" > "$work/wall.$label"
}

print_machine
echo "input: $mb MB of $format logs in $nodes gzip archives ($compressed MB compressed)"
run zcat zcat "$work"/logs/*.gz
run foreshock-replay "$build/foreshock" replay --log-level warn "$work"/logs/*.gz
zcat_wall=$(cat "$work/wall.zcat")
replay_wall=$(cat "$work/wall.foreshock-replay")
awk -v z="$zcat_wall" -v r="$replay_wall" -v mb="$mb" \
  'BEGIN{printf "replay %.0f MB/s of uncompressed logs; speed relative to zcat: %.2fx (>= 1 means at least as fast)\n", mb / r, z / r}'
