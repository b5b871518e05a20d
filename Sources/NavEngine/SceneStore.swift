import NavModel

/// One committed mutation as persistence sees it.
///
/// The store writes the op row, and the snapshot when one is due; it never
/// decides anything about versions: the engine hands it finished values.
public struct CommitRecord: Sendable {
  /// The scene the mutation committed to.
  public var scene: String
  /// The scene's history; the same for every record of a scene until it is recreated.
  public var epoch: String
  /// The version this mutation made.
  public var version: UInt64
  /// The client that wrote it.
  public var client: String
  /// The client's mutation id, if it gave one.
  public var mutationId: String?
  /// `SceneEngine.digest` of the ops: how a retry with the same id is recognised after a restart.
  public var opsDigest: UInt64
  /// The ops, as applied.
  public var ops: [Op]
  /// The ops' wire form (`Op.encoded`), as the log row stores it and the digest was taken
  /// over: the engine encodes them once per mutation.
  public var encodedOps: [UInt8]
  /// What the writer was told; a retry with the same mutation id is answered with it (CONFLICTS I1–I4).
  public var outcome: MutationOutcome
  /// The state after this version when the engine wants a snapshot written with
  /// this record. Once it is stored, every log row at or below `version` may be
  /// deleted: start-up replays only the rows after the newest snapshot.
  public var snapshot: SceneState?
  /// Remembered mutation ids of versions at or below this one may be forgotten
  /// (the engine's memory of ids is bounded in bytes).
  public var forgetMutationIdsThrough: UInt64

  /// A record of one committed version.
  public init(
    scene: String, epoch: String, version: UInt64, client: String, mutationId: String?, opsDigest: UInt64,
    ops: [Op], encodedOps: [UInt8]? = nil, outcome: MutationOutcome, snapshot: SceneState?,
    forgetMutationIdsThrough: UInt64
  ) {
    self.scene = scene
    self.epoch = epoch
    self.version = version
    self.client = client
    self.mutationId = mutationId
    self.opsDigest = opsDigest
    self.ops = ops
    self.encodedOps = encodedOps ?? Op.encoded(ops)
    self.outcome = outcome
    self.snapshot = snapshot
    self.forgetMutationIdsThrough = forgetMutationIdsThrough
  }
}

/// One version after a scene's snapshot, as stored.
public struct StoredLogEntry: Sendable {
  /// The version this entry made.
  public var version: UInt64
  /// The client that wrote it.
  public var client: String
  /// The client's mutation id, if it gave one.
  public var mutationId: String?
  /// The ops, as applied.
  public var ops: [Op]

  /// An entry.
  public init(version: UInt64, client: String, mutationId: String?, ops: [Op]) {
    self.version = version
    self.client = client
    self.mutationId = mutationId
    self.ops = ops
  }
}

/// A remembered (client, mutation id) and what its writer was told.
public struct StoredMutationId: Sendable {
  /// The client that sent the id.
  public var client: String
  /// The id the client chose.
  public var mutationId: String
  /// `SceneEngine.digest` of the ops it was sent with (a retry must send the same).
  public var opsDigest: UInt64
  /// What its writer was told.
  public var outcome: MutationOutcome

  /// A remembered id.
  public init(client: String, mutationId: String, opsDigest: UInt64, outcome: MutationOutcome) {
    self.client = client
    self.mutationId = mutationId
    self.opsDigest = opsDigest
    self.outcome = outcome
  }
}

/// Everything persisted about one scene: its newest snapshot, the log after it,
/// and the mutation ids still remembered. The scene's version is the last log
/// entry's, or the snapshot's when the log is empty.
public struct StoredScene: Sendable {
  /// The scene's name.
  public var name: String
  /// The scene's history (`SceneEngine.epoch`).
  public var epoch: String
  /// The version `snapshot` is the state after.
  public var snapshotVersion: UInt64
  /// The state at `snapshotVersion`.
  public var snapshot: SceneState
  /// Versions `snapshotVersion + 1 …`, in order, with no gap.
  public var log: [StoredLogEntry]
  /// The mutation ids still remembered.
  public var mutationIds: [StoredMutationId]

  /// A stored scene.
  public init(
    name: String, epoch: String, snapshotVersion: UInt64, snapshot: SceneState, log: [StoredLogEntry],
    mutationIds: [StoredMutationId]
  ) {
    self.name = name
    self.epoch = epoch
    self.snapshotVersion = snapshotVersion
    self.snapshot = snapshot
    self.log = log
    self.mutationIds = mutationIds
  }

  /// The newest committed version.
  public var version: UInt64 { log.last?.version ?? snapshotVersion }
}

/// Why a store could not do what was asked; the message says what and, where
/// it can, how to recover.
public struct StoreError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure it is: what the caller can do about it.
  public enum Kind: Sendable {
    /// The disk (or the file system's quota) is full; retrying after space returns works.
    case full
    /// Any other I/O or database failure on commit.
    case io
    /// The database is damaged or unreadable: navd refuses to start.
    case corrupt
    /// The database was written by a newer navd (its schema version is higher).
    case tooNew
  }

  /// What kind of failure.
  public var kind: Kind
  /// What failed and, where known, how to recover.
  public var message: String

  /// An error of `kind`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// Where committed mutations go before they are acknowledged.
///
/// The engine hands a store every mutation of one commit group at once and acknowledges
/// none of them until the store says the group is stored; a failure fails every writer in
/// the group and changes nothing (the engine installs a group only after it is stored).
/// `commit` is called on the scene's executor (navd's event loop) and must not block it: a
/// store that needs no waiting (the volatile one, navd's redo log) finishes at once and
/// returns the result; one that must wait (an fsync on its own thread) returns nil and
/// tells `waiter` later, from any thread, exactly once.
public protocol SceneStore: Sendable {
  /// Every persisted scene, for start-up (called once, before serving).
  func load() throws(StoreError) -> [StoredScene]
  /// Stores a group: its result when the store finished at once, else nil and the result
  /// goes to `waiter.stored(_:)` once the group is stored or failed.
  func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>?
  /// The bytes the store's files take now (`GetStatistics`); a store without files has none.
  var sizes: StoreSizes { get }
}

/// Who waits for a group a store finishes later than at once (`SceneStore.commit`):
/// the scene that handed it over.
public protocol StoreWaiter: AnyObject, Sendable {
  /// The group is stored (success) or nothing of it is (failure). Called once, from any thread.
  func stored(_ result: Result<Void, StoreError>)
}

extension SceneStore {
  /// Stores a group and returns once it is stored, or throws and stores nothing: for tools
  /// and tests, which have no scene to tell.
  public func commit(_ records: [CommitRecord]) async throws(StoreError) {
    let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, StoreError>, Never>) in
      if let result = commit(records, waiter: ContinuationWaiter(done)) { done.resume(returning: result) }
    }
    try result.get()
  }
}

/// `SceneStore.commit(_:)`'s waiter: resumes the caller.
private final class ContinuationWaiter: StoreWaiter {
  let continuation: CheckedContinuation<Result<Void, StoreError>, Never>
  init(_ continuation: CheckedContinuation<Result<Void, StoreError>, Never>) { self.continuation = continuation }
  func stored(_ result: Result<Void, StoreError>) { continuation.resume(returning: result) }
}

/// A store that keeps nothing: navd's state lives as long as the process.
public struct VolatileSceneStore: SceneStore {
  /// The store.
  public init() {}
  /// Nothing: a volatile navd starts empty.
  public func load() throws(StoreError) -> [StoredScene] { [] }
  /// Keeps nothing; never fails, at once.
  public func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? { .success(()) }
}
