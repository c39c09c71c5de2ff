#!/usr/bin/env python3
"""Writes samples/seed-incident/: the scroll-leak outage of the project's seed write-up,
reconstructed as Elasticsearch 8 ECS JSON server logs of three nodes.

Timeline (UTC, 2026-11-29):
  01:30  normal day: cluster-state updates, ILM, shard starts, INFO-level GC, snapshots
  02:42  order-events-exporter starts scrolling order_events through order-events-node-2
  02:54:11.482  first "Trying to create too many scroll contexts" (inside a
         SearchPhaseExecutionException's stack trace, logged by rest.suppressed)
  03:04  old-gen heap pressure on node-2: GC overhead WARN, long old GCs
  03:13:02.117  parent circuit breaker rejects every request on node-2 (the outage)
  03:51  operator runs DELETE _search/scroll/_all; heap drops, search recovers
  04:30  end of the sample
node-1 (elected master) and node-3 see only ordinary traffic and near misses.

Deterministic: the same seed writes byte-identical files. Run from the repository root:
  python3 samples/tools/make_seed_incident.py
"""
import datetime as dt
import json
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "seed-incident")
CLUSTER = "search-prod"
CLUSTER_UUID = "Jq3tY8cRRWqf6yT1n0w2pA"
NODES = {
    "order-events-node-1": "bW9uZGF5LW5vZGUtMQ",
    "order-events-node-2": "dHVlc2RheS1ub2RlLTI",
    "order-events-node-3": "d2VkbmVzZGF5LW5vZGU",
}
DAY = dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc)
START = DAY.replace(hour=1, minute=30)
END = DAY.replace(hour=4, minute=30)
EXPORT_START = DAY.replace(hour=2, minute=42)
SCROLL_LIMIT = DAY.replace(hour=2, minute=54, second=11, microsecond=482000)
HEAP_PRESSURE = DAY.replace(hour=3, minute=4, second=18, microsecond=201000)
BREAKER = DAY.replace(hour=3, minute=13, second=2, microsecond=117000)
RECOVERY = DAY.replace(hour=3, minute=51, second=20)

rng = random.Random(20261129)


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def record(t, node, level, logger, message, thread, error=None, dataset="elasticsearch.server"):
    # Field order and spacing as ES 8 writes them (see the corpus' es8-ecs-beats-server.json).
    out = ('{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0",'
           '"service.name":"ES_ECS","event.dataset":"%s","process.thread.name":"%s",'
           '"log.logger":"%s","elasticsearch.cluster.uuid":"%s","elasticsearch.node.id":"%s",'
           '"elasticsearch.node.name":"%s","elasticsearch.cluster.name":"%s"') % (
        stamp(t), level, json.dumps(message), dataset,
        "elasticsearch[%s][%s]" % (node, thread), logger, CLUSTER_UUID, NODES[node], node, CLUSTER)
    if error:
        out += ',"error.type":%s,"error.message":%s,"error.stack_trace":%s' % tuple(
            json.dumps(e) for e in error)
    return (t, out + "}")


INDICES = ["products", "content-pages", "order_events", ".ds-logs-app-2026.11.29-000042",
           "search-suggestions", ".kibana_8.11.1_001"]


