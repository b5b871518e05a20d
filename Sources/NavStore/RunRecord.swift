import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// What navd wrote about its latest run in `navd.run` beside the database: which file it ran
/// on, in which boot of the machine, with which durability, and whether it stopped cleanly.
///
/// A start compares it with what it finds to tell whether acknowledged versions may be gone
/// (STORAGE.md §4, "New epochs"): a `normal` run that did not stop cleanly before the machine
/// restarted may have lost its last commits to the power loss, and a database that is not the
/// file the record names (another inode: a restored or copied file) may be older than what
/// navd served. Versions cannot be trusted to mean what they meant then, so every scene starts
/// a new epoch. The file is replaced whole (written, fsynced, renamed, the directory fsynced),
/// so a crash leaves the old record or the new one.
struct RunRecord: Equatable, Sendable {
  static let fileName = "navd.run"

  /// The database file's inode when the record was written.
  var databaseInode: UInt64
  /// `/proc/sys/kernel/random/boot_id` of that boot.
  var bootId: String
  /// The run's `--durability`.
  var durability: Durability
  /// True until the run stopped with everything it acknowledged durable.
  var running: Bool

  /// The record's text: one `key value` line each, after a first line naming the format.
  var text: String {
    "navd-run 1\ndatabase-inode \(databaseInode)\nboot \(bootId)\ndurability \(durability.rawValue)\n"
      + "state \(running ? "running" : "stopped")\n"
  }

  init(databaseInode: UInt64, bootId: String, durability: Durability, running: Bool) {
    self.databaseInode = databaseInode
    self.bootId = bootId
    self.durability = durability
    self.running = running
  }

  /// Parses `text`; nil for anything but a whole record of this format.
  init?(text: String) {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { return nil }
      fields[String(parts[0])] = String(parts[1])
    }
    guard fields["navd-run"] == "1", let inode = fields["database-inode"].flatMap({ UInt64($0) }),
      let boot = fields["boot"], !boot.isEmpty, let durability = fields["durability"].flatMap(Durability.init),
      let state = fields["state"], state == "running" || state == "stopped"
    else { return nil }
    self.init(databaseInode: inode, bootId: boot, durability: durability, running: state == "running")
  }

  /// The record in `directory`: nil when there is none; `.unreadable` when it does not parse.
  static func read(in directory: String) -> Found {
    let path = directory + "/" + fileName
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return errno == ENOENT ? .none : .unreadable }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    guard count > 0, let record = RunRecord(text: String(decoding: buffer[..<count], as: UTF8.self)) else {
      return .unreadable
    }
    return .record(record)
  }

  /// What `read` found.
  enum Found: Equatable {
    case none
    case unreadable
    case record(RunRecord)
  }

  /// Replaces the record in `directory` whole and durably.
  func write(in directory: String) throws(StoreError) {
    let path = directory + "/" + Self.fileName
    let staging = path + ".new"
    let fd = open(staging, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError.systemCall("create", staging) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    if written >= 0, written < bytes.count { errno = ENOSPC }
    let failure = written != bytes.count ? "write" : fsync(fd) != 0 ? "fsync" : nil
    let error = StoreError.systemCall(failure ?? "write", staging)
    close(fd)
    guard failure == nil else {
      unlink(staging)
      throw error
    }
    guard rename(staging, path) == 0 else { throw StoreError.systemCall("rename to \(path)", staging) }
    let directoryFd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directoryFd >= 0 else { throw StoreError.systemCall("open", directory) }
    defer { close(directoryFd) }
    guard fsync(directoryFd) == 0 else { throw StoreError.systemCall("fsync", directory) }
  }

  /// This boot's id (`/proc/sys/kernel/random/boot_id`); empty when it cannot be read, which
  /// no later boot matches.
  static func currentBootId() -> String {
    let fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return "" }
    return String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(
      String.init)
      ?? ""
  }

  /// The inode of the file at `path` (0 when it cannot be read).
  static func inode(of path: String) -> UInt64 {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return UInt64(status.st_ino)
  }

  /// Why a start after `found` cannot prove it kept every acknowledged version (nil: it can).
  ///
  /// `created` says the database was made just now (an empty one: nothing to lose);
  /// `databaseInode` and `bootId` are what this start finds.
  static func lossReason(after found: Found, created: Bool, databaseInode: UInt64, bootId: String) -> String? {
    guard !created else { return nil }
    switch found {
    case .none:
      return "there is no record of navd's last run on this database (\(fileName)): it may be a restored copy"
    case .unreadable:
      return "the record of navd's last run (\(fileName)) is unreadable"
    case .record(let record):
      if record.databaseInode != databaseInode {
        return "the database is not the file navd last ran on (inode \(databaseInode), was \(record.databaseInode)): "
          + "a restored or copied file may be older than what navd served"
      }
      if record.running, record.durability == .normal, record.bootId != bootId || bootId.isEmpty {
        return "navd (--durability normal) did not stop before the machine restarted: "
          + "a power loss or kernel crash may have taken its last commits"
      }
      return nil
    }
  }
}
