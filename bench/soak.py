#!/usr/bin/env python3
"""Soak test of `foreshock watch` (not run in CI): a writer appends ES JSON lines at a high
rate and rotates the file every few seconds (rename + create and copytruncate, in turn), while
a webhook receiver on 127.0.0.1 goes down for a while and comes back, again and again.
foreshock follows the file with a state dir, sends every alert to the webhook and serves
metrics. At the end it prints lines written vs read, precursors written vs matched, alerts
expected vs delivered (and delivered twice), and foreshock's RSS over time.

Usage: bench/soak.py BUILD_DIR [--minutes 10] [--rate 20000] [--rotate-every 3]
                               [--outage 20] [--outage-every 60]
"""
import argparse
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

CATALOG = """patterns:
  - id: soak.precursor
    title: Soak precursor
    category: node
    severity: warning
    regex: 'PRECURSOR-(?P<n>\\d+)'
    examples: {match: ['PRECURSOR-1'], no_match: ['ordinary']}
rules:
  - id: soak.each
    name: Each precursor
    category: node
    pattern: soak.precursor
    group_by: [n]
    realert: 1h
    resolve_after: 2s
    message: 'precursor {n}'
"""

ORDINARY = ('[o.e.c.r.a.AllocationService] current.health="GREEN" message="Cluster health status '
            'changed from [YELLOW] to [GREEN]" previous.health="YELLOW" reason="shards started"')


def line(n, precursor):
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000Z"
    text = f"PRECURSOR-{n}" if precursor else f"{ORDINARY} {n}"
    return json.dumps({"@timestamp": stamp, "log.level": "WARN", "message": text,
                       "elasticsearch.node.name": "soak-1", "elasticsearch.cluster.name": "soak"}) + "\n"


class Receiver:
    """A webhook receiver that can be taken down and brought back on the same port."""

    def __init__(self):
        self.firing = {}  # precursor n -> deliveries
        self.lock = threading.Lock()
        self.server = None
        self.port = None
        self.up()

    def up(self):
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                alert = json.loads(body)
                if alert["event"]["action"] == "firing":
                    n = alert["foreshock"]["group"]["n"]
                    with receiver.lock:
                        receiver.firing[n] = receiver.firing.get(n, 0) + 1
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port or 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def down(self):
        self.server.shutdown()
        self.server.server_close()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def metric(port, name, labels=""):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    total = 0.0
    for row in text.splitlines():
        if row.startswith(name) and labels in row and not row.startswith("#"):
            total += float(row.rsplit(" ", 1)[1])
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=int, default=20000, help="lines per second")
    parser.add_argument("--precursor-every", type=int, default=1000)
    parser.add_argument("--rotate-every", type=float, default=3, help="seconds")
    parser.add_argument("--outage", type=float, default=20, help="seconds the receiver is down")
    parser.add_argument("--outage-every", type=float, default=60, help="seconds between outages")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="foreshock-soak-")
    log = os.path.join(work, "es_server.json")
    with open(os.path.join(work, "catalog.yaml"), "w") as catalog:
        catalog.write(CATALOG)
    open(log, "w").close()
    receiver = Receiver()
    metrics_port = 19464 + os.getpid() % 1000
    stderr = open(os.path.join(work, "foreshock.stderr"), "w")
    watch = subprocess.Popen(
        [os.path.join(args.build, "foreshock"), "watch", "--no-builtin-catalog", "--catalog",
         os.path.join(work, "catalog.yaml"), "--from", "beginning", "--state-dir", os.path.join(work, "state"),
         "--output", f"webhook:http://127.0.0.1:{receiver.port}/alerts", "--retry-max", "2s",
         "--metrics-listen", f"127.0.0.1:{metrics_port}", "--log-level", "warn", log],
        stdout=subprocess.DEVNULL, stderr=stderr)
    time.sleep(0.5)

    written = precursors = rotations = 0
    start = time.monotonic()
    end = start + args.minutes * 60
    next_rotation = start + args.rotate_every
    next_outage = start + args.outage_every
    outage_ends = None
    next_sample = start
    samples = []
    out = open(log, "a")
    batch = max(1, args.rate // 100)
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= next_sample:
            samples.append((now - start, rss_kb(watch.pid)))
            next_sample += 30
        if outage_ends is None and now >= next_outage:
            receiver.down()
            outage_ends = now + args.outage
        elif outage_ends is not None and now >= outage_ends:
            receiver.up()
            outage_ends = None
            next_outage = now + args.outage_every
        if now >= next_rotation:
            out.close()
            rotated = f"{log}.{rotations}"
            if rotations % 2 == 0:  # log4j style: rename, then create
                os.rename(log, rotated)
            else:  # logrotate copytruncate
                with open(log, "rb") as src, open(rotated, "wb") as dst:
                    dst.write(src.read())
                os.truncate(log, 0)
            if rotations >= 3:
                os.remove(f"{log}.{rotations - 3}")
            rotations += 1
            out = open(log, "a")
            next_rotation = now + args.rotate_every
        chunk = []
        for _ in range(batch):
            is_precursor = written % args.precursor_every == 0
            chunk.append(line(precursors if is_precursor else written, is_precursor))
            precursors += is_precursor
            written += 1
        out.write("".join(chunk))
        out.flush()
        time.sleep(max(0.0, start + written / args.rate - time.monotonic()))
    out.close()
    if outage_ends is not None:
        receiver.up()

    # Let foreshock catch up and deliver what its spool holds.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with receiver.lock:
            delivered = len(receiver.firing)
        if delivered >= precursors:
            break
        time.sleep(1)
    # The metrics are published once a second: wait until they show every line (or stop moving).
    lines_read = -1
    for _ in range(30):
        time.sleep(1)
        previous, lines_read = lines_read, metric(metrics_port, "foreshock_input_lines_total")
        if lines_read >= written or lines_read == previous:
            break
    hits = metric(metrics_port, "foreshock_pattern_hits_total", 'pattern="soak.precursor"')
    evictions = metric(metrics_port, "foreshock_correlation_evictions_total")
    samples.append((time.monotonic() - start, rss_kb(watch.pid)))
    watch.send_signal(signal.SIGTERM)
    exit_code = watch.wait(timeout=60)
    receiver.down()

    with receiver.lock:
        missing = [n for n in range(precursors) if str(n) not in receiver.firing]
        twice = sum(1 for count in receiver.firing.values() if count > 1)
    print(f"duration {args.minutes:g} min, {args.rate} lines/s target, rotation every {args.rotate_every:g} s "
          f"({rotations} rotations), receiver down {args.outage:g} s of every {args.outage_every + args.outage:g} s")
    print(f"lines written     {written:>10}   read by foreshock {int(lines_read):>10}")
    print(f"precursors        {precursors:>10}   matched           {int(hits):>10}")
    print(f"alerts expected   {precursors:>10}   delivered         {precursors - len(missing):>10}"
          f"   delivered twice {twice}   missing {missing[:10]}")
    print(f"correlation evictions {int(evictions)}; foreshock exit status {exit_code}")
    print("RSS over time:  " + "  ".join(f"{t / 60:.1f}m {kb / 1024:.1f}MB" for t, kb in samples))
    print(f"work dir {work} (foreshock.stderr holds its log)")
    return 0 if not missing and exit_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
