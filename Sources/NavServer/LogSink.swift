import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// How important a log record is; ordered, lowest first (syslog's names and order).
public enum LogLevel: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
  case debug = 7
  case info = 6
  case notice = 5
  case warning = 4
  case error = 3

  /// `a < b` when `a` is less important (debug is the least).
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }

  /// The level's syslog name.
  public var description: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    }
  }
}

/// One log line with structured fields (the journal keeps the fields; stderr prints them).
///
/// The message and every field are escaped and bounded when the record is made
/// (`LogText`), so whatever sink writes it gets one line with no client-made control
/// characters, however the message was built.
public struct LogRecord: Sendable {
  /// How important it is.
  public let level: LogLevel
  /// The human-readable line, escaped, at most `LogText.messageLimit` bytes.
  public let message: String
  /// Key/value context such as `connection`, `pid`, `uid`, in insertion order; values
  /// escaped, at most `LogText.fieldLimit` bytes each.
  public let fields: [(key: String, value: String)]
  /// Wall-clock time the record was made (not when it was written).
  public let timestamp: LogTimestamp

  /// Creates a record stamped now, escaping and bounding `message` and `fields`.
  public init(
    level: LogLevel, message: String, fields: [(key: String, value: String)] = [], timestamp: LogTimestamp = .now()
  ) {
    self.level = level
    self.message = LogText.escaped(message, limit: LogText.messageLimit)
    self.fields = fields.map { field in
      (LogText.escaped(field.key, limit: 64), LogText.escaped(field.value, limit: LogText.fieldLimit))
    }
    self.timestamp = timestamp
  }
}

/// Where log records go. Called only on the log's own writer thread, one record at a
/// time, so an implementation may block (journald, a slow pipe) without stalling the
/// event loop or the cooperative pool. The journald sink plugs in here later.
public protocol LogSink: Sendable {
  /// Writes one record; may block.
  func write(_ record: LogRecord)
  /// Makes everything written so far durable/visible (called on flush and shutdown).
  func flush()
}

extension LogSink {
  /// Nothing to flush by default.
  public func flush() {}
}

/// Writes `2025-01-31T12:00:00.123Z navd[PID] warning: message key=value …` lines to stderr.
public struct StderrLogSink: LogSink {
  private let program: String

  /// `program` is the name printed before the pid.
  public init(program: String = "navd") {
    self.program = program
  }

  /// Formats and writes one line; stderr writes are unbuffered, so no flush is needed.
  public func write(_ record: LogRecord) {
    var line = "\(record.timestamp.iso8601) \(program)[\(getpid())] \(record.level): \(record.message)"
    for field in record.fields {
      line += " \(field.key)=\(Self.quoteIfNeeded(field.value))"
    }
    line += "\n"
    StandardError.write(line)
  }

  /// Quotes a value holding a space, quote or `=` (or none at all), so `key=value` pairs
  /// stay unambiguous. Values are already escaped (`LogText`): no newline, no control
  /// character, every backslash doubled, so `\"` inside quotes can only be a quote.
  private static func quoteIfNeeded(_ value: String) -> String {
    guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else { return value }
    var quoted = "\""
    for character in value {
      if character == "\"" { quoted += "\\" }
      quoted.append(character)
    }
    return quoted + "\""
  }
}
