import CSystemd
import NavServer

#if canImport(Glibc)
  import Glibc
#endif

/// Writes log records to systemd's journal as structured entries (`sd_journal_sendv`):
/// `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `MESSAGE_ID` (see `JournalMessageID`), and
/// each record field as its own journal field (`pid` → `CLIENT_PID`, `uid` →
/// `CLIENT_UID`, `scene` → `SCENE`, `version` → `VERSION`, others upper-cased).
///
/// `sd_journal_sendv` can block on a journal that does not read; `Log` calls sinks only
/// on its own writer thread, with a bounded queue in front, so the loop never waits.
public struct JournalLogSink: LogSink {
  private let identifier: String

  /// `identifier` becomes `SYSLOG_IDENTIFIER`.
  public init(identifier: String = "navd") {
    self.identifier = identifier
  }

  /// Whether journald is there to take entries: `sd_journal_stream_fd` fails with
  /// -ENOENT without it (while `sd_journal_sendv` would drop entries silently).
  public static func isJournalAvailable() -> Bool {
    let fd = csd_journal_stream_fd("navd", LOG_INFO, 0)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }

  /// The journal fields of `record`, in order (`MESSAGE` first).
  public func fields(of record: LogRecord) -> [String] {
    var fields = [
      "MESSAGE=\(record.message)", "PRIORITY=\(record.level.rawValue)", "SYSLOG_IDENTIFIER=\(identifier)",
    ]
    if let id = JournalMessageID.of(message: record.message, fields: record.fields) {
      fields.append("MESSAGE_ID=\(id.rawValue)")
    }
    for field in record.fields where field.key != "event" {
      fields.append("\(Self.journalName(field.key))=\(field.value)")
    }
    return fields
  }

  /// Sends one entry; may block (on the log's writer thread only).
  public func write(_ record: LogRecord) {
    var storage = fields(of: record).map { Array($0.utf8) }
    let count = storage.count
    storage.withUnsafeMutableBufferPointer { entries in
      var vectors = [iovec](repeating: iovec(), count: count)
      func send(_ index: Int) {
        if index == count {
          _ = csd_journal_sendv(&vectors, Int32(count))
          return
        }
        entries[index].withUnsafeMutableBytes { bytes in
          vectors[index] = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
          send(index + 1)
        }
      }
      send(0)
    }
  }

  /// A journal field name for a record field: `[A-Z0-9_]`, not starting with `_` or a digit.
  static func journalName(_ key: String) -> String {
    switch key {
    case "pid": return "CLIENT_PID"
    case "uid": return "CLIENT_UID"
    case "gid": return "CLIENT_GID"
    default:
      var name = String(key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(64))
      if name.first.map({ $0 == "_" || $0.isNumber }) ?? true { name = "NAVD_" + name }
      return name
    }
  }
}
