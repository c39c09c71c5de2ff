#!/usr/bin/env python3
"""Latency of `foreshock watch`: from a line being appended to a followed file to its alert on
stdout. The peer, measured in the same run on the same file, is `tail -F`: the time from the
append to the line coming out of tail (inotify wake-up and a read, nothing more).

Usage: bench/watch_latency.py [BUILD_DIR] [SAMPLES]     (defaults: build, 300)
Prints p50/p99 for both and foreshock's ratio to tail.
"""
import json, os, select, statistics, subprocess, sys, tempfile, time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
samples = int(sys.argv[2]) if len(sys.argv) > 2 else 300
binary = os.path.join(build, "foreshock")
catalog_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "precursor-catalog.yaml")


def line(n, text):
    return ('{"@timestamp":"2026-11-29T02:%02d:%02d.%03dZ","log.level":"WARN","message":"%s",'
            '"elasticsearch.node.name":"es-1"}\n' % ((n // 60000) % 60, (n // 1000) % 60, n % 1000, text))


def measure(command, log, wanted):
    """Starts `command`, appends `samples` precursor lines (with ordinary lines between) and
    returns the latency of each: append -> a stdout line that `wanted` accepts."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    time.sleep(0.5)
    latencies = []
    buffer = b""
    with open(log, "a") as out:
        for n in range(samples):
            for k in range(5):
                out.write(line(n * 10 + k, "ordinary line %d" % k))
            out.flush()
            start = time.perf_counter()
            out.write(line(n * 10 + 9, "PRECURSOR-%d" % n))
            out.flush()
            deadline = start + 5
            while True:
                while b"\n" not in buffer:
                    ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.perf_counter()))
                    if not ready:
                        raise SystemExit("no output within 5 s for sample %d" % n)
                    buffer += os.read(process.stdout.fileno(), 65536)
                first, buffer = buffer.split(b"\n", 1)
                if wanted(first, n):
                    latencies.append((time.perf_counter() - start) * 1000)
                    break
            time.sleep(0.01)
    process.terminate()
    process.wait()
    return latencies


def report(name, values):
    values = sorted(values)
    p50 = statistics.median(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    print("%-10s p50 %7.2f ms   p99 %7.2f ms   (%d samples)" % (name, p50, p99, len(values)))
    return p50, p99


with tempfile.TemporaryDirectory() as folder:
    log_a = os.path.join(folder, "a.json")
    log_b = os.path.join(folder, "b.json")
    open(log_a, "w").close()
    open(log_b, "w").close()
    foreshock = measure([binary, "watch", "--no-builtin-catalog", "--catalog", catalog_path, log_a], log_a,
                        lambda text, n: json.loads(text)["foreshock"]["group"]["n"] == str(n))
    tail = measure(["tail", "-n", "0", "-F", log_b], log_b, lambda text, n: b"PRECURSOR-%d\"" % n in text)
    f50, f99 = report("foreshock", foreshock)
    t50, t99 = report("tail -F", tail)
    print("ratio to tail -F: p50 %.2fx, p99 %.2fx" % (f50 / t50, f99 / t99))
