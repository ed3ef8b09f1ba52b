#!/bin/sh
# Installs what distkit needs to build and test, idempotently:
#   Debian 12 / Ubuntu 24.04: apt (as root, or through sudo)
#   macOS: Homebrew
# Usage: scripts/install-deps.sh [--bench] [--fuzz] [--lint] [--mlx] [--slurm]
#   --bench  also the peers the benchmarks compare against (pdsh, Open MPI,
#            Gloo, iperf3)
#   --fuzz   also clang and its sanitizer/fuzzer runtime
#   --lint   also shellcheck and clang-format (scripts/lint.sh)
#   --mlx    also what building MLX's C++ library needs (OpenBLAS, LAPACKE),
#            for the tests that run real MLX programs (DISTKIT_MLX_SOURCE)
#   --slurm  also Slurm (slurmctld, slurmd, slurm-client, munge) and Open
#            MPI, for the tests that hand jobs to them on the test cluster
#            (Linux only: Slurm does not run on macOS)
# Exit status: 0 installed (or already present), 1 install failed,
# 2 unsupported system or bad arguments.
set -eu

wanted=" "
for arg in "$@"; do
  case "$arg" in
    --bench|--fuzz|--lint|--mlx|--slurm) wanted="$wanted${arg#--} " ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps.sh: error: unknown argument '$arg'; see --help" >&2; exit 2 ;;
  esac
done
# want EXTRA: whether --EXTRA was given.
want() { case $wanted in *" $1 "*) ;; *) return 1 ;; esac; }

install_macos() {
  if ! command -v brew >/dev/null 2>&1; then
    echo "install-deps.sh: error: Homebrew not found; install it from https://brew.sh first" >&2
    exit 2
  fi
  pkgs="cmake ninja pkg-config cli11 libssh2 nlohmann-json fmt spdlog catch2"
  want bench && pkgs="$pkgs open-mpi iperf3"
  want lint && pkgs="$pkgs shellcheck clang-format"
  # On a Mac, MLX uses Accelerate: nothing more to install.
  for p in $pkgs; do
    brew list --formula "$p" >/dev/null 2>&1 || brew install "$p"
  done
}

install_apt() {
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "install-deps.sh: error: not root and no sudo; run as root" >&2; exit 2
    fi
  fi
  pkgs="build-essential cmake ninja-build pkg-config git libcli11-dev libssh2-1-dev
        nlohmann-json3-dev libfmt-dev libspdlog-dev catch2
        openssh-server openssh-client iproute2 procps util-linux psmisc time man-db groff-base zsh fish bash-completion
        gdb
        python3"
  want bench && pkgs="$pkgs pdsh openmpi-bin libopenmpi-dev libgloo-dev iperf3 hyperfine"
  want fuzz && pkgs="$pkgs clang libclang-rt-dev"
  want lint && pkgs="$pkgs shellcheck clang-format"
  want mlx && pkgs="$pkgs libopenblas-dev liblapacke-dev"
  want slurm && pkgs="$pkgs slurmctld slurmd slurm-client munge openmpi-bin"
  missing=""
  for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -z "$missing" ]; then
    echo "install-deps.sh: all dependencies already installed"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # libclang-rt-dev is the virtual name on newer releases; Debian 12 has -14.
  if echo "$missing" | grep -q libclang-rt-dev && ! apt-cache show libclang-rt-dev >/dev/null 2>&1; then
    missing=$(echo "$missing" | sed 's/libclang-rt-dev/libclang-rt-14-dev/')
  fi
  echo "install-deps.sh: installing:$missing"
  # shellcheck disable=SC2086 # $sudo: empty or one word; $missing: one package a word
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

case "$(uname -s)" in
  Darwin) install_macos ;;
  Linux)
    if command -v apt-get >/dev/null 2>&1; then install_apt; else
      echo "install-deps.sh: error: no apt-get; install the packages listed in README.md by hand" >&2
      exit 2
    fi ;;
  *) echo "install-deps.sh: error: unsupported system $(uname -s)" >&2; exit 2 ;;
esac
