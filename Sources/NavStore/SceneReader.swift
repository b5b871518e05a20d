import NavEngine
import NavModel

/// Reads stored scenes: for start-up (every scene, strictly) and for `navctl export`
/// (scene by scene, keeping whatever can be read from a damaged file).
struct SceneReader {
  let database: SQLiteDatabase
  /// The schema version of the file (1 has no remembered mutation ids).
  let schemaVersion: Int

  init(database: SQLiteDatabase) throws(StoreError) {
    self.database = database
    schemaVersion = Int(try database.integer("PRAGMA user_version"))
    try Schema.refuseNewer(schemaVersion, path: database.path)
  }

  /// Every scene's name, sorted.
  func sceneNames() throws(StoreError) -> [String] {
    try database.texts("SELECT name FROM scenes ORDER BY name")
  }

  /// One scene: its snapshot, the log rows after it (checked to be gap-free) and its mutation ids.
  func scene(_ name: String) throws(StoreError) -> StoredScene {
    let row = try database.prepare("SELECT epoch, snapshot_version, snapshot FROM scenes WHERE name = ?1")
    try row.bind(.text(name))
    guard try row.step() else { throw StoreError(.corrupt, "\(database.path): scene \"\(name)\" has no row") }
    let epoch = row.text(0) ?? ""
    let snapshotVersion = UInt64(max(0, row.int64(1)))
    let snapshot = try Self.state(row.text(2) ?? "", scene: name, path: database.path)
    row.reset()

    var log: [StoredLogEntry] = []
    let rows = try database.prepare(
      "SELECT version, client, mutation_id, ops FROM log WHERE scene = ?1 AND version > ?2 ORDER BY version")
    try rows.bind(.text(name), .integer(Int64(snapshotVersion)))
    while try rows.step() {
      let version = UInt64(max(0, rows.int64(0)))
      let expected = (log.last?.version ?? snapshotVersion) + 1
      guard version == expected else {
        throw StoreError(
          .corrupt, "\(database.path): scene \"\(name)\" lacks version \(expected) (its log jumps to \(version))")
      }
      let ops = try Self.ops(rows.text(3) ?? "", scene: name, version: version, path: database.path)
      log.append(StoredLogEntry(version: version, client: rows.text(1) ?? "", mutationId: rows.text(2), ops: ops))
    }

    var ids: [StoredMutationId] = []
    if schemaVersion >= 2 {
      let rows = try database.prepare(
        "SELECT client, mutation_id, digest, outcome FROM mutation_ids WHERE scene = ?1 ORDER BY version")
      try rows.bind(.text(name))
      while try rows.step() {
        let outcome = try Self.parse(rows.text(3) ?? "", what: "an outcome of scene \"\(name)\"", path: database.path)
        ids.append(
          StoredMutationId(
            client: rows.text(0) ?? "", mutationId: rows.text(1) ?? "", opsDigest: UInt64(bitPattern: rows.int64(2)),
            outcome: try MutationOutcome(storedJSON: outcome)))
      }
    }
    return StoredScene(
      name: name, epoch: epoch, snapshotVersion: snapshotVersion, snapshot: snapshot, log: log, mutationIds: ids)
  }

  static func state(_ text: String, scene: String, path: String) throws(StoreError) -> SceneState {
    let json = try parse(text, what: "the snapshot of scene \"\(scene)\"", path: path)
    do {
      return try SceneState(json: json)
    } catch {
      throw StoreError(.corrupt, "\(path): the snapshot of scene \"\(scene)\" is not a scene state: \(error.message)")
    }
  }

  static func ops(_ text: String, scene: String, version: UInt64, path: String) throws(StoreError) -> [Op] {
    let json = try parse(text, what: "the ops of scene \"\(scene)\" version \(version)", path: path)
    do {
      return try Op.list(json: json)
    } catch {
      throw StoreError(.corrupt, "\(path): the ops of scene \"\(scene)\" version \(version): \(error.message)")
    }
  }

  static func parse(_ text: String, what: String, path: String) throws(StoreError) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw StoreError(.corrupt, "\(path): \(what) is not JSON: \(error)")
    }
  }
}
