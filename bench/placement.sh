# Sourced by compare.sh, cpu-split.sh and wake-probe.sh: `--placement` as command prefixes.
#
# place SCRIPT PLACEMENT sets the arrays on_server and on_client, which a script puts before
# the commands that start a server and the client (taskset): free leaves both to the
# scheduler, apart puts the server on CPU 0 and the client on the other CPUs, together both
# on CPU 0. On a VM whose idle CPUs halt, the placement decides the latency rows
# (BENCHMARKS.md, "Where the processes run"). Exits 2 with SCRIPT's name on a bad value.
place() {
  case "$2" in
    free) on_server=(); on_client=() ;;
    apart)
      [ "$(nproc)" -ge 2 ] || { echo "$1: --placement apart needs at least 2 CPUs" >&2; exit 2; }
      on_server=(taskset -c 0); on_client=(taskset -c "1-$(($(nproc) - 1))") ;;
    together) on_server=(taskset -c 0); on_client=(taskset -c 0) ;;
    *) echo "$1: --placement is free, apart or together, not $2" >&2; exit 2 ;;
  esac
}
