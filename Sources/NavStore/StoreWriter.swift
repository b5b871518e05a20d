import NavEngine
import NavModel

/// The write side of the store: one connection and its statements, prepared once.
///
/// Used by one thread at a time: the store thread (`ThreadedCommits`), the redo log's applier
/// (`RedoLogCommits`) or a replay at start-up (`RedoReplay`). `commit` writes rows in one
/// transaction: all of them are stored when it returns, or none of them when it throws.
// @unchecked Sendable: made on the opening thread and handed over before anyone else can use
// it; from then on only the one thread that owns it touches it.
final class StoreWriter: @unchecked Sendable {
  let database: SQLiteDatabase
  private let begin: SQLiteStatement
  private let end: SQLiteStatement
  private let selectEpoch: SQLiteStatement
  private let insertScene: SQLiteStatement
  private let resetScene: SQLiteStatement
  private let deleteScene: SQLiteStatement
  private let deleteLog: SQLiteStatement
  private let deleteIds: SQLiteStatement
  private let insertLog: SQLiteStatement
  private let rememberId: SQLiteStatement
  private let writeSnapshot: SQLiteStatement
  private let trimLog: SQLiteStatement
  private let forgetIds: SQLiteStatement
  private let recordRedoSequence: SQLiteStatement
  private let selectLogFrom: SQLiteStatement
  private var commitsSinceVacuum = 0
  /// The epoch stored for each scene as of the last successful commit, so a group of a scene
  /// already seen needs no SELECT. Only this writer changes `scenes` while navd runs.
  private var storedEpochs: [String: String] = [:]

  /// How many commits pass between two `PRAGMA incremental_vacuum` runs.
  static let vacuumInterval = 64
  static let emptySnapshot = JSONWriter.string(SceneState.empty.json)