def background(node, t):
    """One ordinary line a healthy production node writes."""
    is_master = node == "order-events-node-1"
    roll = rng.random()
    if roll < 0.22:
        young = rng.randint(40, 260)
        return record(t, node, "INFO", "org.elasticsearch.monitor.jvm.JvmGcMonitorService",
                      "[gc][%d] overhead, spent [%dms] collecting in the last [1s]"
                      % (rng.randint(200000, 300000), young + 250), "scheduler][T#1")
    if roll < 0.36 and is_master:
        index = rng.choice(INDICES[:3])
        return record(t, node, "INFO", "org.elasticsearch.cluster.metadata.MetadataMappingService",
                      "[%s/%s] update_mapping [_doc]" % (index, rng.choice(["aB3x", "Qp9z", "Lm2k"])),
                      "masterService#updateTask][T#1")
    if roll < 0.48:
        version = rng.randint(48210, 48990)
        return record(t, node, "INFO", "org.elasticsearch.cluster.service.ClusterApplierService",
                      "added {{order-events-ingest-%d}{%s}{%s}{10.20.3.%d}{10.20.3.%d:9300}{i}}, term: 31, version: %d, reason: ApplyCommitRequest{term=31, version=%d, sourceNode={order-events-node-1}{bW9uZGF5LW5vZGUtMQ}}"
                      % (rng.randint(1, 2), "aW5nZXN0LW5vZGU", "xY1z", rng.randint(10, 40), rng.randint(10, 40), version, version)
                      if rng.random() < 0.1 else
                      "cluster state updated, version [%d], source [ApplyCommitRequest{term=31, version=%d}]" % (version, version),
                      "clusterApplierService#updateTask][T#1")
    if roll < 0.58:
        index = rng.choice(INDICES)
        return record(t, node, "INFO", "org.elasticsearch.index.shard.IndexShard",
                      "[%s][%d] primary-replica resync completed with 0 operations" % (index, rng.randint(0, 4)),
                      "generic][T#%d" % rng.randint(1, 8))
    if roll < 0.66 and is_master:
        return record(t, node, "INFO", "org.elasticsearch.xpack.ilm.IndexLifecycleTransition",
                      "moving index [.ds-logs-app-2026.11.%02d-0000%d] from [{\"phase\":\"hot\",\"action\":\"rollover\",\"name\":\"check-rollover-ready\"}] to [{\"phase\":\"hot\",\"action\":\"rollover\",\"name\":\"attempt-rollover\"}] in policy [logs-app]"
                      % (rng.randint(20, 28), rng.randint(30, 41)), "masterService#updateTask][T#1")
    if roll < 0.74:
        return record(t, node, "INFO", "org.elasticsearch.indices.recovery.RecoverySourceHandler",
                      "[%s][%d][recover to order-events-node-%d] finalizing recovery took [%dms]"
                      % (rng.choice(INDICES[:4]), rng.randint(0, 4), rng.randint(1, 3), rng.randint(3, 90)),
                      "generic][T#%d" % rng.randint(1, 8))
    if roll < 0.82:
        return record(t, node, "INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService",
                      "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[%s][%d]]])."
                      % (rng.choice(INDICES), rng.randint(0, 4)), "masterService#updateTask][T#1") if is_master else \
            record(t, node, "INFO", "org.elasticsearch.monitor.fs.FsHealthService",
                   "health check of [/var/lib/elasticsearch] took [%dms]" % rng.randint(1, 30), "generic][T#2")
    if roll < 0.86 and is_master:
        index = rng.choice(INDICES[:4])
        shard = rng.randint(0, 4)
        return record(t, node, "INFO", "org.elasticsearch.cluster.action.shard.ShardStateAction",
                      "[%s][%d] received shard started for [StartedShardEntry{shardId [[%s][%d]], allocationId [%s], primary term [4], message [after peer recovery]}]"
                      % (index, shard, index, shard, "".join(rng.choice("abcdefghijkLMNOPQ0123456789") for _ in range(22))),
                      "masterService#updateTask][T#1")
    if roll < 0.9:
        return record(t, node, "INFO", "org.elasticsearch.xpack.security.authc.TokenService",
                      "refreshed %d expired tokens" % rng.randint(0, 12), "generic][T#3")
    if roll < 0.95:
        return record(t, node, "INFO", "org.elasticsearch.index.engine.Engine",
                      "[%s][%d] flushing shard on inactive" % (rng.choice(INDICES[:3]), rng.randint(0, 4)),
                      "flush][T#1")
    # An ordinary failure with a stack trace: an index that does not exist (HTTP 404).
    index = rng.choice(["prodcuts", "orders-archive-2019", "content_pages"])
    trace = ("org.elasticsearch.index.IndexNotFoundException: no such index [%s]\n"
             "\tat org.elasticsearch.cluster.metadata.IndexNameExpressionResolver.notFoundException(IndexNameExpressionResolver.java:1015)\n"
             "\tat org.elasticsearch.cluster.metadata.IndexNameExpressionResolver.concreteIndices(IndexNameExpressionResolver.java:325)\n"
             "\tat org.elasticsearch.action.search.TransportSearchAction.resolveLocalIndices(TransportSearchAction.java:1012)\n"
             "\tat java.base/java.lang.Thread.run(Thread.java:1623)" % index)
    return record(t, node, "DEBUG", "org.elasticsearch.rest.RestResponse",
                  "path: /%s/_search, params: {index=%s}, status: 404" % (index, index),
                  "http_server_worker][T#%d" % rng.randint(1, 4),
                  ("org.elasticsearch.index.IndexNotFoundException", "no such index [%s]" % index, trace))


