#!/usr/bin/env bash
# What `watch --state-dir` pays to checkpoint a large correlation state: a file of LINES
# precursor lines over GROUPS distinct group keys (default 60,000 lines, 30,000 groups, so
# 30,000 open correlation groups at the end) read from the beginning: lines/s, bytes written
# (state, journal, alerts) and CPU time.
# The peer, in the same run: `foreshock scan` of the same file (no state to save).
# Usage: bench/checkpoint_cost.sh [BUILD_DIR] [LINES] [GROUPS]
set -euo pipefail
build="${1:-build}"
lines="${2:-60000}"
groups="${3:-30000}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$lines" "$groups" > "$work/es.json" <<'PY'
import sys
lines, groups = int(sys.argv[1]), int(sys.argv[2])
for i in range(lines):
    print('{"@timestamp":"2026-11-29T%02d:%02d:%02d.%03dZ", "log.level": "WARN", "message":"PRECURSOR-%d", '
          '"elasticsearch.node.name":"es-1", "elasticsearch.cluster.name":"prod"}'
          % ((i // 3600000) % 24, (i // 60000) % 60, (i // 1000) % 60, i % 1000, i % groups))
PY
size=$(stat -c %s "$work/es.json")
flags=(--no-builtin-catalog --catalog "$(dirname "$0")/precursor-catalog.yaml" --log-level warn)

start=$(date +%s.%N)
"$build/foreshock" scan "${flags[@]}" "$work/es.json" > "$work/scan.jsonl"
scan_s=$(echo "$(date +%s.%N) - $start" | bc)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
start=$(date +%s.%N)
"$build/foreshock" watch "${flags[@]}" --from beginning --state-dir "$work/state" "$work/es.json" \
  > "$work/watch.jsonl" &
pid=$!
expected=$(wc -l < "$work/scan.jsonl")
until [ "$(wc -l < "$work/watch.jsonl")" -ge "$expected" ] && \
      [ "$(awk '/rchar/ {print $2}' "/proc/$pid/io")" -ge "$size" ]; do sleep 0.05; done
watch_s=$(echo "$(date +%s.%N) - $start" | bc)
written=$(awk '/wchar/ {print $2}' "/proc/$pid/io")
cpu=$(echo "$(cpu_ticks "$pid") / $(getconf CLK_TCK)" | bc -l)
state_bytes=$(stat -c %s "$work/state/state.json" 2>/dev/null || echo 0)
kill -TERM "$pid"; wait "$pid" || true

printf 'scan   %6.2f s  %8.0f lines/s\n' "$scan_s" "$(echo "$lines / $scan_s" | bc -l)"
printf 'watch  %6.2f s  %8.0f lines/s  CPU %5.2f s  wrote %6.1f MB  (state.json %.1f MB, %d alerts)\n' \
  "$watch_s" "$(echo "$lines / $watch_s" | bc -l)" "$cpu" "$(echo "$written / 1048576" | bc -l)" \
  "$(echo "$state_bytes / 1048576" | bc -l)" "$expected"
echo "watch / scan lines/s: $(echo "$scan_s / $watch_s" | bc -l | cut -c1-5)"
