extension Connection {
  /// Whether a connection can be handed to the next navd process (a restart through the
  /// service manager's fd store), as its state machine sees it.
  enum HandOverReadiness {
    /// A call is running or output is still being written: wait.
    case notYet
    /// Between calls with nothing buffered either way: the next process serves it afresh.
    case idle
    /// A stream with everything written: the next process repeats the call with the
    /// source's `handOverParameters()` merged in.
    case streaming(any ReplySource)
    /// Input arrived that this process read but will not answer, the peer is closing, or
    /// the connection is being rejected: it gets the final reply instead.
    case cannotCarry
  }
}
