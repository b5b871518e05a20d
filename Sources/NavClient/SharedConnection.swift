import Synchronization

/// The one connection a `NavClient` pipelines its plain calls on, opened on first use and
/// reopened on the next call after it breaks.
final class SharedConnection: Sendable {
  private enum State {
    case idle
    case connecting(Task<ClientConnection, any Error>)
    case ready(ClientConnection)
  }

  private enum Next {
    case ready(ClientConnection)
    case wait(Task<ClientConnection, any Error>)
  }

  let socketPath: String
  private let state = Mutex<State>(.idle)

  init(socketPath: String) {
    self.socketPath = socketPath
  }

  /// The live connection, connecting first when there is none (concurrent callers share one attempt).
  func connection(deadline: Deadline) async throws -> ClientConnection {
    let path = socketPath
    let next = state.withLock { state -> Next in
      switch state {
      case .ready(let connection) where !connection.isClosed:
        return .ready(connection)
      case .connecting(let task):
        return .wait(task)
      case .idle, .ready:
        let task = Task { try await ClientConnection.connect(to: path, deadline: deadline.instant) }
        state = .connecting(task)
        return .wait(task)
      }
    }
    switch next {
    case .ready(let connection):
      return connection
    case .wait(let task):
      do {
        let connection = try await task.value
        state.withLock { state in
          if case .connecting(let current) = state, current == task { state = .ready(connection) }
        }
        return connection
      } catch {
        state.withLock { state in
          if case .connecting(let current) = state, current == task { state = .idle }
        }
        throw error
      }
    }
  }

  /// Closes the current connection; the next call opens a new one.
  func close() {
    let current = state.withLock { state -> ClientConnection? in
      defer { if case .ready = state { state = .idle } }
      if case .ready(let connection) = state { return connection }
      return nil
    }
    current?.close()
  }
}
