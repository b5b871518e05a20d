import Dispatch
import Glibc

/// Terminal resizes (SIGWINCH), as one async sequence for the life of the process.
///
/// One signal source, made on first use and never cancelled: on Linux, cancelling a
/// Dispatch signal source and making another loses the signal for the new one, so a
/// watcher per redraw round stopped seeing resizes after the first.
enum ResizeSignal {
  /// Holds the signal source for the life of the process.
  /// @unchecked Sendable: set up once in `events`' initializer and never touched again.
  private final class Source: @unchecked Sendable {
    let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
  }

  private static let source = Source()

  /// Every resize; only the newest is buffered, since a redraw needs only the latest width.
  /// One consumer at a time (`watch`).
  static let events: AsyncStream<Void> = {
    signal(SIGWINCH, SIG_IGN)
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    source.source.setEventHandler { continuation.yield() }
    source.source.resume()
    return stream
  }()
}
