import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Checks that the state directory's files agree with each other, made before navd changes any
/// of them (STORAGE.md §4, "Consistency checks"): a refusal leaves every file as it was, so the
/// recovery the message names starts from what navd found.
enum StartupChecks {
  /// Refuses a missing or empty `navd.db` beside the files of one (its WAL, the redo log, the
  /// record of a run on it: `RunRecord`), and files named like the redo log's that are not
  /// navd's. navd never leaves an empty `navd.db` (it builds a new database under another name
  /// and renames it); one alone, which no navd ran on, is only a creation an older navd cut
  /// short, and is started over.
  static func refuseOrphans(databasePath path: String, files: RedoLogFiles) throws(StoreError) {
    let strays = try files.strays()
    if !strays.isEmpty {
      throw StoreError(
        .corrupt,
        "\(strays.joined(separator: ", ")): not a file of navd's redo log (its files are named navd.redo. and "
          + "16 hex digits). navd will not start beside it: move it out of \(files.directory) and start navd again")
    }
    var status = stat()
    let exists = lstat(path, &status) == 0
    if exists, status.st_size > 0 { return }
    var survivors: [String] = []
    var wal = stat()
    if lstat(path + "-wal", &wal) == 0, wal.st_size > 0 { survivors.append(path + "-wal") }
    survivors += try files.list()
    if exists, access(files.directory + "/" + RunRecord.fileName, F_OK) == 0 {
      survivors.append(files.directory + "/" + RunRecord.fileName)
    }
    guard !survivors.isEmpty else { return }
    let aside = "mkdir \(files.directory)/aside && mv \(path)* \(files.directory)/navd.redo.* \(files.directory)/aside/"
    if exists {
      throw StoreError(
        .corrupt,
        "\(path) is empty (0 bytes), which navd never leaves (it builds a new database under \(path).new and "
          + "renames it), but it has been used: \(survivors.joined(separator: ", ")). "
          + "navd will not start on it. To recover: restore \(path) from a backup; or, to start with no scenes, "
          + "move the files aside ('\(aside)') and start navd again")
    }
    throw StoreError(
      .corrupt,
      "\(path) is missing, but \(survivors.joined(separator: ", ")) survive: they continue a database navd "
        + "cannot find, and applying them to a new one would serve part of a history. navd will not start. "
        + "To recover: restore \(path) from a backup (with the files beside it); or, to start with no scenes, "
        + "move them aside ('\(aside)') and start navd again")
  }

  /// Refuses a database whose snapshot versions disagree with its log: every log row at or
  /// below a scene's `snapshot_version` is deleted in the transaction that writes the snapshot,
  /// so one that is still there means the version (or the row) is not what navd wrote.
  static func checkVersions(_ database: SQLiteDatabase, schemaVersion: Int) throws(StoreError) {
    guard schemaVersion >= 1 else { return }
    let query = try database.prepare(
      "SELECT scenes.name, scenes.snapshot_version, log.version FROM log JOIN scenes ON scenes.name = log.scene "
        + "WHERE log.version <= scenes.snapshot_version LIMIT 1")
    guard try query.step() else { return }
    throw StoreError(
      .corrupt,
      "\(database.path) is damaged: scene \"\(query.text(0) ?? "")\" has its snapshot at version \(query.int64(1)) "
        + "but its log still holds version \(query.int64(2)), which that snapshot would have trimmed")
  }
}