def scroll_limit(t, limit=500):
    node = "order-events-node-2"
    shard = rng.randint(0, 5)
    cause = ("Trying to create too many scroll contexts. Must be less than or equal to: [%d]. "
             "This limit can be set by changing the [search.max_open_scroll_context] setting." % limit)
    trace = ("Failed to execute phase [query], all shards failed; shardFailures {[%s][order_events][%d]: "
             "RemoteTransportException[[order-events-node-2][10.20.1.12:9300][indices:data/read/search[phase/query]]]; "
             "nested: TooManyScrollContextsException[%s]; }\n"
             "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseFailure(AbstractSearchAsyncAction.java:712)\n"
             "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.executeNextPhase(AbstractSearchAsyncAction.java:404)\n"
             "\tat org.elasticsearch.action.search.AbstractSearchAsyncAction.onPhaseDone(AbstractSearchAsyncAction.java:744)\n"
             "\tat java.base/java.lang.Thread.run(Thread.java:1623)\n"
             "Caused by: org.elasticsearch.search.TooManyScrollContextsException: %s\n"
             "\tat org.elasticsearch.search.SearchService.createAndPutReaderContext(SearchService.java:908)\n"
             "\tat org.elasticsearch.search.SearchService.createOrGetReaderContext(SearchService.java:887)\n"
             "\tat org.elasticsearch.search.SearchService.executeQueryPhase(SearchService.java:624)\n"
             "\t... 12 more" % (NODES[node], shard, cause, cause))
    return record(t, node, "WARN", "org.elasticsearch.rest.RestResponse",
                  "path: /order_events/_search, params: {scroll=10m, size=5000, index=order_events}, status: 429",
                  "http_server_worker][T#%d" % rng.randint(1, 4),
                  ("org.elasticsearch.action.search.SearchPhaseExecutionException", "all shards failed", trace))


def gc_overhead(t, spent, interval):
    return record(t, "order-events-node-2", "WARN", "org.elasticsearch.monitor.jvm.JvmGcMonitorService",
                  "[gc][%d] overhead, spent [%.1fs] collecting in the last [%.1fs]"
                  % (31337 + int((t - SCROLL_LIMIT).total_seconds()), spent, interval), "scheduler][T#1")


def old_gc(t, seconds, before, after):
    return record(t, "order-events-node-2", "WARN", "org.elasticsearch.monitor.jvm.JvmGcMonitorService",
                  "[gc][old][%d][%d] duration [%.1fs], collections [1]/[%.1fs], total [%.1fs]/[2.1m], "
                  "memory [%.1fgb]->[%.1fgb]/[16.7gb], all_pools {[young] [0b]->[0b]/[0b]}"
                  "{[old] [%.1fgb]->[%.1fgb]/[16.7gb]}{[survivor] [48mb]->[0b]/[0b]}"
                  % (31400 + rng.randint(0, 3000), rng.randint(400, 480), seconds, seconds + 0.8, seconds,
                     before, after, before - 0.4, after - 0.4), "scheduler][T#1")


def breaker(t, via_cluster_info=False):
    node = "order-events-node-2"
    usage = 17394683904 + rng.randint(0, 90000000)
    msg = ("[parent] Data too large, data for [%s] would be [%d/%.1fgb], which is larger than the limit of "
           "[17072495001/15.9gb], real usage: [%d/%.1fgb], new bytes reserved: [%d/%dkb], usages "
           "[model_inference=0/0b, inflight_requests=%d/%dkb, request=0/0b, fielddata=1203764/1.1mb, "
           "eql_sequence=0/0b]") % (
        "indices:monitor/stats[n]" if via_cluster_info else "<http_request>", usage, usage / 2**30,
        usage - 114688, (usage - 114688) / 2**30, 114688, 112, 114688, 112)
    trace = ("org.elasticsearch.common.breaker.CircuitBreakingException: %s\n"
             "\tat org.elasticsearch.indices.breaker.HierarchyCircuitBreakerService.checkParentLimit(HierarchyCircuitBreakerService.java:414)\n"
             "\tat org.elasticsearch.common.breaker.ChildMemoryCircuitBreaker.addEstimateBytesAndMaybeBreak(ChildMemoryCircuitBreaker.java:109)\n"
             "\tat org.elasticsearch.http.AbstractHttpServerTransport.incomingRequest(AbstractHttpServerTransport.java:421)\n"
             "\tat java.base/java.lang.Thread.run(Thread.java:1623)" % msg)
    error = ("org.elasticsearch.common.breaker.CircuitBreakingException", msg, trace)
    if via_cluster_info:
        return record(t, node, "WARN", "org.elasticsearch.cluster.InternalClusterInfoService",
                      "failed to retrieve stats for node [%s]" % NODES[node], "management][T#2", error)
    path = rng.choice(["/products/_search", "/content-pages/_search", "/search-suggestions/_search",
                       "/order_events/_search"])
    # HTTP 429 responses are logged by rest.suppressed at DEBUG only.
    return record(t, node, "DEBUG", "org.elasticsearch.rest.RestResponse",
                  "path: %s, params: {index=%s}, status: 429" % (path, path.split("/")[1]),
                  "http_server_worker][T#%d" % rng.randint(1, 4), error)


