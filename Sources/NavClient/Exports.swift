// NavClient's API takes and returns NavWire's io.navd messages (`MutationReply`,
// `ServerInfo`, `Activation`, `DocumentKind`, …); an app that imports NavClient sees
// them without importing NavWire, as swift-nio's NIOPosix re-exports NIOCore.
@_exported import NavWire
