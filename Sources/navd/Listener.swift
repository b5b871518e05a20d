import NavServer
import NavSystem
import NavSystemd
import NavWire

#if canImport(Glibc)
  import Glibc
#endif

/// Where navd listens: a socket passed by the service manager (socket activation), or
/// a path it binds itself.
struct Listener {
  var serverListener: ServerConfiguration.Listener
  /// For the "listening on" line: `unix:PATH`, with how a passed socket came.
  var description: String
  /// Said after a failure to bind, when the path is a default the user may not have meant.
  var bindHint: String? = nil

  /// Passed sockets win: navd never binds its own then. It serves the listening AF_UNIX
  /// stream socket named "navd" (the socket unit's default name), else the one a
  /// predecessor stored (`stored`), else the first listening one; other passed
  /// descriptors are closed (with a warning, except a stored duplicate).
  static func choose(
    passed: [PassedSocket], stored: PassedSocket?, configuredPath: String?, group: UInt32?,
    environment: [String: String], warn: (String) -> Void
  ) throws(StartupError) -> Listener {
    if !passed.isEmpty || stored != nil {
      let listening = passed.filter(\.isListeningUnixStream)
      let named = listening.first { $0.name == "navd" }
      if let stored, named != nil || !stored.isListeningUnixStream {
        close(stored.fd)
      }
      guard let chosen = named ?? stored.flatMap({ $0.isListeningUnixStream ? $0 : nil }) ?? listening.first
      else {
        throw StartupError(
          "LISTEN_FDS passed \(passed.count) descriptor(s) (\(passed.map(\.name).joined(separator: ", "))) but none "
            + "is a listening AF_UNIX stream socket; check the socket unit (ListenStream=)")
      }
      for other in passed where other.fd != chosen.fd {
        warn("ignoring passed descriptor \(other.fd) (\(other.name)): navd serves one socket")
        close(other.fd)
      }
      return Listener(serverListener: .fileDescriptor(chosen.fd, path: nil), description: describe(chosen))
    }
    var socket = configuredPath.map { NavSocketPath(path: $0) } ?? NavSocketPath.defaultPath(environment: environment)
    socket.path = AbsolutePath.make(socket.path)
    do {
      try SocketPath.prepare(
        socket.path, creatingDirectory: socket.directoryToCreate,
        directoryMode: socket.directoryMode ?? (group == nil ? 0o700 : 0o750), group: group)
    } catch {
      guard socket.origin == .system else { throw StartupError("\(error)") }
      throw StartupError("\(error)\n\(systemDefaultHint)")
    }
    return Listener(
      serverListener: .path(socket.path), description: "unix:\(socket.path)",
      bindHint: socket.origin == .system ? systemDefaultHint : nil)
  }
}

/// `unix:/run/navd/navd.sock (passed by the service manager: fd 3, named "navd")`: the
/// address first, as for a socket navd binds; `fd 3 (…, no address)` for an unnamed one.
func describe(_ socket: PassedSocket) -> String {
  let origin = "passed by the service manager: fd \(socket.fd), named \"\(socket.name)\""
  guard let path = socket.boundPath else { return "fd \(socket.fd) (\(origin), no address)" }
  return "unix:\(path) (\(origin))"
}

/// Why `/run/navd/navd.sock` was tried, when binding there failed.
let systemDefaultHint =
  "XDG_RUNTIME_DIR is not set, so navd's default socket is the system service's, \(NavSocketPath.system), "
  + "which only root or the user owning /run/navd may bind: give --socket PATH (or NAVD_SOCKET), or set "
  + "XDG_RUNTIME_DIR"

/// navd could not start; printed as `navd: MESSAGE` and exit status 1.
struct StartupError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
