#!/usr/bin/env python3
"""Writes samples/scenarios/: one folder per outage story, logs of several nodes in the
formats real clusters write, for the scenario tests (each folder also holds
expected-alerts.txt, the alerts a reviewer checked by hand).

  disk-fill         ES 7 plain: es-data-3's disk fills low -> high -> flood stage -> writes
                    rejected by the read-only block; space freed, watermark cleared
  master-loss       ES 8 ECS: GC storm on the elected master es-master-1, followers lose it,
                    es-master-2 is elected and removes es-master-1 (node-left)
  rejection-storm   ES 6 plain: es-data-1's search pool rejects a burst of queries
  mapping-explosion ES 7 JSON: a producer keeps inventing field names in index events-2026.11.29
  quiet-day         ECS + plain: a normal day full of near misses; nothing at warning or above
  lagging-node      ES 8 ECS (byte for byte as ES 8 writes it): es-data-2 falls into a GC storm;
                    the master es-master-1 waits for it, times out its follower checks, reports
                    it lagging and removes it. Every one of the master's lines is es-data-2's
                    story; nothing is raised against the master
  novel-exception   ES 8 ECS: a day of ordinary warnings (connection resets, TLS handshakes of
                    bad clients, unparsable documents, index typos at DEBUG), then a day where
                    es-data-2's disk corrupts a shard: CorruptIndexException, which no catalog
                    pattern knows, is logged ten minutes before the index turns RED. For the
                    novelty detector: learn day 1 (baseline build --to 2026-11-29T00:00:00Z),
                    scan day 2 with it

Deterministic. Run from the repository root: python3 samples/tools/make_scenarios.py
"""
import datetime as dt
import json
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "scenarios")
DAY = dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc)
rng = random.Random(7)


def plain(t, level, logger, node, message):
    return "[%s,%03d][%-5s][%s] [%s] %s" % (t.strftime("%Y-%m-%dT%H:%M:%S"), t.microsecond // 1000,
                                          level, logger, node, message)


def ecs(t, level, logger, node, message, error=None):
    record = {"@timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000),
              "log.level": level, "message": message, "ecs.version": "1.2.0", "service.name": "ES_ECS",
              "event.dataset": "elasticsearch.server", "log.logger": logger,
              "elasticsearch.node.name": node, "elasticsearch.cluster.name": "prod"}
    if error:
        record.update({"error.type": error[0], "error.message": error[1], "error.stack_trace": error[2]})
    return json.dumps(record, separators=(",", ":"))


