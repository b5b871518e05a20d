import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// A 1 MiB tmpfs: a real full disk (tests run as root; elsewhere the test is skipped, saying why).
final class SmallFileSystem {
  let directory = TemporaryDirectory()
  var path: String { directory.path }

  static let available: Bool = {
    let probe = SmallFileSystem()
    guard probe.mount() else { return false }
    probe.unmount()
    return true
  }()

  func mount() -> Bool { run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", path]) }
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
}
