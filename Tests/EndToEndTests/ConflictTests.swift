import NavClient
import NavModel
import Synchronization
import Testing

/// Concurrent edits against a real navd (issue 5, "Proof"; CONFLICTS.md C1, §7, §8).
@Suite("Concurrent edits against a real navd", .timeLimit(.minutes(10)))
struct ConflictTests {
  static let titleField = "navigationItem/inbox/title"

  /// Client A and client B, and `inbox` on the stack, titled "Inbox".
  private static func twoClients(_ navd: RunningNavd) async throws -> (a: NavClient, b: NavClient) {
    let a = makeClient(navd, clientId: "client-A")
    let b = makeClient(navd, clientId: "client-B")
    _ = try await a.mutate(ops: [.push(NavigationItem(id: "inbox", title: "Inbox"), animated: false)])
    return (a, b)
  }

  @Test("C1: B's title edit from a stale version after A's", arguments: MutationPolicy.allCases)
  func staleTitleEdit(policy: MutationPolicy) async throws {
    try await withNavd { navd in
      let (a, b) = try await Self.twoClients(navd)
      // Both read version V.
      let base = try await a.state().version
      #expect(try await b.state().version == base)

      let first = try await a.mutate(ops: [setTitle("inbox", "Mail")], baseVersion: base, policy: policy)
      #expect(first.version == base + 1)
      #expect(first.overwritten.isEmpty)

      switch policy {
      case .lastWriterWins:
        let second = try await b.mutate(ops: [setTitle("inbox", "Post")], baseVersion: base, policy: policy)
        #expect(second.version == base + 2)
        #expect(
          second.overwritten == [.init(field: Self.titleField, previousValue: "Mail", version: base + 1)],
          "the reply lists A's overwritten title and the version that wrote it")
        #expect(!second.baseVersionExpired)
        #expect(!second.replayed)
        let (version, state) = try await a.state()
        #expect(version == base + 2)
        #expect(title(of: "inbox", in: state) == "Post")
      case .failOnConflict:
        let error = await #expect(throws: NavClientError.self) {
          try await b.mutate(ops: [setTitle("inbox", "Post")], baseVersion: base, policy: policy)
        }
        #expect(error?.isConflict == true)
        #expect(error?.currentVersion == base + 1)
        #expect(
          conflicts(in: error) == [
            ["field": .string(Self.titleField), "currentValue": "Mail", "version": .number(Double(base + 1))]
          ],
          "the Conflict carries the current title and the version that wrote it")
        let (version, state) = try await b.state()
        #expect(version == base + 1, "a rejected mutation leaves no trace")
        #expect(title(of: "inbox", in: state) == "Mail", "A's title is not lost")
      }
    }
  }

  @Test("C1: A's and B's title edits in flight at once", arguments: MutationPolicy.allCases)
  func simultaneousTitleEdits(policy: MutationPolicy) async throws {
    try await withNavd { navd in
      let (a, b) = try await Self.twoClients(navd)
      let base = try await a.state().version
      #expect(try await b.state().version == base)

      let fromA = Task { try await a.mutate(ops: [setTitle("inbox", "Mail")], baseVersion: base, policy: policy) }
      let fromB = Task { try await b.mutate(ops: [setTitle("inbox", "Post")], baseVersion: base, policy: policy) }
      let outcomes = [("Mail", await fromA.result), ("Post", await fromB.result)]
      let (version, state) = try await a.state()

      switch policy {
      case .lastWriterWins:
        let replies = try outcomes.map { ($0.0, try $0.1.get()) }.sorted { $0.1.version < $1.1.version }
        #expect(replies.map(\.1.version) == [base + 1, base + 2])
        let (earlierTitle, earlier) = replies[0]
        let (laterTitle, later) = replies[1]
        #expect(earlier.overwritten.isEmpty)
        #expect(
          later.overwritten == [.init(field: Self.titleField, previousValue: .string(earlierTitle), version: base + 1)])
        #expect(version == base + 2)
        #expect(title(of: "inbox", in: state) == laterTitle)
      case .failOnConflict:
        let winners = outcomes.compactMap { title, outcome in (try? outcome.get()).map { (title, $0) } }
        let losers = outcomes.compactMap { _, outcome -> NavClientError? in
          guard case .failure(let error) = outcome else { return nil }
          return error as? NavClientError
        }
        try #require(winners.count == 1 && losers.count == 1, "exactly one of two conflicting edits wins: \(outcomes)")
        let (winnerTitle, winner) = winners[0]
        #expect(winner.version == base + 1)
        #expect(losers[0].isConflict)
        #expect(losers[0].currentVersion == base + 1)
        #expect(
          conflicts(in: losers[0]) == [
            [
              "field": .string(Self.titleField), "currentValue": .string(winnerTitle),
              "version": .number(Double(base + 1)),
            ]
          ])
        #expect(version == base + 1)
        #expect(title(of: "inbox", in: state) == winnerTitle, "the winner's title is not lost")
      }
    }
  }

  @Test("the mutator re-runs on fresh state after a conflict, so no increment is lost")
  func mutatorReRunsAfterConflict() async throws {
    try await withNavd { navd in
      let b = makeClient(navd, clientId: "client-B")
      let setup = try await b.mutate(ops: [.push(NavigationItem(id: "counter", title: "n=0"), animated: false)])
      let seen = Mutex<[Int]>([])
      let socketPath = navd.socketPath

      let reply = try await b.mutate { state in
        let n = try counter(in: state)
        let run = seen.withLock { runs in
          runs.append(n)
          return runs.count
        }
        if run == 1 {
          // Client A gets there first, between B's read and B's write.
          try commitBlocking(socketPath: socketPath, clientId: "client-A", ops: [setTitle("counter", "n=5")])
        }
        return [setTitle("counter", "n=\(n + 1)")]
      }

      #expect(seen.withLock { $0 } == [0, 5], "the body ran twice: on n=0, then on A's n=5")
      #expect(reply.version == setup.version + 2)
      #expect(reply.overwritten.isEmpty)
      let (version, state) = try await b.state()
      #expect(version == setup.version + 2)
      #expect(title(of: "counter", in: state) == "n=6")
    }
  }

  @Test("a mutator that loses every attempt throws the Conflict after maxAttempts runs")
  func mutatorGivesUp() async throws {
    try await withNavd { navd in
      let b = makeClient(navd, clientId: "client-B")
      let setup = try await b.mutate(ops: [.push(NavigationItem(id: "counter", title: "n=0"), animated: false)])
      let runs = Mutex(0)
      let socketPath = navd.socketPath

      let error = await #expect(throws: NavClientError.self) {
        try await b.mutate(maxAttempts: 3) { state in
          let n = try counter(in: state)
          let run = runs.withLock { runs in
            runs += 1
            return runs
          }
          try commitBlocking(socketPath: socketPath, clientId: "client-A", ops: [setTitle("counter", "n=\(100 + run)")])
          return [setTitle("counter", "n=\(n + 1)")]
        }
      }

      #expect(runs.withLock { $0 } == 3)
      #expect(error?.isConflict == true)
      #expect(error?.currentVersion == setup.version + 3)
      let (version, state) = try await b.state()
      #expect(version == setup.version + 3, "only A's three writes committed")
      #expect(title(of: "counter", in: state) == "n=103")
    }
  }

  @Test(
    "a retried mutationId is answered from memory: same connection, new connection, new NavClient with the clientId")
  func idempotentRetry() async throws {
    try await withNavd { navd in
      let client = makeClient(navd, clientId: "retrier")
      let other = makeClient(navd, clientId: "other")
      _ = try await other.mutate(ops: [.push(NavigationItem(id: "inbox", title: "Inbox"), animated: false)])
      let ops = [setTitle("inbox", "Once")]

      let first = try await client.mutate(ops: ops, mutationId: "m1")
      #expect(!first.replayed)
      let second = try await client.mutate(ops: ops, mutationId: "m1")
      #expect(second.replayed)
      #expect(second.version == first.version)
      #expect(second.overwritten == first.overwritten)
      #expect(try await other.state().version == first.version, "a replay applies nothing")

      // Someone else moves the scene on; a replay must neither apply again nor undo that.
      let moved = try await other.mutate(ops: [setTitle("inbox", "Changed by other")])
      client.close()  // The next call reconnects.
      let third = try await client.mutate(ops: ops, mutationId: "m1")
      #expect(third.replayed)
      #expect(third.version == first.version)

      let sameIdentity = makeClient(navd, clientId: "retrier")
      let fourth = try await sameIdentity.mutate(ops: ops, mutationId: "m1")
      #expect(fourth.replayed)
      #expect(fourth.version == first.version)

      let (version, state) = try await other.state()
      #expect(version == moved.version)
      #expect(title(of: "inbox", in: state) == "Changed by other")

      // The id is remembered per client: another client's "m1" is a new mutation…
      let stranger = try await makeClient(navd, clientId: "stranger").mutate(ops: ops, mutationId: "m1")
      #expect(!stranger.replayed)
      #expect(stranger.version == moved.version + 1)
      // …and reusing an id for different ops is rejected (CONFLICTS.md I2).
      let reused = await #expect(throws: NavClientError.self) {
        try await client.mutate(ops: [setTitle("inbox", "Twice")], mutationId: "m1")
      }
      #expect(reused?.remoteName == "io.navd.InvalidMutation")
      if case .remote(_, let parameters)? = reused { #expect(parameters["field"] == "mutationId") }
    }
  }
}

/// The `conflicts` parameter of an `io.navd.Conflict`, nil for anything else.
private func conflicts(in error: NavClientError?) -> [JSONValue]? {
  guard case .remote(_, let parameters)? = error else { return nil }
  return parameters["conflicts"]?.arrayValue
}

/// The k of the `counter` item's title "n=<k>".
private func counter(in state: SceneState) throws -> Int {
  let text = try #require(title(of: "counter", in: state), "no counter on the stack")
  return try #require(Int(text.dropFirst(2)), "counter title \"\(text)\" is not n=<k>")
}

/// Commits `ops` to `main` as `clientId`, synchronously (see `blockingVarlinkCall`).
private func commitBlocking(socketPath: String, clientId: String, ops: [Op]) throws {
  let reply = try blockingVarlinkCall(
    socketPath: socketPath, method: "io.navd.Mutate",
    parameters: ["scene": "main", "clientId": .string(clientId), "ops": .array(ops.map(\.json))])
  if let error = reply.error {
    throw BlockingCallError(description: "Mutate by \(clientId) failed: \(error) \(reply.parameters)")
  }
}
