// A one-line terminal status bar that follows a scene of navd.
//
//   swift run --package-path Examples/StatusBar StatusBar [SCENE] [--count]
//
// Prints one line per committed version: `v3  2 screens / ‹ Inbox | Message | [edit] [compose]`
// (redrawn in place on a terminal). With `--count` it first writes the stack depth
// into the top item's prompt through the conflict-retrying mutator. The socket is
// navd's default: $NAVD_SOCKET, else $XDG_RUNTIME_DIR/navd/navd.sock, else
// ./.navd/navd.sock.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let scene = arguments.first(where: { !$0.hasPrefix("--") }) ?? "main"

do {
  try await statusBar(scene: scene, count: arguments.contains("--count"))
} catch {
  FileHandleOutput.standardError("StatusBar: \(error)\n")
  exit(1)
}
