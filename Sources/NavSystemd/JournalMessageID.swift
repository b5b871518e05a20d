/// The journal's `MESSAGE_ID=` for each kind of event navd logs, so administrators can
/// select them (`journalctl MESSAGE_ID=…`) whatever the wording. Stable: never reuse or
/// change an id; add new ones with `python3 -c 'import uuid; print(uuid.uuid4().hex)'`.
///
/// A record names its kind with an `event` field (navd's own records), or is recognised
/// by the start of its message (the server's records).
public enum JournalMessageID: String, CaseIterable, Sendable {
  case listening = "8e7bdd2744aa4b4fb9ad180283b15be8"
  case ready = "e2abb62b1f2e4d97b1b9d02e2662eacc"
  case stopping = "0d377445997142bd8cdc183a1622e522"
  case stopped = "63c58c4036764463b6ec778335ee9278"
  case reloaded = "a5f301595ca84255ae18ee0c2cff1b7a"
  case connectionAccepted = "2ba234ba6ac841c7a0f84219a98f10a0"
  case connectionClosed = "983e16301691481c832c052521f41a54"
  case connectionRejected = "4cc01e6b0a4b484c8096c5e0fb463054"
  case callRejected = "4c504932d6ab4ff3a51c4bdce28011d5"
  case logDropped = "75230d61268748b9a980dc6a87178ae6"
  case signal = "98d6080606134546bc0c54698bebe35c"
  /// A start gave scenes new epochs: it could not prove it kept every acknowledged version.
  case newEpoch = "5664044aa3f5433da5ac8d84e2b8f702"
  /// A start left damaged entries of a side table (remembered mutation ids) out.
  case damagedSideTable = "dd3ba11f138341ecbc731e375d78e9cd"

  /// The `event` field value that selects this id.
  public var eventName: String {
    switch self {
    case .listening: "listening"
    case .ready: "ready"
    case .stopping: "stopping"
    case .stopped: "stopped"
    case .reloaded: "reloaded"
    case .connectionAccepted: "connection-accepted"
    case .connectionClosed: "connection-closed"
    case .connectionRejected: "connection-rejected"
    case .callRejected: "call-rejected"
    case .logDropped: "log-dropped"
    case .signal: "signal"
    case .newEpoch: "new-epoch"
    case .damagedSideTable: "damaged-side-table"
    }
  }

  /// The id for a record: its `event` field, else the start of its message; nil for
  /// records of no catalogued kind.
  public static func of(message: String, fields: [(key: String, value: String)]) -> JournalMessageID? {
    if let event = fields.first(where: { $0.key == "event" })?.value {
      return allCases.first { $0.eventName == event }
    }
    for (prefix, id) in prefixes where message.hasPrefix(prefix) { return id }
    return nil
  }

  private static let prefixes: [(String, JournalMessageID)] = [
    ("listening", .listening), ("stopping", .stopping), ("stopped", .stopped),
    ("connection closed", .connectionClosed), ("connection accepted", .connectionAccepted),
    ("connection over the limit", .connectionRejected), ("connection limit reached", .connectionRejected),
    ("call rejected", .callRejected), ("log queue full", .logDropped),
  ]
}
