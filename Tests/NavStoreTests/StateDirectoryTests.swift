import Foundation
import Testing

@testable import NavStore

@Suite("State directory: where it is, the checks on it, and the lock")
struct StateDirectoryTests {
  @Test("resolution order: --state-dir, $STATE_DIRECTORY, $XDG_STATE_HOME/navd, $HOME/.local/state/navd")
  func resolution() throws {
    func resolve(_ explicit: String?, _ environment: [String: String], home: String? = nil) throws -> String {
      try StateDirectory.resolve(
        explicit: explicit, environment: environment, workingDirectory: "/work", accountHome: { home }
      ).path
    }
    let all = [
      "STATE_DIRECTORY": "/var/lib/navd:/other", "XDG_STATE_HOME": "/home/u/.local/state", "HOME": "/home/u",
    ]
    #expect(try resolve("/x", all) == "/x")
    #expect(try resolve(nil, all) == "/var/lib/navd")
    #expect(try resolve(nil, ["XDG_STATE_HOME": "/home/u/.local/state", "HOME": "/h"]) == "/home/u/.local/state/navd")
    #expect(try resolve(nil, ["HOME": "/home/u"]) == "/home/u/.local/state/navd")
    // XDG: relative XDG_STATE_HOME (and HOME) are invalid and ignored.
    #expect(try resolve(nil, ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/state/navd")
    #expect(try resolve(nil, ["HOME": "home"], home: "/home/db") == "/home/db/.local/state/navd")
    #expect(try resolve(nil, [:], home: "/root") == "/root/.local/state/navd")
  }

  @Test("the rule that chose the directory is kept, for messages")
  func origins() throws {
    func origin(_ explicit: String?, _ environment: [String: String]) throws -> StateDirectory.Origin {
      try StateDirectory.resolve(explicit: explicit, environment: environment, accountHome: { "/h" }).origin
    }
    #expect(try origin("/x", [:]) == .option)
    #expect(try origin(nil, ["STATE_DIRECTORY": "/s"]) == .systemd)
    #expect(try origin(nil, ["XDG_STATE_HOME": "/x"]) == .xdgStateHome)
    #expect(try origin(nil, ["HOME": "/home/u"]) == .home(fromDatabase: false))
    #expect(try origin(nil, [:]) == .home(fromDatabase: true))
  }

  @Test("a relative --state-dir is made absolute against the working directory, . components dropped")
  func relativeMadeAbsolute() throws {
    let location = try StateDirectory.resolve(
      explicit: "./state//dir/", environment: [:], workingDirectory: "/work/here", accountHome: { nil })
    #expect(location.path == "/work/here/state/dir")
    #expect(try StateDirectory.resolve(explicit: "/a/./b/", environment: [:]).path == "/a/b")
    let unreadable = #expect(throws: StateDirectory.Refusal.self) {
      try StateDirectory.resolve(explicit: "state", environment: [:], workingDirectory: nil)
    }
    #expect(unreadable?.message.contains("give an absolute path") == true)
  }

  @Test("no option, no environment and no home directory: a refusal that says to give --state-dir")
  func nothingToGoOn() {
    let error = #expect(throws: StateDirectory.Refusal.self) {
      try StateDirectory.resolve(explicit: nil, environment: [:], accountHome: { nil })
    }
    #expect(error?.message.contains("give --state-dir DIR") == true)
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
    #expect(error?.message.contains("is writable by its group and others (mode 777, owner ") == true)
    #expect(error?.message.contains("give navd another state directory: --state-dir DIR") == true)
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
