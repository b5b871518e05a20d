import CNavSys
import Foundation
import Glibc

/// A server navbench starts itself (for start-up times): spawned without a
/// shell, its output sent to /dev/null, stopped by its own pid.
final class ServerProcess {
  let pid: pid_t

  /// Starts `binary` with `arguments`; returns as soon as the process exists.
  /// Its standard output goes to `output` (a file it creates), else /dev/null.
  init(binary: String, arguments: [String], output: String = "/dev/null") throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, binary, &actions, nil, argv, environ)
    guard result == 0 else {
      throw BenchConnection.Failure(description: "cannot start \(binary): \(String(cString: strerror(result)))")
    }
    pid = child
  }

  /// Waits until a call on `socketPath` is answered; false if the process
  /// exited or `deadline` passed first.
  func waitUntilServing(_ target: NavdTarget, deadline: Deadline) -> Bool {
    while !deadline.passed {
      if let connection = try? target.connect() {
        connection.setTimeout(milliseconds: 5000)
        if (try? connection.send(NavdTarget.call(.getServerInfo, "{}"))) != nil,
          (try? connection.readMessage()) != nil
        {
          return true
        }
      }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { return false }
      usleep(100)
    }
    return false
  }

  /// Whether `binary --help` names `option` (options a navd may not have yet).
  static func helpMentions(_ binary: String, _ option: String) throws -> Bool {
    let directory = try StartupBench.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let process = try ServerProcess(binary: binary, arguments: ["--help"], output: directory + "/help")
    process.reap(within: 5)
    let help = (try? String(contentsOfFile: directory + "/help", encoding: .utf8)) ?? ""
    return help.contains(option)
  }

  /// SIGTERM, then SIGKILL if it has not exited within `seconds`; reaps it.
  func stop(seconds: Double = 5) {
    kill(pid, SIGTERM)
    reap(within: seconds)
  }

  /// Waits for it to exit, SIGKILLs it after `seconds`, and reaps it.
  func reap(within seconds: Double) {
    let deadline = Deadline(seconds: seconds)
    var status: Int32 = 0
    while !deadline.passed {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || reaped < 0 { return }
      usleep(1000)
    }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
  }
}
