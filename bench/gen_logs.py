#!/usr/bin/env python3
"""Deterministic generator of Elasticsearch logs for benchmarks, written as ES writes them.

One file per node, in the chosen format:
  ecs      ES 8's ECS layout, byte for byte as in ../shared/corpus/es8-ecs-*.json: key order,
           the spaces after "@timestamp", "log.level" and "ecs.version", quotes and
           backslashes in messages escaped (ILM steps and transform states carry escaped JSON);
  es-json  ES 7's JSON layout ("type": "server", ", " between keys);
  plain    the classic log4j pattern layout, stack traces on the lines after.

Lines come from two vocabularies of a busy cluster. QUIET lines hit no catalog pattern:
mapping updates, shard starts, ILM step transitions with escaped step JSON, transform and ML
state updates, template adds, authentication and transport chatter, deprecation warnings.
HIT lines hit a pattern, as a cluster under pressure writes them: moderate GC overhead and
slow young GCs at INFO, health changes, GC overhead WARNs, old GCs, breaker trips and the
other precursors. --hit-rate is the share of HIT lines (default 1 %): 0.001, 0.01 and 0.08
are the rates of a quiet day, a normal one and a GC storm. About one record in 400 carries a
stack trace. The same arguments always give the same bytes.

usage: gen_logs.py OUT_DIR [--format ecs|es-json|plain] [--nodes N] [--mb TOTAL_MB]
                           [--hit-rate R] [--seed S]
"""
import argparse
import datetime
import json
import os
import random


def ilm_step(phase, action, name):
    """An ILM step key as ES logs it, braces doubled for str.format()."""
    step = json.dumps({"phase": phase, "action": action, "name": name}, separators=(",", ":"))
    return step.replace("{", "{{").replace("}", "}}")


