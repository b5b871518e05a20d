import NavModel

/// A scene's deletion as the store sees it (`DeleteScene`, PROTOCOL.md §3): one record that
/// removes the scene's row, its log and its remembered mutation ids. It is the only record
/// with an empty epoch (an epoch is always 16 hex digits), so it travels through every store
/// — the redo log, the store thread, a replay — as any other record and in the same order.
extension CommitRecord {
  /// The record that deletes `scene` and its whole history.
  public static func deletion(of scene: String) -> CommitRecord {
    CommitRecord(
      scene: scene, epoch: "", version: 0, client: "", mutationId: nil, opsDigest: 0, ops: [], encodedOps: [],
      outcome: MutationOutcome(version: 0, overwritten: [], baseVersionExpired: false, replayed: false),
      snapshot: nil, forgetMutationIdsThrough: 0)
  }

  /// Whether this record deletes its scene (`deletion(of:)`) instead of committing a version.
  public var isDeletion: Bool { epoch.isEmpty }
}
