import NavModel
import NavWire

extension CommandTable {
  /// delete-scene: scenes as a whole, through navd's socket.
  static let sceneCommands: [CommandSpec] = [
    CommandSpec(
      "delete-scene", "Delete a scene and its whole history (asks nothing: the name must be given)",
      group: .scenes,
      positionals: [PositionalSpec("NAME", .required, "the scene to delete; --scene does not apply", hint: .scene)],
      example: "delete-scene mian",
      synopsis: "NAME [--if-version N]",
      notes: [
        "Durable: the scene no longer counts toward navd's --max-scenes or your --max-scenes-per-uid, and every "
          + "watch and actions of it ends (io.navd.SceneDeleted, exit 1). A later write to the name creates a new "
          + "scene at version 0 in a new epoch. Deleting main leaves an empty main. With --if-version N, only if "
          + "the scene is at version N (else exit 4). Needs the " + NavMethod.deleteScene.descriptor.right.rawValue
          + " right on the scene. "
          + "Prints the deleted "
          + "history's last version and epoch.",
        "A write that creates a scene says so on stderr ('navctl: created scene NAME'), so a mistyped --scene "
          + "shows at once; delete-scene removes it.",
      ],
      build: { args throws(UsageError) in .deleteScene(try id(args, "NAME")) })
  ]
}

extension CommandTable {
  /// stats: navd's statistics (GetStatistics, admin right).
  static let statisticsCommands: [CommandSpec] = [
    CommandSpec(
      "stats", "Print navd's counters and gauges: per server, per scene and per uid", group: .reading,
      options: [
        .flag(
          "--prometheus",
          "print them in Prometheus's text exposition format (for node_exporter's textfile collector)")
      ],
      example: "stats --prometheus",
      synopsis: "[--json | --prometheus]",
      notes: [
        "Needs the " + NavMethod.getStatistics.descriptor.right.rawValue
          + " right. Mutations, conflicts by policy, refusals by error, denials by right, streams, "
          + "queued bytes, coalesced updates, dropped activations, the commit latency histogram, the redo log's and "
          + "the database's sizes, and each uid's scene quotas in use. The metric names: Protocol/PROTOCOL.md, "
          + "GetStatistics; README.md shows node_exporter's textfile collector set-up."
      ],
      build: { args throws(UsageError) in
        let prometheus = args.flag("--prometheus")
        return .call(
          CallCommand(
            request: { _, _ in NavRequest(GetStatisticsCall()) },
            text: { reply, _, _ in
              prometheus ? PrometheusText.render(reply) ?? ReplyPresenter.line(reply) : StatisticsText.render(reply)
            }))
      })
  ]
}
