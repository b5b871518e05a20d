import NavModel
import Synchronization
import Testing

@testable import NavServer

/// Keeps every record written, for the assertions.
private final class RecordingSink: LogSink {
  let records = Mutex<[LogRecord]>([])
  func write(_ record: LogRecord) { records.withLock { $0.append(record) } }
  func flush() {}
}

@Suite("The call-rejected record (navd(8), --log-target: CLIENT_*; the service's fields)")
struct CallRejectedLogTests {
  @Test("a rejected call's record carries the method, the error, the service's summary and the client")
  func fields() throws {
    let sink = RecordingSink()
    let log = Log(sink: sink)
    log.callRejected(
      method: "org.example.Get", error: "org.example.Missing",
      summary: RejectionSummary(message: "no such thing", fields: [("thing", "x")]),
      peer: PeerCredentials(pid: 42, uid: 1000, gid: 100), connection: 9)
    log.flush()
    let record = try #require(sink.records.withLock { $0.first })
    #expect(record.message == "call rejected: no such thing")
    #expect(
      record.fields.map(\.key) == ["method", "error", "thing", "connection", "pid", "uid", "gid"])
    #expect(record.fields[2].value == "x" && record.fields[4].value == "42" && record.fields[3].value == "9")
  }

  @Test("a generic service's summary is the error's name and its string parameters in key order")
  func generic() {
    let summary = RejectionSummary.generic(
      error: "org.varlink.service.InvalidParameter",
      parameters: ["parameter": "width", "count": 3, "interface": "org.example"])
    #expect(summary.message == "org.varlink.service.InvalidParameter")
    #expect(summary.fields.map(\.key) == ["interface", "parameter"])
    #expect(summary.fields.map(\.value) == ["org.example", "width"])
  }
}
