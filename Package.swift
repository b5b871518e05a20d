// swift-tools-version: 6.0
import PackageDescription

/// Layers, one way only: NavModel ← NavEngine ← navd; NavModel ← NavWire ← NavClient ← navctl.
let package = Package(
  name: "navd",
  platforms: [.macOS(.v15)],
  // What a package outside this repository can use: the client library and the
  // types its public API takes and returns (NavModel's values, NavWire's calls).
  products: [
    .library(name: "NavModel", targets: ["NavModel"]),
    .library(name: "NavWire", targets: ["NavWire"]),
    .library(name: "NavClient", targets: ["NavClient"]),
  ],
  targets: [
    .target(name: "NavModel"),
    .target(name: "NavEngine", dependencies: ["NavModel"]),
    .target(name: "NavConfig"),
    .target(name: "NavAccess", dependencies: ["NavConfig"]),
    .target(name: "CNavSys"),
    .target(name: "NavSystem", dependencies: ["CNavSys"]),
    // libsystemd is loaded with dlopen when navd runs under systemd, not linked
    // (Sources/CSystemd/include/CSystemd.h says why); its headers give the types.
    // DWARF 4: valgrind 3.19 (bench/profile.sh) cannot read this file's DWARF 5 location lists.
    .target(name: "CSystemd", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    .target(name: "NavFileSystem", dependencies: ["NavSystem"]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(
      name: "NavStore", dependencies: ["NavEngine", "NavModel", "NavFileSystem", "NavSystem", "CNavSys", "CSQLite"]),
    .target(name: "NavWire", dependencies: ["NavModel", "NavAccess"]),
    .target(name: "NavClient", dependencies: ["NavModel", "NavWire", "NavSystem"]),
    .target(name: "NavCtlKit", dependencies: ["NavModel", "NavWire"]),
    .target(name: "NavServer", dependencies: ["NavModel", "NavWire", "CNavSys", "NavSystem", "NavFileSystem"]),
    .target(name: "NavService", dependencies: ["NavEngine", "NavServer", "NavWire", "NavModel", "NavAccess"]),
    .target(name: "NavSystemd", dependencies: ["CSystemd", "NavServer", "NavWire", "NavModel"]),
    .executableTarget(
      name: "navd",
      dependencies: [
        "NavService", "NavAccess", "NavConfig", "NavEngine", "NavStore", "NavServer", "NavWire", "NavModel",
        "NavSystemd", "NavSystem",
      ]),
    .executableTarget(
      name: "navbench", dependencies: ["NavEngine", "NavService", "NavWire", "NavModel", "CNavSys", "NavSystem"]),
    .executableTarget(
      name: "navctl",
      dependencies: ["NavCtlKit", "NavClient", "NavStore", "NavWire", "NavModel", "NavSystem", "CNavSys"]),
    .target(name: "NavTestSupport", path: "Tests/NavTestSupport"),
    .testTarget(name: "NavConfigTests", dependencies: ["NavConfig"]),
    .testTarget(name: "NavAccessTests", dependencies: ["NavAccess", "NavConfig"]),
    .testTarget(name: "NavFileSystemTests", dependencies: ["NavFileSystem", "NavSystem"]),
    .testTarget(name: "NavSystemTests", dependencies: ["NavSystem"]),
    .testTarget(name: "NavSystemdTests", dependencies: ["NavSystemd", "NavServer", "NavWire", "CSystemd"]),
    .testTarget(name: "NavModelTests", dependencies: ["NavModel", "NavTestSupport"]),
    .testTarget(name: "NavWireTests", dependencies: ["NavWire", "NavModel", "NavAccess", "NavTestSupport"]),
    .testTarget(name: "NavClientTests", dependencies: ["NavClient", "NavModel", "NavWire"]),
    .testTarget(name: "NavCtlKitTests", dependencies: ["NavCtlKit", "NavModel"], exclude: ["Golden"]),
    .testTarget(
      name: "NavServerTests",
      dependencies: ["NavServer", "NavService", "NavWire", "NavModel", "CNavSys", "NavTestSupport"]),
    .testTarget(
      name: "NavEngineTests", dependencies: ["NavEngine", "NavModel", "NavService", "NavSystem", "NavTestSupport"]),
    .testTarget(
      name: "NavStoreTests", dependencies: ["NavStore", "NavEngine", "NavModel", "CSQLite", "NavTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "NavServiceTests", dependencies: ["NavService", "NavEngine", "NavServer", "NavWire", "NavModel"]),
    .testTarget(name: "NavbenchTests", dependencies: ["navbench", "NavModel", "NavTestSupport"]),
    .testTarget(name: "EndToEndTests", dependencies: ["NavClient", "NavModel", "NavWire"]),
  ],
  swiftLanguageModes: [.v6]
)
