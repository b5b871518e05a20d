import NavModel
import NavWire
import Varlink

@testable import NavClient

/// A client of `server` that reconnects fast, so reconnection tests stay short.
func makeClient(_ server: FakeVarlinkServer, clientId: String? = "test-client", timeout: Duration? = nil) -> NavClient {
  NavClient(
    socketPath: server.path, clientId: clientId, timeout: timeout,
    backoff: Backoff.Configuration(initial: .milliseconds(5), maximum: .milliseconds(40)))
}

/// Reply parameters of a Subscribe snapshot.
func snapshot(_ version: Int, _ document: JSONValue) -> [String: JSONValue] {
  ["kind": "snapshot", "version": .number(Double(version)), "view": "layout", "document": document]
}

/// Reply parameters of a Subscribe update.
func update(
  _ from: Int, _ to: Int, _ patch: JSONValue, events: JSONValue = [], animated: Bool = false
) -> [String: JSONValue] {
  [
    "kind": "update", "fromVersion": .number(Double(from)), "toVersion": .number(Double(to)), "patch": patch,
    "animated": .bool(animated), "events": events,
  ]
}

/// A patch replacing `/title` with `title`.
func setTitle(_ title: String) -> JSONValue {
  [["op": "replace", "path": "/title", "value": .string(title)]]
}

/// Parameters of a successful Mutate reply.
func mutateReply(version: Int, replayed: Bool = false) -> [String: JSONValue] {
  ["version": .number(Double(version)), "overwritten": [], "baseVersionExpired": false, "replayed": .bool(replayed)]
}

extension [FakeVarlinkServer.Event] {
  func calls(_ method: String) -> [VarlinkCall] {
    compactMap { event in
      if case .call(_, let call) = event, call.method == method { return call }
      return nil
    }
  }

  var closedConnections: [Int] { compactMap(\.closedConnection) }
}
