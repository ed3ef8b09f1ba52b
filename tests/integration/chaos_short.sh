# A short chaos run: 20 rounds (as the faults issue asks) of
# scripts/chaos.sh on 4 test hosts (one random fault per round: kill -9 or
# SIGSTOP of a rank, a cut link, a stopped sshd, kill -9 of distlaunch or
# of a host's agent),
# each round checked for the exit code and message, no process and no
# temp file left on any host, and the run manifest. The seed is printed;
# DISTKIT_CHAOS_SEED=S replays it.
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
exec sh "$SRC/scripts/chaos.sh" --rounds 20 --hosts 4 --max-seconds 200 --verbose \
  --build "${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}" \
  ${DISTKIT_CHAOS_SEED:+--seed "$DISTKIT_CHAOS_SEED"}
