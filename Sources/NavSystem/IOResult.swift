/// The result of a non-blocking system call: done, or it would have blocked (EAGAIN/EWOULDBLOCK).
public enum IOResult<Value> {
  /// The call did its work and returned `Value`.
  case done(Value)
  /// The descriptor is not ready; wait for readiness and call again.
  case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}
