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
  ///
  /// The mutation ids are a side table: a damaged one costs only itself (or, when the table
  /// cannot be read on, the scene's ids from there on), never the scene. Each loss is added to
  /// `problems`; a retry of a lost id is applied again.
  func scene(_ name: String, problems: inout [String]) throws(StoreError) -> StoredScene {
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

    let ids = schemaVersion >= 2 ? mutationIds(of: name, problems: &problems) : []
    return StoredScene(
      name: name, epoch: epoch, snapshotVersion: snapshotVersion, snapshot: snapshot, log: log, mutationIds: ids)
  }

  /// The scene's remembered mutation ids that can be read; what cannot is named in `problems`.
  private func mutationIds(of name: String, problems: inout [String]) -> [StoredMutationId] {
    var ids: [StoredMutationId] = []
    do throws(StoreError) {
      let rows = try database.prepare(
        "SELECT client, mutation_id, digest, outcome, version FROM mutation_ids WHERE scene = ?1 ORDER BY version")
      try rows.bind(.text(name))
      while try rows.step() {
        let (client, mutationId) = (rows.text(0) ?? "", rows.text(1) ?? "")
        do throws(StoreError) {
          let outcome = try Self.parse(rows.text(3) ?? "", what: "its outcome", path: database.path)
          ids.append(
            StoredMutationId(
              client: client, mutationId: mutationId, opsDigest: UInt64(bitPattern: rows.int64(2)),
              outcome: try MutationOutcome(storedJSON: outcome)))
        } catch {
          problems.append(
            "scene \"\(name)\": the remembered mutation id \"\(mutationId)\" of client \"\(client)\" "
              + "(version \(rows.int64(4))) is damaged and was left out (a retry of it is applied again): \(error.message)"
          )
        }
      }
    } catch {
      problems.append(
        "scene \"\(name)\": its remembered mutation ids after the first \(ids.count) could not be read and were left "
          + "out (a retry of one is applied again): \(error.message)")
    }
    return ids
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
