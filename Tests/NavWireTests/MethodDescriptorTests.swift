import NavAccess
import NavWire
import Testing

/// `NavMethod.descriptor`, the one table of io.navd's methods, against the call types it names
/// and the rights and streaming rules of PROTOCOL.md § Access and §3.
@Suite("Method descriptors")
struct MethodDescriptorTests {
  @Test("Each method's descriptor names a call type of that method")
  func callTypesBelongToTheirMethod() {
    for method in NavMethod.allCases {
      #expect(method.descriptor.method == method)
      #expect(method.descriptor.call.method == method)
    }
  }

  @Test("PROTOCOL §3: only Subscribe, WatchActions and Export stream, and their calls say more")
  func streamingMethods() {
    let streaming = NavMethod.allCases.filter(\.descriptor.streams)
    #expect(streaming == [.subscribe, .watchActions, .export])
    #expect(SubscribeCall(scene: "main").varlinkCall.more)
    #expect(!GetStateCall(scene: "main").varlinkCall.more)
  }

  @Test("PROTOCOL § Access: the right each method needs")
  func rights() {
    let byRight = Dictionary(grouping: NavMethod.allCases, by: \.descriptor.right)
    #expect(byRight[.write] == [.mutate, .activate, .deleteScene])
    #expect(byRight[.admin] == [.getStatistics, .importScene])
    #expect(
      byRight[.read] == [.getServerInfo, .listScenes, .getState, .getLayout, .subscribe, .watchActions, .export])
    #expect(NavMethod.getStatistics.descriptor.scope == .server)
    #expect(NavMethod.importScene.descriptor.scope == .server)
    #expect(NavMethod.getServerInfo.descriptor.scope == .anyRight)
  }
}
