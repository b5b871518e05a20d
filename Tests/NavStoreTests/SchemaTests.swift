import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

@Suite("Schema: user_version, forward migrations, refusal of newer files")
struct SchemaTests {
  /// Fixtures/schema-1.sql, built into a database file the way schema 1's navd left it.
  static func schemaOneFixture(in directory: TemporaryDirectory) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/schema-1.sql")
    try runSQL(try String(contentsOf: script, encoding: .utf8), at: directory.database)
  }

  @Test("migration: a schema-1 database opens in the current schema with its scenes, and takes new commits")
  func migratesFromSchemaOne() async throws {
    let directory = TemporaryDirectory()
    try Self.schemaOneFixture(in: directory)
    let store = try SQLiteSceneStore(path: directory.database)
    let scenes = try store.load()
    #expect(scenes.map(\.name) == ["main", "side"])
    let main = scenes[0]
    #expect(main.epoch == "00000000000000e1")
    #expect(main.snapshotVersion == 1)
    #expect(main.log.map(\.version) == [2, 3])
    #expect(main.log.map(\.mutationId) == ["m-2", nil])
    #expect(main.mutationIds.isEmpty)
    let replayed = main.replayed()
    #expect(replayed.failure == nil)
    #expect(replayed.state.navigationBar.items.map(\.id) == ["inbox", "message"])
    #expect(replayed.state.navigationBar.items.last?.prompt == "Draft")

    var state = replayed.state
    try await store.commit([
      try record(epoch: "00000000000000e1", version: 4, ops: pushOps("next"), state: &state, mutationId: "m-4")
    ])
    store.close()
    let database = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == Int64(Schema.current))
    #expect(try database.integer("PRAGMA auto_vacuum") == 2)
    let reloaded = try #require(try SQLiteSceneStore(path: directory.database).load().first)
    #expect(reloaded.version == 4)
    #expect(reloaded.mutationIds.map(\.mutationId) == ["m-4"])
  }

  @Test("a database written by a newer navd is refused with a message that says so, and left untouched")
  func newerSchemaRefused() throws {
    let directory = TemporaryDirectory()
    try runSQL(
      "CREATE TABLE future (x); PRAGMA user_version = \(Schema.current + 1);", at: directory.database)
    let before = try Data(contentsOf: URL(fileURLWithPath: directory.database))
    let error = #expect(throws: StoreError.self) { try SQLiteSceneStore(path: directory.database) }
    #expect(error?.kind == .tooNew)
    #expect(error?.message.contains("newer navd") == true)
    #expect(error?.message.contains("schema version \(Schema.current + 1)") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory.database)) == before)
    let exportError = #expect(throws: StoreError.self) {
      try SceneArchive.export(databaseAt: directory.database)
    }
    #expect(exportError?.kind == .tooNew)
  }

  @Test("a new database is created in the current schema with auto_vacuum=INCREMENTAL and WAL")
  func freshDatabase() throws {
    let directory = TemporaryDirectory()
    SQLiteSceneStoreHolder.openAndClose(directory.database)
    let database = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == Int64(Schema.current))
    #expect(try database.integer("PRAGMA auto_vacuum") == 2)
    #expect(try database.texts("PRAGMA journal_mode") == ["wal"])
  }
}

enum SQLiteSceneStoreHolder {
  static func openAndClose(_ path: String) {
    (try? SQLiteSceneStore(path: path))?.close()
  }
}
