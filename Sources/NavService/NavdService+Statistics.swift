import NavEngine
import NavModel
import NavServer
import NavWire

/// `GetStatistics` (PROTOCOL.md §3): the server's counters, the engine's per scene and per
/// uid, the store's sizes and the access gate's denials, in one reply.
extension NavdService {
  func getStatistics(_ call: GetStatisticsCall, _ context: any CallContext) {
    let server = context.serverStatistics
    let engine = engine
    let startedAt = startedAt
    let denials = accessDenials
    run {
      let statistics = await engine.statistics()
      let sizes = engine.storeSizes
      var totals = SceneCounts(statistics.totals)
      var scenes: [SceneStatistics] = []
      for (name, scene) in statistics.scenes {
        var counts = SceneCounts(scene.counters)
        counts.addGauges(of: scene)
        totals.addGauges(of: scene)
        scenes.append(SceneStatistics(name: name, version: scene.version, epoch: scene.epoch, counts: counts))
      }
      totals.subscribers += statistics.waitingSubscribers
      let configuration = engine.configuration
      let reply = NavStatistics(
        uptimeSeconds: Engine.monotonicSeconds() - startedAt, connections: server.openConnections,
        acceptedConnections: server.acceptedTotal, rejectedConnections: server.rejectedTotal, totals: totals,
        waitingSubscribers: statistics.waitingSubscribers, denials: denials.counts,
        commitLatency: LatencyHistogram(statistics.totals.commitLatency), redoBytes: sizes.redoBytes,
        databaseBytes: sizes.databaseBytes, scenes: scenes,
        users: statistics.users.map {
          UserUsage(
            uid: Int($0.uid), scenes: $0.scenes, maxScenes: configuration.maxScenesPerUser,
            waitedScenes: $0.waitedScenes, maxWaitedScenes: configuration.maxWaitedScenesPerUser)
        })
      context.reply(reply.parameters)
    }
  }
}

extension SceneCounts {
  /// The counters of `counters`, with error codes as their wire names; gauges zero.
  init(_ counters: SceneCounters) {
    self.init()
    mutations = counters.mutations
    lastWriterWinsConflicts = counters.lastWriterWinsConflicts
    failOnConflictConflicts = counters.failOnConflictConflicts
    refusals = counters.refusals.map { NamedCount(name: NavErrorName($0.code).rawValue, count: $0.count) }
    droppedActivations = counters.droppedActivations
  }

  /// Adds a scene's stream gauges.
  mutating func addGauges(of scene: SceneEngine.Statistics) {
    subscribers += scene.subscribers
    watchers += scene.watchers
    queuedBytes += scene.queuedBytes
    coalescedUpdates += scene.coalescedUpdates
  }
}

extension LatencyHistogram {
  /// The engine's histogram as cumulative buckets.
  init(_ latency: CommitLatency) {
    let cumulative = latency.cumulative
    self.init(
      buckets: CommitLatency.bounds.indices.map { Bucket(le: CommitLatency.bounds[$0], count: cumulative[$0]) },
      sum: latency.sum, count: latency.count)
  }
}
