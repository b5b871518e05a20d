import NavClient
import NavModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows `scene` and redraws the status line on every update; with `count`, first writes the
/// stack depth into the top item's prompt, re-running on conflict (CONFLICTS.md §8).
///
/// The lines between the README markers are README.md's Swift snippet, word for word
/// (Tests/python/check_readme_snippet.py keeps the two equal).
func statusBar(scene: String, count: Bool) async throws {
  // README: begin
  let client = NavClient()
  if count {
    try await client.mutate(scene: scene) { state in
      guard let top = state.navigationBar.items.last else { return [] }
      return [.updateNavigationItem(top.id, [.prompt("\(state.navigationBar.items.count) screens")], animated: false)]
    }
  }
  for try await update in client.updates(scene: scene, width: 375) { draw(update) }
  // README: end
}

/// Redraws the one status line: version, back button, title, then the bar button items.
func draw(_ update: DocumentUpdate) {
  let line = "v\(update.version)  " + statusLine(of: update.document)
  if isatty(STDOUT_FILENO) == 1 {
    print("\r\u{1B}[2K" + line, terminator: "")
  } else {
    print(line)
  }
  fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name in Swift 6
}

/// `Prompt / ‹ Back | Title | [left] [right]` from a layout document (SEMANTICS R62); the
/// prompt (the line UIKit draws above the title, which `--count` writes) comes first.
func statusLine(of layout: JSONValue) -> String {
  let bar = layout["navigationBar"]
  var parts: [String] = []
  let prompt = bar?["prompt"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
  if let back = bar?["backButton"], !back.isNull { parts.append("‹ " + (back["title"]?.stringValue ?? "")) }
  parts.append(bar?["centre"]?["title"]?.stringValue ?? "—")
  let items = (bar?["left"]?.arrayValue ?? []) + (bar?["right"]?.arrayValue ?? [])
  let labels = items.map { item in
    "[" + (item["title"]?.stringValue ?? item["systemItem"]?.stringValue ?? item["id"]?.stringValue ?? "?") + "]"
  }
  if !labels.isEmpty { parts.append(labels.joined(separator: " ")) }
  return (prompt.map { $0 + " / " } ?? "") + parts.joined(separator: " | ")
}

/// Writes to standard error (diagnostics stay off the status line).
enum FileHandleOutput {
  static func standardError(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }
}
