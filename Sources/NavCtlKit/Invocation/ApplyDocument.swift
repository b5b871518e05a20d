import NavModel

/// The input of `navctl apply`: a JSON array of ops, or an object with an `ops` array.
public enum ApplyDocument {
  /// Reads and checks the ops (their shape, not the rules: navd checks those atomically).
  ///
  /// A malformed document is a usage error (exit 2): nothing is sent.
  public static func ops(from text: String, source: String) throws(UsageError) -> [Op] {
    let json: JSONValue
    do {
      json = try JSONParser.parse(text)
    } catch {
      throw UsageError("\(source): \(error.description)", command: "apply")
    }
    var list = json
    if case .object(let members) = json {
      guard let ops = members["ops"] else {
        throw UsageError("\(source): the object has no \"ops\" array", command: "apply")
      }
      list = ops
    }
    let ops: [Op]
    do throws(NavError) {
      ops = try Op.list(json: list)
    } catch {
      throw UsageError("\(source): \(error.message)" + (error.field.map { " (at \($0))" } ?? ""), command: "apply")
    }
    guard !ops.isEmpty else { throw UsageError("\(source): no ops to apply", command: "apply") }
    return ops
  }
}
