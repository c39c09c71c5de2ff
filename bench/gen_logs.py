#!/usr/bin/env python3
"""Deterministic generator of realistic Elasticsearch logs for benchmarks.

Writes one file per node in the chosen format (ecs: ES 8 JSON, es-json: ES 7 JSON, plain:
the classic pattern layout), interleaving the ordinary lines a production cluster writes
(GC notices, mapping updates, shard starts, slow-ish queries, HTTP/transport chatter),
stack traces (about one record in 400), and about one precursor line in 10,000 taken from
the shipped catalog's message templates. The same seed and size always give the same bytes.

usage: gen_logs.py OUT_DIR [--format ecs|es-json|plain] [--nodes N] [--mb TOTAL_MB] [--seed S]
"""
import argparse
import datetime
import json
import os
import random

# (weight, logger, level, template): a healthy cluster's background. GC-overhead notices and
# master changes are real (info-level) pattern hits, so they are kept rare.
ORDINARY = [
    (5, "o.e.m.j.JvmGcMonitorService", "INFO", "[gc][{n}] overhead, spent [{ms}ms] collecting in the last [{s}1s]"),
    (200, "o.e.c.m.MetadataMappingService", "INFO", "[logs-app-{d}/{id}] update_mapping [_doc]"),
    (60, "o.e.c.r.a.AllocationService", "INFO", "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[logs-app-{d}][{s}]]])."),
    (250, "o.e.i.s.IndexShard", "DEBUG", "[logs-app-{d}][{s}] scheduling refresh; last refresh {ms}ms ago"),
    (80, "o.e.h.AbstractHttpServerTransport", "WARN", "caught exception while handling client http traffic, closing connection Netty4HttpChannel{{localAddress=/10.0.{s}.7:9200, remoteAddress=/10.2.3.{s}:5{ms}}}"),
    (120, "o.e.t.TcpTransport", "INFO", "closed transport connection [{n}] to [{{es-data-{s}}}{{{id}}}] with age [{ms}ms]"),
    (100, "o.e.x.s.a.RealmsAuthenticationFailureHandler", "INFO", "Authentication of [svc_beats] was terminated by realm [reserved] - token expired"),
    (150, "o.e.i.e.Engine", "DEBUG", "[logs-app-{d}][{s}] flushing shard on inactive"),
    (1, "o.e.c.c.Coordinator", "INFO", "master node changed {{previous [], current [{{es-master-{s}}}{{{id}}}]}}, term: {n}, version: {ms}, reason: ApplyCommitRequest"),
    (40, "o.e.x.i.IndexLifecycleRunner", "INFO", "policy [logs] for index [logs-app-{d}] on an error step due to a transient error, moving back to the failed step [check-rollover-ready] for execution. retry attempt [{s}]"),
]
PRECURSORS = [
    ("o.e.a.s.TransportSearchScrollAction", "WARN",
     "Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by changing the [search.max_open_scroll_context] setting."),
    ("o.e.i.b.HierarchyCircuitBreakerService", "WARN",
     "[parent] Data too large, data for [<http_request>] would be [17453315088/16.2gb], which is larger than the limit of [17072495001/15.8gb], real usage: [17453200400/16.2gb], new bytes reserved: [114688/112kb]"),
    ("o.e.c.r.a.DiskThresholdMonitor", "WARN",
     "high disk watermark [90%] exceeded on [aB3dE5fG7hI9jK1lM3nO5p][es-data-2][/var/lib/elasticsearch] free: 18.2gb[8.1%], shards will be relocated away from this node"),
    ("o.e.m.j.JvmGcMonitorService", "WARN",
     "[gc][old][61231][412] duration [12.4s], collections [1]/[12.9s], total [12.4s]/[2.3m], memory [15.8gb]->[15.6gb]/[16gb]"),
]
WEIGHTS = [row[0] for row in ORDINARY]
ORDINARY_ROWS = [row[1:] for row in ORDINARY]
TRACE = ["org.elasticsearch.transport.RemoteTransportException: [es-data-3][10.0.3.7:9300][indices:data/write/bulk[s]]",
         "Caused by: org.elasticsearch.index.engine.VersionConflictEngineException: [{id}]: version conflict, required seqNo [{n}], primary term [1]. current document has seqNo [{ms}] and primary term [1]"]
