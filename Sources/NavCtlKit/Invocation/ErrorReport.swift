import NavModel
import NavWire
import Varlink

/// What navctl prints on stderr when a call fails, and the exit status that goes with it.
public enum ErrorReport {
  /// A Varlink error reply: its name and message, where in the request it was, and a hint.
  ///
  /// `command`: the navctl command that made the request; a wire field path is then shown as
  /// the option or argument that filled it (`FieldNames`), with the path after it.
  public static func remote(name: String, parameters: JSONValue, scene: String = "main", command: String? = nil) -> (
    text: String, code: ExitCode
  ) {
    var text = "navctl: \(name)"
    if let message = parameters["message"]?.stringValue { text += ": \(DisplayWidth.sanitize(message))" }
    text += "\n"
    if let field = parameters["field"]?.stringValue {
      if let option = FieldNames.option(forField: field, command: command) {
        text += "  in: \(option) (navd's field \(DisplayWidth.sanitize(field)))\n"
      } else {
        text += "  field: \(DisplayWidth.sanitize(field))\n"
      }
    }
    if let value = parameters["value"]?.stringValue { text += "  value: \(DisplayWidth.sanitize(value))\n" }
    if let limit = parameters["limit"]?.stringValue {
      text += "  limit: \(limit)" + (parameters["max"].map { " (max \(LayoutText.number($0)))" } ?? "") + "\n"
    }
    if let version = parameters["currentVersion"] { text += "  navd is at version \(LayoutText.number(version))\n" }
    for conflict in parameters["conflicts"]?.arrayValue ?? [] {
      text +=
        "  \(conflict["field"]?.stringValue ?? "?") is now \(JSONWriter.string(conflict["currentValue"] ?? .null))"
      text += " (version \(LayoutText.number(conflict["version"])))\n"
    }
    switch name {
    case NavErrorName.sceneNotFound.rawValue:
      text +=
        "  hint: scene \(scene) has no state yet; any change creates it (see 'navctl scenes'); "
        + "'navctl watch --wait' waits for it\n"
    case NavErrorName.conflict.rawValue:
      text += "  hint: read the current state with 'navctl get' and try again\n"
    case VarlinkServiceNames.permissionDenied:
      let denied = PermissionDenied(parameters: parameters)
      let right = denied.map { DisplayWidth.sanitize($0.right) } ?? "?"
      let scene = denied?.scene.map { " on scene \(DisplayWidth.sanitize($0))" } ?? ""
      text += "  missing right: \(right)\(scene)\n"
      text +=
        "  hint: navd's access policy does not grant it to you; ask navd's administrator (navd(8), ACCESS POLICY)\n"
    case VarlinkServiceNames.methodNotFound, VarlinkServiceNames.interfaceNotFound:
      text += "  hint: this navd does not serve the call; is it older than navctl? (see 'navctl info')\n"
    default: break
    }
    return (text, ExitCode.forError(named: name))
  }

  /// navd could not be reached: which socket was tried, why, and how to start navd (exit 3);
  /// with `advice` (the socket's permissions refused the connect: `reason` names the socket,
  /// its owner, group and mode), that advice instead, since navd is there.
  public static func unreachable(socket: String, reason: String, advice: String? = nil) -> String {
    if let advice { return "navctl: \(reason)\n  To fix: \(advice).\n" }
    return """
      navctl: cannot reach navd at \(socket): \(reason)
        Start it with 'navd' (or 'systemctl --user start navd.socket'),
        or point navctl at a running navd with --socket PATH or NAVD_SOCKET.

      """
  }
}
