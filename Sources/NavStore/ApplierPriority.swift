#if canImport(Glibc)
  import Glibc
#endif

/// The redo log's applier runs at nice 10 (STORAGE.md §2): its work can wait and the event
/// loop's cannot, so on a busy machine the loop and the clients it answers get the cores
/// first. When the nice value cannot be set — a seccomp filter that denies `setpriority`,
/// as systemd's `SystemCallFilter=~@resources` does — navd still works, but that tuning is
/// gone, so it says so once instead of ignoring the error.
enum ApplierPriority {
  /// The applier's nice value.
  static let nice: Int32 = 10

  /// Sets the calling thread's nice value (Linux keeps it per thread: `who` 0 is this
  /// thread alone); the errno when that fails, else nil.
  @Sendable static func lowerCurrentThread() -> Int32? {
    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0 ? nil : errno
  }

  /// The warning for a failed `setpriority`: what failed, what it costs, and the fix.
  static func problem(errno code: Int32) -> String {
    "the redo log's thread (navd-redo) could not lower its priority to nice \(nice): setpriority failed: "
      + "\(String(cString: strerror(code))) (errno \(code)). It runs at the event loop's priority, so on a busy "
      + "machine it competes with the loop for the CPU and clients wait longer (STORAGE.md §2). "
      + (code == EPERM || code == EACCES
        ? "A seccomp filter may deny the call: under systemd, allow it with SystemCallFilter=setpriority "
          + "after SystemCallFilter=~@resources (navd.service does)."
        : "")
  }
}
