// swift-tools-version: 6.0
import PackageDescription

/// Layers, one way only: NavModel ← NavEngine ← navd; NavModel ← Varlink ← NavWire ← NavClient ← navctl;
/// Varlink ← NavServer ← NavService ← navd. Varlink is the generic protocol (framing, the envelope,
/// org.varlink.service, the IDL); NavWire is io.navd's messages; NavServer speaks Varlink only.
/// Varlink takes its JSON from NavModel: moving JSON into a module of its own would make every
/// JSON call in NavModel's hot paths a cross-module call.
let package = Package(
  name: "navd",
  platforms: [.macOS(.v15)],
  // What a package outside this repository can use: the client library and the
  // types its public API takes and returns (NavModel's values, Varlink's envelope, NavWire's calls).
  products: [
    .library(name: "NavModel", targets: ["NavModel"]),
    .library(name: "Varlink", targets: ["Varlink"]),
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
    .target(name: "Varlink", dependencies: ["NavModel"]),
    .target(name: "NavWire", dependencies: ["Varlink", "NavModel", "NavAccess"]),
    .target(name: "NavClient", dependencies: ["NavModel", "Varlink", "NavWire", "NavSystem"]),
    .target(name: "NavCtlKit", dependencies: ["NavModel", "Varlink", "NavWire"]),
    .target(name: "NavServer", dependencies: ["NavModel", "Varlink", "CNavSys", "NavSystem", "NavFileSystem"]),
    .target(
      name: "NavService", dependencies: ["NavEngine", "NavServer", "Varlink", "NavWire", "NavModel", "NavAccess"]),
    .target(name: "NavSystemd", dependencies: ["CSystemd", "NavServer", "Varlink", "NavModel"]),
    .executableTarget(
      name: "navd",
      dependencies: [
        "NavService", "NavAccess", "NavConfig", "NavEngine", "NavStore", "NavServer", "Varlink", "NavWire", "NavModel",
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
    .testTarget(name: "NavSystemdTests", dependencies: ["NavSystemd", "NavServer", "Varlink", "CSystemd"]),
    .testTarget(name: "NavModelTests", dependencies: ["NavModel", "NavTestSupport"]),
    .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "NavModel", "NavTestSupport"]),
    .testTarget(name: "NavWireTests", dependencies: ["NavWire", "Varlink", "NavModel", "NavAccess", "NavTestSupport"]),
    .testTarget(name: "NavClientTests", dependencies: ["NavClient", "NavModel", "Varlink", "NavWire"]),
    .testTarget(name: "NavCtlKitTests", dependencies: ["NavCtlKit", "NavModel", "NavWire"], exclude: ["Golden"]),
    .testTarget(
      name: "NavServerTests",
      dependencies: ["NavServer", "NavService", "Varlink", "NavWire", "NavModel", "CNavSys", "NavTestSupport"]),
    .testTarget(
      name: "NavEngineTests",
      dependencies: ["NavEngine", "NavModel", "NavService", "Varlink", "NavSystem", "NavTestSupport"]),
    .testTarget(
      name: "NavStoreTests", dependencies: ["NavStore", "NavEngine", "NavModel", "CSQLite", "NavTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "NavServiceTests", dependencies: ["NavService", "NavEngine", "NavServer", "Varlink", "NavWire", "NavModel"]),
    .testTarget(name: "NavbenchTests", dependencies: ["navbench", "NavModel", "NavTestSupport"]),
    .testTarget(name: "EndToEndTests", dependencies: ["NavClient", "NavModel", "Varlink", "NavWire"]),
  ],
  swiftLanguageModes: [.v6]
)
