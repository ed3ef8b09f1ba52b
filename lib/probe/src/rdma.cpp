// See rdma.hpp. Tolerant of the layouts seen in real captures: tabs or
// spaces, with or without the leading indentation, elided lines ("...").
#include "distkit/probe/rdma.hpp"

#include "distkit/util/decimal.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::probe {

namespace {

// A port number of up to 6 digits; anything else counts as port 1.
int port_number(std::string_view s) {
  return static_cast<int>(parse_digits(s, 6).value_or(1));
}

}  // namespace

std::vector<RdmaDevice> parse_ibv_devices(std::string_view text) {
  std::vector<RdmaDevice> out;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (w.empty() || w[0] == "device" || w[0].find_first_not_of('-') == std::string::npos) continue;
    out.push_back({w[0]});
  }
  return out;
}

// The plain listing is the verbose one without GID lines: each port's
// "port:" line comes before its "state:" line in both.
std::vector<RdmaPortState> parse_ibv_devinfo(std::string_view text) {
  std::vector<RdmaPortState> out;
  for (auto& p : parse_ibv_devinfo_verbose(text))
    if (!p.port.state.empty()) out.push_back(std::move(p.port));
  return out;
}

std::string RdmaPortGids::ipv4_mapped() const {
  for (const auto& g : gids)
    if (g.rfind("::ffff:", 0) == 0 && g.find('.') != std::string::npos) return g.substr(7);
  return "";
}

// The layout seen in TN3205 joins lines and pads the index ("GID[  1]:"),
// rdma-core prints "GID[%3d]:\t\t<gid>" (plus ", RoCE v2" on RoCE): the GID
// is the word after the one that ends in "]:".
std::vector<RdmaPortGids> parse_ibv_devinfo_verbose(std::string_view text) {
  std::vector<RdmaPortGids> out;
  std::string device;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "hca_id:") {
        device = w[i + 1];
      } else if (w[i] == "port:" && !device.empty()) {
        out.push_back({{device, port_number(w[i + 1]), ""}, {}});
      } else if (w[i] == "state:" && !out.empty() && out.back().port.state.empty()) {
        out.back().port.state = w[i + 1];
      } else if (w[i].rfind("GID[", 0) == 0 && !out.empty()) {
        size_t j = i;
        while (j < w.size() && (w[j].size() < 2 || w[j].substr(w[j].size() - 2) != "]:")) ++j;
        if (j + 1 < w.size()) {
          std::string gid = w[j + 1];
          if (!gid.empty() && gid.back() == ',') gid.pop_back();
          out.back().gids.push_back(gid);
        }
        i = j;
      }
    }
  }
  return out;
}

RdmaCtl parse_rdma_ctl_status(std::string_view text) {
  std::string_view t = trim(text);
  if (t == "enabled") return RdmaCtl::enabled;
  if (t == "disabled") return RdmaCtl::disabled;
  return RdmaCtl::unknown;
}

std::vector<RdmaPortState> parse_linux_infiniband(std::string_view text) {
  std::vector<RdmaPortState> out;
  for (std::string_view line : split_lines(text)) {
    auto f = split(line, '\t');
    if (f.size() < 3 || f[0].empty()) continue;
    // "4: ACTIVE" -> "PORT_ACTIVE", to match ibv_devinfo's names.
    std::string_view st = f[2];
    size_t colon = st.find(':');
    if (colon != std::string_view::npos) st = trim(st.substr(colon + 1));
    out.push_back({f[0], port_number(f[1]), "PORT_" + std::string(st)});
  }
  return out;
}

}  // namespace distkit::probe
