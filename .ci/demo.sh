#!/usr/bin/env bash
# The README's first command: installs what is missing, builds foreshock and runs it on the
# bundled seed incident (three ES 8 nodes' logs, 02:54 scroll-context limit -> 03:13 parent
# circuit breaker outage). Alerts are printed as JSON lines on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-deps.sh
# A build directory of its own: the test command's (build/) is configured with -Werror.
cmake -S . -B build-demo -DCMAKE_BUILD_TYPE=Release -DFORESHOCK_BUILD_TESTS=OFF >/dev/null
cmake --build build-demo -j"$(nproc)" --target foreshock >/dev/null

echo "== foreshock scan samples/seed-incident/*.json" >&2
./build-demo/foreshock scan samples/seed-incident/*.json
