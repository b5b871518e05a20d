import Glibc
import NavModel
import NavSystem
import NavWire

/// A blocking Varlink connection for measuring: no client library in between,
/// so what navbench times is navd and the socket.
final class BenchConnection {
  let fd: Int32
  private var buffer: [UInt8] = []
  private var scanned = 0

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(socketPath: String) throws {
    do {
      fd = try Syscall.unixStreamSocket(blocking: true)
    } catch {
      throw Failure(description: error.description)
    }
    do {
      _ = try Syscall.connect(fd, path: socketPath)
    } catch {
      Syscall.close(fd)
      throw Failure(
        description:
          "cannot connect to \(socketPath): \(String(cString: strerror(error.errno))); start navd with `navd --socket \(socketPath)`"
      )
    }
  }

  deinit { Syscall.close(fd) }

  /// Sends one call frame (or several concatenated).
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let result = try bytes[offset...].withUnsafeBytes { raw throws(SystemCallError) in try Syscall.send(fd, raw) }
      guard case .done(let count) = result else {
        throw Failure(description: "send(): would block on a blocking socket")
      }
      offset += count
    }
  }

  /// Reads until one complete frame is buffered and returns it (without the NUL).
  func readFrame() throws -> ArraySlice<UInt8> {
    while true {
      if let end = buffer[scanned...].firstIndex(of: 0) {
        let frame = buffer[scanned..<end]
        scanned = end + 1
        if scanned > 1 << 16 {
          let rest = Array(buffer[scanned...])
          buffer = rest
          scanned = 0
          return frame
        }
        return frame
      }
      try fill()
    }
  }

  /// Whether a complete frame is already buffered.
  var hasFrame: Bool { buffer[scanned...].contains(0) }

  /// Reads what the socket has (blocking until at least one byte).
  func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let result = try chunk.withUnsafeMutableBytes { raw throws(SystemCallError) in try Syscall.read(fd, into: raw) }
    guard case .done(let n) = result, n > 0 else { throw Failure(description: "navd closed the connection") }
    if scanned == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      scanned = 0
    }
    buffer.append(contentsOf: chunk[0..<n])
  }

  /// Sends a call and returns its reply's parameters; an error reply throws.
  func call(_ method: NavMethod, _ parameters: JSONValue) throws -> JSONValue {
    try send(Self.frame(method, parameters))
    let reply = try JSONParser.parse(try readFrame())
    if let error = reply["error"]?.stringValue {
      throw Failure(description: "\(method.rawValue): \(error) \(reply["parameters"] ?? .null)")
    }
    return reply["parameters"] ?? .null
  }

  /// One NUL-terminated call frame of `method` (`more` for the methods that stream).
  static func frame(_ method: NavMethod, _ parameters: JSONValue) -> [UInt8] {
    VarlinkCall(method: method.qualifiedName, parameters: parameters.objectValue ?? [:], more: method.requiresMore)
      .encoded()
  }
}

/// Nanoseconds on the monotonic clock.
func nowNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
