# Sourced by the benchmark scripts: a work directory removed at exit, and the log generator.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# generate_logs MB FORMAT NODES: deterministic generated logs, one file per node, in $work/logs.
generate_logs() {
  python3 "$here/gen_logs.py" "$work/logs" --mb "$1" --format "$2" --nodes "$3" >&2
}

# generate_log_file MB FORMAT: one node's generated log; sets $file to its path.
generate_log_file() {
  generate_logs "$1" "$2" 1
  file=$(ls "$work"/logs/*)
}
