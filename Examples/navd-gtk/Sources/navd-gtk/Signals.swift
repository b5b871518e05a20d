import CGtk

/// Connects Swift closures to GObject signals.
///
/// `g_signal_connect` is a C macro; this calls `g_signal_connect_data` with a C trampoline per
/// signal shape and the closure boxed in the user data, released when the signal is
/// disconnected (the object's end). Every signal fires on GTK's thread, which is the main
/// thread, so the handlers are main-actor code.
@MainActor
enum Signals {
  /// A signal with no arguments besides the instance, returning nothing (`clicked`, `activate`).
  static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor () -> Void) {
    let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
      let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
      MainActor.assumeIsolated { box.value() }
    }
    attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), Box(handler))
  }

  /// A signal that passes two ints (`GtkDrawingArea::resize`).
  static func connectSize(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor (Int32, Int32) -> Void
  ) {
    let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
      _, a, b, data in
      let box = Unmanaged<Box<@MainActor (Int32, Int32) -> Void>>.fromOpaque(data!).takeUnretainedValue()
      MainActor.assumeIsolated { box.value(a, b) }
    }
    attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), Box(handler))
  }

  /// A signal whose handler returns a gboolean (`close-request`: true stops the default handler).
  static func connectReturningBool(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor () -> Bool
  ) {
    let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
      let box = Unmanaged<Box<@MainActor () -> Bool>>.fromOpaque(data!).takeUnretainedValue()
      return MainActor.assumeIsolated { box.value() } ? 1 : 0
    }
    attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), Box(handler))
  }

  private static func attach<T>(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ callback: GCallback, _ box: Box<T>
  ) {
    let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
      Unmanaged<AnyObject>.fromOpaque(data!).release()
    }
    _ = g_signal_connect_data(
      instance, name, callback, Unmanaged.passRetained(box).toOpaque(), release, GConnectFlags(rawValue: 0))
  }
}

/// A reference holding a closure, to pass through C's `gpointer`.
final class Box<T> {
  let value: T
  init(_ value: T) { self.value = value }
}

/// Runs `action` once after `milliseconds` on GTK's loop; returns the source id (to cancel it
/// with `g_source_remove`, which also frees the closure).
@MainActor
func afterDelay(milliseconds: UInt32, _ action: @escaping @MainActor () -> Void) -> UInt32 {
  let callback: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
    let box = Unmanaged<Box<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.value() }
    return 0  // G_SOURCE_REMOVE
  }
  let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
  }
  return g_timeout_add_full(
    Int32(G_PRIORITY_DEFAULT), milliseconds, callback, Unmanaged.passRetained(Box(action)).toOpaque(), release)
}
