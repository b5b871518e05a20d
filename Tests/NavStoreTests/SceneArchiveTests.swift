import NavEngine
import NavModel
import Testing

@testable import NavStore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Export and import (Protocol/STORAGE.md, \"Export format\")")
struct SceneArchiveTests {
  @Test("export gives each scene's newest state, version and epoch; import into another file restores them")
  func roundTrip() async throws {
    let source = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: source.database)
    var main = SceneState.empty
    var side = SceneState.empty
    try await store.commit([
      try record(version: 1, ops: pushOps("a"), state: &main, snapshot: true),
      try record(version: 2, ops: pushOps("b"), state: &main),
      try record(scene: "side", epoch: "e7", version: 1, ops: pushOps("s"), state: &side),
    ])
    let exported = try SceneArchive.export(databaseAt: source.database)
    #expect(exported.problems.isEmpty)
    #expect(
      exported.archive.scenes == [
        SceneArchive.Scene(name: "main", epoch: "e1", version: 2, state: main),
        SceneArchive.Scene(name: "side", epoch: "e7", version: 1, state: side),
      ])
    #expect(try SceneArchive.export(databaseAt: source.database, only: "side").archive.scenes.map(\.name) == ["side"])

    let text = JSONWriter.string(exported.archive.json)
    let parsed = try SceneArchive(json: try JSONParser.parse(text))
    #expect(parsed == exported.archive)

    let target = TemporaryDirectory()
    var other = SceneState.empty
    let targetStore = try SQLiteSceneStore(path: target.database)
    try await targetStore.commit([
      try record(version: 9, ops: pushOps("old"), state: &other, mutationId: "gone"),
      try record(scene: "kept", version: 1, ops: pushOps("k"), state: &other),
    ])
    targetStore.close()
    try parsed.importInto(databaseAt: target.database)
    let loaded = try SQLiteSceneStore(path: target.database).load()
    #expect(loaded.map(\.name) == ["kept", "main", "side"])
    let imported = loaded[1]
    #expect(imported.epoch != "e1", "an import starts a new epoch (STORAGE.md §4)")
    #expect(imported.snapshotVersion == 2)
    #expect(imported.log.isEmpty)
    #expect(imported.mutationIds.isEmpty)
    #expect(imported.snapshot == main)
  }

  @Test("import into a new state directory creates navd.db mode 0600 whatever the umask (STORAGE.md §1)")
  func importCreatesPrivateDatabase() throws {
    let target = TemporaryDirectory()
    let archive = SceneArchive(scenes: [SceneArchive.Scene(name: "main", epoch: "e1", version: 1, state: .empty)])
    let old = umask(0o022)
    defer { umask(old) }
    try archive.importInto(databaseAt: target.database)
    for name in ["navd.db", "navd.db-wal", "navd.db-shm"] {
      var info = stat()
      guard lstat(target.path + "/" + name, &info) == 0 else { continue }
      #expect(info.st_mode & 0o777 == 0o600, "\(name) is mode \(String(info.st_mode & 0o777, radix: 8))")
    }
    #expect(try SQLiteSceneStore(path: target.database).load().map(\.name) == ["main"])
  }

  @Test("a bad document is refused naming the field, and changes nothing")
  func badDocuments() throws {
    let cases: [(JSONValue, String)] = [
      (["format": "other"], "not a navd export"),
      (["format": "navd-export", "formatVersion": 2, "scenes": []], "formatVersion 2"),
      (
        ["format": "navd-export", "formatVersion": 1, "scenes": [["epoch": "e", "version": 1, "state": [:]]]],
        "scenes[0].name"
      ),
      (
        [
          "format": "navd-export", "formatVersion": 1,
          "scenes": [["name": "m", "epoch": "e", "version": -1, "state": [:]]],
        ],
        "scenes[0].version"
      ),
      (
        [
          "format": "navd-export", "formatVersion": 1,
          "scenes": [["name": "m", "epoch": "e", "version": 1, "state": 3]],
        ],
        "scenes[0].state"
      ),
    ]
    for (json, expected) in cases {
      let error = #expect(throws: StoreError.self) { try SceneArchive(json: json) }
      #expect(error?.message.contains(expected) == true, "\(error?.message ?? "") should name \(expected)")
    }
  }

  @Test("R66 R67 an import's state is held to every rule a mutation is: the error names the scene, field and rule")
  func importBreakingARule() throws {
    let title = String(repeating: "a", count: 5000)
    let json: JSONValue = [
      "format": "navd-export", "formatVersion": 1,
      "scenes": [
        ["name": "main", "epoch": "e", "version": 1, "state": SceneState.empty.json],
        [
          "name": "mail", "epoch": "e", "version": 2,
          "state": SceneState(navigationBar: NavigationBarState(items: [NavigationItem(id: "inbox", title: title)]))
            .json,
        ],
      ],
    ]
    let error = #expect(throws: StoreError.self) { try SceneArchive(json: json) }
    #expect(
      error?.message
        == "scene \"mail\": scenes[1].state.navigationBar.items[0].title is 5000 bytes of UTF-8; the limit is 256 "
        + "(SEMANTICS R66)")
  }

  @Test("R3 a stored snapshot that breaks a rule stops start-up naming the scene, field and rule; export keeps it")
  func storedSnapshotBreakingARule() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database)
    let twice = SceneState(
      navigationBar: NavigationBarState(items: [NavigationItem(id: "a"), NavigationItem(id: "a")]))
    try await store.commit([
      CommitRecord(
        scene: "twice", epoch: "e1", version: 1, client: "c", mutationId: nil, opsDigest: 1, ops: pushOps("a"),
        outcome: try MutationOutcome(storedJSON: ["version": 1, "baseVersionExpired": false, "overwritten": []]),
        snapshot: twice, forgetMutationIdsThrough: 0)
    ])
    store.close()
    let error = #expect(throws: StoreError.self) { try SQLiteSceneStore(path: directory.database).load() }
    #expect(error?.kind == .corrupt)
    let message = error?.message ?? ""
    for part in [
      "the stored snapshot of scene \"twice\" (version 1) breaks a rule",
      "navigationBar.items[1].id: navigation item \"a\" is on the stack twice (SEMANTICS R3)",
      "correct navigationBar.items[1].id of scene \"twice\" in navd-backup.json", "navctl import --state-dir",
    ] {
      #expect(message.contains(part), "\(message) should say \(part)")
    }
    let exported = try SceneArchive.export(databaseAt: directory.database)
    #expect(exported.archive.scenes.map(\.state) == [twice])
  }
}
