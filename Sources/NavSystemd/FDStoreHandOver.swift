import CSystemd
import NavModel
import NavServer
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// A restart that keeps clients, through systemd's file descriptor store
/// (`FileDescriptorStoreMax=`): the stopping navd stores its listening socket, each
/// carried connection and a small state record; the next navd gets them back with
/// `LISTEN_FDS`/`LISTEN_FDNAMES` and adopts them.
///
/// Names: `navd-listener`, `navd-state` (a memfd: one line per connection, `NAME` TAB
/// the Varlink call its stream repeats, or nothing for a connection between calls), and
/// `navd-conn-N` for each connection. The next navd removes every name it adopted from
/// the store (`FDSTOREREMOVE=1`), or the stored copies would keep connections open.
public enum FDStoreHandOver {
  /// The stored listening socket.
  public static let listenerName = "navd-listener"
  /// The state record.
  public static let stateName = "navd-state"
  /// Prefix of a stored connection.
  public static let connectionPrefix = "navd-conn-"

  /// Stores `handOver` through `notifier`; returns how many connections were stored.
  /// A connection the manager refuses is lost to its client (logged by the caller).
  public static func store(_ handOver: HandOver, notifier: ServiceNotifier) -> (stored: Int, refused: Int) {
    var lines: [String] = []
    var stored = 0
    var refused = 0
    for (index, connection) in handOver.connections.enumerated() {
      let name = connectionPrefix + String(index + 1)
      guard notifier.store([connection.fd], name: name) else {
        refused += 1
        continue
      }
      stored += 1
      let call = connection.resume.map { String(decoding: $0.encoded().dropLast(), as: UTF8.self) } ?? ""
      lines.append("\(name)\t\(call)")
    }
    let record = lines.joined(separator: "\n")
    let memfd = csd_memfd(stateName)
    if memfd >= 0 {
      let bytes = Array(record.utf8)
      let written = bytes.withUnsafeBytes { write(memfd, $0.baseAddress, $0.count) }
      if written == bytes.count {
        lseek(memfd, 0, SEEK_SET)
        notifier.store([memfd], name: stateName)
      }
      close(memfd)
    }
    notifier.store([handOver.listenerFD], name: listenerName)
    notifier.flush()
    return (stored, refused)
  }

  /// What a predecessor left in the store, from the passed descriptors.
  public struct Adopted: Sendable {
    /// The stored listener, if any (the socket unit's own "navd" socket is preferred).
    public var listener: PassedSocket?
    /// The connections to serve, with the call each stream repeats.
    public var connections: [AdoptedConnection]
    /// Every store name taken over: remove them from the store once adopted.
    public var names: [String]
    /// Passed descriptors that are not part of a hand-over (the socket unit's).
    public var others: [PassedSocket]
    /// Connections that could not be adopted (no state record, a bad record): closed.
    public var dropped: Int
  }

  /// Splits `passed` into the hand-over's descriptors and the rest; reads and closes the
  /// state record.
  public static func adopt(from passed: [PassedSocket]) -> Adopted {
    var result = Adopted(listener: nil, connections: [], names: [], others: [], dropped: 0)
    var record: [String: String] = [:]
    if let state = passed.first(where: { $0.name == stateName }) {
      record = readRecord(state.fd)
      close(state.fd)
      result.names.append(stateName)
    }
    for socket in passed where socket.name != stateName {
      if socket.name == listenerName {
        result.listener = socket
        result.names.append(listenerName)
      } else if socket.name.hasPrefix(connectionPrefix) {
        result.names.append(socket.name)
        guard socket.isConnectedUnixStream, let line = record[socket.name] else {
          result.dropped += 1
          close(socket.fd)
          continue
        }
        if line.isEmpty {
          result.connections.append(AdoptedConnection(fd: socket.fd, resume: nil))
        } else if let call = try? VarlinkCall(frame: Array(line.utf8)), call.more {
          result.connections.append(AdoptedConnection(fd: socket.fd, resume: call))
        } else {
          result.dropped += 1
          close(socket.fd)
        }
      } else {
        result.others.append(socket)
      }
    }
    return result
  }

  private static func readRecord(_ fd: Int32) -> [String: String] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bytes.count < 64 << 20 {
      let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
      if n <= 0 { break }
      bytes += buffer[..<n]
    }
    var record: [String: String] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t") else { continue }
      record[String(line[..<tab])] = String(line[line.index(after: tab)...])
    }
    return record
  }
}
