import NavServer
import NavWire

extension ServerConfiguration {
  /// Makes the generic Varlink server speak for navd: `GetInfo` says navd and
  /// its release, and a connection turned away reads `io.navd.LimitExceeded`.
  public mutating func serveNavd() {
    vendor = "navd"
    product = "navd"
    version = NavdRelease.version
    refusal = { refusal in
      ConnectionLimitExceeded(limit: refusal.limit, max: refusal.max, value: refusal.value, message: refusal.message)
        .frame
    }
  }
}
