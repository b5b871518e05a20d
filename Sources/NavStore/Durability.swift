/// How hard a commit works to reach the disk before its writers are acknowledged.
public enum Durability: String, Sendable, CaseIterable {
  /// `synchronous=FULL`: the WAL is fsynced at every commit. An acknowledged mutation
  /// survives a process crash, a kernel crash and a power loss.
  case full
  /// A commit is one record of the redo log (`RedoLogCommits`), no fsync; the database
  /// behind it runs `synchronous=NORMAL` in WAL mode (fsyncs only at checkpoints). An
  /// acknowledged mutation survives a crash of navd (the kernel holds the write), but the
  /// last commits before a power loss or kernel crash may be lost — never half of one:
  /// what is kept stays consistent.
  case normal

  var pragma: String {
    switch self {
    case .full: "PRAGMA synchronous = FULL"
    case .normal: "PRAGMA synchronous = NORMAL"
    }
  }
}
