import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Where navd's redo log lives and how its files are read: next to the database, one file per
/// stretch of records, each named after the sequence of its first record
/// (`navd.redo.00000000000004d2`), so names sort in the log's order (STORAGE.md §2).
struct RedoLogFiles {
  /// The directory holding the database and the log.
  let directory: String
  static let prefix = "navd.redo."

  /// The log next to the database at `databasePath`.
  init(databasePath: String) {
    directory = StateDirectory.containing(databasePath)
  }

  /// The path of the file whose first record is `sequence`.
  func path(startingAt sequence: UInt64) -> String {
    let hex = String(sequence, radix: 16)
    return directory + "/" + Self.prefix + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
  }

  /// Every file of the log, in the log's order.
  func list() throws(StoreError) -> [String] {
    try names().filter(Self.isLogName).sorted().map { directory + "/" + $0 }
  }

  /// Files named like the log's (`navd.redo.` first) that are not: not navd's.
  func strays() throws(StoreError) -> [String] {
    try names().filter { $0.hasPrefix(Self.prefix) && !Self.isLogName($0) }.sorted().map { directory + "/" + $0 }
  }

  /// The sequence a file of the log starts at, from its name.
  static func firstSequence(ofFile path: String) -> UInt64? {
    guard let slash = path.lastIndex(of: "/") else { return nil }
    let name = path[path.index(after: slash)...]
    return isLogName(name) ? UInt64(name.dropFirst(prefix.count), radix: 16) : nil
  }

  private static func isLogName(_ name: some StringProtocol) -> Bool {
    name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 16
      && name.dropFirst(prefix.count).allSatisfy(\.isHexDigit)
  }

  private func names() throws(StoreError) -> [String] {
    guard let stream = opendir(directory) else { throw StoreError.systemCall("list", directory) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
    return names
  }

  /// The whole content of the file at `path`.
  static func contents(of path: String) throws(StoreError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { throw StoreError.systemCall("open", path) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw StoreError.systemCall("read", path) }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Makes what was written to the file at `path` durable (it must exist; a missing one is fine).
  static func sync(_ path: String) throws(StoreError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    if fd < 0, errno == ENOENT { return }
    guard fd >= 0 else { throw StoreError.systemCall("open", path) }
    defer { close(fd) }
    guard fdatasync(fd) == 0 else { throw StoreError.systemCall("fdatasync", path) }
  }

  /// Removes the file at `path` (already gone is fine).
  static func remove(_ path: String) throws(StoreError) {
    guard unlink(path) == 0 || errno == ENOENT else { throw StoreError.systemCall("unlink", path) }
  }
}
