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
    // No navd of this kind ran on it (no record of a run): it may be a restored copy.
    #expect(main.epoch != "00000000000000e1")
    #expect(store.newEpochReasons.first?.contains("no record of navd's last run") == true)
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
      try record(epoch: main.epoch, version: 4, ops: pushOps("next"), state: &state, mutationId: "m-4")
    ])
    store.close()
    let database = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == Int64(Schema.current))
    #expect(try database.integer("PRAGMA auto_vacuum") == 2)
    let reloaded = try #require(try SQLiteSceneStore(path: directory.database).load().first)
    #expect(reloaded.version == 4)
    #expect(reloaded.mutationIds.map(\.mutationId) == ["m-4"])
  }

  @Test("migration: a schema-2 database keeps its log rows, digests and remembered ids; its log becomes WITHOUT ROWID")
  func migratesFromSchemaTwo() throws {
    let directory = TemporaryDirectory()
    let ops = #"[{"animated":false,"item":{"id":"inbox","title":"Inbox"},"op":"push"}]"#
    try runSQL(
      Schema.migrations[0] + Schema.migrations[1]
        + """
        PRAGMA user_version = 2;
        INSERT INTO scenes VALUES ('main', '00000000000000e2', 0, '{}');
        INSERT INTO log (scene, version, client, mutation_id, ops, digest)
          VALUES ('main', 1, 'mail', 'm-1', '\(ops)', -42);
        INSERT INTO mutation_ids VALUES ('main', 'mail', 'm-1', -42, '{"version":1}', 1);
        """, at: directory.database)
    SQLiteSceneStoreHolder.openAndClose(directory.database)
    let database = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == 4)
    #expect(try database.integer("SELECT sequence FROM redo_applied") == 0)
    #expect(
      try database.texts("SELECT client || ' ' || mutation_id || ' ' || digest || ' ' || ops FROM log") == [
        "mail m-1 -42 \(ops)"
      ])
    #expect(try database.texts("SELECT digest FROM mutation_ids WHERE mutation_id = 'm-1'") == ["-42"])
    #expect(
      try database.texts("SELECT sql FROM sqlite_schema WHERE name = 'log'").first?.hasSuffix("WITHOUT ROWID") == true)
  }

  /// What a database's layout is: tables (and whether WITHOUT ROWID), every column with its
  /// type, NOT NULL, default and key position, every index with its columns, and the pragmas
  /// navd sets when it creates a file. SQL text is left out: ALTER TABLE and RENAME rewrite it.
  static func layout(of path: String) throws -> [String] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    return try database.texts(
      """
      SELECT 'table ' || name || ' ' || type || ' without-rowid=' || wr || ' columns=' || ncol
        FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' ORDER BY name
      """)
      + database.texts(
        """
        SELECT 'column ' || m.name || '.' || c.cid || ' ' || c.name || ' ' || c.type || ' notnull=' || c."notnull"
          || ' default=' || ifnull(c.dflt_value, '-') || ' pk=' || c.pk
          FROM sqlite_schema AS m, pragma_table_xinfo(m.name) AS c WHERE m.type = 'table' ORDER BY m.name, c.cid
        """)
      + database.texts(
        """
        SELECT 'index ' || m.name || ' ' || l.name || ' unique=' || l."unique" || ' origin=' || l.origin
          || ' ' || i.seqno || ':' || ifnull(i.name, '-')
          FROM sqlite_schema AS m, pragma_index_list(m.name) AS l, pragma_index_info(l.name) AS i
          WHERE m.type = 'table' ORDER BY 1
        """)
      + ["user_version=\(try database.integer("PRAGMA user_version"))"]
  }

  @Test("a new database has the layout every migration from schema 0 leaves (Schema.newDatabase, STORAGE.md §3)")
  func newDatabaseMatchesTheMigrations() throws {
    let migrated = TemporaryDirectory()
    try runSQL(Schema.migrations.joined() + "PRAGMA user_version = \(Schema.current);", at: migrated.database)
    let created = TemporaryDirectory()
    SQLiteSceneStoreHolder.openAndClose(created.database)
    let expected = try Self.layout(of: migrated.database)
    #expect(expected.contains("table log table without-rowid=1 columns=6"), "the comparison sees the layout")
    #expect(expected.contains { $0.hasPrefix("index mutation_ids mutation_ids_by_version") })
    #expect(try Self.layout(of: created.database) == expected)
    let database = try SQLiteDatabase(path: created.database, readOnly: true)
    #expect(try database.integer("PRAGMA auto_vacuum") == 2)
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
