import NavEngine
import NavModel

extension SceneArchive {
  /// What `export` could read, and what it could not.
  public struct ExportResult: Sendable {
    /// Every scene that could be read.
    public var archive: SceneArchive
    /// One line per scene (or table) that could not be read; empty for a sound file.
    public var problems: [String]
    /// The scene `only` named when the file holds no such scene (nothing was exported).
    public var missing: String?
  }

  /// Reads the database at `path` without writing any file, whether or not navd runs, with
  /// what its redo log holds past it (`RedoReplay.readable`), keeping whatever can be read
  /// from a damaged file: a scene that cannot be read is left out and named in `problems`.
  /// `only` limits the export to one scene.
  ///
  /// A file read as immutable (there was no WAL to read) is read again when it or its WAL
  /// changed meanwhile: a navd that started or wrote during the export (`changedSince`).
  ///
  /// `progress` is told of each scene before it is read: its place (from 1), how many there
  /// are, and its name; a damaged file can take long to read, and a terminal shows how far it is.
  public static func export(
    databaseAt path: String, only: String? = nil,
    progress: (_ scene: Int, _ of: Int, _ name: String) -> Void = { _, _, _ in }
  ) throws(StoreError) -> ExportResult {
    var attempts = 0
    while true {
      attempts += 1
      let readable = try RedoReplay.readable(databaseAt: path)
      let result = try export(readable, path: path, only: only, progress: progress)
      guard attempts < 3, SQLiteDatabase.changedSince(readable.mode, path: path) else {
        return result
      }
    }
  }

  private static func export(
    _ readable: RedoReplay.Readable, path: String, only: String?, progress: (Int, Int, String) -> Void
  ) throws(StoreError) -> ExportResult {
    let reader = try SceneReader(database: readable.database)
    var problems: [String] = readable.problem.map { [$0] } ?? []
    var names: [String]
    if let only {
      let stored = (try? reader.sceneNames())?.contains(only)
      // `main` always exists; never written (or deleted) it is at version 0 with nothing to
      // export, and is left out as in a whole export (PROTOCOL.md §9.29).
      guard stored != false || only == Engine.mainScene else {
        return ExportResult(archive: SceneArchive(scenes: []), problems: problems, missing: only)
      }
      names = stored == false ? [] : [only]
    } else {
      let (listed, listing) = reader.sceneNamesLeniently()
      names = listed
      problems += listing
    }
    var scenes: [Scene] = []
    for (index, name) in names.enumerated() {
      progress(index + 1, names.count, name)
      do throws(StoreError) {
        let stored = try reader.scene(name, problems: &problems)
        let (state, version, failure) = stored.replayed()
        if let failure { problems.append("\(failure.message) (exported at version \(version))") }
        scenes.append(Scene(name: name, epoch: stored.epoch, version: version, state: state))
      } catch {
        problems.append("scene \"\(name)\" could not be read: \(error.message)")
      }
    }
    return ExportResult(archive: SceneArchive(scenes: scenes), problems: problems, missing: nil)
  }

  /// Writes every scene into the database at `path` (created, mode 0600, or migrated as navd would),
  /// replacing a stored scene of the same name; other scenes stay. One transaction: all or nothing
  /// (`ArchiveImport`).
  public func importInto(databaseAt path: String) throws(StoreError) {
    let transaction = try ArchiveImport(databaseAt: path)
    do throws(StoreError) {
      for scene in scenes { try transaction.write(scene) }
      try transaction.commit()
    } catch {
      transaction.rollBack()
      throw error
    }
  }
}

/// An import into the database of a stopped navd, scene by scene in one transaction, so that
/// an export read in pieces (`ExportReader`) is written without being held whole.
///
/// Each scene becomes a snapshot at its version under a new epoch, with an empty log and no
/// remembered mutation ids. The caller holds the state directory's lock (navd is not
/// running). What the redo log holds is written to the database first, as a start would.
public struct ArchiveImport {
  private let path: String
  private let database: SQLiteDatabase
  private let upsert: SQLiteStatement
  private let deleteLog: SQLiteStatement
  private let deleteIds: SQLiteStatement

  /// Opens (or creates, mode 0600) the database at `path` and begins the transaction.
  public init(databaseAt path: String) throws(StoreError) {
    // navd's own creation, not SQLite's: that would make the file with the umask's mode (0644).
    try DatabaseCreation.createIfMissing(at: path)
    self.path = path
    database = try SQLiteDatabase(path: path)
    try Schema.migrate(database)
    _ = try RedoReplay.replay(
      into: try StoreWriter(database: database), databasePath: path, files: RedoLogFiles(databasePath: path))
    upsert = try database.prepare(
      "INSERT INTO scenes (name, epoch, snapshot_version, snapshot) VALUES (?1, ?2, ?3, ?4) "
        + "ON CONFLICT (name) DO UPDATE SET epoch = ?2, snapshot_version = ?3, snapshot = ?4")
    deleteLog = try database.prepare("DELETE FROM log WHERE scene = ?1")
    deleteIds = try database.prepare("DELETE FROM mutation_ids WHERE scene = ?1")
    try database.execute("BEGIN IMMEDIATE")
  }

  /// Replaces the stored scene of `scene`'s name by it, in the transaction.
  public func write(_ scene: SceneArchive.Scene) throws(StoreError) {
    try deleteLog.run(.text(scene.name))
    try deleteIds.run(.text(scene.name))
    // A new epoch: what navd served after the export may be gone, so the same version
    // number may now stand for another state (STORAGE.md §4, "New epochs").
    try upsert.run(
      .text(scene.name), .text(SceneEngine.newEpoch()), .integer(Int64(scene.version)),
      .text(JSONWriter.string(scene.state.json)))
  }

  /// Commits every scene written, makes it durable and records a clean stop.
  public func commit() throws(StoreError) {
    try database.execute("COMMIT")
    // The scenes' epochs are new already: the next start need not renew them again.
    try RedoLogFiles.sync(path + "-wal")
    try RedoLogFiles.sync(path)
    try RunRecord(
      databaseInode: RunRecord.inode(of: path), bootId: RunRecord.currentBootId(), durability: .full, running: false
    ).write(in: StateDirectory.containing(path))
  }

  /// Drops every scene written: the database is as it was.
  public func rollBack() {
    if database.inTransaction { try? database.execute("ROLLBACK") }
  }
}

extension SceneReader {
  /// Scene names in order, as far as they can be read, and what stopped the reading.
  func sceneNamesLeniently() -> ([String], [String]) {
    var names: [String] = []
    do throws(StoreError) {
      let rows = try database.prepare("SELECT name FROM scenes ORDER BY rowid")
      while try rows.step() { names.append(rows.text(0) ?? "") }
    } catch {
      return (names, ["the list of scenes stops after \(names.count) of them: \(error.message)"])
    }
    return (names.sorted(), [])
  }
}
