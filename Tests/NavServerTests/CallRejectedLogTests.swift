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

@Suite("The call-rejected record (navd(8), --log-target: SCENE, VERSION, CLIENT_*)")
struct CallRejectedLogTests {
  @Test("a rejected call's record carries the scene, the scene's version and the client")
  func fields() {
    let sink = RecordingSink()
    let log = Log(sink: sink)
    let parameters = JSONValue.object([
      "message": .string("fields changed since baseVersion 3"), "scene": .string("main"),
      "currentVersion": .number(7),
    ])
    log.callRejected(
      method: "io.navd.Mutate", error: "io.navd.Conflict", parameters: parameters,
      peer: PeerCredentials(pid: 42, uid: 1000, gid: 100), connection: 9)
    log.flush()
    let record = try! #require(sink.records.withLock { $0.first })
    let fields = Dictionary(record.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    #expect(record.message == "call rejected: fields changed since baseVersion 3")
    #expect(fields["scene"] == "main" && fields["version"] == "7")
    #expect(fields["pid"] == "42" && fields["uid"] == "1000" && fields["connection"] == "9")
  }

  @Test("an error without a currentVersion gives no version field")
  func noVersion() {
    let sink = RecordingSink()
    let log = Log(sink: sink)
    log.callRejected(
      method: "io.navd.GetState", error: "io.navd.SceneNotFound",
      parameters: .object(["message": .string("no scene x")]), peer: PeerCredentials(pid: 1, uid: 0, gid: 0),
      connection: 1)
    log.flush()
    #expect(sink.records.withLock { $0.first?.fields.contains { $0.key == "version" } } == false)
  }
}
