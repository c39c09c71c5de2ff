#!/usr/bin/env bash
# What looking for unknown precursors costs `foreshock scan`: the same generated log scanned
# without and with --baseline (learned from the log itself by `foreshock baseline build`),
# page-cached, in RUNS back-to-back pairs (the best of each, and the median ratio); then the
# same on a stream where every line is a WARN carrying an exception (the worst case: every
# record is decoded in full, templated and looked up), the same against a baseline that never
# saw its classes (each record a new-exception hit), and on a log whose clock goes back.
# Also callgrind instructions of the first two pairs on 16 MB slices, which the machine's
# load does not move.
# usage: bench/novelty_cost.sh [BUILD] [MB] [FORMAT: ecs|es-json|plain] [HIT_RATE] [RUNS]
set -euo pipefail
build="${1:-build}"
mb="${2:-1024}"
format="${3:-ecs}"
hit_rate="${4:-0.01}"
runs="${5:-3}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

generate_log_file "$mb" "$format" "$hit_rate"
print_machine
"$foreshock" baseline build --log-level error -o "$work/baseline.json" "$file"
warn_share=$("$foreshock" match --show --json "$file" 2> /dev/null | head -200000 |
  python3 -c 'import sys,json
n=w=0
for l in sys.stdin:
    r=json.loads(l); n+=1
    w+= r["level"] in ("warn","error","fatal") or bool(r.get("exception"))
print("%.1f" % (100.0*w/max(n,1)))')
echo "input: $mb MB of $format, hit rate $hit_rate, $warn_share % of records WARN+ or with an exception"

# Every line a WARN with an exception, ES 8 ECS as ES writes it: 40 exception classes, 200
# messages, values varying.
python3 - "$work/warn.json" "$((mb / 8))" << 'EOF'
import json, random, sys
out, mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(5)
classes = ["org.elasticsearch.ex%d.Failure%dException" % (i, i) for i in range(40)]
with open(out, "w") as f:
    written, i = 0, 0
    while written < mb * 1000000:
        i += 1
        cls = rnd.choice(classes)
        line = ('{"@timestamp":"2026-11-29T%02d:%02d:%02d.%03dZ", "log.level": "WARN", "message":%s, "ecs.version": "1.2.0",'
                '"service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[es-data-1][write][T#3]",'
                '"log.logger":"org.elasticsearch.action.bulk.TransportShardBulkAction","elasticsearch.node.name":"es-data-1",'
                '"elasticsearch.cluster.name":"prod","error.type":%s,"error.message":%s,"error.stack_trace":%s}\n') % (
            (i // 3600000) % 24, (i // 60000) % 60, (i // 1000) % 60, i % 1000,
            json.dumps("[orders-2026.11][%d] failed to execute operation %d for shard [%d]" % (rnd.randint(0, 9), rnd.randint(0, 199), rnd.randint(0, 9))),
            json.dumps(cls), json.dumps("failure number %d" % rnd.randint(1, 99999)),
            json.dumps(cls + ": failure\n\tat org.elasticsearch.action.bulk.TransportShardBulkAction.execute(TransportShardBulkAction.java:%d)" % rnd.randint(1, 999)))
        f.write(line)
        written += len(line)
EOF
"$foreshock" baseline build --log-level error -o "$work/warn-baseline.json" "$work/warn.json"
# The node's clock going back: the bench log's first quarter four times over, as `cat` gives a
# node's files replayed newest first (same name: a file's name names its node).
mkdir -p "$work/back"
head -n "$(($(wc -l < "$file") / 4))" "$file" > "$work/quarter"
cat "$work/quarter" "$work/quarter" "$work/quarter" "$work/quarter" > "$work/back/$(basename "$file")"
rm "$work/quarter"
cat "$file" "$work/warn.json" "$work/back/$(basename "$file")" > /dev/null

# Each run times the scan without and with novelty back to back: the best of each, and the
# median of the runs' ratios (one lucky run moves a best, not the median).
for pair in "$file:$work/baseline.json:bench log" "$work/warn.json:$work/warn-baseline.json:every line a WARN with an exception" \
  "$work/warn.json:$work/baseline.json:every line a WARN with an exception the baseline never saw (a flood of new classes)" \
  "$work/back/$(basename "$file"):$work/baseline.json:bench log's first quarter four times over (the clock going back)"; do
  IFS=: read -r input baseline what <<< "$pair"
  times=""
  for _ in $(seq "$runs"); do
    times+="$(elapsed "$foreshock" scan --log-level error "$input") "
    times+="$(elapsed "$foreshock" scan --log-level error --baseline "$baseline" "$input")"$'\n'
  done
  size=$(stat -c %s "$input")
  printf '%s' "$times" | awk -v size="$size" -v what="$what" 'BEGIN { n = 0 }
    NF == 2 { off[n] = $1; on[n] = $2; ratio[n] = $2 / $1; n++ }
    END {
      best_off = off[0]; best_on = on[0]
      for (i = 1; i < n; i++) { if (off[i] < best_off) best_off = off[i]; if (on[i] < best_on) best_on = on[i] }
      # the median ratio: sorted by insertion (n is small)
      for (i = 1; i < n; i++) { r = ratio[i]; for (j = i - 1; j >= 0 && ratio[j] > r; j--) ratio[j + 1] = ratio[j]; ratio[j + 1] = r }
      median = n % 2 ? ratio[int(n / 2)] : (ratio[n / 2 - 1] + ratio[n / 2]) / 2
      printf "%s: without novelty %.3f s (%.0f MB/s), with --baseline %.3f s (%.0f MB/s): best %+.1f %%, median of %d runs %+.1f %%\n",
             what, best_off, size / best_off / 1e6, best_on, size / best_on / 1e6, (best_on / best_off - 1) * 100, n, (median - 1) * 100 }'
done

if command -v valgrind > /dev/null; then
  count() {  # count FILE [SCAN OPTIONS...]
    local input="$1"
    shift
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$foreshock" scan --log-level error "$@" "$input" 2>&1 > /dev/null |
      grep -o 'Collected : [0-9]*' | awk '{print $3}'
  }
  # Slices under the files' own names: a file's name names its node, which its baseline rates are of.
  mkdir -p "$work/slices"
  head -c 16000000 "$file" > "$work/slices/$(basename "$file")"
  head -c 16000000 "$work/warn.json" > "$work/slices/warn.json"
  # Start-up (the catalog's regexes, the baseline's JSON) is counted on a file of one line of
  # each, and taken out for the cost per line.
  mkdir -p "$work/first"
  head -1 "$file" > "$work/first/$(basename "$file")"
  head -1 "$work/warn.json" > "$work/first/warn.json"
  for pair in "$(basename "$file"):$work/baseline.json:bench log" "warn.json:$work/warn-baseline.json:every line a WARN with an exception"; do
    IFS=: read -r name baseline what <<< "$pair"
    awk -v off="$(count "$work/slices/$name")" -v on="$(count "$work/slices/$name" --baseline "$baseline")" \
      -v start_off="$(count "$work/first/$name")" -v start_on="$(count "$work/first/$name" --baseline "$baseline")" -v what="$what" \
      'BEGIN{printf "%s, callgrind on 16 MB: %.0fM instructions without novelty, %.0fM with: %+.1f %% (%+.1f %% past start-up)\n",
             what, off / 1e6, on / 1e6, (on / off - 1) * 100, ((on - start_on) / (off - start_off) - 1) * 100}'
  done
  # Past start-up, the first 16 MB still hold the one-off work of a run: each kind of notable
  # line decoded and learned the first time, regexes' DFAs built. The 48 MB after them cost
  # what the rest of a long log does: counted as the difference from a 64 MB slice.
  mkdir -p "$work/slices64"
  head -c 64000000 "$file" > "$work/slices64/$(basename "$file")"
  name=$(basename "$file")
  awk -v off16="$(count "$work/slices/$name")" -v on16="$(count "$work/slices/$name" --baseline "$work/baseline.json")" \
    -v off64="$(count "$work/slices64/$name")" -v on64="$(count "$work/slices64/$name" --baseline "$work/baseline.json")" \
    'BEGIN{printf "bench log, callgrind on the 48 MB after the first 16 MB: %.0fM instructions without novelty, %.0fM with: %+.1f %%\n",
           (off64 - off16) / 1e6, (on64 - on16) / 1e6, ((on64 - on16) / (off64 - off16) - 1) * 100}'
fi
ls -l "$work/baseline.json" | awk '{printf "baseline of the bench log: %d bytes\n", $5}'
