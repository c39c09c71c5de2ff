#!/usr/bin/env python3
"""Writes samples/formats/: one small log per format foreshock reads, each telling the same
short story on node es-data-1 of cluster prod: ordinary lines, a search that fails with the
scroll-context limit inside its stack trace (02:10:05.250), more ordinary lines, then the
parent circuit breaker rejecting a request (02:21:40.125). Each sample therefore fires
es.chain.scroll_leak (warning) and escalates it to stage 3 with a lead time of 694.875 s.

Deterministic. Run from the repository root: python3 samples/tools/make_format_samples.py
"""
import datetime as dt
import json
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "formats")
NODE, CLUSTER = "es-data-1", "prod"
T0 = dt.datetime(2026, 11, 29, 2, 0, 0, tzinfo=dt.timezone.utc)

SCROLL = ("Trying to create too many scroll contexts. Must be less than or equal to: [500]. "
          "This limit can be set by changing the [search.max_open_scroll_context] setting.")
BREAKER = ("[parent] Data too large, data for [<http_request>] would be [8234567890/7.6gb], which is "
           "larger than the limit of [8160437862/7.5gb], real usage: [8234560000/7.6gb], "
           "new bytes reserved: [7890/7.7kb]")

# (seconds after T0, level, logger, message, exception lines)
EVENTS = [
    (1.5, "INFO", "org.elasticsearch.cluster.service.ClusterApplierService",
     "cluster state updated, version [4411], source [ApplyCommitRequest{term=7, version=4411}]", []),
    (62.0, "INFO", "org.elasticsearch.monitor.jvm.JvmGcMonitorService",
     "[gc][120431] overhead, spent [310ms] collecting in the last [1s]", []),
    (605.25, "WARN", "org.elasticsearch.rest.RestResponse",
     "path: /orders/_search, params: {scroll=10m, index=orders}, status: 429",
     ["org.elasticsearch.action.search.SearchPhaseExecutionException: all shards failed",
      "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseFailure(AbstractSearchAsyncAction.java:712)",
      "Caused by: org.elasticsearch.search.TooManyScrollContextsException: " + SCROLL,
      "\tat org.elasticsearch.search.SearchService.createAndPutReaderContext(SearchService.java:908)",
      "\t... 12 more"]),
    (630.0, "INFO", "org.elasticsearch.cluster.metadata.MetadataMappingService",
     "[orders/Qp9zXb] update_mapping [_doc]", []),
    (1300.125, "DEBUG", "org.elasticsearch.rest.RestResponse",
     "path: /products/_search, params: {index=products}, status: 429",
     ["org.elasticsearch.common.breaker.CircuitBreakingException: " + BREAKER,
      "\tat org.elasticsearch.indices.breaker.HierarchyCircuitBreakerService.checkParentLimit(HierarchyCircuitBreakerService.java:414)"]),
    (1302.0, "INFO", "org.elasticsearch.cluster.service.ClusterApplierService",
     "cluster state updated, version [4412], source [ApplyCommitRequest{term=7, version=4412}]", []),
]


def when(seconds):
    return T0 + dt.timedelta(seconds=seconds)


