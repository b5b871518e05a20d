import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// A socket handed over by the service manager (socket activation or the fd store).
public struct PassedSocket: Sendable, Equatable {
  /// The descriptor number (3 and up).
  public var fd: Int32
  /// Its `FileDescriptorName=` / `FDNAME=` (systemd's default is "unknown"; the socket
  /// unit's name without ".socket" when the unit sets none).
  public var name: String

  /// A passed descriptor with its name.
  public init(fd: Int32, name: String) {
    self.fd = fd
    self.name = name
  }

  /// Whether it is a listening AF_UNIX stream socket (what navd can serve on).
  public var isListeningUnixStream: Bool {
    csd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
  }

  /// Whether it is a connected (not listening) AF_UNIX stream socket: a client connection.
  public var isConnectedUnixStream: Bool {
    csd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 0, nil, 0) > 0
  }

  /// The address the socket is bound to (`getsockname`): its path (`/run/navd/navd.sock`),
  /// `@NAME` for an abstract socket; nil for an unnamed or non-AF_UNIX socket. What the log
  /// names, so a passed socket is as recognisable as one navd bound itself.
  public var boundPath: String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0, address.sun_family == sa_family_t(AF_UNIX),
      let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)
    else { return nil }
    let count = min(Int(length) - offset, MemoryLayout.size(ofValue: address.sun_path))
    guard count > 0 else { return nil }
    let bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(count)) }
    if bytes.first == 0 { return "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// The descriptors passed with `LISTEN_FDS`/`LISTEN_PID`/`LISTEN_FDNAMES`, once: the
  /// variables are removed so that nothing navd starts inherits them. Empty without them
  /// (or when `LISTEN_PID` names another process). Each descriptor gets FD_CLOEXEC.
  public static func takeFromEnvironment() -> [PassedSocket] {
    var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    let count = csd_listen_fds_with_names(1, &names)
    guard count > 0 else { return [] }
    defer { csd_free_names(names, count) }
    return (0..<count).map { index in
      let fd = CSD_LISTEN_FDS_START + index
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
      return PassedSocket(fd: fd, name: name)
    }
  }
}
