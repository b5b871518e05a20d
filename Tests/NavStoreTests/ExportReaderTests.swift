import NavEngine
import NavModel
import Testing

@testable import NavStore

/// `ExportReader`: the export document (Protocol/STORAGE.md §5) read in bounded pieces, one scene
/// at a time, with `SceneArchive(json:)`'s checks.
@Suite("Export document read in pieces")
struct ExportReaderTests {
  static let archive = SceneArchive(scenes: [
    SceneArchive.Scene(
      name: "main", epoch: "e1", version: 2,
      state: try! SceneState.empty.applying([
        .push(NavigationItem(id: "inbox", title: "In \"box\" \\ ]}"), animated: false)
      ]).state),
    SceneArchive.Scene(name: "side", epoch: "e7", version: 0, state: .empty),
  ])

  /// The scenes `text` reads to, handed over `piece` bytes at a time; every read's size is recorded.
  static func scenes(
    _ text: String, piece: Int = 7, maxSceneBytes: Int = 1 << 20, asked: inout [Int]
  ) async throws -> [SceneArchive.Scene] {
    var bytes = Array(text.utf8)[...]
    var requests: [Int] = []
    var reader = ExportReader(maxSceneBytes: maxSceneBytes) { count in
      requests.append(count)
      let taken = bytes.prefix(min(count, piece))
      bytes = bytes.dropFirst(taken.count)
      return Array(taken)
    }
    var scenes: [SceneArchive.Scene] = []
    defer { asked = requests }
    try await reader.scenes { scenes.append($0) }
    return scenes
  }

  static func scenes(_ text: String, maxSceneBytes: Int = 1 << 20) async throws -> [SceneArchive.Scene] {
    var asked: [Int] = []
    return try await scenes(text, maxSceneBytes: maxSceneBytes, asked: &asked)
  }

  static func message(_ text: String, maxSceneBytes: Int = 1 << 20) async -> String? {
    do {
      _ = try await scenes(text, maxSceneBytes: maxSceneBytes)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("STORAGE §5 the written export reads back to the same scenes, in pieces of any size, each read bounded")
  func roundTrip() async throws {
    let text = JSONWriter.string(Self.archive.json)
    for piece in [1, 7, 4096] {
      var asked: [Int] = []
      #expect(try await Self.scenes(text, piece: piece, asked: &asked) == Self.archive.scenes)
      #expect(asked.allSatisfy { $0 == ExportReader.pieceBytes })
    }
  }

  @Test("STORAGE §5 spaces, and members in another order (scenes before format), read as SceneArchive reads them")
  func layoutOfTheDocument() async throws {
    let state = JSONWriter.string(Self.archive.scenes[0].state.json)
    let text = """
      { "scenes" : [ { "version" : 2 , "state" : \(state) , "name" : "main" , "epoch" : "e1" } ] ,
        "note": {"any": [1, "]"]}, "formatVersion" : 1 , "format" : "navd-export" }

      """
    #expect(try await Self.scenes(text) == [Self.archive.scenes[0]])
    #expect(try SceneArchive(json: JSONParser.parse(text)).scenes == [Self.archive.scenes[0]])
  }

  @Test("STORAGE §5 a bad document gets SceneArchive's own message: format, formatVersion, a scene twice, a version")
  func sameRefusals() async throws {
    let state = JSONWriter.string(SceneState.empty.json)
    let scene = #"{"epoch":"e1","name":"main","state":\#(state),"version":1}"#
    let documents = [
      #"{"format":"other","formatVersion":1,"scenes":[]}"#,
      #"{"format":"navd-export","formatVersion":2,"scenes":[]}"#,
      #"{"format":"navd-export","formatVersion":1,"scenes":[\#(scene),\#(scene)]}"#,
      #"{"format":"navd-export","formatVersion":1,"scenes":[{"epoch":"e1","name":"main","state":{},"version":-1}]}"#,
      #"{"format":"navd-export","formatVersion":1,"scenes":{}}"#,
      #"{"format":"navd-export","formatVersion":1}"#,
    ]
    for document in documents {
      var expected: String?
      do {
        _ = try SceneArchive(json: JSONParser.parse(document))
      } catch {
        expected = "\(error)"
      }
      #expect(expected != nil)
      #expect(await Self.message(document) == expected, "\(document)")
    }
  }

  @Test("STORAGE §5 invalid JSON is named at its byte in the file, as the parser of the whole file names it")
  func invalidJSON() async throws {
    let documents = [
      #"{"format":"navd-export","formatVersion":1,"scenes":[{"epoch":"e1","name":"main","state":{,}}]}"#,
      #"{"format":"navd-export","formatVersion":1,"scenes":[{"epoch":"e1","name":"main","version":01}]}"#,
      #"{"format":"navd-export","formatVersion":1,"scenes":[]} x"#,
    ]
    for document in documents {
      var expected: String?
      do {
        _ = try JSONParser.parse(document)
      } catch {
        expected = "\(error)"
      }
      #expect(expected != nil)
      #expect(await Self.message(document) == expected, "\(document)")
    }
    #expect(
      await Self.message(#"{"format":"navd-export","format":"navd-export","formatVersion":1,"scenes":[]}"#) != nil)
  }

  @Test("STORAGE §5 a scene longer than maxSceneBytes is refused by its index, however the file goes on")
  func boundedScene() async throws {
    let text = JSONWriter.string(Self.archive.json)
    let message = await Self.message(text, maxSceneBytes: 64)
    #expect(message == "scenes[0] is longer than 64 bytes, the most navctl reads of one")
  }

  @Test("STORAGE §5 each scene is handed over once read, before the next is read")
  func sceneByScene() async throws {
    let bad =
      #"{"format":"navd-export","formatVersion":1,"scenes":[\#(JSONWriter.string(Self.archive.json["scenes"]!.arrayValue![0])),{"name":""}]}"#
    var bytes = Array(bad.utf8)[...]
    var reader = ExportReader(maxSceneBytes: 1 << 20) { count in
      let taken = bytes.prefix(count)
      bytes = bytes.dropFirst(taken.count)
      return Array(taken)
    }
    var handed: [String] = []
    await #expect(throws: StoreError.self) { try await reader.scenes { handed.append($0.name) } }
    #expect(handed == ["main"])
  }
}
