import Synchronization

/// The channels a scenario prepared, in order, each once: what `Bench.run` removes after it.
final class PreparedChannels: Sendable {
  private let channels = Mutex<[String]>([])

  /// Remembers `channel` (once).
  func add(_ channel: String) {
    channels.withLock { if !$0.contains(channel) { $0.append(channel) } }
  }

  /// Every channel remembered since the last call, forgotten.
  func taken() -> [String] {
    channels.withLock { channels in
      defer { channels = [] }
      return channels
    }
  }
}
