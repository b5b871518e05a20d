import NavModel
import Varlink

/// io.navd's errors on the wire: `NavError.Code` ↔ `io.navd.<Name>`, and the parameters
/// (`message`, `field`, `value`, `limit`, `max`, `opIndex`, and per error more).
extension NavError: VarlinkError {
  /// The Varlink error name, `io.navd.<Name>`.
  public var errorName: String { NavErrorName(code).rawValue }

  /// `parameters`: every set detail, by name.
  public var errorParameters: JSONValue { parameters }

  /// Reads an io.navd error reply; nil when `name` is no io.navd error or the parameters
  /// are not an object with a `message`. Parameters beyond the common ones go to `extra`.
  public init?(errorName name: String, parameters: JSONValue) {
    guard let errorName = NavErrorName(rawValue: name), case .object(var members) = parameters,
      let message = members.removeValue(forKey: "message")?.stringValue
    else { return nil }
    func take(_ key: String) -> JSONValue? { members.removeValue(forKey: key) }
    self.init(
      errorName.code, message, field: take("field")?.stringValue, value: take("value")?.stringValue,
      limit: take("limit")?.stringValue, max: take("max")?.numberValue.flatMap { Int(exactly: $0) },
      opIndex: take("opIndex")?.numberValue.flatMap { Int(exactly: $0) }, extra: members)
  }

  /// A Conflict's or V6 InvalidMutation's `currentVersion`: the scene's version when navd refused.
  public var currentVersion: UInt64? {
    guard let number = extra["currentVersion"]?.numberValue, number >= 0, number <= 9_007_199_254_740_992 else {
      return nil
    }
    return UInt64(exactly: number)
  }

  /// A failOnConflict Conflict's fields written since the base version (the IDL's `ConflictingField`).
  public var conflicts: [ConflictingField] {
    (extra["conflicts"]?.arrayValue ?? []).compactMap(ConflictingField.init(json:))
  }
}

/// One field in a Conflict error: its key, its current JSON value, and the version that last wrote it.
public struct ConflictingField: Sendable, Hashable {
  /// The field key, e.g. `navigationItem/inbox/title`.
  public var field: String
  /// Its current value (`null` when unset).
  public var currentValue: JSONValue
  /// The version that last wrote it.
  public var version: UInt64

  /// A conflicting field.
  public init(field: String, currentValue: JSONValue, version: UInt64) {
    self.field = field
    self.currentValue = currentValue
    self.version = version
  }

  /// Reads one element of `conflicts`; nil when it lacks a field name or a version.
  public init?(json: JSONValue) {
    guard let field = json["field"]?.stringValue, let number = json["version"]?.numberValue, number >= 0,
      let version = UInt64(exactly: number)
    else { return nil }
    self.init(field: field, currentValue: json["currentValue"] ?? .null, version: version)
  }

  /// The element's JSON.
  public var json: JSONValue {
    ["field": .string(field), "currentValue": currentValue, "version": .number(Double(version))]
  }
}

/// `org.varlink.service.PermissionDenied` as navd sends it (PROTOCOL §10): the right the
/// call needs, the scene when the call names one, and a message.
public struct PermissionDenied: VarlinkError, Hashable {
  /// The missing right (`read`, `write`, `admin`).
  public var right: String
  /// The scene the call named, if any.
  public var scene: String?
  /// One sentence for people.
  public var message: String
  /// The right was granted when the stream started and a reload took it back
  /// (PROTOCOL.md §10 "Reload"); sent as `"revoked": true` only then.
  public var revoked: Bool

  /// A denial.
  public init(right: String, scene: String?, message: String, revoked: Bool = false) {
    self.right = right
    self.scene = scene
    self.message = message
    self.revoked = revoked
  }

  /// Reads the error's parameters; nil without `right`.
  public init?(parameters: JSONValue) {
    guard let right = parameters["right"]?.stringValue else { return nil }
    self.init(
      right: right, scene: parameters["scene"]?.stringValue, message: parameters["message"]?.stringValue ?? "",
      revoked: parameters["revoked"] == .bool(true))
  }

  /// `org.varlink.service.PermissionDenied`.
  public var errorName: String { VarlinkServiceNames.permissionDenied }
  /// `parameters`.
  public var errorParameters: JSONValue { parameters }

  /// The error's parameters.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["right": .string(right), "message": .string(message)]
    if let scene { members["scene"] = .string(scene) }
    if revoked { members["revoked"] = .bool(true) }
    return .object(members)
  }
}
