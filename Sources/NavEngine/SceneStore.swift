import NavModel

/// One committed mutation as persistence sees it.
public struct CommitRecord: Sendable {
  public var scene: String
  public var version: UInt64
  public var ops: [Op]
  public var client: String
  public var mutationId: String?
  /// The state after this version: stores may snapshot it instead of replaying ops.
  public var state: SceneState
}

/// Where committed mutations go before they are acknowledged.
///
/// The engine hands a store every mutation of one engine turn at once (group
/// commit) and acknowledges none of them until `commit` returns; a thrown
/// error rolls the whole group back and fails every writer in it.
/// Implementations must not block Swift's cooperative pool. `commit` runs on
/// the calling scene's executor (`nonisolated(nonsending)`): a store that
/// needs no IO (the volatile one) then costs no thread hop, and one that does
/// hands the work to its own thread and resumes the scene when it is durable.
public protocol SceneStore: Sendable {
  /// Every persisted scene with its state and version, for start-up.
  func load() async throws -> [String: (state: SceneState, version: UInt64)]
  nonisolated(nonsending) func commit(_ records: [CommitRecord]) async throws
}

/// A store that keeps nothing: navd's state lives as long as the process.
/// The durable SQLite store arrives with the persistence issue.
public struct VolatileSceneStore: SceneStore {
  public init() {}
  public func load() async throws -> [String: (state: SceneState, version: UInt64)] { [:] }
  nonisolated(nonsending) public func commit(_ records: [CommitRecord]) async throws {}
}
