#!/usr/bin/env bash
# A burst of a million lines into a file `foreshock watch` follows: how long it takes to
# read it, the CPU time it costs, and resident memory before, at peak and after (sampled
# every 100 ms).
# The peer, in the same run: `tail -F` reading the same burst into /dev/null.
# Usage: bench/watch_burst.sh [BUILD_DIR] [LINES]       (defaults: build, 1000000)
set -euo pipefail
build="${1:-build}"
lines="${2:-1000000}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$lines" > "$work/burst.json" <<'PY'
import sys
n = int(sys.argv[1])
for i in range(n):
    msg = ("[gc][%d] overhead, spent [%.1fs] collecting in the last [%.1fs]" % (i, 4.5, 5.0)
           if i % 10000 == 5000 else "cluster state updated, version [%d], source [ApplyCommitRequest{term=9}]" % i)
    level = "WARN" if i % 10000 == 5000 else "INFO"
    print('{"@timestamp":"2026-11-29T%02d:%02d:%02d.%03dZ", "log.level": "%s", "message":"%s", '
          '"log.logger":"org.elasticsearch.monitor.jvm.JvmGcMonitorService","elasticsearch.node.name":"es-%d",'
          '"elasticsearch.cluster.name":"prod"}' % ((i // 3600000) % 24, (i // 60000) % 60, (i // 1000) % 60, i % 1000,
                                                     level, msg, i % 3))
PY
size=$(stat -c %s "$work/burst.json")
touch "$work/es.json" "$work/peer.json"

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# CPU time (user + system) a process has used, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
watch_burst() {  # NAME PID FILE DONE_TEST
  local name=$1 pid=$2 file=$3 done_test=$4
  sleep 0.5
  local before peak now start end cpu_before cpu_after cpu_last
  before=$(rss "$pid"); peak=$before
  cpu_before=$(cpu_ticks "$pid")
  start=$(date +%s.%N)
  cat "$work/burst.json" >> "$file"
  until eval "$done_test"; do now=$(rss "$pid"); ((now > peak)) && peak=$now; sleep 0.1; done
  end=$(date +%s.%N)
  now=$(rss "$pid"); ((now > peak)) && peak=$now
  # Read is not done: the CPU the burst cost is counted once the process has gone idle.
  cpu_after=$(cpu_ticks "$pid"); cpu_last=-1
  while ((cpu_after != cpu_last)); do cpu_last=$cpu_after; sleep 0.3; cpu_after=$(cpu_ticks "$pid"); done
  local cpu
  cpu=$(echo "($cpu_after - $cpu_before) / $(getconf CLK_TCK)" | bc -l)
  printf '%-10s %8.2f s  %7.0f lines/s  %7.1f MB/s  CPU %5.2f s   RSS before %6d KiB, peak %6d KiB, after %6d KiB\n' \
    "$name" "$(echo "$end - $start" | bc)" "$(echo "$lines / ($end - $start)" | bc -l)" \
    "$(echo "$size / 1048576 / ($end - $start)" | bc -l)" "$cpu" "$before" "$peak" "$now"
  echo "$peak" > "$work/$name.peak"
}

"$build/foreshock" watch --log-level warn "$work/es.json" > "$work/alerts.jsonl" &
fpid=$!
expected_gc=$(grep -c overhead "$work/burst.json")
# Done when foreshock has read every byte of the burst (it processes as it reads).
watch_burst foreshock "$fpid" "$work/es.json" "[ \$(awk '/rchar/ {print \$2}' /proc/$fpid/io) -ge $size ]"

tail -n 0 -F "$work/peer.json" > "$work/peer.out" 2>/dev/null &
tpid=$!
watch_burst "tail -F" "$tpid" "$work/peer.json" "[ \$(stat -c %s \"$work/peer.out\") -ge $size ]"

echo "alerts: $(wc -l < "$work/alerts.jsonl") (GC overhead lines in the burst: $expected_gc)"
echo "peak RSS ratio foreshock / tail -F: $(echo "$(cat "$work/foreshock.peak") / $(cat "$work/tail -F.peak")" | bc -l | cut -c1-5)"
