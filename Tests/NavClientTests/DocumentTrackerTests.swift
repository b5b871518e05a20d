import NavModel
import NavWire
import Testing
import Varlink

@testable import NavClient

/// The tracker without sockets: feed it replies, check what it yields and how it resubscribes.
@Suite("DocumentTracker: continuity and resync, as a pure state machine")
struct DocumentTrackerTests {
  private func reply(_ parameters: [String: JSONValue]) -> VarlinkReply {
    VarlinkReply(parameters: parameters, continues: true)
  }

  private func yielded(_ step: StreamStep<DocumentUpdate>) -> DocumentUpdate? {
    if case .yield(let update) = step { return update }
    return nil
  }

  private func isRestart(_ step: StreamStep<DocumentUpdate>) -> Bool {
    if case .restart = step { return true }
    return false
  }

  @Test("the opening call asks for a snapshot first, then resumes from the kept version")
  func openingCall() throws {
    var tracker = DocumentTracker(scene: "s", view: .layout, metrics: LayoutMetrics(width: 200), since: nil)
    #expect(tracker.openingCall().parameters == ["scene": "s", "view": "layout", "width": 200])
    #expect(tracker.openingCall().more)
    _ = try tracker.received(reply(snapshot(5, ["a": 1])))
    #expect(tracker.openingCall().parameters["sinceVersion"] == 5)
    _ = try tracker.received(reply(update(5, 6, [["op": "replace", "path": "/a", "value": 2]])))
    #expect(tracker.openingCall().parameters["sinceVersion"] == 6)
    #expect(tracker.current == DocumentCheckpoint(version: 6, document: ["a": 2]))
  }

  @Test("§9.21 waitForScene is sent on every opening call, the resuming ones too")
  func waitForScene() throws {
    var tracker = DocumentTracker(scene: "s", view: .state, metrics: .defaults, since: nil, waitForScene: true)
    #expect(tracker.openingCall().parameters == ["scene": "s", "view": "state", "waitForScene": true])
    _ = try tracker.received(reply(snapshot(0, [:])))
    #expect(tracker.openingCall().parameters["waitForScene"] == true)
    #expect(tracker.openingCall().parameters["sinceVersion"] == 0)
  }

  @Test("a gap, a repeat, or a patch that fails each ask for a snapshot, and the snapshot clears that")
  func resyncs() throws {
    var tracker = DocumentTracker(scene: "s", view: .state, metrics: .defaults, since: nil)
    _ = try tracker.received(reply(snapshot(1, ["a": 1])))
    #expect(isRestart(try tracker.received(reply(update(2, 3, [])))))
    #expect(tracker.openingCall().parameters["sinceVersion"] == nil)
    _ = try tracker.received(reply(snapshot(3, ["a": 3])))
    #expect(tracker.openingCall().parameters["sinceVersion"] == 3)
    #expect(isRestart(try tracker.received(reply(update(3, 3, [])))))
    _ = try tracker.received(reply(snapshot(3, ["a": 3])))
    #expect(isRestart(try tracker.received(reply(update(3, 4, [["op": "remove", "path": "/b"]])))))
    #expect(tracker.resyncs == 3)
    #expect(tracker.current == DocumentCheckpoint(version: 3, document: ["a": 3]))
  }

  @Test("an update before any snapshot cannot be applied: resync")
  func updateBeforeSnapshot() throws {
    var tracker = DocumentTracker(scene: "s", view: .state, metrics: .defaults, since: nil)
    #expect(isRestart(try tracker.received(reply(update(0, 1, [])))))
  }

  @Test("coalesced updates are applied and flagged")
  func coalesced() throws {
    var tracker = DocumentTracker(scene: "s", view: .state, metrics: .defaults, since: nil)
    _ = try tracker.received(reply(snapshot(1, ["a": 1])))
    var parameters = update(1, 9, [["op": "replace", "path": "/a", "value": 9]])
    parameters["coalesced"] = true
    let update = try #require(yielded(try tracker.received(reply(parameters))))
    #expect(update.version == 9 && update.coalesced && update.document == ["a": 9])
  }

  @Test("unknown kinds are skipped; malformed replies are protocol violations")
  func unknownAndMalformed() throws {
    var tracker = DocumentTracker(scene: "s", view: .state, metrics: .defaults, since: nil)
    _ = try tracker.received(reply(snapshot(1, ["a": 1])))
    if case .skip = try tracker.received(reply(["kind": "futureKind"])) {} else { Issue.record("should skip") }
    #expect(throws: NavClientError.self) { try tracker.received(reply(["kind": "update", "fromVersion": 1])) }
    #expect(throws: NavClientError.self) {
      try tracker.received(reply(update(1, 2, [["op": "explode", "path": "/a"]])))
    }
    #expect(throws: NavClientError.self) { try tracker.received(reply(["version": 1])) }
  }
}