def es7(t, level, component, node, message, stacktrace=None):
    record = {"type": "server", "timestamp": t.strftime("%Y-%m-%dT%H:%M:%S,") + "%03d+0000" % (t.microsecond // 1000),
              "level": level, "component": component, "cluster.name": "prod", "node.name": node,
              "message": message}
    if stacktrace:
        record["stacktrace"] = stacktrace
    return json.dumps(record)


def background(node, start, end, fmt, every=(20, 60)):
    lines, t = [], start
    while t < end:
        t += dt.timedelta(seconds=rng.uniform(*every), milliseconds=rng.randint(0, 999))
        choice = rng.random()
        if choice < 0.4:
            args = ("INFO", "org.elasticsearch.cluster.service.ClusterApplierService", node,
                    "cluster state updated, version [%d], source [ApplyCommitRequest{term=9}]" % rng.randint(100, 999))
        elif choice < 0.7:
            args = ("INFO", "org.elasticsearch.monitor.jvm.JvmGcMonitorService", node,
                    "[gc][%d] overhead, spent [%dms] collecting in the last [1s]" % (rng.randint(1000, 9000), rng.randint(250, 420)))
        else:
            args = ("INFO", "org.elasticsearch.cluster.metadata.MetadataMappingService", node,
                    "[logs-2026.11.29/aB3x] update_mapping [_doc]")
        lines.append((t, fmt(t, *args)))
    return lines


def write(scenario, name, lines):
    folder = os.path.join(OUT, scenario)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as out:
        for _, line in sorted(lines, key=lambda item: item[0]):
            out.write(line + "\n")


def short(logger):
    parts = logger.split(".")
    return ".".join(p[0] for p in parts[:-1]) + "." + parts[-1]


def plain_fmt(t, level, logger, node, message):
    return plain(t, level, short(logger), node, message)


def disk_fill():
    start, end = DAY.replace(hour=1), DAY.replace(hour=5)
    master = background("es-master-1", start, end, plain_fmt)
    data3 = background("es-data-3", start, end, plain_fmt)
    where = "[nOd3Id][es-data-3][/var/lib/elasticsearch/nodes/0]"
    monitor = "o.e.c.r.a.DiskThresholdMonitor"
    t = DAY.replace(hour=1, minute=40, second=2, microsecond=118000)
    master.append((t, plain(t, "INFO", monitor, "es-master-1",
                            "low disk watermark [85%%] exceeded on %s free: 142.3gb[14.6%%], replicas will not be assigned to this node" % where)))
    for i in range(6):  # the high watermark repeats every 30 s while relocations run
        t = DAY.replace(hour=2, minute=25, second=30 * (i % 2), microsecond=533000) + dt.timedelta(minutes=i // 2)
        master.append((t, plain(t, "WARN", monitor, "es-master-1",
                                "high disk watermark [90%%] exceeded on %s free: 91.7gb[9.4%%], shards will be relocated away from this node; currently relocating away shards totalling [0] bytes; the node is expected to continue to exceed the high disk watermark when these relocations are complete" % where)))
    t = DAY.replace(hour=3, minute=2, second=14, microsecond=907000)
    master.append((t, plain(t, "WARN", monitor, "es-master-1",
                            "flood stage disk watermark [95%%] exceeded on %s free: 44.1gb[4.5%%], all indices on this node will be marked read-only" % where)))
    t = DAY.replace(hour=3, minute=2, second=51, microsecond=12000)
    data3.append((t, plain(t, "WARN", "o.e.a.b.TransportShardBulkAction", "es-data-3",
                           "[logs-2026.11.29][2] failed to execute bulk item (index) index {[logs-2026.11.29][_doc][x81]}\n"
                           "org.elasticsearch.cluster.block.ClusterBlockException: index [logs-2026.11.29] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];\n"
                           "\tat org.elasticsearch.cluster.block.ClusterBlocks.indexBlockedException(ClusterBlocks.java:180)")))
    t = DAY.replace(hour=3, minute=40, second=0, microsecond=650000)
    master.append((t, plain(t, "INFO", monitor, "es-master-1",
                            "high disk watermark [90%%] no longer exceeded on %s free: 212.8gb[21.9%%], but low disk watermark [85%%] is still exceeded" % where)))
    t = DAY.replace(hour=3, minute=40, second=31, microsecond=2000)
    master.append((t, plain(t, "INFO", monitor, "es-master-1",
                            "releasing read-only block on indices [[logs-2026.11.29/aB3x]] since they are now allocated to nodes with sufficient disk space")))
    write("disk-fill", "es-master-1.log", master)
    write("disk-fill", "es-data-3.log", data3)


def master_loss():
    start, end = DAY.replace(hour=9), DAY.replace(hour=10, minute=30)
    m1 = background("es-master-1", start, end, ecs)
    m2 = background("es-master-2", start, end, ecs)
    d2 = background("es-data-2", start, end, ecs)
    gc = "org.elasticsearch.monitor.jvm.JvmGcMonitorService"
    for i, (minute, second, spent) in enumerate([(41, 5, 5.2), (42, 11, 6.1), (43, 2, 7.4), (43, 40, 8.9)]):
        t = DAY.replace(hour=9, minute=minute, second=second, microsecond=220000 + i)
        m1.append((t, ecs(t, "WARN", gc, "es-master-1",
                          "[gc][%d] overhead, spent [%.1fs] collecting in the last [%.1fs]" % (88000 + i, spent, spent + 0.6))))
    t = DAY.replace(hour=9, minute=44, second=17, microsecond=31000)
    d2.append((t, ecs(t, "INFO", "org.elasticsearch.cluster.coordination.Coordinator", "es-data-2",
                      "master node [{es-master-1}{mAsTeR1}{10.0.0.1}{10.0.0.1:9300}{dm}] failed, restarting discovery",
                      ("org.elasticsearch.ElasticsearchException", "node [{es-master-1}{mAsTeR1}{10.0.0.1}{10.0.0.1:9300}{dm}] failed [3] consecutive checks",
                       "org.elasticsearch.ElasticsearchException: node [{es-master-1}{mAsTeR1}{10.0.0.1}{10.0.0.1:9300}{dm}] failed [3] consecutive checks\n\tat org.elasticsearch.cluster.coordination.LeaderChecker$CheckScheduler$1.handleException(LeaderChecker.java:293)"))))
    t = DAY.replace(hour=9, minute=44, second=19, microsecond=774000)
    m2.append((t, ecs(t, "INFO", "org.elasticsearch.cluster.service.MasterService", "es-master-2",
                      "elected-as-master ([2] nodes joined)[{es-master-2}{mAsTeR2}{10.0.0.2}{10.0.0.2:9300}{dm} elect leader, {es-data-2}{dAtA2} elect leader], term: 10, version: 5512, delta: master node changed {previous [], current [{es-master-2}{mAsTeR2}{10.0.0.2}{10.0.0.2:9300}{dm}]}")))
    t = DAY.replace(hour=9, minute=44, second=32, microsecond=105000)
    m2.append((t, ecs(t, "INFO", "org.elasticsearch.cluster.coordination.NodeLeftExecutor", "es-master-2",
                      "node-left: [{es-master-1}{mAsTeR1}{10.0.0.1}{10.0.0.1:9300}{dm}] with reason [followers check retry count exceeded [timeouts=3, failures=0]]")))
    write("master-loss", "es-master-1.json", [l for l in m1 if l[0] < DAY.replace(hour=9, minute=44, second=10)])
    write("master-loss", "es-master-2.json", m2)
    write("master-loss", "es-data-2.json", d2)


def rejection_storm():
    start, end = DAY.replace(hour=14), DAY.replace(hour=15)
    d1 = background("es-data-1", start, end, plain_fmt)
    for i in range(8):
        t = DAY.replace(hour=14, minute=31, second=10 + 5 * i, microsecond=300000 + i)
        d1.append((t, plain(t, "DEBUG", "o.e.a.s.TransportSearchAction", "es-data-1",
                            "[products][%d], node[dAtA1], [P], s[STARTED], a[id=xyz]: Failed to execute [SearchRequest{searchType=QUERY_THEN_FETCH, indices=[products]}]\n"
                            "org.elasticsearch.common.util.concurrent.EsRejectedExecutionException: rejected execution of org.elasticsearch.common.util.concurrent.TimedRunnable@%x on QueueResizingEsThreadPoolExecutor[name = es-data-1/search, queue capacity = 1000, min queue capacity = 1000, max queue capacity = 1000, frame size = 2000, targeted response rate = 1s, task execution EWMA = 3.1ms, adjustment amount = 50, org.elasticsearch.common.util.concurrent.QueueResizingEsThreadPoolExecutor@5f1[Running, pool size = 13, active threads = 13, queued tasks = 1000, completed tasks = 88127]]\n"
                            "\tat org.elasticsearch.common.util.concurrent.EsAbortPolicy.rejectedExecution(EsAbortPolicy.java:48)" % (i % 5, 0xa1b2 + i))))
    write("rejection-storm", "es-data-1.log", d1)


def mapping_explosion():
    start, end = DAY.replace(hour=11), DAY.replace(hour=12)
    d2 = background("es-data-2", start, end, lambda t, level, logger, node, message: es7(t, level, short(logger), node, message))
    for i in range(5):
        t = DAY.replace(hour=11, minute=17 + 6 * i, second=3, microsecond=410000)
        d2.append((t, es7(t, "DEBUG", "o.e.a.a.i.m.p.TransportPutMappingAction", "es-data-2",
                          "failed to put mappings on indices [[[events-2026.11.29/eVt5]]], type [_doc]",
                          ["java.lang.IllegalArgumentException: Limit of total fields [1000] in index [events-2026.11.29] has been exceeded",
                           "at org.elasticsearch.index.mapper.MapperService.checkTotalFieldsLimit(MapperService.java:600) ~[elasticsearch-7.17.9.jar:7.17.9]"])))
    write("mapping-explosion", "es-data-2.json", d2)


def quiet_day():
    start, end = DAY.replace(hour=6), DAY.replace(hour=18)
    n1 = background("es-1", start, end, ecs, every=(60, 240))
    n2 = background("es-2", start, end, plain_fmt, every=(60, 240))
    near_misses = [
        ("INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService", "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[logs-2026.11.29][0]]]).", "es-1"),
        ("INFO", "org.elasticsearch.cluster.routing.allocation.DiskThresholdMonitor", "low disk watermark [85%] no longer exceeded on [nOd2][es-2][/var/lib/elasticsearch/nodes/0] free: 300.2gb[30.1%]", "es-1"),
        ("INFO", "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "[gc][young][5332][98] duration [726ms], collections [1]/[1s], total [726ms]/[9.5s], memory [459.3mb]->[384.4mb]/[1007.3mb]", "es-2"),
        ("DEBUG", "org.elasticsearch.monitor.jvm.JvmGcMonitorService", "[gc][old][2233][12] duration [2.1s], collections [1]/[2.5s], total [2.1s]/[12s], memory [6.1gb]->[3.2gb]/[8gb], all_pools {}", "es-2"),
        ("INFO", "org.elasticsearch.cluster.service.MasterService", "node-join[{es-3}{aB}{10.0.0.3}{10.0.0.3:9300}{d} join existing leader], term: 9, version: 7781", "es-1"),
        ("WARN", "org.elasticsearch.deprecation.rest.RestController", "Trying to create more than 500 scroll contexts will not be allowed in the next major version by default.", "es-1"),
        ("INFO", "org.elasticsearch.monitor.fs.FsHealthService", "health check of [/var/lib/elasticsearch/nodes/0] took [12ms]", "es-2"),
        ("INFO", "org.elasticsearch.cluster.coordination.Coordinator", "master node changed {previous [{es-1}{aB}], current []}, term: 9, version: 7790, reason: becoming candidate", "es-2"),
    ]
    for i, (level, logger, message, node) in enumerate(near_misses):
        t = DAY.replace(hour=8 + i, minute=12, second=i, microsecond=5000)
        (n1 if node == "es-1" else n2).append((t, (ecs if node == "es-1" else plain_fmt)(t, level, logger, node, message)))
    write("quiet-day", "es-1.json", n1)
    write("quiet-day", "es-2.log", n2)


NODE_IDS = {"es-master-1": ("mAsTeR1kQ2uJd3Zx8sWq0A", "10.0.0.1", "m"),
            "es-data-1": ("dAtA1hR7TnWfKq9pZ3LmVg", "10.0.0.11", "cdfhilrstw"),
            "es-data-2": ("dAtA2vB4XcYsLe6uQ1NjTw", "10.0.0.12", "cdfhilrstw")}


def descriptor(node):
    """A DiscoveryNode as ES 8 prints it: {name}{id}{ephemeral id}{host}{address}{roles}."""
    node_id, ip, roles = NODE_IDS[node]
    return "{%s}{%s}{%s}{%s}{%s:9300}{%s}" % (node, node_id, node_id[::-1], ip, ip, roles)


def ecs8(thread):
    """ES 8's ECS layout, byte for byte: its key order and its spacing after the level; an
    exception's error.type, error.message and error.stack_trace come last."""
    def line(t, level, logger, node, message, error=None):
        tail = ""
        if error:
            tail = ',"error.type":%s,"error.message":%s,"error.stack_trace":%s' % tuple(
                json.dumps(part, ensure_ascii=False) for part in error)
        return ('{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0",'
                '"service.name":"ES_ECS","event.dataset":"elasticsearch.server",'
                '"process.thread.name":"elasticsearch[%s][%s][T#1]","log.logger":"%s",'
                '"elasticsearch.cluster.uuid":"pRoDcLuStEr0uUiD8x2Lw","elasticsearch.node.id":"%s",'
                '"elasticsearch.node.name":"%s","elasticsearch.cluster.name":"prod"%s}') % (
            t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), level,
            json.dumps(message, ensure_ascii=False), node, thread, logger, NODE_IDS[node][0], node, tail)
    return line


def lagging_node():
    rng.seed(32)
    start, end = DAY.replace(hour=10), DAY.replace(hour=11)
    m1 = background("es-master-1", start, end, ecs8("clusterApplierService#updateTask"))
    d1 = background("es-data-1", start, end, ecs8("clusterApplierService#updateTask"))
    d2 = background("es-data-2", start, end - dt.timedelta(minutes=35), ecs8("clusterApplierService#updateTask"))
    gc = "org.elasticsearch.monitor.jvm.JvmGcMonitorService"
    for i, (minute, second, spent) in enumerate([(21, 4, 5.8), (21, 48, 6.4), (22, 31, 7.9), (23, 15, 8.8)]):
        t = DAY.replace(hour=10, minute=minute, second=second, microsecond=311000 + i * 1000)
        d2.append((t, ecs8("scheduler")(t, "WARN", gc, "es-data-2",
                                         "[gc][%d] overhead, spent [%.1fs] collecting in the last [%.1fs]" % (71204 + i * 41, spent, spent + 0.4))))
    master = ecs8("masterService#updateTask")
    t = DAY.replace(hour=10, minute=22, second=5, microsecond=118000)
    m1.append((t, master(t, "INFO", "org.elasticsearch.cluster.coordination.Coordinator.CoordinatorPublication", "es-master-1",
                         "after [10s] publication of cluster state version [88412] is still waiting for %s [SENT_APPLY_COMMIT]" % descriptor("es-data-2"))))
    t = DAY.replace(hour=10, minute=22, second=44, microsecond=902000)
    m1.append((t, ecs8("transport_worker")(t, "WARN", "org.elasticsearch.transport.TransportService", "es-master-1",
                                           "Received response for a request that has timed out, sent [12.2s/12207ms] ago, timed out [2.2s/2202ms] ago, action [internal:coordination/fault_detection/follower_check], node [%s], id [884213]" % descriptor("es-data-2"))))
    t = DAY.replace(hour=10, minute=23, second=35, microsecond=640000)
    m1.append((t, ecs8("generic")(t, "WARN", "org.elasticsearch.cluster.coordination.LagDetector", "es-master-1",
                                  "node [%s] is lagging at cluster state version [88411], although publication of cluster state version [88412] completed [1.5m] ago" % descriptor("es-data-2"))))
    t = DAY.replace(hour=10, minute=23, second=35, microsecond=702000)
    m1.append((t, master(t, "INFO", "org.elasticsearch.cluster.coordination.NodeLeftExecutor", "es-master-1",
                         "node-left: [%s] with reason [lagging]" % descriptor("es-data-2"))))
    t = DAY.replace(hour=10, minute=23, second=35, microsecond=911000)
    for node, log in (("es-master-1", m1), ("es-data-1", d1)):
        log.append((t, ecs8("clusterApplierService#updateTask")(t, "INFO", "org.elasticsearch.cluster.service.ClusterApplierService", node,
                                                                  "removed {%s}, term: 12, version: 88413, reason: ApplyCommitRequest{term=12, version=88413, sourceNode=%s}" % (descriptor("es-data-2"), descriptor("es-master-1")))))
    t = DAY.replace(hour=10, minute=23, second=36, microsecond=40000)
    m1.append((t, master(t, "INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService", "es-master-1",
                         "Cluster health status changed from [GREEN] to [YELLOW] (reason: [%s reason: lagging])." % descriptor("es-data-2"))))
    write("lagging-node", "es-master-1.json", m1)
    write("lagging-node", "es-data-1.json", d1)
    write("lagging-node", "es-data-2.json", d2)


def trace(head, frames, cause=None):
    """A Java stack trace as ES 8 writes error.stack_trace: tab-indented frames."""
    text = head + "".join("\n\tat " + frame for frame in frames)
    if cause:
        text += "\nCaused by: " + cause[0] + "".join("\n\tat " + frame for frame in cause[1]) + "\n\t... %d more" % cause[2]
    return text


def ordinary_warnings(node, start, end):
    """What a healthy cluster warns about every day: clients resetting connections, bad TLS
    clients, documents that do not fit their mapping, and index-name typos (DEBUG)."""
    lines = []
    ip = NODE_IDS[node][1]
    t = start
    while True:
        t += dt.timedelta(minutes=rng.uniform(20, 110), milliseconds=rng.randint(0, 999))
        if t >= end:
            return lines
        kind = rng.random()
        if kind < 0.3:
            lines.append((t, ecs8("transport_worker")(t, "WARN", "org.elasticsearch.transport.TcpTransport", node,
                "exception caught on transport layer [Netty4TcpChannel{localAddress=/%s:9300, remoteAddress=/10.0.9.%d:%d, profile=default}], closing connection" % (ip, rng.randint(2, 250), rng.randint(30000, 60000)),
                ("java.io.IOException", "Connection reset by peer",
                 trace("java.io.IOException: Connection reset by peer",
                       ["sun.nio.ch.SocketDispatcher.read0(Native Method)", "sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:47)",
                        "io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:569)"])))))
        elif kind < 0.5:
            lines.append((t, ecs8("http_server_worker")(t, "WARN", "org.elasticsearch.http.AbstractHttpServerTransport", node,
                "caught exception while handling client http traffic, closing connection Netty4HttpChannel{localAddress=/%s:9200, remoteAddress=/10.0.7.%d:%d}" % (ip, rng.randint(2, 250), rng.randint(30000, 60000)),
                ("io.netty.handler.codec.DecoderException", "javax.net.ssl.SSLHandshakeException: Received fatal alert: certificate_unknown",
                 trace("io.netty.handler.codec.DecoderException: javax.net.ssl.SSLHandshakeException: Received fatal alert: certificate_unknown",
                       ["io.netty.handler.codec.ByteToMessageDecoder.callDecode(ByteToMessageDecoder.java:489)"],
                       ("javax.net.ssl.SSLHandshakeException: Received fatal alert: certificate_unknown",
                        ["sun.security.ssl.Alert.createSSLException(Alert.java:131)"], 19))))))
        elif kind < 0.75:
            doc = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20))
            lines.append((t, ecs8("write")(t, "DEBUG", "org.elasticsearch.action.bulk.TransportShardBulkAction", node,
                "[orders-2026.11][%d] failed to execute bulk item (index) index {[orders-2026.11][%s], source[n/a, actual length: [%dkb], max length: 2kb]}" % (rng.randint(0, 5), doc, rng.randint(3, 9)),
                ("org.elasticsearch.index.mapper.DocumentParsingException", "[1:%d] failed to parse field [amount] of type [long] in document with id '%s'. Preview of field's value: 'n/a'" % (rng.randint(20, 90), doc),
                 trace("org.elasticsearch.index.mapper.DocumentParsingException: [1:40] failed to parse field [amount] of type [long]",
                       ["org.elasticsearch.index.mapper.FieldMapper.parse(FieldMapper.java:183)"],
                       ("java.lang.IllegalArgumentException: For input string: \"n/a\"",
                        ["org.elasticsearch.xcontent.support.AbstractXContentParser.toLong(AbstractXContentParser.java:245)"], 31))))))
        else:
            index = rng.choice(["prodcuts", "orders-archive-2019", "content_pages"])
            lines.append((t, ecs8("http_server_worker")(t, "DEBUG", "org.elasticsearch.rest.RestResponse", node,
                "path: /%s/_search, params: {index=%s}, status: 404" % (index, index),
                ("org.elasticsearch.index.IndexNotFoundException", "no such index [%s]" % index,
                 trace("[%s] IndexNotFoundException[no such index [%s]]" % (index, index),
                       ["org.elasticsearch.cluster.metadata.IndexNameExpressionResolver.notFoundException(IndexNameExpressionResolver.java:1193)"])))))


