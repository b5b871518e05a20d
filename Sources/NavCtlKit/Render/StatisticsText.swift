import NavModel
import NavWire

/// `navctl stats` as text: the server's totals, then one line per scene and per uid.
enum StatisticsText {
  static func render(_ reply: JSONValue) -> String {
    guard let stats = try? NavStatistics(parameters: reply) else { return ReplyPresenter.line(reply) }
    let totals = stats.totals
    var out = ""
    func row(_ name: String, _ value: String) {
      out += name + ":" + String(repeating: " ", count: max(1, 22 - name.count)) + value + "\n"
    }
    row("uptime", ReplyPresenter.duration(stats.uptimeSeconds))
    row(
      "connections",
      "\(stats.connections) open, \(stats.acceptedConnections) accepted, \(stats.rejectedConnections) turned away")
    row("scenes", "\(stats.scenes.count)")
    row("mutations", "\(totals.mutations)")
    row(
      "conflicts", "\(totals.lastWriterWinsConflicts) lastWriterWins, \(totals.failOnConflictConflicts) failOnConflict")
    row("refusals", counts(totals.refusals))
    row("denials", counts(stats.denials))
    row("subscribers", "\(totals.subscribers) (\(stats.waitingSubscribers) waiting), \(totals.watchers) watchers")
    row("queued", bytes(totals.queuedBytes))
    row("coalesced updates", "\(totals.coalescedUpdates)")
    row("dropped activations", "\(totals.droppedActivations)")
    row("commits", latency(stats.commitLatency))
    row("redo log", bytes(stats.redoBytes))
    row("database", bytes(stats.databaseBytes))
    if !stats.scenes.isEmpty {
      out += "\nSCENE  VERSION  MUTATIONS  SUBSCRIBERS  WATCHERS  QUEUED  REFUSALS\n"
      for scene in stats.scenes {
        let c = scene.counts
        out +=
          "\(DisplayWidth.sanitize(scene.name))  \(scene.version)  \(c.mutations)  \(c.subscribers)  \(c.watchers)  "
          + "\(bytes(c.queuedBytes))  \(counts(c.refusals))\n"
      }
    }
    if !stats.users.isEmpty {
      out += "\nUID  SCENES  WAITED SCENES\n"
      for user in stats.users {
        out += "\(user.uid)  \(user.scenes)/\(user.maxScenes)  \(user.waitedScenes)/\(user.maxWaitedScenes)\n"
      }
    }
    return out
  }

  private static func counts(_ counts: [NamedCount]) -> String {
    counts.isEmpty ? "none" : counts.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
  }

  private static func bytes(_ bytes: Int) -> String {
    bytes < 1024 ? "\(bytes) B" : bytes < 1 << 20 ? "\(bytes / 1024) KiB" : "\(bytes >> 20) MiB"
  }

  private static func latency(_ histogram: LatencyHistogram) -> String {
    guard histogram.count > 0 else { return "none stored yet" }
    let mean = histogram.sum / Double(histogram.count) * 1e6
    let median = histogram.buckets.first { $0.count * 2 >= histogram.count }.map { "≤ \(seconds($0.le))" } ?? "> 1 s"
    return "\(histogram.count) groups, mean \(Int(mean.rounded())) µs, median \(median)"
  }

  private static func seconds(_ value: Double) -> String {
    value < 0.001 ? "\(Int((value * 1e6).rounded())) µs" : value < 1 ? "\(value * 1e3) ms" : "\(value) s"
  }
}
