#!/usr/bin/env bash
# Single-threaded scan throughput of foreshock against its peers on the same page-cached
# file, in one run: cat, wc -l, grep -F (one literal), grep -E -f and rg -f with the
# catalog's own regexes (foreshock catalog export), and SEC with one rule per regex on a
# slice. Prints MB/s, lines/s and peak RSS for each, and foreshock's ratio to each peer, with
# the share of the corpus's records that hit a pattern as `foreshock match` counts them.
# usage: bench/throughput.sh [BUILD_DIR] [MB] [FORMAT: ecs|es-json|plain] [SEC_SLICE_MB] [HIT_RATE]
set -euo pipefail
build="${1:-build}"
mb="${2:-1024}"
format="${3:-ecs}"
sec_mb="${4:-16}"
hit_rate="${5:-0.01}"
source "$(dirname "$0")/lib.sh"
foreshock="$build/foreshock"

generate_log_file "$mb" "$format" "$hit_rate"
lines=$(wc -l < "$file")
"$foreshock" catalog export > "$work/re.txt"
"$foreshock" catalog export --ere > "$work/ere.txt"
cat "$file" > /dev/null  # page cache
# resident: how much of the input the page cache holds (the figures assume all of it).
resident() {
  command -v fincore > /dev/null || { echo "unknown (no fincore)"; return; }
  fincore --bytes --noheadings --output RES,SIZE "$file" | awk '{printf "%.0f%%", 100 * $1 / $2}'
}

declare -A wall
# run LABEL MB COMMAND...: best wall time of three, with peak RSS
run() {
  local label="$1" size="$2"; shift 2
  local best=""
  for _ in 1 2 3; do
    # Not /dev/null: GNU grep stops at the first match when its output goes nowhere.
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || true
    read -r seconds rss < <(tail -1 "$work/time")
    if [[ -z "$best" ]] || awk "BEGIN{exit !($seconds < $best)}"; then best="$seconds"; best_rss="$rss"; fi
  done
  wall[$label]="$best"
  awk -v l="$label" -v s="$best" -v mb="$size" -v n="$lines" -v total="$mb" -v r="$best_rss" \
    'BEGIN{ s = (s < 0.001 ? 0.001 : s); printf "%-14s %8.0f MB/s %12.0f lines/s  peak RSS %7.1f MB\n", l, mb / s, n * (mb / total) / s, r / 1024 }'
}

print_machine
# The hit rate as foreshock counts it ("N records, M matched"), not as the generator meant it.
hits=$("$foreshock" match --summary-only "$file" 2> /dev/null | awk '/ records?, .* matched/{printf "%.2f%%", 100 * $3 / $1}')
echo "input: $mb MB of generated $format logs, $lines lines, $hits of records hitting a pattern; $(wc -l < "$work/re.txt") catalog regexes; $(resident) in the page cache"
run cat "$mb" cat "$file"
run wc-l "$mb" wc -l "$file"
run grep-F "$mb" grep -c -F "too many scroll contexts" "$file"
run grep-E-f "$mb" grep -c -E -f "$work/ere.txt" "$file"
if command -v rg > /dev/null; then run rg-f "$mb" rg -c -f "$work/re.txt" "$file"; fi
run foreshock "$mb" "$foreshock" scan --log-level error "$file"
run foreshock-full "$mb" "$foreshock" scan --log-level error --exhaustive "$file"
if command -v sec > /dev/null; then
  head -c "${sec_mb}000000" "$file" > "$work/slice"
  while IFS= read -r regex; do
    printf 'type=Single\nptype=RegExp\npattern=%s\ndesc=hit\naction=none\n\n' "$regex"
  done < "$work/re.txt" > "$work/sec.conf"
  run "sec(${sec_mb}MB)" "$sec_mb" sec -conf="$work/sec.conf" -input="$work/slice" -notail -quiet
  wall[sec]="${wall[sec(${sec_mb}MB)]}"
fi
echo "after the runs: $(resident) of the input in the page cache"
echo
for peer in cat wc-l grep-F grep-E-f rg-f foreshock-full; do
  [[ -n "${wall[$peer]:-}" ]] || continue
  awk -v p="$peer" -v f="${wall[foreshock]}" -v w="${wall[$peer]}" \
    'BEGIN{printf "foreshock speed / %-14s %6.2fx\n", p, w / f}'
done
if [[ -n "${wall[sec]:-}" ]]; then
  awk -v f="${wall[foreshock]}" -v s="${wall[sec]}" -v mb="$mb" -v smb="$sec_mb" \
    'BEGIN{printf "foreshock speed / %-14s %6.2fx (per MB)\n", "sec", (s / smb) / (f / mb)}'
fi
