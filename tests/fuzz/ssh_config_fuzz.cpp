// Fuzzes the ssh_config reader and lookup. The input is a small fake file
// system, so Include is exercised without reading any real file: the bytes
// up to the first NUL are the config, each later NUL-separated piece is a
// file /home/f/.ssh/inc<k> (k = 1, 2, ...) that Include globs can match.
// Checked besides "no crash, no sanitizer report": parse returns or throws a
// one-line UsageError; lookup of any host never throws, gives a host name,
// and only reports a Match for the system ssh when it names a file line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "distkit/ssh/ssh_config.hpp"
#include "distkit/util/error.hpp"
#include "fuzz_check.hpp"

namespace ssh = distkit::ssh;
using distkit::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<std::string, std::string>> files;
  size_t nul = in.find('\0');
  std::string_view main = in.substr(0, nul);
  for (size_t pos = nul; pos != std::string_view::npos;) {
    size_t next = in.find('\0', pos + 1);
    std::string_view body =
        in.substr(pos + 1, next == std::string_view::npos ? next : next - pos - 1);
    files.emplace_back("/home/f/.ssh/inc" + std::to_string(files.size() + 1), std::string(body));
    pos = next;
  }
  auto fake_fs = [&](const std::string& pattern) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : files)
      if (ssh::wildcard_match(pattern, f.first)) out.push_back(f);
    return out;
  };
  ssh::SshConfig cfg;
  try {
    cfg = ssh::SshConfig::parse(main, "fuzz", "/home/f", fake_fs);
  } catch (const distkit::UsageError& e) {
    require(std::string_view(e.what()).find('\n') == std::string_view::npos);
    return 0;
  }
  for (const char* host : {"a", "host1", "gpu3.lan", "10.0.0.1", "inc1", "*"}) {
    ssh::HostConfig h = cfg.lookup(host, "alice");
    require(h.alias == host);
    if (h.undecided_match) require(h.undecided_match->find(" line ") != std::string::npos);
    ssh::HostConfig u = cfg.lookup(host, "alice", std::string("root"));
    require(u.user == "root");
  }
  return 0;
}
