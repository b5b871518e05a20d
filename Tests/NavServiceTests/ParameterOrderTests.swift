import NavEngine
import NavModel
import NavService
import NavWire
import Testing
import Varlink

/// PROTOCOL §3: a call's parameters are read (NavWire's typed calls) before navd looks
/// anything up, so a bad parameter is InvalidParameter even for a scene that does not exist.
@Suite("io.navd parameters are checked before the scene")
struct ParameterOrderTests {
  let service = NavdService(engine: Engine())

  @Test("§3 a bad parameter of a call on an unknown scene is InvalidParameter, not SceneNotFound")
  func badParameterBeforeUnknownScene() async {
    let cases: [(String, JSONValue, String)] = [
      ("GetLayout", ["scene": "nowhere", "width": -1], "width"),
      ("Subscribe", ["scene": "nowhere", "view": "pixels"], "view"),
      ("Activate", ["scene": "nowhere", "item": "x", "toolbarPosition": "left"], "toolbarPosition"),
      ("GetState", ["scene": "nowhere", "extra": true], "extra"),
    ]
    for (method, parameters, parameter) in cases {
      let (_, answer) = await call(service, method, parameters, more: method == "Subscribe")
      #expect(
        answer == .error(VarlinkServiceNames.invalidParameter, InvalidParameter(parameter: parameter).parameters),
        "\(method)")
    }
    let (_, missing) = await call(service, "GetLayout", ["scene": "nowhere", "width": 320])
    guard case .error(let name, _) = missing else {
      Issue.record("\(missing)")
      return
    }
    #expect(name == NavErrorName.sceneNotFound.rawValue)
  }
}
