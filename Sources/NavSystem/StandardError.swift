#if canImport(Glibc)
  import Glibc
#endif

/// Unbuffered writes to file descriptor 2, whole lines at a time.
public enum StandardError {
  /// Writes all of `text` (retrying short writes and EINTR); a closed or full stderr loses it.
  public static func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written > 0 {
        offset += written
      } else if written < 0, errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}
