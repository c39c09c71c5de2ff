#!/usr/bin/env bash
# Instructions `foreshock scan` executes per line of a generated log, counted by callgrind
# (start-up subtracted: a scan of an empty input), for one build or two on the same file,
# with the second's ratio to the first, whether their alerts are the same (the script exits
# 1 when they differ), and the functions the first spends them in. A count does not move
# with the machine's load, so it tells two builds apart where wall time on a shared machine
# cannot (a change of 3% is lost in the noise of throughput.sh); it is not a speed: memory
# stalls and the kernel's mapping work are not in it, and instructions differ in cost.
# usage: bench/instructions.sh BUILD [OTHER_BUILD] [MB] [FORMAT: ecs|es-json|plain]
set -euo pipefail
build="${1:?usage: bench/instructions.sh BUILD [OTHER_BUILD] [MB] [FORMAT]}"
other="${2:-}"
mb="${3:-16}"
format="${4:-plain}"
source "$(dirname "$0")/lib.sh"
command -v valgrind > /dev/null || { echo "needs valgrind: bash .ci/setup-deps.sh --with-bench-tools" >&2; exit 2; }

generate_log_file "$mb" "$format"
lines=$(wc -l < "$file")
print_machine
echo "input: $mb MB of $format, $lines lines"

# instructions BIN INPUT OUT: callgrind's total for `BIN scan INPUT`, the profile in OUT.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$3" "$1" scan --log-level error "$2" \
    > /dev/null 2> "$work/valgrind.err" || { cat "$work/valgrind.err" >&2; exit 1; }
  grep -o 'Collected : [0-9]*' "$work/valgrind.err" | awk '{print $3}'
}

# per_line BUILD LABEL: prints and sets $per_line.
per_line() {
  local startup total
  startup=$(instructions "$1/foreshock" /dev/null "$work/$2.startup")
  total=$(instructions "$1/foreshock" "$file" "$work/$2.out")
  per_line=$(( (total - startup) / lines ))
  printf "%-10s %8d instructions a line (start-up %d M)  %s\n" "$2" "$per_line" $(( startup / 1000000 )) "$1"
}

per_line "$build" first
first=$per_line
differ=0
if [[ -n "$other" ]]; then
  per_line "$other" second
  awk -v a="$first" -v b="$per_line" 'BEGIN{printf "second / first: %.3f\n", b / a}'
  "$build/foreshock" scan --log-level error "$file" > "$work/first.alerts"
  "$other/foreshock" scan --log-level error "$file" > "$work/second.alerts"
  if cmp -s "$work/first.alerts" "$work/second.alerts"; then
    echo "alerts: identical ($(wc -l < "$work/first.alerts") lines)"
  else
    echo "alerts: DIFFER (the script exits 1)"
    differ=1
  fi
fi
echo "where the first build's instructions a line go, by function (start-up subtracted):"
for profile in startup out; do
  callgrind_annotate --auto=no --inclusive=no "$work/first.$profile" 2> /dev/null > "$work/first.$profile.txt"
done
python3 - "$work/first.startup.txt" "$work/first.out.txt" "$lines" << 'EOF'
import re, sys
def by_function(path):
    counts = {}
    for line in open(path):
        found = re.match(r"\s*([\d,]+) \([ \d.%]+\)\s+(\S.*)", line)
        if found and not found.group(2).startswith(("=>", "PROGRAM TOTALS", "events")):
            counts[found.group(2)] = int(found.group(1).replace(",", ""))
    return counts
startup, run, lines = by_function(sys.argv[1]), by_function(sys.argv[2]), int(sys.argv[3])
rows = sorted(((count - startup.get(name, 0)) / lines, name) for name, count in run.items())
for per_line, name in reversed(rows[-15:]):
    print(f"{per_line:8.1f}  {name[:140]}")
EOF
exit "$differ"
