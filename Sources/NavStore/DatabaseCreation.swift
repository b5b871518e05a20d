import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// A new database is built whole under a temporary name and renamed into place.
///
/// SQLite creating a WAL database in place makes eight fsyncs (the rollback journal of
/// the WAL switch, the database, the new WAL, the directory; 0.4-8 ms each on this
/// project's machines, most of a first start); built with `synchronous=OFF` under `navd.db.new`, then
/// fsynced once, renamed, and the directory fsynced, it costs two. A power loss at any
/// point leaves either no `navd.db` or a complete one at the current schema — never a
/// half-made file that the next start would refuse as damaged.
enum DatabaseCreation {
  /// Makes `path` a complete, empty database at the current schema unless it holds one
  /// already (a missing or empty file counts as none; SQLite sees an empty file as an
  /// empty database). Returns whether it made one.
  @discardableResult
  static func createIfMissing(at path: String) throws(StoreError) -> Bool {
    var status = stat()
    if lstat(path, &status) == 0, status.st_size > 0 { return false }
    let staging = path + ".new"
    for leftover in [staging, staging + "-wal", staging + "-shm", staging + "-journal"] { unlink(leftover) }
    // Created private (0600; SQLite gives its -wal and -shm files the same mode), whatever the umask.
    let fd = open(staging, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError.systemCall("create", staging) }
    close(fd)
    do {
      let database = try SQLiteDatabase(path: staging)
      try database.execute("PRAGMA synchronous = OFF")
      // Before the WAL switch, which writes the file's first page: after that SQLite ignores a
      // new vacuum mode, and the first open ran a VACUUM — a write transaction whose WAL header
      // and directory fsyncs were two of a first start's four.
      try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
      let mode = try database.texts("PRAGMA journal_mode = WAL").first
      guard mode == "wal" else {
        throw StoreError(.io, "\(staging): cannot use WAL mode (journal_mode is \(mode ?? "?"))")
      }
      try Schema.migrate(database)
      // Everything into the main file, so the rename carries all of it.
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try sync(staging, flags: O_RDONLY)
    guard rename(staging, path) == 0 else { throw StoreError.systemCall("rename to \(path)", staging) }
    unlink(staging + "-wal")
    unlink(staging + "-shm")
    // The directory's entry is what the rename changed.
    try sync(StateDirectory.containing(path), flags: O_RDONLY | O_DIRECTORY)
    return true
  }

  private static func sync(_ path: String, flags: Int32) throws(StoreError) {
    let fd = open(path, flags | O_CLOEXEC)
    guard fd >= 0 else { throw StoreError.systemCall("open", path) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw StoreError.systemCall("fsync", path) }
  }
}
