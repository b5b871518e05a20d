import Foundation
import Testing

/// Every rule of Protocol/SEMANTICS.md (R1…) must be named by at least one
/// test (`@Test("R12 …")`) somewhere under Tests/, so the rules and the
/// suite cannot drift apart silently.
@Suite("SEMANTICS coverage")
struct RuleCoverageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Rule numbers declared as `### R<n> …` headings.
  static func declaredRules() throws -> Set<Int> {
    let text = try String(contentsOf: root.appendingPathComponent("Protocol/SEMANTICS.md"), encoding: .utf8)
    var rules = Set<Int>()
    for line in text.split(separator: "\n") where line.hasPrefix("### R") {
      if let number = Int(line.dropFirst(5).prefix { $0.isNumber }) { rules.insert(number) }
    }
    return rules
  }

  /// Rule numbers that appear in the display name of a `@Test(` or `@Suite(` in any Swift test file
  /// (the first string literal after the attribute, which may start on the next line).
  static func testedRules() throws -> Set<Int> {
    var rules = Set<Int>()
    let tests = root.appendingPathComponent("Tests")
    guard let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else { return rules }
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      for attribute in ["@Test(", "@Suite("] {
        for chunk in text.components(separatedBy: attribute).dropFirst() {
          let rest = chunk.drop { $0 == " " || $0 == "\n" }
          guard rest.first == "\"" else { continue }
          var name = rest.dropFirst().prefix { $0 != "\"" }
          while let r = name.firstIndex(of: "R") {
            name = name[name.index(after: r)...]
            if let number = Int(name.prefix { $0.isNumber }) { rules.insert(number) }
          }
        }
      }
    }
    return rules
  }

  @Test("Every SEMANTICS rule is named by a test")
  func everyRuleHasATest() throws {
    let declared = try Self.declaredRules()
    #expect(declared.count > 25, "SEMANTICS.md should declare its rules as '### R<n>' headings")
    let missing = declared.subtracting(try Self.testedRules()).sorted()
    #expect(missing.isEmpty, "rules with no test naming them: \(missing.map { "R\($0)" }.joined(separator: ", "))")
  }
}
