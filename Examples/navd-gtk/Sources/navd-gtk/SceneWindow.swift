import CGtk
import NavClient
import NavGtkKit
import NavModel

#if canImport(Glibc)
  import Glibc
#endif

/// One window following one scene at the window's width.
///
/// The subscription is NavClient's `updates()`: it applies every RFC 6902 patch to the
/// document it holds, reconnects after navd restarts and resumes with `sinceVersion` and
/// `epoch`. On a resize the window subscribes again at the new width (debounced) and keeps
/// drawing the old subscription until the new one's first document arrives, so the bar never
/// goes blank.
@MainActor
final class SceneWindow {
  let scene: String
  let number: Int
  let client: NavClient
  let waitForScene: Bool
  let trace: Bool
  let styles: Styles
  let window: Widget
  private let navigationStack: Widget
  private let toolbarSlot: Widget
  private let status: Widget
  /// The width of the newest subscription (drawn or still awaiting its first document).
  private var subscribedWidth: Int
  /// The width the drawing on screen was resolved at.
  private var drawnWidth: Int
  private var drawing: Drawing?
  private var version: UInt64 = 0
  private var connected = true
  /// Subscriptions by generation; only the newest one whose document arrived is drawn.
  private var subscriptions: [Int: Task<Void, Never>] = [:]
  private var newestGeneration = 0
  private var drawnGeneration = 0
  private var resizeTimer: UInt32 = 0
  private var message: String?
  /// Told when the window closes.
  private let onClose: @MainActor (SceneWindow) -> Void

  /// How long a width must hold before the window subscribes at it.
  static let resizeDebounceMilliseconds: UInt32 = 120
  /// The navigation bar's push and pop slide, and the cross-fade of other animated changes.
  static let transitionMilliseconds: UInt32 = 200

  init(
    application: UnsafeMutablePointer<GtkApplication>, scene: String, number: Int, width: Int, height: Int,
    client: NavClient, waitForScene: Bool, trace: Bool, styles: Styles,
    onClose: @escaping @MainActor (SceneWindow) -> Void
  ) {
    self.onClose = onClose
    self.scene = scene
    self.number = number
    self.client = client
    self.waitForScene = waitForScene
    self.trace = trace
    self.styles = styles
    subscribedWidth = width
    drawnWidth = width
    window = gtk_application_window_new(application)!
    gtk_window_set_title(cast(window), "navd-gtk \(number): \(scene)")
    gtk_window_set_default_size(cast(window), Int32(width), Int32(height))
    let column = box(GTK_ORIENTATION_VERTICAL)
    navigationStack = gtk_stack_new()!
    gtk_stack_set_transition_duration(OpaquePointer(navigationStack), Self.transitionMilliseconds)
    gtk_stack_set_interpolate_size(OpaquePointer(navigationStack), 1)
    append(column, navigationStack)
    let overlay = gtk_overlay_new()!
    let content = gtk_drawing_area_new()!
    gtk_widget_set_hexpand(content, 1)
    gtk_widget_set_vexpand(content, 1)
    gtk_overlay_set_child(OpaquePointer(overlay), content)
    status = ellipsizingLabel("connecting to navd…", classes: ["navd-status"])
    gtk_widget_set_valign(status, GTK_ALIGN_CENTER)
    gtk_overlay_add_overlay(OpaquePointer(overlay), status)
    append(column, overlay)
    toolbarSlot = box(GTK_ORIENTATION_VERTICAL)
    append(column, toolbarSlot)
    gtk_window_set_child(cast(window), column)
    Signals.connectSize(raw(content), "resize") { [weak self] width, _ in self?.resized(to: Int(width)) }
    Signals.connectReturningBool(raw(window), "close-request") { [weak self] in
      self?.close()
      return false  // and let GTK destroy the window
    }
    subscribe(width: width)
    gtk_window_present(cast(window))
  }

  // MARK: Subscriptions

  private func subscribe(width: Int) {
    newestGeneration += 1
    let generation = newestGeneration
    subscribedWidth = width
    let updates = client.updates(scene: scene, width: Double(width), waitForScene: waitForScene)
      .reportingConnection { state in
        Task { @MainActor [weak self] in self?.connection(state, generation: generation) }
      }
    subscriptions[generation] = Task { [weak self] in
      do {
        for try await update in updates {
          guard let self else { return }
          self.received(update, generation: generation, width: width)
        }
      } catch is CancellationError {
      } catch {
        self?.failed(error, generation: generation)
      }
    }
  }

  private func received(_ update: DocumentUpdate, generation: Int, width: Int) {
    guard generation >= drawnGeneration, generation <= newestGeneration else { return }
    let transition: Transition
    if generation > drawnGeneration {
      // The new width's first document: the older subscriptions have served their turn.
      for (older, task) in subscriptions where older < generation {
        task.cancel()
        subscriptions[older] = nil
      }
      drawnGeneration = generation
      transition = .none
    } else {
      transition = Transition(events: update.events, animated: update.animated)
    }
    version = update.version
    drawnWidth = width
    connected = true
    message = nil
    let next = Drawing(update.document)
    if next != drawing || update.isSnapshot {
      draw(next, transition: transition)
      drawing = next
    }
    showStatus()
    if trace { output("drew \(number) \(scene) v\(update.version) at \(width)") }
  }

  private func connection(_ state: StreamConnectionState, generation: Int) {
    guard generation == newestGeneration || generation == drawnGeneration else { return }
    connected = state == .connected
    if trace { output("connection \(number) \(state == .connected ? "connected" : "reconnecting")") }
    showStatus()
  }

