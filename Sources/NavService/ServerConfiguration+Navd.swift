import NavServer
import NavWire

extension ServerConfiguration {
  /// Makes the generic Varlink server speak for navd: `GetInfo` says navd and its release,
  /// a connection turned away reads `io.navd.LimitExceeded`, a rejected call's log line
  /// names io.navd's error fields, and pipelined `Mutate`s overlap (each scene queues them
  /// in arrival order) while every other call runs alone, so it sees every earlier call's
  /// effect (PROTOCOL.md §2).
  public mutating func serveNavd() {
    vendor = "navd"
    product = "navd"
    version = NavdRelease.version
    refusal = { $0.limitExceededFrame }
    rejectionSummary = RejectionSummary.navd
    // The whole name, compared once: the same test as interface and method name apart.
    let mutate = NavMethod.mutate.qualifiedName
    mayOverlap = { call in call.method == mutate }
  }
}
