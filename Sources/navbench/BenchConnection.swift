import CNavSys
import Glibc
import NavModel

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
    fd = cnav_unix_stream_socket(0)
    guard fd >= 0 else { throw Failure(description: "socket(): errno \(cnav_errno())") }
    guard cnav_connect_unix(fd, socketPath) == 0 else {
      let error = cnav_errno()
      close(fd)
      throw Failure(
        description:
          "cannot connect to \(socketPath): \(String(cString: strerror(error))); start navd with `navd --socket \(socketPath)`"
      )
    }
  }

  deinit { close(fd) }

  /// Sends one call frame (or several concatenated).
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, CNAV_MSG_NOSIGNAL) }
      if n < 0 {
        if cnav_errno() == EINTR { continue }
        throw Failure(description: "send(): errno \(cnav_errno())")
      }
      offset += n
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
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if n < 0, cnav_errno() == EINTR { return }
    guard n > 0 else { throw Failure(description: "navd closed the connection") }
    if scanned == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      scanned = 0
    }
    buffer.append(contentsOf: chunk[0..<n])
  }

  /// Sends a call and returns its reply's parameters; an error reply throws.
  func call(_ method: String, _ parameters: JSONValue) throws -> JSONValue {
    try send(Self.frame(method, parameters))
    let reply = try JSONParser.parse(try readFrame())
    if let error = reply["error"]?.stringValue {
      throw Failure(description: "\(method): \(error) \(reply["parameters"] ?? .null)")
    }
    return reply["parameters"] ?? .null
  }

  static func frame(_ method: String, _ parameters: JSONValue, more: Bool = false) -> [UInt8] {
    var out = JSONWriter.bytes(
      more
        ? ["method": .string("io.navd.\(method)"), "parameters": parameters, "more": true]
        : ["method": .string("io.navd.\(method)"), "parameters": parameters])
    out.append(0)
    return out
  }
}

/// Nanoseconds on the monotonic clock.
func nowNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
