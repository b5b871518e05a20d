import NavModel

/// Every bound the engine keeps (documented in Protocol/PROTOCOL.md, "Limits").
public struct EngineConfiguration: Sendable {
  /// The model's limits (SEMANTICS R66): sizes and counts of a scene's state and a mutation.
  public var limits = ModelLimits.default
  /// Versions kept in each scene's op log: how far back `baseVersion` and `sinceVersion` reach.
  public var opLogCapacity = 1024
  /// Bytes of ops (their wire form) kept in each scene's op log; past it the
  /// oldest versions are folded into the log's floor, as past `opLogCapacity`.
  /// The newest version is always kept, however large.
  public var opLogBytes = 8 << 20
  /// Bytes of ops (their wire form, as the store writes them) one commit group holds: a group
  /// is closed once its versions' ops reach it, so it holds at least one mutation, and the
  /// next group is planned in a later pass of the executor (`SceneExecutor.laterAfterIO`),
  /// after the loop has served other connections (PROTOCOL.md §2 "Pipelining"). 256 KiB: a
  /// pipelined burst of small `Mutate`s stays one group, while each mutation near the 1 MiB
  /// frame limit is a group, and a pass, of its own.
  public var groupRecordBytes = 256 << 10
  /// Successful mutation ids remembered per scene for idempotent retries.
  public var rememberedMutationIds = 10_000
  /// Bytes of remembered mutation ids per scene, as the heap holds them (the tables' slots,
  /// the id strings, the remembered reply with its overwritten values: `MutationMemory.footprint`);
  /// the oldest are forgotten first.
  public var rememberedMutationIdBytes = 1 << 20
  /// A scene's store record carries a snapshot with its first version and
  /// then every this many versions (or sooner, see `snapshotBytes`), so
  /// start-up replays at most this many versions per scene.
  public var snapshotInterval = 256
  /// A snapshot is also written once this many bytes of ops were logged since the last one.
  public var snapshotBytes = 4 << 20
  /// Scenes navd will hold; a mutation creating one more is refused.
  public var maxScenes = 1024
  /// Names of scenes that do not exist yet which `Subscribe` with
  /// `waitForScene` waits for; a waiting subscription to one more is refused.
  /// Counted apart from `maxScenes`, so readers waiting never keep a writer
  /// from creating a scene.
  public var maxWaitedScenes = 1024
  /// Scenes one uid's mutations may create and hold (`SceneRequester`); root and navd's
  /// own uid are exempt and keep a reserve of `maxScenes` no one else can take.
  public var maxScenesPerUser = 64
  /// Names of scenes that do not exist yet which one uid's subscriptions may wait for;
  /// the same exemption and reserve of `maxWaitedScenes`.
  public var maxWaitedScenesPerUser = 64
  /// Bytes of updates queued for one subscriber before they are coalesced into one.
  public var subscriberQueueBytes = 1 << 20
  /// Bytes of view documents one scene keeps for its subscribers' widths (each weighed at
  /// its encoded size); past them the least recently read are evicted and built again
  /// from the state when next read (`LayoutCache`).
  public var layoutCacheBytes = 8 << 20
  /// A subscriber with updates pending that has not read any for this long is disconnected.
  public var subscriberStallSeconds = 60.0
  /// How much document work a `Subscribe` with `sinceVersion` may cost before
  /// navd sends a snapshot instead: versions to replay × bytes of the view's
  /// encoded document (PROTOCOL.md §6, "Resuming").
  public var resumeBudgetBytes = 8 << 20
  /// Subscribers per scene.
  public var maxSubscribersPerScene = 4096

  /// Every default.
  public init() {}
}