def novel_exception():
    rng.seed(33)
    start, end = DAY - dt.timedelta(days=1), DAY + dt.timedelta(hours=16)
    logs = {}
    for node in ("es-master-1", "es-data-1", "es-data-2"):
        logs[node] = background(node, start, end, ecs8("clusterApplierService#updateTask"), every=(120, 360))
        logs[node] += ordinary_warnings(node, start, end)
    corrupt = "checksum failed (hardware problem?) : expected=1f2a3b4c actual=5d6e7f80 (resource=BufferedChecksumIndexInput(MMapIndexInput(path=\"/var/lib/elasticsearch/indices/q1RtYb8XSzWc4v0Ld2Kf7g/%d/index/_%s.cfs\")))"
    engine = ecs8("write")
    for i, (minute, second, shard, segment) in enumerate([(2, 7, 3, "4k"), (2, 41, 3, "4m"), (5, 18, 1, "2b"), (9, 2, 4, "7x")]):
        t = DAY.replace(hour=14, minute=minute, second=second, microsecond=233000 + i * 1000)
        message = corrupt % (shard, segment)
        logs["es-data-2"].append((t, engine(t, "WARN", "org.elasticsearch.index.engine.InternalEngine", "es-data-2",
            "[orders-2026.11][%d] failed engine [merge failed]" % shard,
            ("org.apache.lucene.index.CorruptIndexException", message,
             trace("org.apache.lucene.index.CorruptIndexException: " + message,
                   ["org.apache.lucene.codecs.CodecUtil.checkFooter(CodecUtil.java:440)",
                    "org.elasticsearch.index.engine.InternalEngine$EngineMergeScheduler$2.doRun(InternalEngine.java:2607)"])))))
        t2 = t + dt.timedelta(milliseconds=180)
        logs["es-master-1"].append((t2, ecs8("masterService#updateTask")(t2, "WARN", "org.elasticsearch.cluster.action.shard.ShardStateAction", "es-master-1",
            "[orders-2026.11][%d] received shard failed for shard id [[orders-2026.11][%d]], allocation id [aLl0c%dIdQwErTy], primary term [4], message [shard failure, reason [merge failed]], markAsStale [true]" % (shard, shard, shard),
            ("org.apache.lucene.index.CorruptIndexException", message,
             trace("org.apache.lucene.index.CorruptIndexException: " + message,
                   ["org.apache.lucene.codecs.CodecUtil.checkFooter(CodecUtil.java:440)"])))))
    t = DAY.replace(hour=14, minute=11, second=40, microsecond=512000)
    logs["es-master-1"].append((t, ecs8("masterService#updateTask")(t, "INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService", "es-master-1",
        "Cluster health status changed from [YELLOW] to [RED] (reason: [shards failed [[orders-2026.11][3]]]).")))
    for node, lines in logs.items():
        write("novel-exception", node + ".json", lines)


def main():
    disk_fill()
    master_loss()
    rejection_storm()
    mapping_explosion()
    quiet_day()
    lagging_node()
    novel_exception()
    for name in sorted(os.listdir(OUT)):
        print(name, sorted(os.listdir(os.path.join(OUT, name))))


if __name__ == "__main__":
    main()
