import NavServer

extension SubscriberSource {
  /// io.navd's streams (Subscribe, WatchActions) end only when the client closes the
  /// connection, so a call sent behind one closes it instead (PROTOCOL.md §9.20).
  var endsOnItsOwn: Bool { false }
}
