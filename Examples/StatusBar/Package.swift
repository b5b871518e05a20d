// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A front end outside navd's repository: it depends on navd by path, exactly as
// any other package would (`.package(path: "/path/to/navd")`), and uses the
// library products navd exports.
//
// SwiftPM names a path dependency after its directory, which is `navd` in a
// plain clone but may differ in a worktree; so the name is read from the path.
let navdDirectory = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
  .deletingLastPathComponent()
let navd = navdDirectory.lastPathComponent

let package = Package(
  name: "StatusBar",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: navdDirectory.path)],
  targets: [
    .executableTarget(
      name: "StatusBar",
      dependencies: [
        .product(name: "NavClient", package: navd),
        .product(name: "NavModel", package: navd),
      ])
  ],
  swiftLanguageModes: [.v6]
)
