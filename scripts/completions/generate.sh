#!/bin/sh
# Generates the bash, zsh and fish completions of distconfig, distlaunch and
# distbench from the built tools' `--help` (help2comp.awk), into
# scripts/completions/{bash,zsh,fish}/ (committed, installed by
# scripts/cmake/Install.cmake). With --check, only compares: ctest
# `doc.completions` fails when an option was added, renamed or removed
# without regenerating.
# Usage: scripts/completions/generate.sh [--check] BUILD_DIR
# Exit status: 0 written (or fresh), 1 stale, 2 bad usage or a failing
# --help, 77 the tools are not built (ctest reports the check as skipped).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
[ $# = 1 ] || { echo "generate.sh: error: usage: generate.sh [--check] BUILD_DIR" >&2; exit 2; }
build=$1

# What each option's value is, by long option name (all three tools).
files="hostfile output-hostfile output ssh-config debug-log"
dirs="cwd log-dir record save-probes from-probes work-dir"
hosts="hosts"
commands="python"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for tool in distconfig distlaunch distbench distaccept; do
  bin="$build/apps/$tool"
  [ -x "$bin" ] || { echo "generate.sh: error: $bin not built; build the three tools first" >&2; exit 77; }
  "$bin" --help >"$tmp/help" 2>&1 || { echo "generate.sh: error: $tool --help failed" >&2; exit 2; }
  command_tool=0
  [ "$tool" = distlaunch ] && command_tool=1
  for shell in bash zsh fish; do
    case $shell in
      bash) out="$here/bash/$tool" ;;
      zsh) out="$here/zsh/_$tool" ;;
      fish) out="$here/fish/$tool.fish" ;;
    esac
    awk -v tool="$tool" -v shell="$shell" -v command_tool="$command_tool" \
      -v files="$files" -v dirs="$dirs" -v hosts="$hosts" -v commands="$commands" \
      -f "$here/help2comp.awk" "$tmp/help" >"$tmp/out"
    if [ "$check" = 1 ]; then
      if ! cmp -s "$tmp/out" "$out"; then
        echo "generate.sh: ${out#"$here"/} is stale; run scripts/completions/generate.sh $build and commit it" >&2
        status=1
      fi
    else
      mkdir -p "$(dirname "$out")"
      cp "$tmp/out" "$out"
      echo "wrote ${out#"$here"/}"
    fi
  done
done
exit "$status"