  private func failed(_ error: any Error, generation: Int) {
    subscriptions[generation] = nil
    guard generation == newestGeneration else { return }
    connected = false
    // navd away or not answering: try again; navd's refusal (a scene that does not exist, with
    // --no-wait) or a broken reply: say so and stop.
    let retry: Bool
    switch error as? NavClientError {
    case .unreachable(let path, _, _):
      message = "cannot reach navd at \(path); retrying"
      retry = true
    case .disconnected, .timedOut, .system, .gone:
      message = "\(error); retrying"
      retry = true
    case .remote(let name, _):
      message = "navd refused: \(name)"
      retry = false
    case .protocolViolation, .requestTooLarge, nil:
      message = "\(error)"
      retry = false
    }
    output("navd-gtk: window \(number) (\(scene)): \(message!)", toStandardError: true)
    showStatus()
    if retry {
      _ = afterDelay(milliseconds: 1000) { [weak self] in
        guard let self, generation == self.newestGeneration else { return }
        self.subscribe(width: self.subscribedWidth)
      }
    }
  }

  /// The window is closing: end its subscriptions (they would draw into destroyed widgets) and
  /// let the application forget it. The application ends with its last window.
  private func close() {
    for task in subscriptions.values { task.cancel() }
    subscriptions = [:]
    newestGeneration += 1
    drawnGeneration = newestGeneration
    if resizeTimer != 0 { g_source_remove(resizeTimer) }
    resizeTimer = 0
    onClose(self)
  }

  // MARK: Resizing

  private func resized(to width: Int) {
    guard width > 0 else { return }
    if resizeTimer != 0 {
      g_source_remove(resizeTimer)
      resizeTimer = 0
    }
    guard width != subscribedWidth else { return }
    resizeTimer = afterDelay(milliseconds: Self.resizeDebounceMilliseconds) { [weak self] in
      guard let self else { return }
      self.resizeTimer = 0
      if width != self.subscribedWidth { self.subscribe(width: width) }
    }
  }

  // MARK: Drawing

  private func draw(_ next: Drawing, transition: Transition) {
    var builder = BarBuilder(
      activate: { [weak self] id, inBar in self?.activate(id, inBar: inBar) },
      back: { [weak self] in self?.goBack() }, styles: styles.sheet, width: Double(drawnWidth))
    let bar = builder.navigationBar(next.navigationBar)
    let toolbar = builder.toolbar(next.toolbar)
    styles.update(builder.styles)

    // Keep only the page on screen, then slide (or fade) the new one over it.
    let stack = OpaquePointer(navigationStack)
    let visible = gtk_stack_get_visible_child(stack)
    while let page = gtk_widget_get_first_child(navigationStack), page != visible {
      gtk_stack_remove(stack, page)
    }
    while let visible, let page = gtk_widget_get_last_child(navigationStack), page != visible {
      gtk_stack_remove(stack, page)
    }
    gtk_stack_add_child(stack, bar)
    gtk_stack_set_transition_type(stack, Self.stackTransition(transition))
    gtk_stack_set_visible_child(stack, bar)
    gtk_widget_set_visible(navigationStack, next.navigationBar.hidden ? 0 : 1)

    while let old = gtk_widget_get_first_child(toolbarSlot) { gtk_box_remove(cast(toolbarSlot), old) }
    append(toolbarSlot, toolbar)
    gtk_widget_set_visible(toolbarSlot, next.toolbar.hidden ? 0 : 1)
  }

  static func stackTransition(_ transition: Transition) -> GtkStackTransitionType {
    switch transition {
    case .none: GTK_STACK_TRANSITION_TYPE_NONE
    case .slideLeft: GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT
    case .slideRight: GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT
    case .crossfade: GTK_STACK_TRANSITION_TYPE_CROSSFADE
    }
  }

  private func showStatus() {
    let text: String
    if let message {
      text = "disconnected: \(message)"
    } else if !connected {
      text = "disconnected: navd went away; reconnecting…"
    } else {
      text = "\(scene) · v\(version) · \(drawnWidth) pt"
    }
    gtk_label_set_text(OpaquePointer(status), text)
    if connected && message == nil {
      gtk_widget_remove_css_class(status, "disconnected")
    } else {
      gtk_widget_add_css_class(status, "disconnected")
    }
  }

  // MARK: Clicks

  private func activate(_ id: String, inBar: Bool) {
    let width = inBar ? Double(drawnWidth) : nil
    Task { [client, scene] in
      do {
        _ = try await client.activate(scene: scene, item: id, width: width)
      } catch {
        self.report(error, activating: id)
      }
    }
  }

  private func goBack() {
    let top = drawing?.navigationBar.topItem
    Task { [client, scene, drawnWidth] in
      do {
        _ = try await client.activate(scene: scene, item: "@back", width: Double(drawnWidth), expectTop: top)
      } catch {
        self.report(error, activating: "@back")
      }
    }
  }

  private func report(_ error: any Error, activating id: String) {
    output("navd-gtk: window \(number) (\(scene)): activating \(id): \(error)", toStandardError: true)
  }
}

/// Writes one line to standard output (flushed: tests read it through a pipe) or standard error.
func output(_ line: String, toStandardError: Bool = false) {
  let text = line + "\n"
  _ = text.utf8CString.withUnsafeBufferPointer {
    write(toStandardError ? STDERR_FILENO : STDOUT_FILENO, $0.baseAddress, $0.count - 1)
  }
}
