/// The bytes a store's files take on disk (`GetStatistics`, PROTOCOL.md §3).
public struct StoreSizes: Sendable, Hashable {
  /// The redo log's files (`navd.redo.*`): commits not yet in the database.
  public var redoBytes: Int
  /// The database with its write-ahead log and index (`navd.db`, `-wal`, `-shm`).
  public var databaseBytes: Int

  /// Sizes.
  public init(redoBytes: Int, databaseBytes: Int) {
    self.redoBytes = redoBytes
    self.databaseBytes = databaseBytes
  }
}

extension SceneStore {
  /// No files: nothing.
  public var sizes: StoreSizes { StoreSizes(redoBytes: 0, databaseBytes: 0) }
}
