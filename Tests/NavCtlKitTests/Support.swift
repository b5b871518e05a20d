import Foundation
import NavCtlKit
import NavModel
import Testing

/// Helpers shared by the NavCtlKit tests.
enum Support {
  /// Splits a command line as a POSIX shell would for plain words and single or double quotes.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        inWord = true
      } else if character == " " {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }

  /// Parses a navctl command line (without `navctl`).
  static func parse(_ line: String) throws -> Invocation {
    try ArgumentParser.parse(words(line))
  }

  /// The usage error a command line gives, or nil when it parses.
  static func usageError(_ line: String) -> UsageError? {
    do {
      _ = try ArgumentParser.parse(words(line))
      return nil
    } catch {
      return error
    }
  }

  /// The ops a mutating command line builds against `state`.
  static func build(_ line: String, on state: SceneState = .empty) throws -> MutationBuild {
    let invocation = try parse(line)
    guard case .mutate(let plan) = invocation.action else {
      Issue.record("\(line) is not a mutation")
      return MutationBuild(ops: [])
    }
    return try plan.ops(for: state)
  }

  /// The state after running navctl command lines in order, each applied as navd would (one mutation each).
  static func scene(_ lines: [String]) throws -> SceneState {
    var state = SceneState.empty
    for line in lines {
      let ops = try build(line, on: state).ops
      if !ops.isEmpty { state = try state.applying(ops).state }
    }
    return state
  }

  /// The layout document of `state` resolved for a drawing `columns` wide (nil: without a width).
  static func layout(_ state: SceneState, columns: Int?) -> JSONValue {
    LayoutResolver.resolve(
      state, metrics: columns.map { LayoutMetrics(width: BarRenderer.layoutWidth(forColumns: $0)) }
    )
    .json
  }
}

/// Expected output kept in files: `Golden/<name>`; `NAVD_UPDATE_GOLDEN=1` rewrites them.
enum Golden {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static var updating: Bool { ProcessInfo.processInfo.environment["NAVD_UPDATE_GOLDEN"] == "1" }

  /// Compares `actual` with the file at `url` (or rewrites it when updating).
  static func check(_ actual: String, file url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if updating {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record("missing golden \(url.path); run with NAVD_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
      return
    }
    if actual != expected {
      Issue.record(
        "\(url.lastPathComponent) differs (NAVD_UPDATE_GOLDEN=1 rewrites it)\n--- expected\n\(expected)--- actual\n\(actual)",
        sourceLocation: sourceLocation)
    }
  }

  /// Compares `actual` with `Golden/<name>`.
  static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try check(actual, file: directory.appendingPathComponent(name), sourceLocation: sourceLocation)
  }
}
