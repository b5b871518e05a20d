// swift-tools-version: 6.0
import PackageDescription

/// Layers, one way only: NavModel ← NavEngine ← navd; NavModel ← NavWire ← NavClient ← navctl.
let package = Package(
  name: "navd",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "NavModel", targets: ["NavModel"])
  ],
  targets: [
    .target(name: "NavModel"),
    .testTarget(name: "NavModelTests", dependencies: ["NavModel"]),
  ],
  swiftLanguageModes: [.v6]
)
