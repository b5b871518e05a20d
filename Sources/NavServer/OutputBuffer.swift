/// Bytes waiting to be written to one connection.
///
/// Appends at the end, consumes from the front without moving memory on every write;
/// the consumed prefix is dropped when it is at least half the buffer.
///
/// An empty buffer adopts the array it is given instead of copying it, and lets it go
/// once written instead of emptying it in place: a subscriber's updates are one chunk
/// shared by every subscriber of its view (`Subscriber.pull`), so they reach the
/// socket without a copy per subscriber (emptying a shared array in place would copy it).
struct OutputBuffer {
  private var storage: [UInt8] = []
  private var readIndex = 0

  /// Bytes not yet written.
  var count: Int { storage.count - readIndex }
  var isEmpty: Bool { readIndex == storage.count }

  mutating func append(_ bytes: [UInt8]) {
    if isEmpty {
      storage = bytes
      readIndex = 0
    } else {
      storage.append(contentsOf: bytes)
    }
  }

  /// Drops `n` written bytes from the front.
  mutating func consume(_ n: Int) {
    precondition(n >= 0 && n <= count, "consumed \(n) of \(count) buffered bytes")
    readIndex += n
    if readIndex == storage.count {
      storage = []
      readIndex = 0
    } else if readIndex >= 64 * 1024, readIndex * 2 >= storage.count {
      storage.removeFirst(readIndex)
      readIndex = 0
    }
  }

  /// Calls `body` with the unwritten bytes (for one `send`).
  func withUnsafeReadableBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[readIndex...])) }
  }

  /// A copy of the unwritten bytes (tests).
  var bytes: [UInt8] { Array(storage[readIndex...]) }
}
