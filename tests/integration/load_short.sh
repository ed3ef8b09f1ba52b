# Output under load, short: 16 ranks on 4 test hosts write numbered lines as
# fast as they can for 8 s (bench/launch_load.sh, which bench/README.md runs
# at 64 ranks x 10 s); no line may be lost or torn, the ranks must not be
# stopped for missing heartbeats while output floods the connections (for
# longer than the ranks' 5 s heartbeat limit), and distlaunch's peak RSS
# stays under 64 MB.
# Under a sanitizer (DISTKIT_SANITIZER) shadow memory multiplies RSS: the
# bound is not checked there, everything else is.
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
rss_bound="--max-rss-mb 64"
[ -z "${DISTKIT_SANITIZER:-}" ] || rss_bound=
# shellcheck disable=SC2086 # $rss_bound: nothing, or an option and its value
exec sh "$SRC/bench/launch_load.sh" \
  "${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}" \
  --seconds 8 --hosts 4 --ranks-per-host 4 --no-peer $rss_bound
