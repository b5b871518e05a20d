import NavClient
import NavModel
import Testing

/// A subscribed view: the document kind and, for layouts, the width.
struct ViewCase: Sendable, CustomTestStringConvertible {
  var view: DocumentKind
  var width: Double?

  static let state = ViewCase(view: .state)
  static let layout = ViewCase(view: .layout)
  static let narrowLayout = ViewCase(view: .layout, width: 320)

  var testDescription: String { width.map { "\(view)@\($0)" } ?? "\(view)" }
}

/// `NavClient.updates` against a real navd: documents, reconnection, resumption (issue 3, "Tests").
@Suite("NavClient updates against a real navd", .timeLimit(.minutes(10)))
struct UpdatesTests {
  @Test(
    "updates yields a snapshot, then one update per version equal to the plain read",
    arguments: [ViewCase.state, .layout, .narrowLayout])
  func snapshotThenUpdates(_ subscribed: ViewCase) async throws {
    try await withNavd { navd in
      let writer = makeClient(navd, clientId: "writer")
      let reader = makeClient(navd, clientId: "reader")
      _ = try await writer.mutate(ops: varietyOfMutations[0])
      let updates = subscribe(reader, view: subscribed.view, width: subscribed.width)

      let snapshot = try await updates.next()
      let atStart = try await currentDocument(reader, view: subscribed.view, width: subscribed.width)
      #expect(snapshot.isSnapshot)
      #expect(snapshot.version == atStart.version)
      #expect(snapshot.document == atStart.document)

      var previous = snapshot.version
      for ops in varietyOfMutations.dropFirst() {
        let reply = try await writer.mutate(ops: ops)
        let update = try await updates.next()
        let now = try await currentDocument(reader, view: subscribed.view, width: subscribed.width)
        #expect(!update.isSnapshot)
        #expect(!update.coalesced)
        #expect(update.version == previous + 1, "versions must follow on without a gap")
        #expect(update.version == reply.version)
        #expect(now.version == reply.version)
        #expect(update.document == now.document, "document at version \(update.version) differs from the plain read")
        previous = update.version
      }

      // A burst of concurrent mutations from two more clients: every version once, in order;
      // versions committed together arrive as one update spanning them (PROTOCOL.md §6 "Gap-free").
      let writers = [makeClient(navd, clientId: "burst-1"), makeClient(navd, clientId: "burst-2")]
      let replies = try await withThrowingTaskGroup(of: UInt64.self) { group in
        for index in 0..<10 {
          let client = writers[index % 2]
          group.addTask { try await client.mutate(ops: [setTitle("inbox", "Burst \(index)")]).version }
        }
        return try await group.reduce(into: [UInt64]()) { $0.append($1) }
      }
      let last = try #require(replies.max())
      #expect(Set(replies) == Set((previous + 1)...(previous + 10)), "each acknowledged version is distinct")
      var latest = snapshot
      while previous < last {
        latest = try await updates.next()
        #expect(!latest.isSnapshot && !latest.coalesced)
        #expect(latest.version > previous && latest.version <= last, "versions must follow on without a repeat")
        #expect(latest.version == previous + 1 || latest.events.isEmpty, "a span of versions carries no events")
        previous = latest.version
      }
      let now = try await currentDocument(reader, view: subscribed.view, width: subscribed.width)
      #expect(now.version == last)
      #expect(latest.document == now.document)
    }
  }

