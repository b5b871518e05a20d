import Glibc

/// Nanoseconds on the monotonic clock.
func nowNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Nanoseconds of CPU time this process has used (all threads): what a
/// loop costs on a core, whatever else the machine is running.
func processCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The moment a bounded loop gives up: every loop in navbench is bounded in
/// count and in time, so a stuck server ends a run instead of hanging it.
struct Deadline {
  let end: UInt64

  init(seconds: Double) {
    end = nowNanoseconds() + UInt64(max(seconds, 0) * 1e9)
  }

  var passed: Bool { nowNanoseconds() >= end }

  /// Seconds left, 0 once passed.
  var remainingSeconds: Double {
    let now = nowNanoseconds()
    return now < end ? Double(end - now) / 1e9 : 0
  }

  /// What is left, as a poll/epoll timeout (at least 1 ms, so a wait always waits).
  var remainingMilliseconds: Int32 {
    let now = nowNanoseconds()
    guard now < end else { return 0 }
    return Int32(min((end - now) / 1_000_000 + 1, 60_000))
  }
}
