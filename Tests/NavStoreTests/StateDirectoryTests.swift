import Foundation
import Testing

@testable import NavStore

@Suite("State directory: where it is, the checks on it, and the lock")
struct StateDirectoryTests {
  @Test("resolution order: --state-dir, $STATE_DIRECTORY, $XDG_STATE_HOME/navd, ./.navd")
  func resolution() {
    let all = ["STATE_DIRECTORY": "/var/lib/navd:/other", "XDG_STATE_HOME": "/home/u/.local/state"]
    #expect(StateDirectory.resolve(explicit: "/x", environment: all) == "/x")
    #expect(StateDirectory.resolve(explicit: nil, environment: all) == "/var/lib/navd")
    #expect(
      StateDirectory.resolve(explicit: nil, environment: ["XDG_STATE_HOME": "/home/u/.local/state"])
        == "/home/u/.local/state/navd")
    #expect(StateDirectory.resolve(explicit: nil, environment: ["XDG_STATE_HOME": "relative"]) == "./.navd")
    #expect(StateDirectory.resolve(explicit: nil, environment: [:]) == "./.navd")
  }

  @Test("a missing directory is created with mode 0700, parents too")
  func createsPrivate() throws {
    let root = TemporaryDirectory()
    let path = root.path + "/a/b/navd"
    try StateDirectory.prepare(path)
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    #expect(mode == 0o700)
  }

  @Test("a symlink is refused, naming the check")
  func symlinkRefused() throws {
    let root = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: root.path + "/real", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: root.path + "/link", withDestinationPath: root.path + "/real")
    let error = #expect(throws: StateDirectory.Refusal.self) { try StateDirectory.prepare(root.path + "/link") }
    #expect(error?.message.contains("is a symbolic link") == true)
  }

  @Test("a group- or world-writable directory is refused, naming the mode")
  func writableRefused() throws {
    let root = TemporaryDirectory()
    let path = root.path + "/open"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    chmod(path, 0o777)
    let error = #expect(throws: StateDirectory.Refusal.self) { try StateDirectory.prepare(path) }
    #expect(error?.message.contains("is writable by its group and others (mode 777)") == true)
  }

  @Test(
    "a directory owned by another uid is refused, naming both uids", .enabled(if: geteuid() == 0, "needs root to chown")
  )
  func otherOwnerRefused() throws {
    let root = TemporaryDirectory()
    let path = root.path + "/theirs"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    chown(path, 65534, 65534)
    let error = #expect(throws: StateDirectory.Refusal.self) { try StateDirectory.prepare(path) }
    #expect(error?.message.contains("is owned by uid 65534, not by navd's uid 0") == true)
  }

  @Test("a file where the directory should be is refused")
  func fileRefused() throws {
    let root = TemporaryDirectory()
    #expect(FileManager.default.createFile(atPath: root.path + "/file", contents: Data()))
    let error = #expect(throws: StateDirectory.Refusal.self) { try StateDirectory.prepare(root.path + "/file") }
    #expect(error?.message.contains("exists and is not a directory") == true)
  }

  @Test("the lock: a second holder is refused with the first one's pid; released when the holder goes")
  func lock() throws {
    let root = TemporaryDirectory()
    var first: StateLock? = try StateLock(directory: root.path)
    let error = #expect(throws: StateLock.Failure.self) { try StateLock(directory: root.path) }
    #expect(error?.description.contains("another navd (pid \(getpid())) is using this state directory") == true)
    _ = first
    first = nil
    #expect(throws: Never.self) { _ = try StateLock(directory: root.path) }
  }
}
