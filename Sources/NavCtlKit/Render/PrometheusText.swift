import NavModel
import NavWire

/// `navctl stats --prometheus`: a `GetStatistics` reply in Prometheus's text exposition
/// format (version 0.0.4): `navd_` names, base units (seconds, bytes), a `# HELP` and
/// `# TYPE` line per metric, histogram buckets as `_bucket{le="…"}` with `_sum` and `_count`.
/// The metric names are documented in PROTOCOL.md §3 GetStatistics.
enum PrometheusText {
  static func render(_ reply: JSONValue) -> String? {
    guard let stats = try? NavStatistics(parameters: reply) else { return nil }
    var out = Writer()
    let totals = stats.totals
    out.metric("navd_uptime_seconds", "gauge", "Seconds since navd started.", [([], stats.uptimeSeconds)])
    out.metric("navd_connections", "gauge", "Client connections open now.", [([], Double(stats.connections))])
    out.metric(
      "navd_connections_accepted_total", "counter", "Connections accepted since start.",
      [([], Double(stats.acceptedConnections))])
    out.metric(
      "navd_connections_rejected_total", "counter", "Connections turned away over a connection limit.",
      [([], Double(stats.rejectedConnections))])
    out.metric("navd_scenes", "gauge", "Scenes that exist.", [([], Double(stats.scenes.count))])
    out.metric(
      "navd_mutations_total", "counter", "Versions committed, by scene.",
      stats.scenes.map { ([("scene", $0.name)], Double($0.counts.mutations)) })
    out.metric(
      "navd_conflicts_total", "counter",
      "Conflicts by policy: lastWriterWins mutations that overwrote another client's field, failOnConflict ones refused.",
      [
        ([("policy", "lastWriterWins")], Double(totals.lastWriterWinsConflicts)),
        ([("policy", "failOnConflict")], Double(totals.failOnConflictConflicts)),
      ])
    out.metric(
      "navd_refusals_total", "counter", "Mutations refused, by error.",
      totals.refusals.map { ([("error", $0.name)], Double($0.count)) })
    out.metric(
      "navd_denials_total", "counter", "Calls the access policy denied, by the right they lacked.",
      stats.denials.map { ([("right", $0.name)], Double($0.count)) })
    out.metric(
      "navd_subscribers", "gauge", "Open Subscribe streams, by scene.",
      stats.scenes.map { ([("scene", $0.name)], Double($0.counts.subscribers)) })
    out.metric(
      "navd_waiting_subscribers", "gauge", "Subscribe streams waiting for a scene that does not exist yet.",
      [([], Double(stats.waitingSubscribers))])
    out.metric(
      "navd_watchers", "gauge", "Open WatchActions streams, by scene.",
      stats.scenes.map { ([("scene", $0.name)], Double($0.counts.watchers)) })
    out.metric(
      "navd_queued_bytes", "gauge", "Bytes queued in the streams of a scene, not yet taken by their connections.",
      stats.scenes.map { ([("scene", $0.name)], Double($0.counts.queuedBytes)) })
    out.metric(
      "navd_coalesced_updates", "gauge", "Updates coalesced for the subscribers open now, by scene.",
      stats.scenes.map { ([("scene", $0.name)], Double($0.counts.coalescedUpdates)) })
    out.metric(
      "navd_dropped_activations_total", "counter", "Activations a full watcher queue dropped.",
      [([], Double(totals.droppedActivations))])
    out.histogram(
      "navd_commit_duration_seconds", "Seconds to store a commit group (redo log write or database transaction).",
      stats.commitLatency)
    out.metric("navd_redo_bytes", "gauge", "Bytes of the redo log's files.", [([], Double(stats.redoBytes))])
    out.metric(
      "navd_database_bytes", "gauge", "Bytes of the database with its WAL and index.",
      [([], Double(stats.databaseBytes))])
    out.metric(
      "navd_user_scenes", "gauge", "Scenes a uid's mutations created.",
      stats.users.map { ([("uid", "\($0.uid)")], Double($0.scenes)) })
    out.metric(
      "navd_user_scenes_limit", "gauge", "A uid's scene quota (--max-scenes-per-uid).",
      stats.users.map { ([("uid", "\($0.uid)")], Double($0.maxScenes)) })
    out.metric(
      "navd_user_waited_scenes", "gauge", "Names a uid's subscribers wait for.",
      stats.users.map { ([("uid", "\($0.uid)")], Double($0.waitedScenes)) })
    out.metric(
      "navd_user_waited_scenes_limit", "gauge", "A uid's waited-name quota (--max-waited-scenes-per-uid).",
      stats.users.map { ([("uid", "\($0.uid)")], Double($0.maxWaitedScenes)) })
    return out.text
  }

  /// Appends metric families line by line.
  private struct Writer {
    var text = ""

    mutating func metric(_ name: String, _ type: String, _ help: String, _ samples: [([(String, String)], Double)]) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
      for (labels, value) in samples { text += name + Self.labels(labels) + " " + Self.number(value) + "\n" }
    }

    mutating func histogram(_ name: String, _ help: String, _ histogram: LatencyHistogram) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
      for bucket in histogram.buckets {
        text += "\(name)_bucket{le=\"\(Self.number(bucket.le))\"} \(bucket.count)\n"
      }
      text += "\(name)_bucket{le=\"+Inf\"} \(histogram.count)\n"
      text += "\(name)_sum \(Self.number(histogram.sum))\n\(name)_count \(histogram.count)\n"
    }

    /// `{a="1",b="2"}`, values escaped as the format asks (`\\`, `\"`, `\n`).
    static func labels(_ labels: [(String, String)]) -> String {
      guard !labels.isEmpty else { return "" }
      let escaped = labels.map { name, value in
        let value = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
        return "\(name)=\"\(value)\""
      }
      return "{" + escaped.joined(separator: ",") + "}"
    }

    /// Integers without a fraction; others in Swift's shortest form (which Prometheus parses).
    static func number(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
  }
}
