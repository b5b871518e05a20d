import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Why a navd could not be started or found.
struct NavdLaunchError: Error, CustomStringConvertible {
  var description: String
}

/// A real `navd` process on a private socket in a fresh temporary directory.
///
/// The directory is navd's working directory, `XDG_RUNTIME_DIR` and `XDG_STATE_HOME`, so
/// nothing leaks into the repository or the user's state; navd's stderr goes to `stderr.log` there (shown when it fails to start). Stopped
/// by pid: SIGTERM, then SIGKILL after a bounded wait. Use `withNavd` so it is stopped and the
/// directory removed even when a test fails.
final class RunningNavd: Sendable {
  /// The temporary directory holding the socket and the logs.
  let directory: String
  /// The socket navd listens on; stays the same across `restart()`.
  let socketPath: String
  /// Arguments passed after `--socket PATH`.
  let extraArguments: [String]
  private let current = Mutex<ProcessHandle?>(nil)

  /// How long navd may take to print its listening line: an upper bound, generous because a
  /// debug navd on a loaded 2-core CI machine can take seconds to start.
  static let startTimeout: Duration = .seconds(300)
  /// How long navd may take to exit after SIGTERM before it is killed (an upper bound too).
  static let stopTimeout: Duration = .seconds(30)

  private init(directory: String, extraArguments: [String]) {
    self.directory = directory
    socketPath = directory + "/navd.sock"
    self.extraArguments = extraArguments
  }

  deinit {
    // Safety net: `withNavd` stops navd; this only matters if a test bypassed it.
    if let handle = current.withLock({ $0.take() }) { kill(handle.pid, SIGKILL) }
  }

  /// Starts navd in a new temporary directory and waits until it listens.
  static func start(arguments: [String] = []) async throws -> RunningNavd {
    let binary = try binaryPath()
    let navd = RunningNavd(directory: try makeTemporaryDirectory(), extraArguments: arguments)
    do {
      try await navd.launch(binary: binary)
    } catch {
      navd.removeDirectory()
      throw error
    }
    return navd
  }

  /// The pid of the running navd, or nil when stopped.
  var pid: Int32? { current.withLock { $0?.pid } }

  /// Everything navd wrote to stderr so far (all of its runs).
  var stderr: String {
    (try? String(contentsOfFile: directory + "/stderr.log", encoding: .utf8)) ?? ""
  }

  /// Stops navd: SIGTERM, then SIGKILL if it has not exited within `stopTimeout`.
  ///
  /// Returns true when navd exited by itself after SIGTERM with status 0. Stopping a stopped
  /// navd does nothing and returns true.
  @discardableResult
  func stop() async -> Bool {
    guard let handle = current.withLock({ $0.take() }) else { return true }
    return await handle.terminate(timeout: Self.stopTimeout)
  }

  /// Stops navd and starts a new one on the same socket path and state directory (the scenes
  /// persist), or with `discardingState` on an empty one.
  ///
  /// Returns whether the old navd stopped cleanly (see `stop()`).
  @discardableResult
  func restart(discardingState: Bool = false) async throws -> Bool {
    let clean = await stop()
    // navd keeps its scenes in $XDG_STATE_HOME/navd (`directory`/navd); without it, it starts empty.
    if discardingState { try? FileManager.default.removeItem(atPath: directory + "/navd") }
    try await launch(binary: try Self.binaryPath())
    return clean
  }

