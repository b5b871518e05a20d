import Dispatch
import Glibc

/// Terminal resizes (SIGWINCH) as an async sequence, for `watch` to redraw at the new width.
enum ResizeSignal {
  /// Holds the signal source so the stream's termination can cancel it.
  /// @unchecked Sendable: DispatchSource's `cancel()` may be called from any thread.
  private final class Source: @unchecked Sendable {
    let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
  }

  static func stream() -> AsyncStream<Void> {
    AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
      signal(SIGWINCH, SIG_IGN)
      let holder = Source()
      holder.source.setEventHandler { continuation.yield() }
      holder.source.resume()
      continuation.onTermination = { _ in holder.source.cancel() }
    }
  }
}
