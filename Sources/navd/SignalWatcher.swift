import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Turns SIGTERM and SIGINT into a call of `onSignal` on a dispatch queue (not the
/// cooperative pool), and ignores SIGPIPE (writes report EPIPE instead).
///
/// The default dispositions are set to "ignore" first so that a signal arriving on
/// any thread is only seen by the dispatch source, never kills the process mid-write.
final class SignalWatcher {
  private let sources: [any DispatchSourceSignal]

  init(signals: [Int32] = [SIGTERM, SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
    signal(SIGPIPE, SIG_IGN)
    let queue = DispatchQueue(label: "navd.signals")
    sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { onSignal(number) }
      source.resume()
      return source
    }
  }

  deinit {
    for source in sources { source.cancel() }
  }
}
