import Foundation
import NavModel
import NavWire
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// A scripted Varlink server on a Unix socket in a fresh temporary directory.
///
/// One blocking thread accepts, one blocking thread per connection reads calls, asks the
/// script what to do, and writes the replies (threads it owns, never the cooperative pool).
/// Everything that happens is published to `events`, so tests await instead of sleeping.
final class FakeVarlinkServer: Sendable {
  /// What the server saw.
  enum Event: Sendable, Equatable {
    case connected(Int)
    case call(Int, VarlinkCall)
    /// The client closed the connection (EOF or reset), or the script closed it.
    case closed(Int)
  }

  /// One call, with the connection it came on and how many calls of that method came before it (1-based).
  struct Exchange: Sendable {
    var connection: Int
    var call: VarlinkCall
    var count: Int
    var parameters: [String: JSONValue] { call.parameters }
  }

  /// What to send back for a call.
  enum Action: Sendable {
    /// A reply; `continues` for the non-final replies of a `more` call.
    case reply([String: JSONValue], continues: Bool = false)
    /// An error reply.
    case error(String, [String: JSONValue] = [:])
    /// Raw bytes (a NUL is not added).
    case bytes([UInt8])
    /// Close the connection (after the actions before it).
    case close
  }

  typealias Script = @Sendable (Exchange) -> [Action]

  let directory: String
  let path: String
  private let ownsDirectory: Bool
  let events = EventLog<Event>()
  private let script: Script
  private let listenFD: Int32
  private let state = Mutex(ServerState())

  private struct ServerState {
    var connections: [Int: Int32] = [:]
    var nextConnection = 0
    var methodCounts: [String: Int] = [:]
    var stopped = false
  }

  /// Starts serving in a fresh temporary directory, or in `directory` (which `stop()` then leaves).
  init(directory existing: String? = nil, script: @escaping Script) throws {
    if let existing {
      directory = existing
      ownsDirectory = false
    } else {
      directory = try Self.makeTemporaryDirectory()
      ownsDirectory = true
    }
    path = directory + "/navd.sock"
    listenFD = try Self.listen(at: path)
    self.script = script
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  static func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/navclient-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw EventLog<Int>.Timeout(description: "mkdtemp failed") }
    return String(cString: made)
  }

  /// Binds and listens on `path`.
  static func listen(at path: String, backlog: Int32 = 16) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8)
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else { throw EventLog<Int>.Timeout(description: "bind failed: errno \(errno)") }
    if backlog > 0 { guard Glibc.listen(fd, backlog) == 0 else { throw EventLog<Int>.Timeout(description: "listen") } }
    return fd
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listenFD, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        // stop() shut the socket down; the descriptor is closed here, by its only reader.
        Glibc.close(listenFD)
        return
      }
      let id = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.nextConnection += 1
        state.connections[state.nextConnection] = fd
        return state.nextConnection
      }
      guard let id else {
        Glibc.close(fd)
        return
      }
      events.append(.connected(id))
      let thread = Thread { [self] in serve(id, fd) }
      thread.start()
    }
  }

  private func serve(_ id: Int, _ fd: Int32) {
    var decoder = VarlinkFrameDecoder(maxFrameBytes: 64 << 20)
    var buffer = [UInt8](repeating: 0, count: 65536)
    reading: while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n <= 0 { break }
      try? decoder.append(contentsOf: buffer[..<n])
      while let frame = decoder.nextFrame() {
        guard let call = try? VarlinkCall(frame: frame) else { break reading }
        let count = state.withLock { state -> Int in
          state.methodCounts[call.method, default: 0] += 1
          return state.methodCounts[call.method]!
        }
        events.append(.call(id, call))
        for action in script(Exchange(connection: id, call: call, count: count)) {
          switch action {
          case .reply(let parameters, let continues):
            send(id, VarlinkReply(parameters: parameters, continues: continues).encoded())
          case .error(let name, let parameters):
            send(id, VarlinkReply.error(name, parameters).encoded())
          case .bytes(let bytes):
            send(id, bytes)
          case .close:
            closeConnection(id)
            break reading
          }
        }
      }
    }
    closeConnection(id)
    Glibc.close(fd)
  }

  /// Sends a reply on connection `id` from outside the script (later stream replies).
  func push(_ id: Int, _ parameters: [String: JSONValue], continues: Bool = true) {
    send(id, VarlinkReply(parameters: parameters, continues: continues).encoded())
  }

  private func send(_ id: Int, _ bytes: [UInt8]) {
    state.withLock { state in
      guard let fd = state.connections[id] else { return }
      var offset = 0
      while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }

  /// Closes connection `id` (the client sees EOF); publishes `.closed` once.
  ///
  /// Only shuts the socket down: its serving thread closes the descriptor, so the number is
  /// never reused while that thread might still read it.
  func closeConnection(_ id: Int) {
    let found = state.withLock { state -> Bool in
      guard let fd = state.connections.removeValue(forKey: id) else { return false }
      shutdown(fd, Int32(SHUT_RDWR))
      return true
    }
    if found { events.append(.closed(id)) }
  }

  /// The calls of `method` seen so far, in order.
  func calls(_ method: String) -> [VarlinkCall] {
    events.all.compactMap { event in
      if case .call(_, let call) = event, call.method == method { return call }
      return nil
    }
  }

  /// How many connections were accepted.
  var connectionCount: Int { events.all.filter { if case .connected = $0 { true } else { false } }.count }

  /// Stops accepting, closes every connection and removes the socket.
  func stop() {
    let open = state.withLock { state -> [Int] in
      state.stopped = true
      return Array(state.connections.keys)
    }
    shutdown(listenFD, Int32(SHUT_RDWR))
    for id in open { closeConnection(id) }
    unlink(path)
    if ownsDirectory { rmdir(directory) }
  }
}

extension FakeVarlinkServer.Event {
  var closedConnection: Int? {
    if case .closed(let id) = self { return id }
    return nil
  }
}
