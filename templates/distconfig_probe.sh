# distconfig's probe, sent on stdin to `sh -s -- BOUNDARY LAUNCHER`: runs the
# script for this host's OS (probes/macos.sh or probes/linux.sh). A host
# with system_profiler is treated as a Mac (test hosts answer Mac commands
# from captures through shims while their kernel is Linux). Both use the
# capture writer (templates/capture_writer.sh) through probes/common.sh.
{{capture|raw}}
{{common|raw}}
if [ "$(uname -s 2>/dev/null)" = Darwin ] || command -v system_profiler >/dev/null 2>&1; then
{{macos|raw}}
else
{{linux|raw}}
fi