# (weight, logger, level, template): what a healthy, busy cluster writes.
QUIET = [
    (200, "org.elasticsearch.cluster.metadata.MetadataMappingService", "INFO",
     "[logs-app-{d}/{id}] update_mapping [_doc]"),
    (120, "org.elasticsearch.xpack.ilm.IndexLifecycleTransition", "INFO",
     "moving index [.ds-logs-app-{d}-0000{s}] from [" + ilm_step("hot", "rollover", "check-rollover-ready") +
     "] to [" + ilm_step("hot", "rollover", "attempt-rollover") + "] in policy [logs]"),
    (80, "org.elasticsearch.xpack.ilm.IndexLifecycleTransition", "INFO",
     "moving index [.ds-metrics-{d}-0000{s}] from [" + ilm_step("warm", "forcemerge", "forcemerge") +
     "] to [" + ilm_step("warm", "forcemerge", "segment-count") + "] in policy [metrics]"),
    (90, "org.elasticsearch.xpack.transform.transforms.TransformTask", "INFO",
     "[ecommerce-summary] updating state for transform to [{{\"task_state\":\"started\",\"indexer_state\":"
     "\"stopped\",\"checkpoint\":{n},\"progress\":{{\"docs_indexed\":{ms},\"docs_processed\":{ms}}}}}]."),
    (30, "org.elasticsearch.xpack.ml.job.process.autodetect.AutodetectProcessManager", "INFO",
     "[web-latency-{s}] Loading model snapshot [{n}], job latest_record_timestamp [2026-11-29T00:0{s}:00.000Z]"),
    (60, "org.elasticsearch.indices.cluster.IndicesClusterStateService", "INFO",
     "[logs-app-{d}][{s}] shard started, primary term [1], allocation id [{id}]"),
    (20, "org.elasticsearch.cluster.routing.allocation.AllocationService", "INFO",
     "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[logs-app-{d}][{s}]]])."),
    (40, "org.elasticsearch.cluster.metadata.MetadataIndexTemplateService", "INFO",
     "adding template [.monitoring-es-{s}] for index patterns [.monitoring-es-7-*]"),
    (100, "org.elasticsearch.xpack.security.authc.RealmsAuthenticationFailureHandler", "INFO",
     "Authentication of [svc_beats] was terminated by realm [reserved] - token expired"),
    (120, "org.elasticsearch.transport.TcpTransport", "INFO",
     "closed transport connection [{n}] to [{{es-data-{s}}}{{{id}}}{{10.0.{s}.7}}] with age [{ms}ms]"),
    (80, "org.elasticsearch.http.AbstractHttpServerTransport", "WARN",
     "caught exception while handling client http traffic, closing connection Netty4HttpChannel{{localAddress=/10.0."
     "{s}.7:9200, remoteAddress=/10.2.3.{s}:5{ms}}}"),
    (40, "org.elasticsearch.deprecation.rest.action.search.RestSearchAction", "WARN",
     "[types removal] Specifying types in search requests is deprecated."),
    (25, "org.elasticsearch.xpack.ilm.IndexLifecycleRunner", "INFO",
     "policy [logs] for index [logs-app-{d}] on an error step due to a transient error, moving back to the failed "
     "step [check-rollover-ready] for execution. retry attempt [{s}]"),
]
# What hits a pattern, weighted as a cluster under pressure writes it (mostly INFO noise).
HIT = [
    (40, "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "INFO",
     "[gc][{n}] overhead, spent [{ms3}ms] collecting in the last [1s]"),
    (25, "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "INFO",
     "[gc][young][{n}][{s}] duration [{ms3}ms], collections [1]/[1.{s}s], total [{ms3}ms]/[1.{s}h], "
     "memory [9.{s}gb]->[6.{s}gb]/[16gb], all_pools {{[young] [3.{s}gb]->[0b]/[0b]}}"),
    (10, "org.elasticsearch.cluster.routing.allocation.AllocationService", "INFO",
     "Cluster health status changed from [RED] to [YELLOW] (reason: [shards started [[logs-app-{d}][{s}]]])."),
    (10, "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "WARN",
     "[gc][{n}] overhead, spent [{ms3}0ms] collecting in the last [1s]"),
    (4, "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "WARN",
     "[gc][old][{n}][{s}] duration [12.{s}s], collections [1]/[12.9s], total [12.{s}s]/[2.3m], "
     "memory [15.8gb]->[15.6gb]/[16gb], all_pools {{[young] [0b]->[0b]/[0b]}}{{[old] [15.8gb]->[15.6gb]/[16gb]}}"),
    (4, "org.elasticsearch.search.SearchService", "WARN",
     "Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by "
     "changing the [search.max_open_scroll_context] setting."),
    (4, "org.elasticsearch.indices.breaker.HierarchyCircuitBreakerService", "WARN",
     "[parent] Data too large, data for [<http_request>] would be [17453315088/16.2gb], which is larger than the "
     "limit of [17072495001/15.8gb], real usage: [17453200400/16.2gb], new bytes reserved: [114688/112kb]"),
    (2, "org.elasticsearch.cluster.routing.allocation.DiskThresholdMonitor", "WARN",
     "high disk watermark [90%] exceeded on [aB3dE5fG7hI9jK1lM3nO5p][es-data-{s}][/var/lib/elasticsearch] "
     "free: 18.2gb[8.1%], shards will be relocated away from this node"),
]
TRACE = ["org.elasticsearch.transport.RemoteTransportException: [es-data-3][10.0.3.7:9300][indices:data/write/bulk[s]]",
         "Caused by: org.elasticsearch.index.engine.VersionConflictEngineException: [{id}]: version conflict, "
         "required seqNo [{n}], primary term [1]. current document has seqNo [{ms}] and primary term [1]"]
TRACE += ["\tat org.elasticsearch.index.engine.InternalEngine.{m}(InternalEngine.java:{n})".replace("{m}", m)
          for m in ("planIndexingAsPrimary", "index", "indexIntoLucene", "innerIndex", "applyIndexOperation")] * 3
SHORT_LOGGER = {"org": "o", "elasticsearch": "e"}


def fill(template, rnd):
    return template.format(n=rnd.randint(1, 99999), ms=rnd.randint(1, 9999), ms3=rnd.randint(250, 999),
                           s=rnd.randint(0, 9), d="2026.11.%02d" % rnd.randint(1, 28), id="%08x" % rnd.getrandbits(32))


def text(value):
    """A JSON string as log4j's ECS and ES 7 layouts write it: quotes, backslashes and control
    characters escaped, everything else (slashes, non-ASCII) as it is."""
    return json.dumps(value, ensure_ascii=False)


