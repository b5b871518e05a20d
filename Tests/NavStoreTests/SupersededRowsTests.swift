import Foundation
import NavEngine
import NavModel
import NavTestSupport
import Testing

@testable import NavStore

/// A store row for `StoreWriter.supersededRows`: its scene, epoch, version and whether it carries a snapshot.
private func row(_ scene: String, _ version: UInt64, snapshot: Bool = false, epoch: String = "e1") -> StoreRow {
  StoreRow(
    scene: scene, epoch: epoch, version: version, client: "c", mutationId: nil, opsDigest: version,
    encodedOps: Array("[]".utf8), outcome: nil, snapshot: snapshot ? Array("{}".utf8) : nil,
    forgetMutationIdsThrough: 0)
}

@Suite("A transaction leaves out the rows its own snapshot trims (STORAGE.md §3)")
struct SupersededRowsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var rows: [StoreRow]
    /// Scenes whose log already holds a row at or above the scene's first version here.
    var logged: Set<String> = []
    /// What each row may leave out; nil: nothing at all.
    var expected: [Superseded]?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "no snapshot: everything is written", rows: [row("a", 1), row("a", 2)], expected: nil),
    Case(
      name: "rows at or below the snapshot go, the snapshot stays, later rows stay",
      rows: [row("a", 1), row("a", 2), row("a", 3, snapshot: true), row("a", 4)],
      expected: [.logRow, .logRow, .logRow, []]),
    Case(
      name: "an earlier snapshot is replaced by the later one",
      rows: [row("a", 1, snapshot: true), row("a", 2), row("a", 3, snapshot: true), row("a", 4)],
      expected: [[.logRow, .snapshot], .logRow, .logRow, []]),
    Case(
      name: "a snapshot on the last row leaves out every log row",
      rows: [row("a", 7), row("a", 8, snapshot: true)], expected: [.logRow, .logRow]),
    Case(
      name: "scenes are judged apart: one without a snapshot keeps its rows",
      rows: [row("a", 1), row("b", 5), row("a", 2, snapshot: true), row("b", 6), row("a", 3)],
      expected: [.logRow, [], .logRow, [], []]),
    Case(
      name: "a scene whose epoch changes keeps every row (its new epoch's start deletes the old log)",
      rows: [row("a", 1, epoch: "old"), row("a", 1, snapshot: true, epoch: "new"), row("a", 2, epoch: "new")],
      expected: nil),
    Case(
      name: "a version given twice keeps every row of its scene, so the log's key refuses it",
      rows: [row("a", 1), row("a", 1), row("a", 2, snapshot: true), row("b", 3, snapshot: true)],
      expected: [[], [], [], .logRow]),
    Case(
      name: "a scene whose stored log reaches its first version here keeps every row",
      rows: [row("a", 3), row("a", 4, snapshot: true)], logged: ["a"], expected: nil),
  ]

  @Test("what each record may leave out", arguments: cases)
  func table(_ test: Case) throws {
    var asked: [String] = []
    let result = try StoreWriter.supersededRows(test.rows) { scene, _ in
      asked.append(scene)
      return test.logged.contains(scene)
    }
    #expect(result == test.expected)
    // The database is asked only about scenes with a snapshot and their rows in order.
    #expect(asked.allSatisfy { scene in test.rows.contains { $0.scene == scene && $0.snapshot != nil } })
  }

  @Test("the database asked: from the scene's first version in the transaction")
  func asksFromTheFirstVersion() throws {
    var asked: [(String, UInt64)] = []
    _ = try StoreWriter.supersededRows([row("a", 10), row("a", 11), row("a", 12, snapshot: true)]) { scene, from in
      asked.append((scene, from))
      return false
    }
    #expect(asked.map(\.0) == ["a"])
    #expect(asked.map(\.1) == [10])
  }

  /// Everything the database holds of its scenes, as text to compare.
  private func contents(_ path: String) throws -> [String] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    return try database.texts(
      "SELECT name || ' ' || epoch || ' ' || snapshot_version || ' ' || snapshot FROM scenes ORDER BY name")
      + database.texts(
        "SELECT scene || ' ' || version || ' ' || client || ' ' || ifnull(mutation_id, '-') || ' ' || digest || ' ' || ops FROM log ORDER BY scene, version"
      )
      + database.texts(
        "SELECT scene || ' ' || client || ' ' || mutation_id || ' ' || digest || ' ' || outcome || ' ' || version FROM mutation_ids ORDER BY scene, client, mutation_id"
      )
  }

  @Test(
    "one transaction of many records stores what one transaction per record stores (seeded)",
    arguments: [1, 2, 3, 4, 5])
  func sameAsOneByOne(seed: UInt64) async throws {
    var random = SplitMix64(seed: seed)
    var states = ["main": SceneState.empty, "side": SceneState.empty]
    var versions = ["main": UInt64(0), "side": UInt64(0)]
    var records: [CommitRecord] = []
    for index in 0..<(40 + random.below(40)) {
      let scene = random.below(3) == 0 ? "side" : "main"
      let version = versions[scene]! + 1
      versions[scene] = version
      let mutationId: String? = random.below(2) == 0 ? "m\(index)" : nil
      let forget = mutationId != nil && random.below(5) == 0 ? version / 2 : 0
      records.append(
        try record(
          scene: scene, version: version, ops: pushOps("i\(index)"), state: &states[scene]!, mutationId: mutationId,
          snapshot: random.below(6) == 0, forgetThrough: forget))
    }
    let together = TemporaryDirectory()
    let oneByOne = TemporaryDirectory()
    do {
      let store = try SQLiteSceneStore(path: together.database, durability: .full)
      // A first record, so the transaction's scenes already have stored rows below it.
      try await store.commit([records[0]])
      try await store.commit(Array(records.dropFirst()))
      store.close()
    }
    do {
      let store = try SQLiteSceneStore(path: oneByOne.database, durability: .full)
      for record in records { try await store.commit([record]) }
      store.close()
    }
    #expect(try contents(together.database) == contents(oneByOne.database))
    let scenes = try SQLiteSceneStore(path: together.database, durability: .full).load()
    for scene in scenes { #expect(state(of: scene) == states[scene.name]) }
  }

  @Test("a version stored twice is refused even when the transaction carries a snapshot, and changes nothing")
  func versionReuseRefusedWithSnapshot() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    var state = SceneState.empty
    for version in UInt64(1)...3 {
      try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
    }
    let before = try contents(directory.database)
    var again = state
    await #expect(throws: StoreError.self) {
      try await store.commit([
        try record(version: 3, ops: pushOps("again"), state: &again),
        try record(version: 4, ops: pushOps("next"), state: &again, snapshot: true),
      ])
    }
    #expect(try contents(directory.database) == before)
  }
}