def slowlog_lines():
    """node-2's search slow log (its own file, as ES 8 writes it): the export's scroll pages
    slow down from ~80 ms to 600-700 ms after the line_items mapping change."""
    node = "order-events-node-2"
    lines = []
    t = EXPORT_START
    while t < RECOVERY:
        t += dt.timedelta(milliseconds=rng.randint(3000, 12000))
        took = rng.uniform(580, 720) if t < BREAKER else rng.uniform(900, 2400)
        shard = rng.randint(0, 5)
        line = ('{"@timestamp":"%s", "log.level":"WARN", "elasticsearch.slowlog.id":"order-events-exporter",'
                '"elasticsearch.slowlog.message":"[order_events][%d]","elasticsearch.slowlog.search_type":"QUERY_THEN_FETCH",'
                '"elasticsearch.slowlog.source":"{\\\"size\\\":5000,\\\"query\\\":{\\\"match_all\\\":{\\\"boost\\\":1.0}}}",'
                '"elasticsearch.slowlog.stats":"[]","elasticsearch.slowlog.took":"%.1fms","elasticsearch.slowlog.took_millis":"%d",'
                '"elasticsearch.slowlog.total_hits":"600412877 hits","elasticsearch.slowlog.total_shards":"6" , "ecs.version": "1.2.0",'
                '"service.name":"ES_ECS","event.dataset":"elasticsearch.index_search_slowlog",'
                '"process.thread.name":"elasticsearch[%s][search][T#%d]","log.logger":"index.search.slowlog.query",'
                '"elasticsearch.cluster.uuid":"%s","elasticsearch.node.id":"%s","elasticsearch.node.name":"%s",'
                '"elasticsearch.cluster.name":"%s"}') % (
            stamp(t), shard, took, int(took), node, rng.randint(1, 6), CLUSTER_UUID, NODES[node], node, CLUSTER)
        lines.append((t, line))
    return lines


def node_lines(node):
    lines = []
    t = START
    while t < END:
        t += dt.timedelta(milliseconds=rng.randint(2500, 17000))
        lines.append(background(node, t))
    if node != "order-events-node-2":
        return lines
    # The export starts scrolling; the limit is hit at 02:54:11.482 and again on every retry.
    lines.append(scroll_limit(SCROLL_LIMIT))
    t = SCROLL_LIMIT
    while t < BREAKER:
        t += dt.timedelta(milliseconds=rng.randint(4000, 9000))
        lines.append(scroll_limit(t))
    # Old-gen pressure builds; the GC monitor starts warning at 03:04:18.201.
    lines.append(gc_overhead(HEAP_PRESSURE, 4.1, 4.9))
    t = HEAP_PRESSURE
    while t < RECOVERY:
        t += dt.timedelta(milliseconds=rng.randint(20000, 45000))
        lines.append(gc_overhead(t, rng.uniform(3.0, 5.5), rng.uniform(5.6, 6.4)))
        if rng.random() < 0.3:
            lines.append(old_gc(t + dt.timedelta(milliseconds=310), rng.uniform(10.5, 14.0), 16.3, 16.1))
    # 03:13:02.117: the parent breaker rejects everything on node-2 until the scroll flush.
    lines.append(breaker(BREAKER))
    t = BREAKER
    while t < RECOVERY - dt.timedelta(seconds=12):
        t += dt.timedelta(milliseconds=rng.randint(1500, 7000))
        lines.append(breaker(t, via_cluster_info=rng.random() < 0.15))
    return lines


def main():
    os.makedirs(OUT, exist_ok=True)
    total = 0
    for node in NODES:
        lines = sorted(node_lines(node), key=lambda item: item[0])
        with open(os.path.join(OUT, node + ".json"), "w") as out:
            for _, line in lines:
                out.write(line + "\n")
        total += len(lines)
        print("%s: %d lines" % (node, len(lines)))
    slow = slowlog_lines()
    with open(os.path.join(OUT, "order-events-node-2_index_search_slowlog.json"), "w") as out:
        for _, line in slow:
            out.write(line + "\n")
    total += len(slow)
    print("order-events-node-2 search slow log: %d lines" % len(slow))
    print("total: %d lines" % total)


if __name__ == "__main__":
    main()
