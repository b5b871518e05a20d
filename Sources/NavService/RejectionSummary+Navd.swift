import NavModel
import NavServer

extension RejectionSummary {
  /// io.navd's errors in the call-rejected line (navd(8), `--log-target`): the error's
  /// `message`, the fields that say what was wrong and where (`field`, `parameter`, `value`,
  /// `limit`, `right`, `scene`), and for a Conflict or a baseVersion ahead of the scene the
  /// scene's `currentVersion` as `version` (journal VERSION=).
  public static func navd(error: String, parameters: JSONValue) -> RejectionSummary {
    var fields: [(key: String, value: String)] = []
    for key in ["field", "parameter", "value", "limit", "right", "scene"] {
      if let value = parameters[key]?.stringValue { fields.append((key, value)) }
    }
    if let version = parameters["currentVersion"]?.numberValue { fields.append(("version", String(Int64(version)))) }
    return RejectionSummary(message: parameters["message"]?.stringValue ?? error, fields: fields)
  }
}
