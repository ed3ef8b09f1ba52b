// Deciding whether a host name means this machine, so it gets a
// LocalExecutor instead of an SSH session: loopback names and addresses,
// this machine's hostname (full or short) and the addresses of its
// interfaces (getifaddrs: portable to macOS, no /proc).
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <string>

#include "distkit/ssh/connect.hpp"

namespace distkit::ssh {
namespace {

bool is_loopback_literal(std::string_view h) {
  if (h == "localhost" || h == "::1" || h == "[::1]") return true;
  in_addr a4{};
  return inet_pton(AF_INET, std::string(h).c_str(), &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127;
}

bool is_own_hostname(std::string_view h) {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return false;
  std::string_view full(buf);
  return h == full || h == full.substr(0, full.find('.'));
}

std::string address_text(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (sa->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, buf, sizeof buf);
  else if (sa->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, buf, sizeof buf);
  return buf;
}

bool is_own_address(std::string_view h) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return false;
  bool found = false;
  for (ifaddrs* i = list; i && !found; i = i->ifa_next)
    if (i->ifa_addr && !address_text(i->ifa_addr).empty()) found = address_text(i->ifa_addr) == h;
  freeifaddrs(list);
  return found;
}

}  // namespace

bool is_local_host(std::string_view host) {
  if (host.empty()) return false;
  return is_loopback_literal(host) || is_own_hostname(host) || is_own_address(host);
}

}  // namespace distkit::ssh
