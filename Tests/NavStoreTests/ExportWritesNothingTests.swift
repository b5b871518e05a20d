import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Export changes no file (Protocol/STORAGE.md §5)", .serialized)
struct ExportWritesNothingTests {
  /// Every entry of `directory`: its bytes and its size, mode and modification time.
  func contents(of directory: String) throws -> [String: [String]] {
    var entries: [String: [String]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      let path = directory + "/" + name
      var info = stat()
      lstat(path, &info)
      let bytes = FileManager.default.contents(atPath: path) ?? Data()
      entries[name] = [
        "\(info.st_size)", String(info.st_mode, radix: 8), "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)",
        bytes.base64EncodedString(),
      ]
    }
    return entries
  }

  /// A state directory as a kill -9 leaves it: the files of a store still open (`-wal` with
  /// transactions no checkpoint wrote, `-shm` that no connection holds) copied elsewhere.
  func crashedCopy(versions: UInt64) async throws -> (TemporaryDirectory, SceneState) {
    let live = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: live.database, durability: .full)
    var state = SceneState.empty
    for version in 1...versions {
      try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
    }
    let crashed = TemporaryDirectory()
    for suffix in ["", "-wal", "-shm"] {
      try FileManager.default.copyItem(atPath: live.database + suffix, toPath: crashed.database + suffix)
    }
    store.close()
    return (crashed, state)
  }

  @Test("after a crash: the WAL's transactions are exported, and no byte or time of any file changes")
  func afterACrash() async throws {
    let (crashed, state) = try await crashedCopy(versions: 5)
    var info = stat()
    lstat(crashed.database + "-wal", &info)
    #expect(info.st_size > SQLiteDatabase.walHeaderBytes, "the WAL holds transactions")
    let before = try contents(of: crashed.path)
    let exported = try SceneArchive.export(databaseAt: crashed.database)
    #expect(exported.archive.scenes == [SceneArchive.Scene(name: "main", epoch: "e1", version: 5, state: state)])
    #expect(try contents(of: crashed.path) == before)
    #expect(try SQLiteDatabase.openForReading(crashed.database).mode == .sharedIndexReadOnly)
  }

  @Test("a WAL without its index is read from a private copy, which is removed")
  func walWithoutIndex() async throws {
    let (crashed, state) = try await crashedCopy(versions: 3)
    unlink(crashed.database + "-shm")
    let before = try contents(of: crashed.path)
    let exported = try SceneArchive.export(databaseAt: crashed.database)
    #expect(exported.archive.scenes.map(\.version) == [3])
    #expect(exported.archive.scenes.first?.state == state)
    #expect(try contents(of: crashed.path) == before, "no -shm made next to the WAL")
    #expect(try SQLiteDatabase.openForReading(crashed.database).mode == .privateCopy)
  }

  @Test("a closed database: no -wal or -shm is made, and the file is read as immutable")
  func closedDatabase() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    store.close()
    let before = try contents(of: directory.path)
    #expect(before.keys.contains("navd.db") && !before.keys.contains("navd.db-wal"))
    #expect(try SceneArchive.export(databaseAt: directory.database).archive.scenes.map(\.version) == [1])
    #expect(try contents(of: directory.path) == before)
  }

  @Test("a WAL that is only its header is read as immutable; a WAL or file that changes after says so")
  func headerOnlyWAL() throws {
    let directory = TemporaryDirectory()
    try SceneArchive(scenes: [SceneArchive.Scene(name: "main", epoch: "e1", version: 2, state: .empty)])
      .importInto(databaseAt: directory.database)
    let header = [UInt8](repeating: 0, count: Int(SQLiteDatabase.walHeaderBytes))
    FileManager.default.createFile(atPath: directory.database + "-wal", contents: Data(header))
    let opened = try SQLiteDatabase.openForReading(directory.database)
    guard case .immutable = opened.mode else {
      Issue.record("opened as \(opened.mode)")
      return
    }
    #expect(!SQLiteDatabase.changedSince(opened.mode, path: directory.database))
    #expect(try SceneArchive.export(databaseAt: directory.database).archive.scenes.map(\.version) == [2])
    let wal = open(directory.database + "-wal", O_WRONLY | O_APPEND)
    _ = header.withUnsafeBytes { write(wal, $0.baseAddress, $0.count) }
    close(wal)
    #expect(SQLiteDatabase.changedSince(opened.mode, path: directory.database))
  }

  @Test("the URI escapes what SQLite would read as a query or an escape, and keeps // a path")
  func uri() {
    #expect(SQLiteDatabase.uri("/var/lib/navd/navd.db", "immutable=1") == "file:///var/lib/navd/navd.db?immutable=1")
    #expect(SQLiteDatabase.uri("/a?b#c%d/navd.db", "x=1") == "file:///a%3Fb%23c%25d/navd.db?x=1")
    #expect(SQLiteDatabase.uri("//host/navd.db", "x=1") == "file:////host/navd.db?x=1")
    #expect(SQLiteDatabase.uri("relative/navd.db", "x=1") == "file:relative/navd.db?x=1")
  }

  @Test("a path with ? and % in it opens (the URI's escapes are right)")
  func oddPath() throws {
    let directory = TemporaryDirectory()
    let odd = directory.path + "/a?b%41#c é"
    mkdir(odd, 0o700)
    let database = odd + "/navd.db"
    try SceneArchive(scenes: [SceneArchive.Scene(name: "main", epoch: "e1", version: 4, state: .empty)])
      .importInto(databaseAt: database)
    #expect(try SceneArchive.export(databaseAt: database).archive.scenes.map(\.version) == [4])
  }
}
