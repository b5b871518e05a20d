import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

extension StoreError {
  /// The store's files: a failed system call on `path`, from `errno` (read at once), naming
  /// both. A full disk or quota is `.full`, which heals once space returns; anything else `.io`.
  static func systemCall(_ operation: String, _ path: String) -> StoreError {
    let code = errno
    let reason = String(cString: strerror(code))
    if code == ENOSPC || code == EDQUOT {
      return StoreError(.full, "\(path): the disk is full (\(reason)); nothing was stored")
    }
    return StoreError(.io, "\(path): \(operation): \(reason)")
  }
}
