import NavModel
import Synchronization

/// The encoded updates of one committed span that its views of one placement share:
/// a view whose step to the span's state is shareable (`LayoutStep.Sharing`: its
/// patch holds only content, at its edited items' placements) takes the framed
/// update another view of the same placement already encoded from the same version,
/// instead of writing the patch and encoding it again (`SubscriptionGroup.advance`).
///
/// One per `PendingSpan`, shared by every view it was published to, and let go with
/// the span once every view has computed it. Every subscriber of one engine encodes
/// alike (`StreamEncoder`), so the bytes serve every view.
final class SharedUpdates: Sendable {
  /// What makes two views' updates of the span the same bytes.
  struct Key: Hashable {
    /// The version the view's update leads from.
    var from: UInt64
    var coalesced: Bool
    var sharing: LayoutStep.Sharing
  }

  private let updates = Mutex<[Key: [UInt8]]>([:])

  /// None yet.
  init() {}

  /// The update another view encoded for `key`, or nil.
  func update(for key: Key) -> [UInt8]? { updates.withLock { $0[key] } }

  /// Keeps `update`, encoded for `key`, for the span's other views.
  func keep(_ update: [UInt8], for key: Key) { updates.withLock { $0[key] = update } }
}
