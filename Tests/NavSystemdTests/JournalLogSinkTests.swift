import NavServer
import Testing

@testable import NavSystemd

@Suite("Journal entries (issue 10, Logging)")
struct JournalLogSinkTests {
  @Test("Logging: MESSAGE, PRIORITY, MESSAGE_ID and client fields become journal fields")
  func fields() {
    let record = LogRecord(
      level: .warning, message: "connection closed: protocol error",
      fields: [("connection", "17"), ("pid", "42"), ("uid", "1000"), ("scene", "main"), ("version", "7")])
    let fields = JournalLogSink().fields(of: record)
    #expect(
      fields == [
        "MESSAGE=connection closed: protocol error", "PRIORITY=4", "SYSLOG_IDENTIFIER=navd",
        "MESSAGE_ID=\(JournalMessageID.connectionClosed.rawValue)", "CONNECTION=17", "CLIENT_PID=42",
        "CLIENT_UID=1000", "SCENE=main", "VERSION=7",
      ])
  }

  @Test("Logging: an event field selects the MESSAGE_ID and is not repeated as a field")
  func eventField() {
    let record = LogRecord(level: .notice, message: "navd is ready", fields: [("event", "ready"), ("scenes", "1")])
    let fields = JournalLogSink().fields(of: record)
    #expect(fields.contains("MESSAGE_ID=\(JournalMessageID.ready.rawValue)"))
    #expect(!fields.contains { $0.hasPrefix("EVENT=") })
    #expect(fields.contains("SCENES=1"))
  }

  @Test("Logging: field names are valid journal names")
  func names() {
    #expect(JournalLogSink.journalName("max_connections") == "MAX_CONNECTIONS")
    #expect(JournalLogSink.journalName("_secret") == "NAVD__SECRET")
    #expect(JournalLogSink.journalName("1st") == "NAVD_1ST")
    #expect(JournalLogSink.journalName("a-b") == "A_B")
  }

  @Test("Logging: every MESSAGE_ID is 32 lower-case hex digits and unique")
  func ids() {
    let ids = JournalMessageID.allCases.map(\.rawValue)
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } })
  }
}
