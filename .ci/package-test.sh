#!/usr/bin/env bash
# Builds the Debian package from an existing build tree, installs it with dpkg, checks the
# installed foreshock from its installed paths only (binary, catalog, config, man page,
# systemd unit), shows that every library the binary needs comes from a declared
# dependency, and removes the package again. Run by .ci/test.sh; needs root (or sudo).
# Usage: .ci/package-test.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: package-test.sh BUILD_DIR}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi

cmake --build "$build" --target package >/dev/null
deb="$(ls "$build"/foreshock_*_"$(dpkg --print-architecture)".deb)"
echo "== package $deb"
dpkg-deb --field "$deb" Package Version Depends

fail() { echo "package-test: $*" >&2; exit 1; }
if dpkg-query -W -f='${Status}' foreshock 2>/dev/null | grep -q "install ok installed"; then
  fail "a foreshock package is already installed here; refusing to replace it"
fi
"${sudo_cmd[@]}" dpkg -i "$deb"
trap '"${sudo_cmd[@]}" dpkg --purge foreshock >/dev/null' EXIT

# Nothing from the build tree: a clean environment and another working directory.
run() { (cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"); }
run foreshock --version | grep -qx "foreshock $(dpkg-deb -f "$deb" Version)" || fail "--version"
run foreshock catalog test
run foreshock --print-config --config /etc/foreshock/foreshock.conf | grep -qx "state-dir = /var/lib/foreshock" \
  || fail "the installed config does not set the state directory"
[[ -s /usr/share/man/man1/foreshock.1.gz ]] || fail "no man page"
zcat /usr/share/man/man1/foreshock.1.gz | grep '^\.SH CONFIGURATION' >/dev/null || fail "man page content"
dpkg-query -W -f='${Conffiles}\n' foreshock | grep -q /etc/foreshock/foreshock.conf || fail "config is not a conffile"

# The installed binary finds its installed catalog and alerts on the bundled incident sample.
alerts="$(run foreshock scan "$PWD"/samples/seed-incident/*.json | grep -c '"action":"firing"' || true)"
((alerts > 0)) || fail "the installed binary raised no alert on the seed incident"
echo "installed binary: $alerts firing alert(s) on samples/seed-incident/*.json"

# Every library the binary links directly belongs to a package named in Depends.
depends="$(dpkg-deb -f "$deb" Depends)"
for needed in $(objdump -p /usr/bin/foreshock | awk '/NEEDED/ {print $2}'); do
  path="$(ldd /usr/bin/foreshock | awk -v lib="$needed" '$1 == lib {print $3}')"
  # With merged /usr, dpkg may know the file under /lib or under /usr/lib.
  owner="$(dpkg -S "$path" 2>/dev/null || dpkg -S "/usr${path}" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null || true)"
  owner="${owner%%:*}"
  [[ -n "$owner" ]] || fail "$needed ($path) belongs to no package"
  # The dependency may name the package or a virtual package it provides.
  names=("$owner" $(dpkg-query -W -f='${Provides}' "$owner" | tr ',' '\n' | awk '{print $1}'))
  declared=false
  for name in "${names[@]}"; do
    if tr ',' '\n' <<<"$depends" | awk '{print $1}' | grep -qx "$name"; then declared=true; fi
  done
  $declared || fail "$needed comes from $owner, which Depends does not name: $depends"
done
echo "every NEEDED library comes from a declared dependency"

# libcurl is loaded at run time, once an HTTP output is configured: its package is declared
# too, and the installed binary loads it (the refused connection is reported, not the library).
# (awk reads to the end: a reader that quits early would kill ldconfig with SIGPIPE, which
# pipefail turns into this script's failure.)
curl_path="$(ldconfig -p | awk '/libcurl(-gnutls)?\.so\.4 / && !found {print $NF; found = 1}')"
curl_owner="$(dpkg -S "$curl_path" 2>/dev/null || dpkg -S "/usr${curl_path}" 2>/dev/null || dpkg -S "${curl_path#/usr}")"
curl_owner="${curl_owner%%:*}"
tr ',' '\n' <<<"$depends" | awk '{print $1}' | grep -qx "$curl_owner" || fail "Depends does not name $curl_owner"
http_err="$(run foreshock scan --output webhook:http://127.0.0.1:9/ --retry-max 1s --drain-timeout 1s \
  "$PWD"/samples/seed-incident/order-events-node-2.json 2>&1 >/dev/null || true)"
! grep -q "need libcurl" <<<"$http_err" || fail "the installed binary cannot load libcurl: $http_err"
echo "libcurl ($curl_owner) is declared and loads for HTTP outputs"

if command -v systemd-analyze >/dev/null; then
  output="$(systemd-analyze verify /lib/systemd/system/foreshock.service 2>&1)" || fail "verify: $output"
  [[ -z "$output" ]] || fail "systemd-analyze verify: $output"
  systemd-analyze security --offline=true --threshold=20 /lib/systemd/system/foreshock.service | grep Overall
fi
echo "package-test: ok"
