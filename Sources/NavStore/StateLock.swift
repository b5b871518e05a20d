#if canImport(Glibc)
  import Glibc
#endif

/// The exclusive lock a running navd holds on `<state-dir>/navd.lock`: one navd per state
/// directory, and `navctl import` only while none runs.
///
/// An `flock`, so it goes away with the process however that ends (even SIGKILL): a stale
/// file never blocks a restart.
public final class StateLock: Sendable {
  /// The lock file's name inside the state directory.
  public static let fileName = "navd.lock"
  private let fd: Int32

  /// Why the lock was not taken.
  public enum Failure: Error, Sendable, CustomStringConvertible {
    /// Another process (a running navd, or an import) holds it.
    case held(path: String, holder: String?)
    /// A system call on the lock file failed.
    case system(path: String, call: String, errno: Int32)

    /// What happened, for navd's and navctl's messages.
    public var description: String {
      switch self {
      case .held(let path, let holder):
        "another navd\(holder.map { " (pid \($0))" } ?? "") is using this state directory: it holds \(path)"
      case .system(let path, let call, let error): "\(path): \(call): \(String(cString: strerror(error)))"
      }
    }
  }

  /// Takes the lock in `directory` without waiting, and writes our pid into the file.
  public init(directory: String) throws(Failure) {
    let path = directory + "/" + Self.fileName
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .system(path: path, call: "open", errno: errno) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let error = errno
      defer { close(fd) }
      if error == EWOULDBLOCK { throw .held(path: path, holder: Self.readHolder(fd)) }
      throw .system(path: path, call: "flock", errno: error)
    }
    self.fd = fd
    let pid = Array("\(getpid())\n".utf8)
    if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
  }

  deinit { close(fd) }

  private static func readHolder(_ fd: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init)
    return text.flatMap { Int($0) != nil ? $0 : nil }
  }
}
