import CNavSys
import Glibc
import NavSystem

/// A blocking Unix-socket connection for measuring, with a receive buffer
/// that messages are read from in place: no client library in between, so
/// what navbench times is the server and the socket.
final class BenchConnection {
  let fd: Int32
  let framing: Framing
  private var storage: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(socketPath: String, framing: Framing) throws {
    self.framing = framing
    do {
      fd = try Syscall.unixStreamSocket(blocking: true)
    } catch {
      throw Failure(description: error.description)
    }
    do {
      _ = try Syscall.connect(fd, path: socketPath)
    } catch {
      Syscall.close(fd)
      throw Failure(description: "cannot connect to \(socketPath): \(String(cString: strerror(error.errno)))")
    }
    storage = .allocate(byteCount: 1 << 16, alignment: 1)
  }

  deinit {
    Syscall.close(fd)
    storage.deallocate()
  }

  /// Gives up on a blocking send or receive after `milliseconds`, so no read waits forever.
  func setTimeout(milliseconds: Int32) {
    _ = cnav_set_timeouts(fd, milliseconds)
  }

  /// Sends all of `bytes` (one message or several concatenated).
  func send(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
        guard case .done(let count) = try Syscall.send(fd, rest) else {
          throw Failure(description: "send(): timed out (the server reads nothing)")
        }
        offset += count
      }
    }
  }

  /// Reads what the socket has, blocking until at least one byte arrives.
  func fill() throws {
    if start == end {
      start = 0
      end = 0
    } else if storage.count - end < 1 << 14 {
      let pending = end - start
      if start > 0 {
        storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: pending)
        start = 0
        end = pending
      }
      if storage.count - end < 1 << 14 {
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 1)
        grown.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: end)
        storage.deallocate()
        storage = grown
      }
    }
    let free = UnsafeMutableRawBufferPointer(rebasing: storage[end...])
    switch try Syscall.read(fd, into: free) {
    case .done(0): throw Failure(description: "the server closed the connection")
    case .done(let count): end += count
    case .wouldBlock: throw Failure(description: "read(): timed out waiting for the server")
    }
  }

  /// Calls `body` with each complete message already buffered (valid only
  /// during the call) and consumes it; returns how many there were. Stops
  /// early when `body` returns false.
  @discardableResult
  func forEachBufferedMessage(_ body: (UnsafeRawBufferPointer) throws -> Bool) rethrows -> Int {
    var count = 0
    while start < end {
      let pending = UnsafeRawBufferPointer(rebasing: storage[start..<end])
      guard let length = framing.messageLength(pending) else { break }
      start += length
      count += 1
      if try !body(UnsafeRawBufferPointer(rebasing: pending[0..<length])) { break }
    }
    return count
  }

  /// Reads until one complete message is buffered and returns a copy of it.
  func readMessage() throws -> [UInt8] {
    while true {
      var message: [UInt8]?
      forEachBufferedMessage { bytes in
        message = Array(bytes)
        return false
      }
      if let message { return message }
      try fill()
    }
  }
}
