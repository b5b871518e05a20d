import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// What navd does with each signal that would otherwise kill it, decided in one place.
///
/// Handled signals are delivered to a dispatch queue of their own (never the cooperative
/// pool, never the event loop). Their default disposition is set to "ignore" first, so a
/// signal arriving on any thread is only seen by its dispatch source and never kills the
/// process mid-write. SIGQUIT keeps its default (a core dump, for debugging); SIGKILL and
/// SIGSTOP cannot be caught.
final class SignalWatcher {
  /// Signals that would kill navd and mean nothing to it: ignored (SIGPIPE: writes
  /// report EPIPE; SIGXFSZ: writes report EFBIG).
  static let ignored: [Int32] = [SIGPIPE, SIGXFSZ, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT]

  private let sources: [any DispatchSourceSignal]

  /// Calls `handlers[signal]` for each handled signal; ignores `SignalWatcher.ignored`.
  init(handlers: [Int32: @Sendable () -> Void]) {
    for number in Self.ignored { signal(number, SIG_IGN) }
    let queue = DispatchQueue(label: "navd.signals")
    sources = handlers.map { number, handler in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler(handler: handler)
      source.resume()
      return source
    }
  }

  deinit {
    for source in sources { source.cancel() }
  }
}
