// One libssh2 session to one host, shared by every command run there: each
// command is a channel on the same connection, at most `max_channels` open
// at once (further commands wait their turn), all driven by one I/O thread
// that polls the socket. Keepalives are sent while commands run; a peer that
// answers nothing for interval x count_max is declared lost and every
// command on it fails with that message.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "distkit/ssh/executor.hpp"
#include "distkit/ssh/ssh_config.hpp"

namespace distkit::ssh::detail {

struct SessionOptions {
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds keepalive_interval{5000};
  int keepalive_count_max = 3;
  int max_channels = 8;
  std::string strict_host_key_checking = "yes";  // yes | no | accept-new
};

class SessionCore;

class SshSession : public std::enable_shared_from_this<SshSession> {
 public:
  // Connects to cfg.host_name:port, verifies the host key, authenticates and
  // starts the I/O thread. Throws ConnectFailure.
  static std::shared_ptr<SshSession> open(const HostConfig& cfg, const std::string& user,
                                          const SessionOptions& options);
  ~SshSession();
  // Starts ending the session; commands still running fail. The
  // destructor does the same and waits for the end.
  void request_stop();
  SshSession(const SshSession&) = delete;
  SshSession& operator=(const SshSession&) = delete;

  // Queues `command` (run by the remote user's shell as
  // `exec /bin/sh -c '<command>'`). timeout 0: none.
  std::unique_ptr<RunningCommand> start(const std::string& command, StreamHandlers handlers,
                                        std::chrono::milliseconds timeout);

 private:
  SshSession() = default;
  std::shared_ptr<SessionCore> core_;
  std::thread thread_;
};

}  // namespace distkit::ssh::detail