def render(fmt, node, when, logger, level, message, trace):
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (when.microsecond // 1000)
    ids = ('"elasticsearch.cluster.uuid":"y1HXwNw8Rb2zPzL4h3iGDA","elasticsearch.node.id":"aB3dE5fG7hI9jK1lM3nO5p",'
           '"elasticsearch.node.name":%s,"elasticsearch.cluster.name":"prod-logs"' % text(node))
    if fmt == "ecs" and ".deprecation." in logger:
        # ES 8's deprecation layout, as in es8-ecs-beats-server-mixed-with-deprecation.json.
        return ('{"@timestamp":"%s", "log.level":"%s",  "data_stream.dataset":"deprecation.elasticsearch",'
                '"data_stream.namespace":"default","data_stream.type":"logs","elasticsearch.elastic_product_origin":"",'
                '"elasticsearch.event.category":"types","elasticsearch.http.request.x_opaque_id":"",'
                '"event.code":"search_with_types","message":%s , "ecs.version": "1.2.0","service.name":"ES_ECS",'
                '"event.dataset":"deprecation.elasticsearch","process.thread.name":%s,"log.logger":%s,%s}\n' %
                (stamp, level, text(message), text("elasticsearch[%s][transport_worker][T#8]" % node), text(logger),
                 ids))
    if fmt == "ecs":
        line = ('{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS",'
                '"event.dataset":"elasticsearch.server","process.thread.name":%s,"log.logger":%s,%s' %
                (stamp, level, text(message), text("elasticsearch[%s][generic][T#3]" % node), text(logger), ids))
        if trace:
            line += ',"error.type":%s,"error.message":%s,"error.stack_trace":%s' % (
                text(trace[0].split(":")[0]), text(trace[0].split(": ", 1)[1]), text("\n".join(trace)))
        return line + "}\n"
    if fmt == "es-json":
        # ES 7's layout, as in es7-json-beats-server.json (two spaces before "message" and "}").
        line = ('{"type": "server", "timestamp": "%s", "level": "%s", "component": %s, "cluster.name": "prod-logs", '
                '"node.name": %s, "cluster.uuid": "y1HXwNw8Rb2zPzL4h3iGDA", "node.id": "aB3dE5fG7hI9jK1lM3nO5p",  '
                '"message": %s' %
                (stamp[:-1].replace(".", ",", 1) + "+0000", level, text(ShortLogger(logger)), text(node), text(message)))
        if trace:
            line += ' , "stacktrace": [' + ",".join(text(t) for t in trace) + "]"
        return line + "  }\n"
    line = "[%s][%-5s][%-25s] [%s] %s\n" % (stamp[:-1].replace(".", ","), level, ShortLogger(logger), node, message)
    return line + "".join(t + "\n" for t in trace)


def ShortLogger(logger):
    """"org.elasticsearch.monitor.jvm.JvmGcMonitorService" -> "o.e.m.j.JvmGcMonitorService", as ES 7
    and the plain layout abbreviate it."""
    parts = logger.split(".")
    return ".".join([p[0] for p in parts[:-1]] + parts[-1:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--format", default="ecs", choices=["ecs", "es-json", "plain"])
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--mb", type=int, default=1024)
    parser.add_argument("--hit-rate", type=float, default=0.01, help="share of lines that hit a pattern")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    per_node = args.mb * 1024 * 1024 // args.nodes
    suffix = {"ecs": "_server.json", "es-json": "_server.json", "plain": ".log"}[args.format]
    quiet_rows, quiet_weights = [r[1:] for r in QUIET], [r[0] for r in QUIET]
    hit_rows, hit_weights = [r[1:] for r in HIT], [r[0] for r in HIT]
    lines = hits = 0
    for index in range(args.nodes):
        rnd = random.Random(args.seed * 1000 + index)
        node = "es-data-%d" % (index + 1)
        when = datetime.datetime(2026, 11, 29, 0, 0, 0)
        written = 0
        chunks = []
        with open(os.path.join(args.out_dir, "prod-logs-" + node + suffix), "w", encoding="utf-8") as out:
            while written < per_node:
                when += datetime.timedelta(microseconds=rnd.randint(1000, 40000))
                hit = rnd.random() < args.hit_rate
                logger, level, template = rnd.choices(hit_rows if hit else quiet_rows,
                                                      weights=hit_weights if hit else quiet_weights)[0]
                trace = [fill(t, rnd) for t in TRACE] if not hit and rnd.random() < 0.0025 else []
                line = render(args.format, node, when, logger, level, fill(template, rnd), trace)
                chunks.append(line)
                written += len(line.encode("utf-8"))
                lines += 1
                hits += hit
                if len(chunks) >= 4096:
                    out.write("".join(chunks))
                    chunks = []
            out.write("".join(chunks))
    print("wrote %d MB in %d files to %s: %d records, %.2f%% hitting patterns" %
          (args.mb, args.nodes, args.out_dir, lines, 100.0 * hits / max(lines, 1)))


if __name__ == "__main__":
    main()
