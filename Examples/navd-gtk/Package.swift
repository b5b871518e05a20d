// swift-tools-version: 6.0
import Foundation
import PackageDescription

// navd-gtk, the reference desktop front end: a package outside navd's library
// targets, as any other front end would be. It depends on navd by path and uses
// the library products navd exports; GTK 4 comes from Debian (libgtk-4-dev).
//
// SwiftPM names a path dependency after its directory, which is `navd` in a
// plain clone but may differ in a worktree; so the name is read from the path.
let navdDirectory = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
  .deletingLastPathComponent()
let navd = navdDirectory.lastPathComponent

let package = Package(
  name: "navd-gtk",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: navdDirectory.path)],
  targets: [
    .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
    // What navd-gtk decides without GTK: options, the system item icons, the CSS of an
    // appearance, which way a change slides. Tested without a display.
    .target(
      name: "NavGtkKit",
      dependencies: [.product(name: "NavModel", package: navd)]),
    .executableTarget(
      name: "navd-gtk",
      dependencies: [
        "CGtk", "NavGtkKit",
        .product(name: "NavClient", package: navd),
        .product(name: "NavModel", package: navd),
      ]),
    .testTarget(name: "NavGtkKitTests", dependencies: ["NavGtkKit", .product(name: "NavModel", package: navd)]),
  ],
  swiftLanguageModes: [.v6]
)
