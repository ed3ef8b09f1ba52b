# distconfig's probe, sent on stdin to `sh -s -- BOUNDARY LAUNCHER`: runs the
# script for this host's OS (probes/macos.sh or probes/linux.sh).
distkit_probe_macos() {
{{macos|raw}}
}
distkit_probe_linux() {
{{linux|raw}}
}
case "$(uname -s 2>/dev/null)" in
  Darwin) distkit_probe_macos "$@" ;;
  *) distkit_probe_linux "$@" ;;
esac
