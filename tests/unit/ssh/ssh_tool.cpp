// ssh_tool: a small driver over distkit::ssh::connect_all for the
// integration tests and the fan-out benchmark. It connects to every host,
// runs one command on all of them in parallel and prints, per host:
//   <host>: out: <line>        each stdout line
//   <host>: err: <line>        each stderr line
//   <host>: exit <status>      or "signal <n>" / "error <message>"
//   <host>: connect-error <kind>: <message>
// Exit status: 0 when every host connected and the command succeeded
// everywhere, 1 otherwise, 2 for bad arguments.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distkit/ssh/connect.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace {

struct Args {
  distkit::ssh::ConnectOptions connect;
  std::vector<std::string> hosts;
  std::string command = "true";
  std::chrono::milliseconds timeout{0};
  int repeat = 1;
  std::chrono::milliseconds pause{0};  // between repeats, sessions idle
  std::string stdin_data;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "ssh_tool: error: " << why
            << "\nusage: ssh_tool [--ssh-config F] [--accept-new] [--connect-timeout MS]"
               " [--keepalive MS] [--fanout N] [--max-channels N] [--timeout MS] [--repeat K] "
               "[--pause-ms MS]"
               " [--stdin TEXT]"
               " [--verbose] (--hosts a,b,c | --hostfile FILE) -- COMMAND\n";
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(s + " needs a value");
      return argv[++i];
    };
    if (s == "--ssh-config")
      a.connect.ssh_config = value();
    else if (s == "--accept-new")
      a.connect.accept_new_host_keys = true;
    else if (s == "--connect-timeout")
      a.connect.connect_timeout = std::chrono::milliseconds(std::stoi(value()));
    else if (s == "--keepalive")
      a.connect.keepalive_interval = std::chrono::milliseconds(std::stoi(value()));
    else if (s == "--fanout")
      a.connect.fanout = std::stoi(value());
    else if (s == "--max-channels")
      a.connect.max_channels_per_host = std::stoi(value());
    else if (s == "--timeout")
      a.timeout = std::chrono::milliseconds(std::stoi(value()));
    else if (s == "--pause-ms")
      a.pause = std::chrono::milliseconds(std::stoi(value()));
    else if (s == "--repeat")
      a.repeat = std::stoi(value());
    else if (s == "--stdin")
      a.stdin_data = value();
    else if (s == "--verbose")
      a.connect.verbose = true;
    else if (s == "--hosts")
      a.hosts = distkit::split(value(), ',');
    else if (s == "--hostfile") {
      std::ifstream in(value());
      for (std::string line; std::getline(in, line);)
        if (!line.empty()) a.hosts.push_back(line);
    } else if (s == "--") {
      std::string cmd;
      for (++i; i < argc; ++i) cmd += (cmd.empty() ? "" : " ") + std::string(argv[i]);
      a.command = cmd;
    } else {
      usage("unknown argument '" + s + "'");
    }
  }
  if (a.hosts.empty()) usage("no hosts");
  return a;
}

void print_lines(std::mutex& mu, const std::string& host, const char* tag,
                 const std::string& text) {
  std::lock_guard lock(mu);
  for (auto line : distkit::split_lines(text))
    std::cout << host << ": " << tag << ": " << line << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse(argc, argv);
  distkit::ssh::Connections c;
  try {
    c = distkit::ssh::connect_all(a.hosts, a.connect);
  } catch (const distkit::Error& e) {
    std::cerr << distkit::format_error_line("ssh_tool", e) << "\n";
    return static_cast<int>(e.exit_code());
  }
  std::mutex mu;
  for (const auto& e : c.errors)
    std::cout << e.host << ": connect-error " << e.kind << ": " << e.message << "\n";
  bool all_ok = c.errors.empty();
  for (int round = 0; round < a.repeat; ++round) {
    if (round > 0) std::this_thread::sleep_for(a.pause);
    std::vector<std::thread> threads;
    std::vector<char> ok(c.executors.size(), 0);
    for (size_t i = 0; i < c.executors.size(); ++i) {
      if (!c.executors[i]) continue;
      threads.emplace_back([&, i] {
        distkit::ssh::RunOptions ro;
        ro.timeout = a.timeout;
        ro.stdin_data = a.stdin_data;
        auto r = c.executors[i]->run(a.command, ro);
        const auto& host = a.hosts[i];
        print_lines(mu, host, "out", r.out);
        print_lines(mu, host, "err", r.err);
        std::lock_guard lock(mu);
        if (!r.exit.error.empty())
          std::cout << host << ": error " << r.exit.error << "\n";
        else if (r.exit.signal)
          std::cout << host << ": signal " << r.exit.signal << "\n";
        else
          std::cout << host << ": exit " << r.exit.exit_status << "\n";
        ok[i] = r.exit.ok();
      });
    }
    for (auto& t : threads) t.join();
    for (size_t i = 0; i < ok.size(); ++i)
      if (c.executors[i] && !ok[i]) all_ok = false;
  }
  std::cout.flush();
  return all_ok ? 0 : 1;
}
