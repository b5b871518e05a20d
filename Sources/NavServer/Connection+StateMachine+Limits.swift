extension Connection.StateMachine {
  /// The limits one connection is held to (from `ServerConfiguration`).
  struct Limits {
    var maxFrameBytes: Int
    var maxJSONDepth: Int
    var outputLowWaterBytes: Int
    var outputHardLimitBytes: Int
    var partialFrameTimeout: Duration

    init(_ configuration: ServerConfiguration) {
      maxFrameBytes = configuration.maxFrameBytes
      maxJSONDepth = configuration.maxJSONDepth
      outputLowWaterBytes = configuration.outputLowWaterBytes
      outputHardLimitBytes = configuration.outputHardLimitBytes
      partialFrameTimeout = configuration.partialFrameTimeout
    }

    init(
      maxFrameBytes: Int, maxJSONDepth: Int, outputLowWaterBytes: Int, outputHardLimitBytes: Int,
      partialFrameTimeout: Duration
    ) {
      self.maxFrameBytes = maxFrameBytes
      self.maxJSONDepth = maxJSONDepth
      self.outputLowWaterBytes = outputLowWaterBytes
      self.outputHardLimitBytes = outputHardLimitBytes
      self.partialFrameTimeout = partialFrameTimeout
    }
  }
}
