/// A Varlink interface definition, parsed from its text (varlink.org "Interface Definition"):
/// the interface name, its named types, methods and errors. Generic: nothing here knows io.navd.
public struct VarlinkIDL: Sendable, Hashable {
  /// A field's or element's type.
  public indirect enum FieldType: Sendable, Hashable, CustomStringConvertible {
    case bool, int, float, string, object
    /// A type the interface declares with `type Name`.
    case named(String)
    /// `?T`: the field may be absent or null.
    case optional(FieldType)
    /// `[]T`.
    case array(FieldType)
    /// `[string]T`.
    case map(FieldType)
    /// `(a, b)`: one of the names, as a string.
    case enumeration([String])
    /// `(a: T, …)`: an object with these fields.
    case structure([Field])

    /// The type as the IDL writes it.
    public var description: String {
      switch self {
      case .bool: "bool"
      case .int: "int"
      case .float: "float"
      case .string: "string"
      case .object: "object"
      case .named(let name): name
      case .optional(let type): "?\(type)"
      case .array(let type): "[]\(type)"
      case .map(let type): "[string]\(type)"
      case .enumeration(let names): "(\(names.joined(separator: ", ")))"
      case .structure(let fields): "(\(fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
      }
    }
  }

  /// One named field of a struct, a method's input or output, or an error.
  public struct Field: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// Its type (`.optional` when it may be left out).
    public var type: FieldType
  }

  /// `method Name(input) -> (output)`.
  public struct Method: Sendable, Hashable {
    /// The parameters of a call.
    public var input: [Field]
    /// The parameters of each reply.
    public var output: [Field]
  }

  /// The interface's name, e.g. `org.example.ping`.
  public var name: String
  /// Every `type Name …`, by name.
  public var types: [String: FieldType]
  /// Every method, by name.
  public var methods: [String: Method]
  /// Every error's parameters, by error name (without the interface).
  public var errors: [String: [Field]]

  /// Parses `text`; throws `VarlinkIDLError` naming the line and what was expected.
  public init(parsing text: String) throws(VarlinkIDLError) {
    var parser = IDLParser(text)
    self = try parser.interface()
  }

  init(name: String, types: [String: FieldType], methods: [String: Method], errors: [String: [Field]]) {
    self.name = name
    self.types = types
    self.methods = methods
    self.errors = errors
  }
}

/// Why an interface definition could not be parsed, or a value does not match its type.
public struct VarlinkIDLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong and where (a line of the text, or a value's path).
  public var description: String

  /// An error saying `description`.
  public init(description: String) { self.description = description }
}
