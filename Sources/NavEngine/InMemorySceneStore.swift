import NavModel
import Synchronization

/// A store that keeps every commit in memory and hands it back from `load`,
/// as a durable store would after a restart.
///
/// For tests: build a new `Engine(store:restoring: store.load())` to restart
/// without losing anything. Records are kept as the `SceneStore` seam
/// describes them (a snapshot drops the log rows at or below it;
/// `forgetMutationIdsThrough` drops remembered ids), so what a restart sees
/// is what a faithful durable store would give. It can be told to fail
/// commits; a failed commit keeps nothing of its group.
public final class InMemorySceneStore: SceneStore {
  private struct Contents {
    var scenes: [String: StoredScene] = [:]
    var failures: [StoreError] = []
    var commits = 0
  }

  private let contents = Mutex(Contents())

  /// An empty store.
  public init() {}

  /// Every scene stored so far, sorted by name.
  public func load() throws(StoreError) -> [StoredScene] {
    contents.withLock { $0.scenes.values.sorted { $0.name < $1.name } }
  }

  /// Stores the group at once, or fails with the next queued failure and stores nothing.
  public func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
    let failure: StoreError? = contents.withLock { contents in
      if !contents.failures.isEmpty { return contents.failures.removeFirst() }
      for record in records { Self.store(record, in: &contents.scenes) }
      contents.commits += 1
      return nil
    }
    return failure.map { .failure($0) } ?? .success(())
  }

  /// Makes the next commit fail with `error` (call n times for n failures).
  public func failNextCommit(with error: StoreError = StoreError(.io, "injected I/O error")) {
    contents.withLock { $0.failures.append(error) }
  }

  /// Groups stored so far.
  public var commitCount: Int { contents.withLock { $0.commits } }

  private static func store(_ record: CommitRecord, in scenes: inout [String: StoredScene]) {
    guard !record.isDeletion else {
      scenes[record.scene] = nil
      return
    }
    var scene =
      scenes[record.scene]
      ?? StoredScene(
        name: record.scene, epoch: record.epoch, snapshotVersion: 0, snapshot: .empty, log: [], mutationIds: [])
    scene.epoch = record.epoch
    scene.log.append(
      StoredLogEntry(version: record.version, client: record.client, mutationId: record.mutationId, ops: record.ops))
    if let snapshot = record.snapshot {
      scene.snapshot = snapshot
      scene.snapshotVersion = record.version
      scene.log.removeAll { $0.version <= record.version }
    }
    if let mutationId = record.mutationId {
      scene.mutationIds.append(
        StoredMutationId(
          client: record.client, mutationId: mutationId, opsDigest: record.opsDigest, outcome: record.outcome))
    }
    scene.mutationIds.removeAll { $0.outcome.version <= record.forgetMutationIdsThrough }
    scenes[record.scene] = scene
  }
}
