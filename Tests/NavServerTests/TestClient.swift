import CNavSys
import Foundation
import NavModel
import Varlink

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking Varlink client for tests, with a receive timeout so a failure cannot hang.
final class TestClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let fd: Int32
  private var decoder = VarlinkFrameDecoder(maxFrameBytes: 64 << 20)

  init(path: String, timeoutMilliseconds: Int32 = 30_000, receiveBuffer: Int32 = 0) throws {
    fd = cnav_unix_stream_socket(0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(cnav_errno())") }
    if receiveBuffer > 0 { _ = cnav_set_buffer_sizes(fd, 0, receiveBuffer) }
    _ = cnav_set_timeouts(fd, timeoutMilliseconds)
    guard cnav_connect_unix(fd, path) == 0 else {
      let error = cnav_errno()
      Glibc.close(fd)
      throw Failure(description: "connect: errno \(error)")
    }
  }

  deinit { Glibc.close(fd) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(CNAV_MSG_NOSIGNAL)) }
      if n < 0 {
        if cnav_errno() == EINTR { continue }
        throw Failure(description: "send: errno \(cnav_errno())")
      }
      offset += n
    }
  }

  func call(
    _ method: String, _ parameters: [String: JSONValue] = [:], oneway: Bool = false, more: Bool = false,
    upgrade: Bool = false
  ) throws {
    try send(
      VarlinkCall(method: method, parameters: parameters, oneway: oneway, more: more, upgrade: upgrade).encoded())
  }

  /// The next frame, or nil at end of stream (EOF or reset).
  func readFrame() throws -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let frame = decoder.nextFrame() { return frame }
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n == 0 { return nil }
      if n < 0 {
        let error = cnav_errno()
        if error == EINTR { continue }
        if error == ECONNRESET { return nil }
        throw Failure(description: "read: errno \(error) (timeout?)")
      }
      try decoder.append(contentsOf: buffer[..<n])
    }
  }

  func readReply() throws -> VarlinkReply {
    guard let frame = try readFrame() else { throw Failure(description: "connection closed instead of a reply") }
    return try VarlinkReply(frame: frame)
  }

  /// True when the server closes the connection (reading past any replies still queued).
  func waitForClose() throws -> Bool {
    while try readFrame() != nil {}
    return true
  }
}

/// Waits up to `timeout` for `condition`, polling; for effects on other threads.
func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    usleep(2000)
  }
  return condition()
}
