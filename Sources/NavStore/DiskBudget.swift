import NavEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The bytes navd's own working files may take on the state directory's file system: the redo
/// log, the WAL, and a reserve kept for freeing the others (STORAGE.md §4, "Disk space").
///
/// The budget is `--disk-budget` when given, else 32 MiB, or a quarter of the file system when
/// that is smaller, so a small disk is not filled by navd's logs: the redo log starts a new file every eighth of it, holds at
/// most half of it unapplied, the WAL is checkpointed and cut back at an eighth, and a
/// sixteenth (at least 64 KiB) is reserved. The database's own pages (the scenes' snapshots
/// and logs) come on top.
struct DiskBudget: Sendable, Equatable {
  /// The budget when the file system has room for it.
  static let defaultBytes = 32 << 20
  /// The smallest file system navd supports (STORAGE.md §4; tested on a tmpfs this size).
  static let smallestFileSystem = 4 << 20
  /// The smallest budget `--disk-budget` accepts: a quarter of the smallest file system.
  static let minimumBytes = smallestFileSystem / 4

  /// What navd's working files may take.
  var bytes: Int

  /// A file of the redo log past this is retired for a new one.
  var redoFileBytes: Int { max(32 << 10, bytes / 8) }
  /// Unapplied redo records, in bytes, past which a commit waits for the applier.
  var backlogBytes: Int { max(64 << 10, bytes / 2) }
  /// The WAL is checkpointed past this, and cut back to it.
  var walBytes: Int { max(64 << 10, bytes / 8) }
  /// Kept allocated in `navd.reserve`, and given up to let a checkpoint or a redo file's
  /// retirement through on a full disk.
  var reserveBytes: Int { max(64 << 10, bytes / 16) }

  /// `explicit` bytes when configured (`--disk-budget`, at least `minimumBytes`), as given even
  /// beyond a quarter of the file system; else the budget for the file system of `directory`.
  static func resolved(explicit: Int?, directory: String) -> DiskBudget {
    guard let explicit else { return forFileSystem(of: directory) }
    return DiskBudget(bytes: max(minimumBytes, explicit))
  }

  /// The budget for the file system holding `directory`: the default, or a quarter of the file
  /// system when smaller.
  static func forFileSystem(of directory: String) -> DiskBudget {
    var status = statvfs()
    guard statvfs(directory, &status) == 0 else { return DiskBudget(bytes: defaultBytes) }
    let total = Int(status.f_blocks) * Int(status.f_frsize)
    return DiskBudget(bytes: total > 0 ? min(defaultBytes, total / 4) : defaultBytes)
  }

  /// The bytes an unprivileged writer may still write on the file system holding `directory`.
  static func freeBytes(of directory: String) -> Int {
    var status = statvfs()
    guard statvfs(directory, &status) == 0 else { return Int.max }
    return Int(status.f_bavail) * Int(status.f_frsize)
  }

  /// Whether the file system is so full that navd's files should shrink at once (retire the
  /// redo file, truncate the WAL) rather than at their sizes.
  func underPressure(_ directory: String) -> Bool { Self.freeBytes(of: directory) < bytes }
}

/// `navd.reserve`: space navd holds so that, on a full disk, it can give it up and still write
/// what frees its other files (a checkpoint, a new redo file).
final class DiskReserve: Sendable {
  static let fileName = "navd.reserve"
  let path: String
  private let bytes: Int
  private let held = Mutex(false)

  /// The reserve beside the database at `databasePath`; made at once when there is room.
  init(databasePath: String, bytes: Int) {
    path = StateDirectory.containing(databasePath) + "/" + Self.fileName
    self.bytes = bytes
    restoreIfRoom()
  }

  /// Gives the space up (a full disk); true when it held any.
  @discardableResult
  func release() -> Bool {
    held.withLock { held in
      defer { held = false }
      unlink(path)
      return held
    }
  }

  /// Takes the space again when the file system has twice its size free.
  func restoreIfRoom() {
    held.withLock { held in
      guard !held else { return }
      var status = stat()
      // Kept from the last run: nothing to write.
      if lstat(path, &status) == 0, Int(status.st_size) >= bytes, status.st_blocks * 512 >= bytes {
        held = true
        return
      }
      guard DiskBudget.freeBytes(of: StateDirectory.containing(path)) >= 2 * bytes else { return }
      held = Self.write(path, bytes: bytes)
    }
  }

  private static func write(_ path: String, bytes: Int) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0, count: 64 << 10)
    var done = 0
    while done < bytes {
      let count = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, min($0.count, bytes - done)) }
      guard count > 0 else {
        _ = ftruncate(fd, 0)
        unlink(path)
        return false
      }
      done += count
    }
    return true
  }
}

/// The budget and the reserve of one store, and what its writing thread does with them.
struct DiskSpace: Sendable {
  let directory: String
  let budget: DiskBudget
  let reserve: DiskReserve

  /// On a full disk: gives up the reserve and checkpoints the WAL to nothing. True when that
  /// may have freed room (a retry is worth making).
  func relieve(_ writer: StoreWriter) -> Bool {
    let released = reserve.release()
    return writer.checkpointAndTruncate() || released
  }

  /// After a successful transaction: under pressure, cuts the WAL back at once; takes the
  /// reserve again when there is room.
  func keepWithinBudget(_ writer: StoreWriter) {
    if budget.underPressure(directory) { writer.checkpointAndTruncate() }
    reserve.restoreIfRoom()
  }
}