  @Test("after navd restarts, updates resync from a snapshot of the new navd, and plain calls reconnect")
  func reconnectAfterRestart() async throws {
    try await withNavd { navd in
      let writer = makeClient(navd, clientId: "writer")
      let reader = makeClient(navd, clientId: "reader")
      let observer = makeClient(navd, clientId: "observer")
      let updates = subscribe(reader, view: .state)
      _ = try await updates.next()
      for ops in varietyOfMutations.prefix(3) {
        _ = try await writer.mutate(ops: ops)
        _ = try await updates.next()
      }
      let before = try await observer.serverInfo()

      #expect(
        try await navd.restart(discardingState: true), "the first navd should stop cleanly on SIGTERM")

      // The new navd holds nothing (its state was removed): `main` is back at version 0, below the client's 3.
      let reply = try await writer.mutate(ops: [
        .push(NavigationItem(id: "fresh", title: "Fresh start"), animated: false)
      ])
      #expect(reply.version == 1)
      // A call that is never retried: the observer's dead connection must be replaced before sending.
      let after = try await observer.call(method: "io.navd.GetServerInfo")
      #expect(after["pid"]?.numberValue.map { Int($0) } == navd.pid.map { Int($0) })
      #expect(after["pid"]?.numberValue.map { Int($0) } != before.pid)

      let resync = try await updates.next()
      let fresh = try await currentDocument(observer, view: .state)
      #expect(resync.isSnapshot, "a navd behind the client's version must be answered with a snapshot")
      #expect(resync.version == 1)
      #expect(resync.document == fresh.document)

      let next = try await writer.mutate(ops: [setTitle("fresh", "Still fresh")])
      let update = try await updates.next()
      let now = try await currentDocument(observer, view: .state)
      #expect(!update.isSnapshot)
      #expect(update.version == next.version)
      #expect(update.version == now.version)
      #expect(update.document == now.document)
    }
  }

  /// The new navd has committed as many versions as the client saw from the old one (or more)
  /// by the time the subscription reconnects, so `sinceVersion` names a version the new navd
  /// holds — but of a different history.
  @Test(
    "after navd restarts and the new navd reaches the client's version, updates still end at the new navd's document",
    arguments: [0, 2])
  func reconnectToNavdThatCaughtUp(extraVersions: Int) async throws {
    try await withNavd { navd in
      let writer = makeClient(navd, clientId: "writer")
      let reader = makeClient(navd, clientId: "reader")
      let updates = subscribe(reader, view: .state)
      _ = try await updates.next()
      let oldHistory: [[Op]] = [
        [.push(NavigationItem(id: "old", title: "Old 1"), animated: false)],
        [.defineBarButtonItem(BarButtonItem(id: "gone", title: "Gone"))],
        [setTitle("old", "Old 3")],
      ]
      var seen: UInt64 = 0
      for ops in oldHistory {
        _ = try await writer.mutate(ops: ops)
        seen = try await updates.next().version
      }
      #expect(seen == 3)

      try await navd.restart()

      // While the subscriber is not pulling (so not reconnecting), the new navd gets as far.
      var newHistory: [[Op]] = [
        [.push(NavigationItem(id: "new", title: "New 1"), animated: false)],
        [setTitle("new", "New 2")],
        [setTitle("new", "New 3")],
      ]
      for index in 0..<extraVersions { newHistory.append([setTitle("new", "New \(4 + index)")]) }
      newHistory.append([.updateNavigationItem("new", [.prompt("Hello")], animated: false)])
      var final: UInt64 = 0
      for ops in newHistory { final = try await writer.mutate(ops: ops).version }

      var latest = try await updates.next()
      var received = 1
      while latest.version < final, received < 20 {
        latest = try await updates.next()
        received += 1
      }
      let now = try await currentDocument(writer, view: .state)
      #expect(latest.version == now.version)
      let sameDocument = latest.document == now.document
      #expect(
        sameDocument,
        """
        the subscriber resumed with sinceVersion \(seen) from the old navd and applied the new navd's \
        patches to the old navd's document: its document at version \(latest.version) is \
        \(JSONWriter.string(latest.document)), the new navd's is \(JSONWriter.string(now.document))
        """)
    }
  }

  @Test(
    "updates(since:) resumes from a checkpoint with the updates since then, not a snapshot",
    arguments: [ViewCase.state, .narrowLayout])
  func resumeFromCheckpoint(_ subscribed: ViewCase) async throws {
    try await withNavd { navd in
      let writer = makeClient(navd, clientId: "writer")
      let reader = makeClient(navd, clientId: "reader")
      _ = try await writer.mutate(ops: varietyOfMutations[0])

      var checkpoint: DocumentCheckpoint
      do {
        let first = subscribe(reader, view: subscribed.view, width: subscribed.width)
        #expect(try await first.next().isSnapshot)
        _ = try await writer.mutate(ops: varietyOfMutations[1])
        let update = try await first.next()
        #expect(!update.isSnapshot)
        checkpoint = update.checkpoint
      }  // The first subscription ends here: its reader (and connection) is released.

      for ops in varietyOfMutations[2...4] { _ = try await writer.mutate(ops: ops) }

      let resumed = subscribe(reader, view: subscribed.view, width: subscribed.width, since: checkpoint)
      var latest = DocumentUpdate(version: checkpoint.version, document: checkpoint.document)
      for expected in (checkpoint.version + 1)...(checkpoint.version + 3) {
        latest = try await resumed.next()
        #expect(!latest.isSnapshot, "a checkpoint navd still holds must resume with updates")
        #expect(latest.version == expected)
      }
      let now = try await currentDocument(reader, view: subscribed.view, width: subscribed.width)
      #expect(latest.version == now.version)
      #expect(latest.document == now.document)

      // And it carries on live.
      let reply = try await writer.mutate(ops: varietyOfMutations[5])
      let live = try await resumed.next()
      let after = try await currentDocument(reader, view: subscribed.view, width: subscribed.width)
      #expect(!live.isSnapshot)
      #expect(live.version == reply.version)
      #expect(live.document == after.document)
    }
  }
}
