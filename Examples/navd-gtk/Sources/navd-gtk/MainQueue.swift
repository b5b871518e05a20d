import CGtk

#if canImport(Glibc)
  import Glibc
#endif

// libdispatch's hooks for a foreign run loop (what CoreFoundation's run loop uses on Linux):
// the main queue's wake-up handle, an eventfd, and the call that runs what is queued on it.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32

@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueDrain(_ message: UnsafeMutableRawPointer?)

/// Runs Swift's main actor on GTK's main loop.
///
/// GTK owns the main thread (`g_application_run`), so the main dispatch queue, where
/// `@MainActor` work is queued, would never run. A GLib source on the queue's eventfd drains
/// it whenever work arrives, so a task's `await MainActor.run { … }` (or a `@MainActor`
/// method called from a task) runs between GTK's own events, on the thread GTK needs.
enum MainQueue {
  /// Adds the source to GLib's default main context; call once, before the loop runs.
  static func attachToGLib() {
    let handle = dispatchMainQueueHandle()
    _ = g_unix_fd_add(
      handle, G_IO_IN,
      { fd, _, _ in
        // Reset the eventfd first (the drain does not), or the source fires forever and starves
        // GTK's lower-priority redraws.
        var count: UInt64 = 0
        _ = read(fd, &count, MemoryLayout<UInt64>.size)
        dispatchMainQueueDrain(nil)
        return 1  // G_SOURCE_CONTINUE
      }, nil)
  }
}