def iso(t, sep="T", frac=","):
    return t.strftime("%Y-%m-%d" + sep + "%H:%M:%S") + frac + "%03d" % (t.microsecond // 1000)


def short(logger, opensearch=False):
    parts = logger.split(".")
    if opensearch:
        parts[1] = "opensearch"
    return ".".join(p[0] for p in parts[:-1]) + "." + parts[-1]


def plain_lines(event, legacy=False, opensearch=False):
    seconds, level, logger, message, trace = event
    t = when(seconds)
    stamp = iso(t, sep=" " if legacy else "T")
    name = short(logger, opensearch)
    if legacy:  # ES 2.x: short category names, padded
        name = {"JvmGcMonitorService": "monitor.jvm", "RestResponse": "rest.suppressed"}.get(
            logger.split(".")[-1], name).ljust(25)
    lines = ["[%s][%-5s][%s] [%s] %s" % (stamp, level, name, NODE, message)]
    lines += [l.replace("org.elasticsearch", "org.opensearch") if opensearch else l for l in trace]
    return lines


def ecs_line(event):
    seconds, level, logger, message, trace = event
    record = {"@timestamp": iso(when(seconds), frac=".") + "Z", "log.level": level, "message": message,
              "ecs.version": "1.2.0", "service.name": "ES_ECS", "event.dataset": "elasticsearch.server",
              "process.thread.name": "elasticsearch[%s][generic][T#1]" % NODE, "log.logger": logger,
              "elasticsearch.node.name": NODE, "elasticsearch.cluster.name": CLUSTER}
    if trace:
        kind, text = trace[0].split(": ", 1)
        record.update({"error.type": kind, "error.message": text, "error.stack_trace": "\n".join(trace)})
    return json.dumps(record, separators=(",", ":"))


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as out:
        out.write("\n".join(lines) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    write("es-plain.log", [l for e in EVENTS for l in plain_lines(e)])
    write("es-plain-2x.log", [l for e in EVENTS for l in plain_lines(e, legacy=True)])
    write("opensearch-plain.log", [l for e in EVENTS for l in plain_lines(e, opensearch=True)])
    write("ecs.json", [ecs_line(e) for e in EVENTS])
    es7 = []
    for seconds, level, logger, message, trace in EVENTS:
        record = {"type": "server", "timestamp": iso(when(seconds)) + "+0000", "level": level,
                  "component": short(logger), "cluster.name": CLUSTER, "node.name": NODE, "message": message}
        if trace:
            record["stacktrace"] = trace
            # A log viewer pretty-printed this record over several lines.
            es7 += json.dumps(record, indent=2).split("\n")
        else:
            es7.append(json.dumps(record))
    write("es-json.json", es7)
    journal_json, journal_text = [], []
    for event in EVENTS:
        t = when(event[0])
        micros = int(t.timestamp()) * 1000000 + t.microsecond
        priority = {"WARN": "4", "DEBUG": "7"}.get(event[1], "6")
        for line in plain_lines(event):
            journal_json.append(json.dumps({"__REALTIME_TIMESTAMP": str(micros), "_HOSTNAME": NODE + ".prod.example.com",
                                            "PRIORITY": priority, "SYSLOG_IDENTIFIER": "elasticsearch",
                                            "_SYSTEMD_UNIT": "elasticsearch.service", "MESSAGE": line}))
            journal_text.append("%s+0000 %s elasticsearch[812]: %s" % (iso(t, frac="."), NODE, line))
    write("journald.json", journal_json)
    write("journald-short-iso.log", ["-- Logs begin at Sun 2026-11-29 00:00:01 UTC. --"] + journal_text)
    filebeat, offset = [], 0
    for event in EVENTS:
        message = "\n".join(plain_lines(event))
        filebeat.append(json.dumps({"@timestamp": iso(when(event[0] + 0.8), frac=".") + "Z",
                                    "@metadata": {"beat": "filebeat", "type": "_doc", "version": "8.11.1"},
                                    "message": message, "input": {"type": "filestream"},
                                    "log": {"offset": offset, "file": {"path": "/var/log/elasticsearch/prod.log"}},
                                    "host": {"name": NODE}, "agent": {"type": "filebeat"}, "ecs": {"version": "8.0.0"}},
                                   separators=(",", ":")))
        offset += len(message) + 1
    write("filebeat.ndjson", filebeat)
    cri, docker, kubectl, compose = [], [], [], []
    for event in EVENTS:
        line = ecs_line(event)
        stamp = iso(when(event[0]), frac=".") + "391027Z"
        pieces = [line[i:i + 400] for i in range(0, len(line), 400)]
        cri += ["%s stdout %s %s" % (stamp, "P" if i < len(pieces) - 1 else "F", p) for i, p in enumerate(pieces)]
        docker += [json.dumps({"log": p + ("\n" if i == len(pieces) - 1 else ""), "stream": "stdout", "time": stamp})
                   for i, p in enumerate(pieces)]
        kubectl.append("%s %s" % (stamp, line))
        compose.append("es-data-1  | %s" % line)
    write("cri.log", cri)
    write("docker-json.log", docker)
    write("kubectl-timestamps.log", kubectl)
    write("compose.log", compose)
    for name in sorted(os.listdir(OUT)):
        print(name)


if __name__ == "__main__":
    main()