TRACE += ["\tat org.elasticsearch.index.engine.InternalEngine.{m}(InternalEngine.java:{n})".replace("{m}", m)
          for m in ("planIndexingAsPrimary", "index", "indexIntoLucene", "innerIndex", "applyIndexOperation")] * 3


def fill(template, rnd):
    return template.format(n=rnd.randint(1, 99999), ms=rnd.randint(1, 9999), s=rnd.randint(0, 9),
                           d="2026.11.%02d" % rnd.randint(1, 28), id="%08x" % rnd.getrandbits(32))


def render(fmt, node, when, logger, level, message, trace):
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (when.microsecond // 1000)
    if fmt == "ecs":
        record = {"@timestamp": stamp, "log.level": level, "message": message, "ecs.version": "1.2.0",
                  "service.name": "ES_ECS", "event.dataset": "elasticsearch.server",
                  "process.thread.name": "elasticsearch[%s][generic][T#3]" % node, "log.logger": logger,
                  "elasticsearch.cluster.uuid": "y1HXwNw8Rb2zPzL4h3iGDA", "elasticsearch.node.id": "aB3dE5fG7hI9",
                  "elasticsearch.node.name": node, "elasticsearch.cluster.name": "prod-logs"}
        if trace:
            record["error.type"] = "org.elasticsearch.transport.RemoteTransportException"
            record["error.stack_trace"] = "\n".join(trace)
        return json.dumps(record, separators=(",", ":")) + "\n"
    if fmt == "es-json":
        record = {"type": "server", "timestamp": stamp.replace(".", ",", 1), "level": level, "component": logger,
                  "cluster.name": "prod-logs", "node.name": node, "message": message,
                  "cluster.uuid": "y1HXwNw8Rb2zPzL4h3iGDA", "node.id": "aB3dE5fG7hI9"}
        if trace:
            record["stacktrace"] = trace
        return json.dumps(record, separators=(", ", ": ")) + "\n"
    line = "[%s][%-5s][%s] [%s] %s\n" % (stamp[:-1].replace(".", ","), level, logger, node, message)
    return line + "".join(t + "\n" for t in trace)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--format", default="ecs", choices=["ecs", "es-json", "plain"])
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--mb", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    per_node = args.mb * 1024 * 1024 // args.nodes
    suffix = {"ecs": "_server.json", "es-json": "_server.json", "plain": ".log"}[args.format]
    precursors = 0
    for index in range(args.nodes):
        rnd = random.Random(args.seed * 1000 + index)
        node = "es-data-%d" % (index + 1)
        when = datetime.datetime(2026, 11, 29, 0, 0, 0)
        written = 0
        chunks = []
        with open(os.path.join(args.out_dir, "prod-logs-" + node + suffix), "w") as out:
            while written < per_node:
                when += datetime.timedelta(microseconds=rnd.randint(1000, 40000))
                if rnd.random() < 1e-4:
                    logger, level, message = rnd.choice(PRECURSORS)
                    precursors += 1
                else:
                    logger, level, template = rnd.choices(ORDINARY_ROWS, weights=WEIGHTS)[0]
                    message = fill(template, rnd)
                trace = [fill(t, rnd) for t in TRACE] if rnd.random() < 0.0025 else []
                line = render(args.format, node, when, logger, level, message, trace)
                chunks.append(line)
                written += len(line)
                if len(chunks) >= 4096:
                    out.write("".join(chunks))
                    chunks = []
            out.write("".join(chunks))
    print("wrote %d MB in %d files to %s, %d precursor lines" % (args.mb, args.nodes, args.out_dir, precursors))


if __name__ == "__main__":
    main()
