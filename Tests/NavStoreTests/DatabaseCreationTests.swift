import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// STORAGE.md "Creating the database": a new database is built under `navd.db.new`,
/// fsynced, and renamed into place; a crash leaves no database or a complete one.
@Suite("Creating the database: built aside, renamed into place")
struct DatabaseCreationTests {
  private func mode(_ path: String) -> mode_t {
    var status = stat()
    #expect(lstat(path, &status) == 0, "\(path) exists")
    return status.st_mode & 0o777
  }

  private func entries(_ directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  @Test("a first open creates a private database at the current schema in WAL mode, and nothing else stays")
  func createsCompleteDatabase() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database)
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state, snapshot: true)])
    store.close()
    #expect(try entries(directory) == [SQLiteSceneStore.fileName, DiskReserve.fileName, RunRecord.fileName])
    #expect(mode(directory.database) == 0o600)
    let database = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == Int64(Schema.current))
    #expect(try database.texts("PRAGMA journal_mode") == ["wal"])
    #expect(try database.integer("PRAGMA auto_vacuum") == 2)
  }

  @Test("the created file is already auto_vacuum=INCREMENTAL: the first open runs no VACUUM, so writes nothing")
  func createdFileNeedsNoVacuum() throws {
    let directory = TemporaryDirectory()
    try DatabaseCreation.createIfMissing(at: directory.database)
    let created = try SQLiteDatabase(path: directory.database, readOnly: true)
    #expect(try created.integer("PRAGMA auto_vacuum") == 2)
    // Opening the store writes nothing to a new file (no transaction: the WAL stays empty).
    let store = try SQLiteSceneStore(path: directory.database)
    #expect(fileSize(directory.database + "-wal") == 0)
    store.close()
  }

  @Test("a creation cut short (a leftover navd.db.new, an empty navd.db) is started over")
  func leftoversAreReplaced() throws {
    let directory = TemporaryDirectory()
    let staging = directory.database + ".new"
    #expect(FileManager.default.createFile(atPath: staging, contents: Data("half a database".utf8)))
    #expect(FileManager.default.createFile(atPath: directory.database, contents: Data()))
    let store = try SQLiteSceneStore(path: directory.database)
    #expect(try store.load().isEmpty)
    store.close()
    #expect(try entries(directory) == [SQLiteSceneStore.fileName, DiskReserve.fileName, RunRecord.fileName])
  }

  @Test("an existing database is opened as it is, never recreated")
  func existingDatabaseIsKept() async throws {
    let directory = TemporaryDirectory()
    var state = SceneState.empty
    let first = try SQLiteSceneStore(path: directory.database)
    try await first.commit([try record(version: 1, ops: pushOps("kept"), state: &state, snapshot: true)])
    first.close()
    let again = try SQLiteSceneStore(path: directory.database)
    #expect(try again.load().map(\.name) == ["main"])
    again.close()
  }
}
