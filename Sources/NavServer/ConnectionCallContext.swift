import NavModel
import NavWire
import Synchronization

/// The `CallContext` of one dispatched call: encodes answers on the caller's thread and
/// posts them to the event loop, which checks they belong to the call still running
/// (late or duplicate answers are dropped).
final class ConnectionCallContext: CallContext {
  let peer: PeerCredentials
  let connectionID: UInt64
  let serial: UInt64
  let oneway: Bool
  private let inbox: LoopInbox
  /// Set while a `sourceHasData` message is queued, so a burst of updates posts once.
  let dataSignalPending = Atomic<Bool>(false)

  init(peer: PeerCredentials, connectionID: UInt64, serial: UInt64, oneway: Bool, inbox: LoopInbox) {
    self.peer = peer
    self.connectionID = connectionID
    self.serial = serial
    self.oneway = oneway
    self.inbox = inbox
  }

  func reply(_ parameters: JSONValue) {
    let frame = oneway ? [] : VarlinkReply.encoded(parameters: parameters)
    inbox.post(.replied(connection: connectionID, serial: serial, frame: frame))
  }

  func fail(_ name: String, _ parameters: JSONValue) {
    let frame = oneway ? [] : VarlinkReply.encoded(parameters: parameters, error: name)
    inbox.post(.replied(connection: connectionID, serial: serial, frame: frame))
  }

  func stream(from source: any ReplySource) {
    inbox.post(.streamStarted(connection: connectionID, serial: serial, source: source))
  }

  func sourceHasData() {
    // Only the first signal of a burst posts; the loop clears the flag before it pulls.
    guard !dataSignalPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
    inbox.post(.sourceHasData(connection: connectionID, serial: serial, context: self))
  }

  func close(reason: String) {
    inbox.post(.close(connection: connectionID, reason: reason))
  }
}
