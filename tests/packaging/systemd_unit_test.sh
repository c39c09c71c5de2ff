#!/usr/bin/env bash
# Checks packaging/foreshock.service with systemd's own tools, against the built binary and
# man page: `systemd-analyze verify` must say nothing at all (every key known, the command and
# the documentation present), and the offline security review must rate the exposure 2.0
# or better ("OK"). Skipped (exit 77) where systemd-analyze is missing.
# Usage: systemd_unit_test.sh UNIT FORESHOCK_BINARY MAN_PAGE_GZ
set -euo pipefail
unit="$1" binary="$2" man_page="$3"
command -v systemd-analyze >/dev/null || { echo "systemd-analyze not found: skipped"; exit 77; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/man/man1"
cp "$man_page" "$work/man/man1/foreshock.1.gz"
sed "s|/usr/bin/foreshock|$binary|g" "$unit" > "$work/foreshock.service"

if ! output="$(MANPATH="$work/man" systemd-analyze verify "$work/foreshock.service" 2>&1)" || [[ -n "$output" ]]; then
  echo "systemd-analyze verify complained:"; echo "$output"; exit 1
fi
# --threshold is the exposure times ten.
if ! systemd-analyze security --offline=true --threshold=20 "$work/foreshock.service" >"$work/security.txt" 2>&1; then
  grep -E '✗|Overall' "$work/security.txt"; exit 1
fi
grep Overall "$work/security.txt"
