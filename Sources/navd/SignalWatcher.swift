import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// What navd does with each signal that would otherwise kill it, decided in one place.
///
/// Handled signals are blocked in every thread from the very start of `main`
/// (`blockHandled()`, before any thread exists, so every thread inherits the mask) and
/// taken with `sigwait` by a thread of their own, which calls the handler: never the
/// cooperative pool, never the event loop. A signal that arrives before the handlers are
/// installed stays pending instead of being lost. SIGQUIT and the crash signals get
/// their default action back (`defaulted`); SIGKILL and SIGSTOP cannot be caught.
final class SignalWatcher: Sendable {
  /// Signals navd acts on (see `Daemon.run`).
  static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

  /// Signals that would kill navd and mean nothing to it: ignored (SIGPIPE: writes
  /// report EPIPE; SIGXFSZ: writes report EFBIG).
  static let ignored: [Int32] = [SIGPIPE, SIGXFSZ, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT]

  /// Signals that end navd with their default action: a core dump and the signal as
  /// the exit status. The Swift runtime's backtracer, installed before `main`, catches
  /// them, and in navd it does not end the process: it fails to suspend the other
  /// threads and hangs, answering nothing and ignoring SIGTERM, so a crash would never
  /// reach the service manager's restart. The core (and systemd-coredump) keeps the
  /// backtrace; `fatalError` still prints its message first.
  static let defaulted: [Int32] = [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP]

  /// Blocks the handled signals, ignores the ignored ones and restores the default
  /// action of the defaulted ones; call first thing in `main`.
  static func blockHandled() {
    for number in ignored { signal(number, SIG_IGN) }
    for number in defaulted { signal(number, SIG_DFL) }
    var set = handledSet()
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  private static func handledSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in handled { sigaddset(&set, number) }
    return set
  }

  /// Starts the thread that calls `handlers[signal]` for each handled signal, in arrival order.
  init(handlers: [Int32: @Sendable () -> Void]) {
    _ = OwnThread(name: "navd-signals", stackSize: 256 << 10) {
      var set = Self.handledSet()
      while true {
        var number: Int32 = 0
        guard sigwait(&set, &number) == 0 else { continue }
        handlers[number]?()
      }
    }
  }
}
