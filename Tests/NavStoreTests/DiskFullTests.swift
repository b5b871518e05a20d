import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// A 1 MiB tmpfs: a real full disk (tests run as root; elsewhere the test is skipped, saying why).
final class SmallFileSystem {
  let directory = TemporaryDirectory()
  var path: String { directory.path }
  let size: String

  init(size: String = "1m") { self.size = size }

  static let available: Bool = {
    let probe = SmallFileSystem()
    guard probe.mount() else { return false }
    probe.unmount()
    return true
  }()

  func mount() -> Bool { run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) }
  func unmount() { _ = run("/bin/umount", [path]) }

  /// Writes a file until the file system refuses (ENOSPC); returns its path.
  func fill() throws -> String {
    let filler = path + "/filler"
    let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw StoreError(.io, "open \(filler)") }
    defer { close(fd) }
    for chunk in [65536, 4096, 512, 1] {
      let bytes = [UInt8](repeating: 0xaa, count: chunk)
      while bytes.withUnsafeBytes({ write(fd, $0.baseAddress, chunk) }) == chunk {}
    }
    return filler
  }

  private func run(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

@Suite("Faults: a full disk is an error to the writer, never a lost or half-applied group")
struct DiskFullTests {
  @Test(
    "disk full: commit throws .full naming the cause, stored state unchanged, commits succeed once space returns",
    .enabled(if: SmallFileSystem.available, "needs root to mount a 1 MiB tmpfs (mount -t tmpfs); skipped here"))
  func diskFullThenRecovery() async throws {
    let disk = SmallFileSystem()
    #expect(disk.mount())
    defer { disk.unmount() }
    let database = disk.path + "/" + SQLiteSceneStore.fileName
    let store = try SQLiteSceneStore(path: database)
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("before"), state: &state, mutationId: "m1")])
    let before = try store.load()

    let filler = try disk.fill()
    var attempt = state
    let big = (0..<40).map {
      Op.push(NavigationItem(id: "big\($0)", title: String(repeating: "b", count: 250)), animated: false)
    }
    let error = await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 2, ops: big, state: &attempt, mutationId: "m2", snapshot: true)])
    }
    #expect(error?.kind == .full)
    #expect(error?.message.contains("disk is full") == true)
    let during = try store.load()
    #expect(during.map(\.version) == before.map(\.version))
    #expect(during.first.map { $0.replayed().state } == before.first.map { $0.replayed().state })
    #expect(during.first?.mutationIds.map(\.mutationId) == ["m1"])
    // A group of one plain log row (no id, no snapshot) is one statement without BEGIN/COMMIT: the same.
    var plain = state
    let plainError = await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 2, ops: big, state: &plain)])
    }
    #expect(plainError?.kind == .full)
    #expect(try store.load().map(\.version) == before.map(\.version))

    try FileManager.default.removeItem(atPath: filler)
    var retry = state
    try await store.commit([try record(version: 2, ops: big, state: &retry, mutationId: "m2", snapshot: true)])
    let after = try #require(try store.load().first)
    #expect(after.version == 2)
    #expect(after.replayed().state == retry)
    #expect(after.mutationIds.map(\.mutationId) == ["m1", "m2"])
    store.close()
  }

  @Test(
    "disk full in the redo log (STORAGE.md §2): the refused record leaves no byte behind; the next one survives a kill -9",
    .enabled(if: SmallFileSystem.available, "needs root to mount a 1 MiB tmpfs (mount -t tmpfs); skipped here"))
  func redoWriteFull() async throws {
    let disk = SmallFileSystem()
    #expect(disk.mount())
    defer { disk.unmount() }
    var state = SceneState.empty
    let store = try await slowStore(at: disk.path + "/" + SQLiteSceneStore.fileName, state: &state)
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state, mutationId: "m2")])
    let log = disk.path + "/navd.redo.0000000000000002"
    let size = fileSize(log)
    #expect(size > 0)

    // The log's last page has room for the start of the record (a partial write) but not all of it.
    let filler = try disk.fill()
    var attempt = state
    let big = (0..<40).map {
      Op.push(NavigationItem(id: "big\($0)", title: String(repeating: "b", count: 250)), animated: false)
    }
    let error = await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 3, ops: big, state: &attempt, mutationId: "m3", snapshot: true)])
    }
    #expect(error?.kind == .full)
    #expect(error?.message.contains("disk is full") == true)
    #expect(fileSize(log) == size, "a partial record stayed in the log")

    try FileManager.default.removeItem(atPath: filler)
    try await store.commit([try record(version: 3, ops: big, state: &state, mutationId: "m3", snapshot: true)])
    let copy = TemporaryDirectory()
    try copyStateFiles(from: disk.path, to: copy.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")
    let reopened = try SQLiteSceneStore(path: copy.database, durability: .normal)
    defer { reopened.close() }
    #expect(reopened.droppedAtStart == nil)
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 3)
    #expect(stored.replayed().state.navigationBar.items.map(\.id) == state.navigationBar.items.map(\.id))
    #expect(stored.mutationIds.map(\.mutationId) == ["m1", "m2", "m3"])
    await closeOffPool(store)
  }

  @Test(
    "the smallest state directory (a 4 MiB tmpfs, STORAGE.md §4): 3,000 commits fit, navd's files stay in their budget, a full disk heals once space is freed",
    .enabled(if: SmallFileSystem.available, "needs root to mount a 4 MiB tmpfs (mount -t tmpfs); skipped here"),
    arguments: [Durability.normal, .full])
  func smallestStateDirectory(_ durability: Durability) async throws {
    let disk = SmallFileSystem(size: "4m")
    #expect(disk.mount())
    defer { disk.unmount() }
    let budget = DiskBudget.forFileSystem(of: disk.path)
    #expect(budget.bytes == 1 << 20)
    let database = disk.path + "/" + SQLiteSceneStore.fileName
    let store = try SQLiteSceneStore(path: database, durability: durability)
    var state = SceneState.empty
    var version: UInt64 = 0
    // Each version replaces the one item: the state stays small, the logs are what would grow.
    var largest = 0
    for index in 0..<3000 {
      version += 1
      // A root that stays, and above it one item replaced by each version.
      let ops: [Op] =
        version == 1
        ? pushOps("root")
        : (version == 2 ? [] : [.pop(expectTop: nil, animated: false)])
          + pushOps("item\(index)", bytes: 100)
      try await store.commit([
        try record(version: version, ops: ops, state: &state, mutationId: "m\(version)", snapshot: version % 256 == 1)
      ])
      if index % 100 == 0 { largest = max(largest, try workingBytes(in: disk.path)) }
    }
    #expect(largest <= budget.bytes + budget.bytes / 2, "navd's working files took \(largest) bytes")

    let filler = try disk.fill()
    var failed = false
    for _ in 0..<2000 where !failed {
      var attempt = state
      do {
        try await store.commit([
          try record(
            version: version + 1, ops: [.pop(expectTop: nil, animated: false)] + pushOps("x", bytes: 200),
            state: &attempt,
            mutationId: "full")
        ])
        version += 1
        state = attempt
      } catch {
        #expect((error as? StoreError)?.kind == .full, "\(error)")
        failed = true
      }
    }
    #expect(failed, "the filled disk never refused a commit")
    try FileManager.default.removeItem(atPath: filler)
    var healed = false
    // The applier retries a refused batch up to 1 s apart: within a few seconds it finds the room.
    for _ in 0..<300 where !healed {
      var attempt = state
      do {
        try await store.commit([
          try record(
            version: version + 1, ops: [.pop(expectTop: nil, animated: false)] + pushOps("after"), state: &attempt,
            mutationId: "after")
        ])
        version += 1
        state = attempt
        healed = true
      } catch {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    #expect(healed, "the disk had room again but commits kept failing")
    await closeOffPool(store)
    let reopened = try SQLiteSceneStore(path: database, durability: durability)
    defer { reopened.close() }
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == version)
    #expect(stored.replayed().state == state)
  }
}

/// The bytes of navd's working files in `directory`: the WAL, the redo log, the reserve.
func workingBytes(in directory: String) throws -> Int {
  try FileManager.default.contentsOfDirectory(atPath: directory)
    .filter { $0.hasSuffix("-wal") || $0.hasPrefix(RedoLogFiles.prefix) || $0 == DiskReserve.fileName }
    .reduce(0) { $0 + fileSize(directory + "/" + $1) }
}
