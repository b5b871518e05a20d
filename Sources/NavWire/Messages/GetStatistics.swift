import NavModel

/// `GetStatistics()`: no parameters; needs the `admin` right (PROTOCOL.md §3 GetStatistics).
public struct GetStatisticsCall: NavCall {
  /// What navd answers.
  public typealias Reply = NavStatistics
  /// `GetStatistics`.
  public static let method = NavMethod.getStatistics

  /// The call.
  public init() {}

  /// Accepts only an empty parameters object.
  public init(parameters: JSONValue) throws(CallError) { _ = try ParameterReader(parameters, known: []) }

  /// `{}`.
  public var parameters: JSONValue { [:] }
}

/// A name and how many times it was counted: a refusal by error name, a denial by right.
public struct NamedCount: Sendable, Hashable {
  /// The error name (`io.navd.Conflict`) or the right (`write`).
  public var name: String
  /// How many.
  public var count: Int

  /// A count.
  public init(name: String, count: Int) {
    self.name = name
    self.count = count
  }

  static func list(_ values: [JSONValue], key: String, context: String) throws(MalformedReply) -> [NamedCount] {
    var counts: [NamedCount] = []
    for value in values {
      let reader = try ReplyReader(value, context: context)
      counts.append(NamedCount(name: try reader.string(key), count: try reader.int("count")))
    }
    return counts
  }

  func parameters(key: String) -> JSONValue { [key: .string(name), "count": count.json] }
}

/// What a scene (or all of them) counted, and its streams now.
public struct SceneCounts: Sendable, Hashable {
  /// Versions committed.
  public var mutations = 0
  /// Last-writer-wins mutations that overwrote another client's field.
  public var lastWriterWinsConflicts = 0
  /// Fail-on-conflict mutations refused with `io.navd.Conflict`.
  public var failOnConflictConflicts = 0
  /// Mutations refused, by error name.
  public var refusals: [NamedCount] = []
  /// Open `Subscribe` streams.
  public var subscribers = 0
  /// Open `WatchActions` streams.
  public var watchers = 0
  /// Bytes queued in those streams.
  public var queuedBytes = 0
  /// Updates coalesced for the subscribers open now.
  public var coalescedUpdates = 0
  /// Activations dropped by full watcher queues.
  public var droppedActivations = 0

  /// Counts.
  public init() {}

  init(_ reader: ReplyReader) throws(MalformedReply) {
    mutations = try reader.int("mutations")
    lastWriterWinsConflicts = try reader.int("lastWriterWinsConflicts")
    failOnConflictConflicts = try reader.int("failOnConflictConflicts")
    refusals = try NamedCount.list(try reader.array("refusals"), key: "error", context: reader.context + ": refusals")
    subscribers = try reader.int("subscribers")
    watchers = try reader.int("watchers")
    queuedBytes = try reader.int("queuedBytes")
    coalescedUpdates = try reader.int("coalescedUpdates")
    droppedActivations = try reader.int("droppedActivations")
  }

  var members: [String: JSONValue] {
    [
      "mutations": mutations.json, "lastWriterWinsConflicts": lastWriterWinsConflicts.json,
      "failOnConflictConflicts": failOnConflictConflicts.json,
      "refusals": .array(refusals.map { $0.parameters(key: "error") }), "subscribers": subscribers.json,
      "watchers": watchers.json, "queuedBytes": queuedBytes.json, "coalescedUpdates": coalescedUpdates.json,
      "droppedActivations": droppedActivations.json,
    ]
  }
}

/// One scene's statistics.
public struct SceneStatistics: Sendable, Hashable {
  /// The scene.
  public var name: String
  /// Its version.
  public var version: UInt64
  /// Its epoch.
  public var epoch: String
  /// What it counted.
  public var counts: SceneCounts

  /// A scene's statistics.
  public init(name: String, version: UInt64, epoch: String, counts: SceneCounts) {
    self.name = name
    self.version = version
    self.epoch = epoch
    self.counts = counts
  }
}

/// How long commit groups took to store: cumulative buckets (`le` seconds), their sum and
/// count (the count is also the `+Inf` bucket).
public struct LatencyHistogram: Sendable, Hashable {
  /// One bucket: the groups that took at most `le` seconds.
  public struct Bucket: Sendable, Hashable {
    /// The upper bound in seconds.
    public var le: Double
    /// Groups at or below it (cumulative).
    public var count: Int

    /// A bucket.
    public init(le: Double, count: Int) {
      self.le = le
      self.count = count
    }
  }

  /// Ascending by bound.
  public var buckets: [Bucket]
  /// Seconds of all groups.
  public var sum: Double
  /// Groups.
  public var count: Int

  /// A histogram.
  public init(buckets: [Bucket], sum: Double, count: Int) {
    self.buckets = buckets
    self.sum = sum
    self.count = count
  }
}

/// One uid's scene quotas in use.
public struct UserUsage: Sendable, Hashable {
  /// The uid.
  public var uid: Int
  /// Scenes its mutations created.
  public var scenes: Int
  /// Its scene quota (`--max-scenes-per-uid`).
  public var maxScenes: Int
  /// Names its subscribers wait for.
  public var waitedScenes: Int
  /// Its waited-name quota (`--max-waited-scenes-per-uid`).
  public var maxWaitedScenes: Int

