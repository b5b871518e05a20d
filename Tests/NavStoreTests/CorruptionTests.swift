import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

@Suite("Recovery: a damaged database refuses start-up; export reads what it can")
struct CorruptionTests {
  @Test("a file that is not a database: refused, and the message says how to recover (move it aside)")
  func garbageFileRefused() throws {
    let directory = TemporaryDirectory()
    try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: directory.database))
    let error = #expect(throws: StoreError.self) { try SQLiteSceneStore(path: directory.database) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("is damaged") == true)
    #expect(error?.message.contains("mv \(directory.database) \(directory.database).damaged") == true)
    #expect(error?.message.contains("navctl export --state-dir \(directory.path)") == true)
  }

  @Test("one scene's damaged page: start-up refused by quick_check; export reads every intact scene")
  func damagedSceneExportsTheRest() async throws {
    let directory = TemporaryDirectory()
    do {
      let store = try SQLiteSceneStore(path: directory.database)
      for name in ["alpha", "damaged", "omega"] {
        var state = SceneState.empty
        // "damaged" gets a snapshot spanning several overflow pages; the others stay small.
        let ops =
          name == "damaged"
          ? (0..<40).map {
            Op.push(NavigationItem(id: "d\($0)", title: "MARK" + String(repeating: "z", count: 200)), animated: false)
          }
          : pushOps(name)
        try await store.commit([try record(scene: name, version: 1, ops: ops, state: &state, snapshot: true)])
      }
      store.close()
    }
    #expect(!FileManager.default.fileExists(atPath: directory.database + "-wal"), "closing checkpoints the WAL")
    // Break the overflow chain of the damaged scene's snapshot: the "next page" pointer of its
    // first overflow page (alpha's and omega's rows have none). Found through dbstat, not by its
    // bytes: freed pages may still hold old copies of the same text (secure_delete is off).
    let overflow = try #require(
      try SQLiteDatabase(path: directory.database, readOnly: true).texts(
        "SELECT pageno FROM dbstat WHERE name = 'scenes' AND pagetype = 'overflow' ORDER BY path"
      ).first.flatMap { Int($0) },
      "an overflow page of the damaged scene's snapshot")
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.database)))
    let pageSize = 4096
    for offset in 0..<4 { bytes[(overflow - 1) * pageSize + offset] = 0xff }
    try Data(bytes).write(to: URL(fileURLWithPath: directory.database))

    let error = #expect(throws: StoreError.self) { try SQLiteSceneStore(path: directory.database) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("quick_check") == true)
    #expect(error?.message.contains("mv ") == true)

    let exported = try SceneArchive.export(databaseAt: directory.database)
    #expect(exported.archive.scenes.map(\.name) == ["alpha", "omega"])
    #expect(exported.archive.scenes.map { $0.state.navigationBar.items.map(\.id) } == [["alpha"], ["omega"]])
    #expect(exported.problems.count == 1)
    #expect(exported.problems.first?.contains("\"damaged\"") == true)
  }
}
