import Foundation

/// What /proc says about a server process on this machine.
enum ProcessStats {
  /// Resident memory in bytes (`VmRSS`), or nil when the process cannot be read.
  static func residentBytes(_ pid: Int32) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return nil }
    return kib * 1024
  }

  /// CPU time of all its threads, in seconds: the sum of each thread's
  /// time on a CPU from `/proc/PID/task/*/schedstat` (nanoseconds, unlike
  /// `/proc/PID/stat`'s 10 ms ticks). Threads that already exited are not counted.
  static func cpuSeconds(_ pid: Int32) -> Double? {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
    var nanoseconds = 0.0
    for thread in threads {
      guard let line = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8),
        let onCPU = line.split(separator: " ").first.flatMap({ Double($0) })
      else { continue }
      nanoseconds += onCPU
    }
    return nanoseconds / 1e9
  }
}