  /// A uid's usage.
  public init(uid: Int, scenes: Int, maxScenes: Int, waitedScenes: Int, maxWaitedScenes: Int) {
    self.uid = uid
    self.scenes = scenes
    self.maxScenes = maxScenes
    self.waitedScenes = waitedScenes
    self.maxWaitedScenes = maxWaitedScenes
  }
}

/// `GetStatistics`' reply: the server's counters and gauges, every scene's, each uid's use.
public struct NavStatistics: NavReply {
  /// Seconds since navd started.
  public var uptimeSeconds: Double
  /// Connections open now.
  public var connections: Int
  /// Connections accepted since start.
  public var acceptedConnections: Int
  /// Connections turned away over a connection limit since start.
  public var rejectedConnections: Int
  /// Every scene's counts together (deleted scenes' counters included).
  public var totals: SceneCounts
  /// Subscribers waiting for a scene that does not exist yet.
  public var waitingSubscribers: Int
  /// Calls denied by the access policy, by the right they lacked.
  public var denials: [NamedCount]
  /// How long storing each commit group took.
  public var commitLatency: LatencyHistogram
  /// The redo log's bytes on disk.
  public var redoBytes: Int
  /// The database's bytes on disk, with its WAL and index.
  public var databaseBytes: Int
  /// Every scene, sorted by name.
  public var scenes: [SceneStatistics]
  /// Each uid with a scene quota in use, sorted by uid.
  public var users: [UserUsage]

  /// A reply with every field.
  public init(
    uptimeSeconds: Double, connections: Int, acceptedConnections: Int, rejectedConnections: Int, totals: SceneCounts,
    waitingSubscribers: Int, denials: [NamedCount], commitLatency: LatencyHistogram, redoBytes: Int,
    databaseBytes: Int, scenes: [SceneStatistics], users: [UserUsage]
  ) {
    self.uptimeSeconds = uptimeSeconds
    self.connections = connections
    self.acceptedConnections = acceptedConnections
    self.rejectedConnections = rejectedConnections
    self.totals = totals
    self.waitingSubscribers = waitingSubscribers
    self.denials = denials
    self.commitLatency = commitLatency
    self.redoBytes = redoBytes
    self.databaseBytes = databaseBytes
    self.scenes = scenes
    self.users = users
  }

  /// Reads a `GetStatistics` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let context = "GetStatistics reply"
    let reader = try ReplyReader(parameters, context: context)
    uptimeSeconds = try reader.double("uptimeSeconds")
    connections = try reader.int("connections")
    acceptedConnections = try reader.int("acceptedConnections")
    rejectedConnections = try reader.int("rejectedConnections")
    totals = try SceneCounts(reader)
    waitingSubscribers = try reader.int("waitingSubscribers")
    denials = try NamedCount.list(try reader.array("denials"), key: "right", context: context + ": denials")
    let latency = try ReplyReader(try reader.object("commitLatency"), context: context + ": commitLatency")
    var buckets: [LatencyHistogram.Bucket] = []
    for bucket in try latency.array("buckets") {
      let item = try ReplyReader(bucket, context: context + ": commitLatency.buckets")
      buckets.append(LatencyHistogram.Bucket(le: try item.double("le"), count: try item.int("count")))
    }
    commitLatency = LatencyHistogram(buckets: buckets, sum: try latency.double("sum"), count: try latency.int("count"))
    redoBytes = try reader.int("redoBytes")
    databaseBytes = try reader.int("databaseBytes")
    scenes = []
    for scene in try reader.array("scenes") {
      let item = try ReplyReader(scene, context: context + ": scenes")
      scenes.append(
        SceneStatistics(
          name: try item.string("name"), version: try item.version("version"), epoch: try item.string("epoch"),
          counts: try SceneCounts(item)))
    }
    users = []
    for user in try reader.array("users") {
      let item = try ReplyReader(user, context: context + ": users")
      users.append(
        UserUsage(
          uid: try item.int("uid"), scenes: try item.int("scenes"), maxScenes: try item.int("maxScenes"),
          waitedScenes: try item.int("waitedScenes"), maxWaitedScenes: try item.int("maxWaitedScenes")))
    }
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    var members = totals.members
    members["uptimeSeconds"] = .number(uptimeSeconds)
    members["connections"] = connections.json
    members["acceptedConnections"] = acceptedConnections.json
    members["rejectedConnections"] = rejectedConnections.json
    members["waitingSubscribers"] = waitingSubscribers.json
    members["denials"] = .array(denials.map { $0.parameters(key: "right") })
    members["commitLatency"] = [
      "buckets": .array(commitLatency.buckets.map { ["le": .number($0.le), "count": $0.count.json] }),
      "sum": .number(commitLatency.sum), "count": commitLatency.count.json,
    ]
    members["redoBytes"] = redoBytes.json
    members["databaseBytes"] = databaseBytes.json
    members["scenes"] = .array(
      scenes.map { scene in
        var item = scene.counts.members
        item["name"] = .string(scene.name)
        item["version"] = scene.version.json
        item["epoch"] = .string(scene.epoch)
        return .object(item)
      })
    members["users"] = .array(
      users.map {
        [
          "uid": $0.uid.json, "scenes": $0.scenes.json, "maxScenes": $0.maxScenes.json,
          "waitedScenes": $0.waitedScenes.json, "maxWaitedScenes": $0.maxWaitedScenes.json,
        ]
      })
    return .object(members)
  }
}
