// navd-gtk: navd's reference desktop front end (Examples/navd-gtk/README.md).
//
//   navd-gtk [--scene NAME]... [--width POINTS]... [--height POINTS] [--socket PATH] [--no-wait] [--trace]
import CGtk
import NavClient
import NavGtkKit

#if canImport(Glibc)
  import Glibc
#endif

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
  output("navd-gtk: \(error)\n" + Options.usage, toStandardError: true)
  exit(2)
}
if options.help {
  output(Options.usage)
  exit(0)
}
if options.version {
  output("navd-gtk 1.0")
  exit(0)
}

/// What lives as long as the application runs.
@MainActor
enum Application {
  /// The windows.
  static var windows: [SceneWindow] = []
}

MainActor.assumeIsolated {
  MainQueue.attachToGLib()
  // Not unique: several navd-gtk processes may run, and no session bus is needed.
  let application = gtk_application_new("io.navd.gtk", G_APPLICATION_NON_UNIQUE)!
  Signals.connect(UnsafeMutableRawPointer(application), "activate") {
    let client = NavClient(socketPath: options.socketPath)
    let styles = Styles()
    for (index, window) in options.windows.enumerated() {
      Application.windows.append(
        SceneWindow(
          application: application, scene: window.scene, number: index + 1, width: window.width,
          height: options.height, client: client, waitForScene: options.waitForScene, trace: options.trace,
          styles: styles, onClose: { closed in Application.windows.removeAll { $0 === closed } }))
    }
  }
  let status = g_application_run(
    UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), 0, nil)
  exit(status)
}
