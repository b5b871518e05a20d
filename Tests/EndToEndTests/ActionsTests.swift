import NavClient
import NavModel
import Testing

/// `NavClient.actions()` and `activate` against a real navd.
@Suite("Activations against a real navd", .timeLimit(.minutes(10)))
struct ActionsTests {
  @Test("activate delivers the item's action to actions() and an activate event to updates()")
  func activationIsDelivered() async throws {
    try await withNavd { navd in
      let app = makeClient(navd, clientId: "app")
      let frontEnd = makeClient(navd, clientId: "front-end")
      let setup = try await app.mutate(ops: [
        .defineBarButtonItem(BarButtonItem(id: "compose", systemItem: .compose, tag: 7, action: "compose")),
        .push(NavigationItem(id: "inbox", title: "Inbox", rightBarButtonItems: ["compose"]), animated: false),
      ])
      let updates = subscribe(frontEnd, view: .layout)
      #expect(try await updates.next().isSnapshot)

      let actions = StreamReader(app.actions(), name: "actions()")
      let first = Task { try await actions.next() }
      // WatchActions is sent when the reader first pulls; activate until navd counts the watcher.
      let result = try await withTimeout(.seconds(300), "navd to count the WatchActions watcher") {
        while true {
          let result = try await frontEnd.activate(item: "compose")
          if result.watchers > 0 { return result }
          try await Task.sleep(for: .milliseconds(5))
        }
      }
      #expect(result.watchers == 1)
      #expect(result.action == "compose")
      #expect(result.version == nil)

      let expected = Activation(scene: "main", item: "compose", action: "compose", tag: 7, version: setup.version)
      #expect(try await first.value == expected)
      _ = try await frontEnd.activate(item: "compose")
      #expect(try await actions.next() == expected, "the watch carries on after the first activation")

      // Subscribers see every activation as an events-only step at the same version.
      var activateEvents = 0
      while activateEvents < 2 {
        let step = try await updates.next()
        #expect(!step.isSnapshot)
        #expect(step.version == setup.version)
        #expect(step.patch.isEmpty)
        if step.events.contains(where: { $0["type"] == "activate" && $0["item"] == "compose" }) {
          activateEvents += 1
        }
      }
      #expect(try await app.state().version == setup.version, "activation changes no state")
    }
  }
}
