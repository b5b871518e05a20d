import Varlink

extension Connection.StateMachine {
  /// The limits one connection is held to (from `ServerConfiguration`).
  struct Limits {
    var maxFrameBytes: Int
    var maxJSONDepth: Int
    /// A frame at least this long is parsed off the loop (`.parse`).
    var offLoopParseBytes: Int
    var outputLowWaterBytes: Int
    /// Calls dispatched and not yet answered on the wire, at most (pipelining).
    var maxCallsInFlight: Int
    /// Whether a call may run while others are in flight (`ServerConfiguration.mayOverlap`).
    var mayOverlap: @Sendable (VarlinkCall) -> Bool
    var outputHardLimitBytes: Int
    var partialFrameTimeout: Duration
    /// Output waiting with none of it written for this long closes the connection.
    var stallTimeout: Duration
    /// `stallTimeout` while the server stops or hands over (`ServerConfiguration.stopStallTimeout`).
    var stopStallTimeout: Duration
    /// Nothing in progress for this long closes the connection; nil never.
    var idleTimeout: Duration?

    init(_ configuration: ServerConfiguration) {
      maxFrameBytes = configuration.maxFrameBytes
      maxJSONDepth = configuration.maxJSONDepth
      offLoopParseBytes = configuration.offLoopParseBytes
      outputLowWaterBytes = configuration.outputLowWaterBytes
      maxCallsInFlight = configuration.maxCallsInFlight
      mayOverlap = configuration.mayOverlap
      outputHardLimitBytes = configuration.outputHardLimitBytes
      partialFrameTimeout = configuration.partialFrameTimeout
      stallTimeout = configuration.outputStallTimeout
      stopStallTimeout = configuration.stopStallTimeout
      idleTimeout = configuration.idleTimeout
    }

    init(
      maxFrameBytes: Int, maxJSONDepth: Int, outputLowWaterBytes: Int, outputHardLimitBytes: Int,
      partialFrameTimeout: Duration, stallTimeout: Duration = .seconds(60),
      stopStallTimeout: Duration = .milliseconds(250), idleTimeout: Duration? = nil,
      maxCallsInFlight: Int = 64, mayOverlap: @escaping @Sendable (VarlinkCall) -> Bool = { _ in true },
      offLoopParseBytes: Int = .max
    ) {
      self.offLoopParseBytes = offLoopParseBytes
      self.maxCallsInFlight = maxCallsInFlight
      self.mayOverlap = mayOverlap
      self.maxFrameBytes = maxFrameBytes
      self.maxJSONDepth = maxJSONDepth
      self.outputLowWaterBytes = outputLowWaterBytes
      self.outputHardLimitBytes = outputHardLimitBytes
      self.partialFrameTimeout = partialFrameTimeout
      self.stallTimeout = stallTimeout
      self.stopStallTimeout = stopStallTimeout
      self.idleTimeout = idleTimeout
    }
  }
}
