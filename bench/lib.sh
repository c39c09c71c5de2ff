# Sourced by the benchmark scripts: a work directory removed at exit, and the log generator.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# generate_logs MB FORMAT NODES [HIT_RATE]: deterministic generated logs, one file per node, in
# $work/logs; HIT_RATE (default 0.01) is the share of lines that hit a pattern.
generate_logs() {
  python3 "$here/gen_logs.py" "$work/logs" --mb "$1" --format "$2" --nodes "$3" --hit-rate "${4:-0.01}" >&2
}

# generate_log_file MB FORMAT [HIT_RATE]: one node's generated log; sets $file to its path.
generate_log_file() {
  generate_logs "$1" "$2" 1 "${3:-0.01}"
  file=$(ls "$work"/logs/*)
}

# print_machine: the CPU and core count the figures were measured on. Ratios to the peers
# differ between CPU models: scan of plain logs ran 3.4x `rg -f` on one of the project's
# machines and 2.4x on another (an AMD EPYC), with much the same code.
print_machine() {
  local model
  model=$(grep -m1 "model name" /proc/cpuinfo 2> /dev/null | cut -d: -f2- | sed 's/^ *//')
  echo "machine: ${model:-unknown CPU}, $(nproc) cores"
}

# elapsed COMMAND...: the command's wall time in seconds, to the millisecond (GNU time's %e is
# to the hundredth: a tenth of the few per cent some runs compare). Its output is dropped.
elapsed() {
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  end=$(date +%s%N)
  awk -v s="$start" -v e="$end" 'BEGIN{printf "%.3f\n", (e - s) / 1e9}'
}

# best_elapsed RUNS COMMAND...: the best of RUNS elapsed() times of the command.
best_elapsed() {
  local runs="$1" t min=""
  shift
  for _ in $(seq "$runs"); do
    t=$(elapsed "$@")
    if [[ -z "$min" ]] || awk -v a="$t" -v b="$min" 'BEGIN{exit !(a < b)}'; then min="$t"; fi
  done
  echo "$min"
}
