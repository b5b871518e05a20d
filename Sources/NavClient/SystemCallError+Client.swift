import NavSystem

extension SystemCallError {
  /// How a failed read or write on a connection surfaces: the peer went away, or something else.
  var clientError: NavClientError {
    isPeerGone ? .disconnected : .system(function: function, errno: errno)
  }
}
