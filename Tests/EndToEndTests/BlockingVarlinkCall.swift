import NavModel
import NavWire
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// A failure of `blockingVarlinkCall` (socket error, timeout, bad reply).
struct BlockingCallError: Error, CustomStringConvertible {
  var description: String
}

/// Makes one Varlink call on a fresh Unix socket connection with blocking IO and returns the reply.
///
/// For the rare place a test must commit a write synchronously — inside a `NavClient.mutate`
/// mutator body, which is not async. Blocking there holds one cooperative thread for a
/// round trip to navd, a separate process, so it cannot deadlock; every send and receive is
/// bounded by `timeoutSeconds` (SO_SNDTIMEO / SO_RCVTIMEO).
func blockingVarlinkCall(
  socketPath: String, method: String, parameters: [String: JSONValue], timeoutSeconds: Int = 5
) throws -> VarlinkReply {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw BlockingCallError(description: "socket: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let pathBytes = Array(socketPath.utf8)
  guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
    throw BlockingCallError(description: "socket path too long: \(socketPath)")
  }
  withUnsafeMutableBytes(of: &address.sun_path) { buffer in
    buffer.copyBytes(from: pathBytes)
    buffer[pathBytes.count] = 0
  }
  let connected = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard connected == 0 else {
    throw BlockingCallError(description: "connect \(socketPath): \(String(cString: strerror(errno)))")
  }

  let request = VarlinkCall(method: method, parameters: parameters).encoded()
  var sent = 0
  while sent < request.count {
    let written = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard written > 0 else {
      if written < 0, errno == EINTR { continue }
      throw BlockingCallError(description: "send: \(String(cString: strerror(errno)))")
    }
    sent += written
  }

  var decoder = VarlinkFrameDecoder()
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    if let frame = decoder.nextFrame() {
      do {
        return try VarlinkReply(frame: frame)
      } catch {
        throw BlockingCallError(description: "bad reply to \(method): \(error)")
      }
    }
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else {
      let reason = count == 0 ? "connection closed" : String(cString: strerror(errno))
      throw BlockingCallError(description: "no reply to \(method): \(reason)")
    }
    do {
      try decoder.append(contentsOf: buffer[..<count])
    } catch {
      throw BlockingCallError(description: "reply to \(method): \(error)")
    }
  }
}