  /// Removes the temporary directory (navd must be stopped).
  func removeDirectory() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func launch(binary: String) async throws {
    let handle = try ProcessHandle.launch(
      binary: binary, arguments: ["--socket", socketPath] + extraArguments, directory: directory)
    current.withLock { $0 = handle }
    let expected = "navd: listening on unix:\(socketPath)"
    let clock = ContinuousClock()
    let deadline = clock.now + Self.startTimeout
    while !handle.stdout.contains(expected) {
      if !handle.isRunning {
        current.withLock { $0 = nil }
        throw NavdLaunchError(
          description: "navd exited (status \(handle.exitStatus)) before listening; stderr:\n\(stderr)")
      }
      if clock.now >= deadline {
        await stop()
        throw NavdLaunchError(
          description: "navd did not print \"\(expected)\" within \(Self.startTimeout); stderr:\n\(stderr)")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// The navd under test: `$NAVD_BIN`, else `<package root>/.build/debug/navd`.
  static func binaryPath() throws -> String {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    var path = ProcessInfo.processInfo.environment["NAVD_BIN"] ?? packageRoot + "/.build/debug/navd"
    if !path.hasPrefix("/") { path = packageRoot + "/" + path }
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw NavdLaunchError(
        description:
          "navd binary not found (or not executable) at \(path); run `swift build` first, or set NAVD_BIN to the navd to test"
      )
    }
    return path
  }

  /// A fresh directory under $TMPDIR (or /tmp when that would make the socket path too long).
  private static func makeTemporaryDirectory() throws -> String {
    var base = FileManager.default.temporaryDirectory.path
    if base.utf8.count > 60 { base = "/tmp" }
    var template = Array((base + "/navd-e2e-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw NavdLaunchError(description: "mkdtemp in \(base) failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }
}

/// One navd process: its `Process`, and its stdout collected as it arrives.
private final class ProcessHandle: Sendable {
  // `Process` is not Sendable; it is only touched under the lock.
  private let process: Mutex<Process>
  private let output = Mutex<[UInt8]>([])
  let pid: Int32

  private init(process: Process) {
    pid = process.processIdentifier
    self.process = Mutex(process)
  }

  static func launch(binary: String, arguments: [String], directory: String) throws -> ProcessHandle {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["NAVD_SOCKET"] = nil
    environment["XDG_RUNTIME_DIR"] = directory
    environment["STATE_DIRECTORY"] = nil
    environment["XDG_STATE_HOME"] = directory
    process.environment = environment
    let stderrPath = directory + "/stderr.log"
    if !FileManager.default.fileExists(atPath: stderrPath) {
      _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    }
    guard let stderr = FileHandle(forWritingAtPath: stderrPath) else {
      throw NavdLaunchError(description: "cannot open \(stderrPath)")
    }
    stderr.seekToEndOfFile()
    let stdout = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr
    do {
      try process.run()
    } catch {
      throw NavdLaunchError(description: "cannot run \(binary): \(error)")
    }
    try? stderr.close()
    let handle = ProcessHandle(process: process)
    // Keep draining stdout so navd never blocks on a full pipe.
    stdout.fileHandleForReading.readabilityHandler = { [weak handle] file in
      let data = file.availableData
      if data.isEmpty {
        file.readabilityHandler = nil
        return
      }
      handle?.output.withLock { $0.append(contentsOf: data) }
    }
    return handle
  }

  /// What navd printed on stdout so far.
  var stdout: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

  var isRunning: Bool { process.withLock { $0.isRunning } }

  var exitStatus: Int32 { process.withLock { $0.isRunning ? -1 : $0.terminationStatus } }

  private var exitedCleanly: Bool {
    process.withLock { !$0.isRunning && $0.terminationReason == .exit && $0.terminationStatus == 0 }
  }

  /// SIGTERM, wait up to `timeout`, then SIGKILL and wait for the exit. True if it exited 0 on SIGTERM.
  func terminate(timeout: Duration) async -> Bool {
    kill(pid, SIGTERM)
    if await waitForExit(timeout) { return exitedCleanly }
    kill(pid, SIGKILL)
    _ = await waitForExit(.seconds(5))
    return false
  }

  private func waitForExit(_ timeout: Duration) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while isRunning {
      if clock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }
}

/// Runs `body` with a freshly started navd, and stops it (and removes its directory)
/// afterwards, whether `body` returns or throws.
///
/// A navd that does not stop cleanly on SIGTERM is recorded as a test issue.
func withNavd<T>(
  arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (RunningNavd) async throws -> T
) async throws -> T {
  let navd = try await RunningNavd.start(arguments: arguments)
  let result: Result<T, any Error>
  do {
    result = .success(try await body(navd))
  } catch {
    result = .failure(error)
  }
  let clean = await navd.stop()
  #expect(clean, "navd did not exit cleanly on SIGTERM; stderr:\n\(navd.stderr)", sourceLocation: sourceLocation)
  navd.removeDirectory()
  return try result.get()
}