  init(database: SQLiteDatabase) throws(StoreError) {
    self.database = database
    begin = try database.prepare("BEGIN IMMEDIATE")
    end = try database.prepare("COMMIT")
    selectEpoch = try database.prepare("SELECT epoch FROM scenes WHERE name = ?1")
    insertScene = try database.prepare(
      "INSERT INTO scenes (name, epoch, snapshot_version, snapshot) VALUES (?1, ?2, 0, ?3)")
    resetScene = try database.prepare(
      "UPDATE scenes SET epoch = ?2, snapshot_version = 0, snapshot = ?3 WHERE name = ?1")
    deleteScene = try database.prepare("DELETE FROM scenes WHERE name = ?1")
    deleteLog = try database.prepare("DELETE FROM log WHERE scene = ?1")
    deleteIds = try database.prepare("DELETE FROM mutation_ids WHERE scene = ?1")
    insertLog = try database.prepare(
      "INSERT INTO log (scene, version, client, mutation_id, digest, ops) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    rememberId = try database.prepare(
      "INSERT OR REPLACE INTO mutation_ids (scene, client, mutation_id, digest, outcome, version) "
        + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    writeSnapshot = try database.prepare("UPDATE scenes SET snapshot_version = ?2, snapshot = ?3 WHERE name = ?1")
    trimLog = try database.prepare("DELETE FROM log WHERE scene = ?1 AND version <= ?2")
    forgetIds = try database.prepare("DELETE FROM mutation_ids WHERE scene = ?1 AND version <= ?2")
    recordRedoSequence = try database.prepare("UPDATE redo_applied SET sequence = ?1")
    selectLogFrom = try database.prepare("SELECT 1 FROM log WHERE scene = ?1 AND version >= ?2 LIMIT 1")
  }

  /// Writes every row in one transaction (group commit); with `redoSequence`, records in the
  /// same transaction that the redo log is applied through that record.
  func commit(_ records: [StoreRow], redoSequence: UInt64? = nil) throws(StoreError) {
    guard !records.isEmpty else { return }
    var epochs = storedEpochs
    do throws(StoreError) {
      if records.count == 1, redoSequence == nil, let record = records.first, isOneRow(record, epochs: epochs) {
        // One statement is a transaction of its own (SQLite's autocommit): all of it or none of
        // it, without running BEGIN and COMMIT as statements of their own.
        try insertRow(record)
      } else {
        try begin.run()
        let superseded = try Self.supersededRows(records) { scene, version throws(StoreError) in
          try hasLog(scene: scene, from: version)
        }
        // A group is one scene's: once a record's scene and epoch are known stored, the next
        // record with the same ones needs no dictionary lookup (hashing the name per row).
        var checked: (scene: String, epoch: String)?
        for index in records.indices {
          let record = records[index]
          if record.isDeletion {
            try delete(scene: record.scene)
            epochs[record.scene] = nil
            checked = nil
            continue
          }
          if checked?.scene != record.scene || checked?.epoch != record.epoch {
            if epochs[record.scene] != record.epoch {
              try adopt(scene: record.scene, epoch: record.epoch)
              epochs[record.scene] = record.epoch
            }
            checked = (record.scene, record.epoch)
          }
          try write(record, superseded: superseded?[index] ?? [])
        }
        if let redoSequence { try recordRedoSequence.run(.integer(Int64(bitPattern: redoSequence))) }
        try end.run()
      }
    } catch {
      // A failed COMMIT (disk full) may leave the transaction open: end it so the next group starts clean.
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
    storedEpochs = epochs
    commitsSinceVacuum += 1
    if commitsSinceVacuum >= Self.vacuumInterval {
      commitsSinceVacuum = 0
      // Returns the pages freed by trimmed log rows to the file system; failure here loses nothing.
      try? database.execute("PRAGMA incremental_vacuum")
    }
  }

  /// Checkpoints the WAL into the database and truncates it to nothing (a disk short of space:
  /// `DiskBudget`); false when SQLite could not (a reader in the way, no room for the pages).
  @discardableResult
  func checkpointAndTruncate() -> Bool {
    (try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")) != nil
  }

  /// Forgets the epochs known stored (they were changed outside `commit`).
  func forgetStoredEpochs() { storedEpochs = [:] }

  /// Makes sure the scene's row exists with `epoch`; a new epoch means a new history, so the old one goes.
  private func adopt(scene: String, epoch: String) throws(StoreError) {
    try selectEpoch.bind(.text(scene))
    let stored: String? = try selectEpoch.step() ? selectEpoch.text(0) : nil
    selectEpoch.reset()
    switch stored {
    case nil:
      try insertScene.run(.text(scene), .text(epoch), .text(Self.emptySnapshot))
    case epoch?:
      break
    case _?:
      try deleteLog.run(.text(scene))
      try deleteIds.run(.text(scene))
      try resetScene.run(.text(scene), .text(epoch), .text(Self.emptySnapshot))
    }
  }

  /// Removes the scene and its whole history (a deletion record, `CommitRecord.deletion`).
  private func delete(scene: String) throws(StoreError) {
    try deleteLog.run(.text(scene))
    try deleteIds.run(.text(scene))
    try deleteScene.run(.text(scene))
  }

  /// Whether `record` is only its log row: a scene whose epoch is stored, no mutation id to
  /// remember or forget, no snapshot.
  private func isOneRow(_ record: StoreRow, epochs: [String: String]) -> Bool {
    record.mutationId == nil && record.snapshot == nil && record.forgetMutationIdsThrough == 0
      && !record.isDeletion && epochs[record.scene] == record.epoch
  }

  /// The record's log row (its version, who sent it, its ops in wire form).
  private func insertRow(_ record: StoreRow) throws(StoreError) {
    try insertLog.run(
      .text(record.scene), .integer(Int64(record.version)), .text(record.client), .optional(record.mutationId),
      .integer(Int64(bitPattern: record.opsDigest)), .utf8(record.encodedOps))
  }

  private func write(_ record: StoreRow, superseded: Superseded) throws(StoreError) {
    let scene = SQLiteValue.text(record.scene)
    let version = SQLiteValue.integer(Int64(record.version))
    let digest = SQLiteValue.integer(Int64(bitPattern: record.opsDigest))
    if !superseded.contains(.logRow) { try insertRow(record) }
    if let mutationId = record.mutationId {
      try rememberId.run(scene, .text(record.client), .text(mutationId), digest, .utf8(record.outcome ?? []), version)
    }
    if let snapshot = record.snapshot, !superseded.contains(.snapshot) {
      try writeSnapshot.run(scene, version, .utf8(snapshot))
      try trimLog.run(scene, version)
    }
    if record.forgetMutationIdsThrough > 0 {
      try forgetIds.run(scene, .integer(Int64(record.forgetMutationIdsThrough)))
    }
  }

  /// Whether the scene has a stored log row at `version` or above.
  private func hasLog(scene: String, from version: UInt64) throws(StoreError) -> Bool {
    try selectLogFrom.bind(.text(scene), .integer(Int64(version)))
    defer { selectLogFrom.reset() }
    return try selectLogFrom.step()
  }
}
