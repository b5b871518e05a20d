import NavEngine
import NavModel

/// One committed version as the database stores it: the engine's `CommitRecord` with its
/// outcome and snapshot already in their stored JSON form.
///
/// It is what the redo log holds (`RedoRecord`) and what `StoreWriter` writes, so a group
/// reaches the database the same way whether it comes from the event loop, the redo log's
/// applier or a replay at start-up.
struct StoreRow: Sendable, Equatable {
  var scene: String
  var epoch: String
  var version: UInt64
  var client: String
  var mutationId: String?
  /// `SceneEngine.digest` of the ops, stored as SQLite's signed integer.
  var opsDigest: UInt64
  /// The ops' wire form, as the log row stores it.
  var encodedOps: [UInt8]
  /// `MutationOutcome.storedJSON`, written; present exactly when `mutationId` is.
  var outcome: [UInt8]?
  /// The scene's state after this version (`SceneState.json`), when a snapshot is due.
  var snapshot: [UInt8]?
  /// Remembered mutation ids at or below this version may be forgotten (0: none).
  var forgetMutationIdsThrough: UInt64

  init(
    scene: String, epoch: String, version: UInt64, client: String, mutationId: String?, opsDigest: UInt64,
    encodedOps: [UInt8], outcome: [UInt8]?, snapshot: [UInt8]?, forgetMutationIdsThrough: UInt64
  ) {
    self.scene = scene
    self.epoch = epoch
    self.version = version
    self.client = client
    self.mutationId = mutationId
    self.opsDigest = opsDigest
    self.encodedOps = encodedOps
    self.outcome = outcome
    self.snapshot = snapshot
    self.forgetMutationIdsThrough = forgetMutationIdsThrough
  }

  /// Whether this row deletes its scene (`CommitRecord.deletion`: the only empty epoch).
  var isDeletion: Bool { epoch.isEmpty }

  /// `record` in stored form.
  init(_ record: CommitRecord) {
    self.init(
      scene: record.scene, epoch: record.epoch, version: record.version, client: record.client,
      mutationId: record.mutationId, opsDigest: record.opsDigest, encodedOps: record.encodedOps,
      outcome: record.mutationId == nil ? nil : JSONWriter.bytes(record.outcome.storedJSON),
      snapshot: record.snapshot.map { JSONWriter.bytes($0.json) },
      forgetMutationIdsThrough: record.forgetMutationIdsThrough)
  }
}
