import NavModel
import Synchronization

/// Mutations submitted without a task of their own.
///
/// `mutate` costs its caller a task, a hop onto the actor and a continuation: on navd's one
/// event-loop thread that was ~9,000 instructions of a pipelined Mutate's ~72,000. `submit`
/// is synchronous: it queues the request in the scene's mailbox (a mutex) and only the first
/// request into an empty mailbox starts a task. That task moves every request queued by then
/// into `pending` and leads their groups exactly as a `mutate` caller would (`handOffLead`),
/// then looks at the mailbox again. A pipelined burst read in one pass of the event loop is
/// thus one task and one group, not a task per call.
extension SceneEngine {
  /// Requests queued by `submit`, and whether a task to drain them is already on its way.
  /// Bounded like `pending`: each request is a call in flight, and the server bounds those.
  struct Mailbox: Sendable {
    /// Already in `pending`'s form, so moving them there copies no request.
    var requests: [(MutationRequest, Reply)] = []
    var scheduled = false
  }

  /// Commits `request` as `mutate` does and calls `completion` with its result (on the
  /// actor) once the version is stored and published; returns at once. Mutations submitted
  /// in order are committed in that order. The task that drains the mailbox, when one has to
  /// start, runs on `executor` (navd's event loop) when given.
  ///
  /// With an executor the task starts immediately (`Task.immediate`), on the caller's
  /// thread: all it does there is hop onto the actor, which (a task preferring an executor
  /// never takes the actor inline) queues the drain on `executor`. Started as a plain `Task`
  /// it was first a job of its own on the executor just to make that hop (a navd round
  /// trip's event loop: 54,725 instructions with it, 54,250 without; `bench/profile.sh`).
  /// Without one, a plain `Task`: an immediate one could drain on the caller's thread,
  /// answering before `submit` returns.
  public nonisolated func submit(
    _ request: MutationRequest, executor: (any TaskExecutor)? = nil, completion: @escaping Completion
  ) {
    let start = mailbox.withLock { box in
      box.requests.append((request, .callback(completion)))
      defer { box.scheduled = true }
      return !box.scheduled
    }
    guard start else { return }
    if let executor {
      Task.immediate(executorPreference: executor) { await self.drainMailbox() }
    } else {
      Task { await self.drainMailbox() }
    }
  }

  /// Moves the mailbox's requests to `pending` until it is empty. When no leader is at work,
  /// this task leads; otherwise the leader commits them after its group.
  private func drainMailbox() async {
    while let submitted = takeMailbox() {
      if pending.isEmpty {
        pending = submitted
      } else {
        pending.append(contentsOf: submitted)
      }
      guard !draining else { continue }
      draining = true
      // `handOffLead`, inline: a call into it costs an executor check and a frame.
      while let group = leadAtOnce() { await commit(group) }
    }
  }

  /// Everything in the mailbox, emptied; nil (and no task scheduled any more) when it is empty.
  private func takeMailbox() -> [(MutationRequest, Reply)]? {
    mailbox.withLock { box in
      guard !box.requests.isEmpty else {
        box.scheduled = false
        return nil
      }
      var taken: [(MutationRequest, Reply)] = []
      swap(&taken, &box.requests)
      return taken
    }
  }
}
