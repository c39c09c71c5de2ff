#!/usr/bin/env bash
# Cost of a larger catalog: foreshock scan of the same page-cached file with the shipped
# catalog and with it padded to TOTAL patterns (default 500). The padding patterns look like
# real precursor messages (a distinct class name, a distinctive phrase, a captured number) and
# never match the generated logs, so the alerts are the same and only the matching cost moves.
# Prints both wall times and their ratio (the target is at most 1.5x), and the start-up of
# each (an empty input) with the ratio of the cost per MB that leaves.
# usage: bench/catalog_scaling.sh [BUILD_DIR] [MB] [FORMAT] [TOTAL]
set -euo pipefail
build="${1:-build}"
mb="${2:-512}"
format="${3:-ecs}"
total="${4:-500}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

generate_log_file "$mb" "$format"
shipped=$("$foreshock" catalog export | wc -l)
python3 - "$work/padding.yaml" $((total - shipped)) <<'PY'
import random, sys
out, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(11)
subjects = ["allocation", "snapshot", "recovery", "translog", "merge", "refresh", "flush", "shard lock",
            "mapping update", "ingest pipeline", "repository", "transport channel", "watcher", "rollup"]
verbs = ["stalled after", "rejected because of", "gave up on", "is throttled by", "lost track of",
         "timed out waiting for", "could not reserve", "exceeded the budget of"]
with open(out, "w") as f:
    f.write("patterns:\n")
    for i in range(count):
        word = "".join(rng.choice("bcdfghjklmnpqrstvwxz") + rng.choice("aeiou") for _ in range(4))
        subject, verb = rng.choice(subjects), rng.choice(verbs)
        f.write(f"  - id: padding.p{i}\n    title: Padding {i}\n    category: node\n    severity: info\n")
        f.write(f"    regex: '{subject} {verb} {word} \\[(?P<n{i}>\\d+)\\]'\n")
        f.write(f"    examples: {{match: ['{subject} {verb} {word} [7]'], no_match: ['{subject}']}}\n")
PY
"$foreshock" catalog lint --catalog "$work/padding.yaml" >/dev/null
padded=$("$foreshock" catalog export --catalog "$work/padding.yaml" | wc -l)
cat "$file" > /dev/null  # page cache

# best LABEL COMMAND...: best wall time of three
best() {
  local label="$1"; shift
  local best=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out.$label" 2> /dev/null
    read -r seconds rss < "$work/time"
    if [[ -z "$best" ]] || awk "BEGIN{exit !($seconds < $best)}"; then best="$seconds"; best_rss="$rss"; fi
  done
  local rate="$(awk -v m="$mb" -v s="$best" 'BEGIN{printf "%6.0f MB/s", m/s}')"
  [[ "$label" != start-up* ]] || rate="           "
  printf '%-26s %6.2fs  %s  peak RSS %5.1f MB\n' "$label" "$best" "$rate" "$(awk -v r="$best_rss" 'BEGIN{print r/1024}')"
  echo "$best" > "$work/wall.$label"
}
print_machine
echo "input: $mb MB of generated $format logs"
best "shipped ($shipped patterns)" "$foreshock" scan --log-level error "$file"
best "padded ($padded patterns)" "$foreshock" scan --log-level error --catalog "$work/padding.yaml" "$file"
cmp -s "$work/out.shipped ($shipped patterns)" "$work/out.padded ($padded patterns)" \
  && echo "alerts: identical" || echo "alerts: DIFFERENT"
shipped_wall=$(cat "$work/wall.shipped ($shipped patterns)")
padded_wall=$(cat "$work/wall.padded ($padded patterns)")
awk -v a="$shipped_wall" -v b="$padded_wall" 'BEGIN{printf "padded / shipped cost: %.2fx (target <= 1.5x)\n", b / a}'
# Start-up (loading and compiling the catalog) is paid once per run, whatever the input:
# on an empty input, and the ratio of what is left, the cost per MB.
: > "$work/empty"
best "start-up, shipped" "$foreshock" scan --log-level error "$work/empty"
best "start-up, padded" "$foreshock" scan --log-level error --catalog "$work/padding.yaml" "$work/empty"
awk -v a="$shipped_wall" -v b="$padded_wall" -v sa="$(cat "$work/wall.start-up, shipped")" \
  -v sb="$(cat "$work/wall.start-up, padded")" \
  'BEGIN{printf "padded / shipped cost per MB, start-up aside: %.2fx\n", (b - sb) / (a - sa)}'
