// See setup_text.hpp. Each command line comes from
// templates/distconfig_setup_link.sh (values shell-quoted).
#include "setup_text.hpp"

#include "distkit/util/template.hpp"

namespace distkit::configtool {

std::string render_setup(const topology::Topology& t,
                         const std::vector<topology::LinkAddresses>& plan) {
  std::string out;
  const int n = int(t.hosts.size());
  for (int i = 0; i < n; ++i) {
    std::string title = "Setup for " + t.hosts[size_t(i)].name;
    out += title + "\n" + std::string(title.size(), '=') + "\nsudo ifconfig bridge0 down\n";
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      for (int l : t.links_between(i, j)) {
        const auto& link = t.links[size_t(l)];
        if (t.iface(i, link).empty()) continue;
        out += render_named("distconfig_setup_link.sh",
                            {{"iface", t.iface(i, link)},
                             {"ip", topology::address_on(plan, t, l, i)},
                             {"peer", topology::address_on(plan, t, l, j)}},
                            TemplateMode::shell);
      }
    }
    out += "\n\n";
  }
  return out;
}

}  // namespace distkit::configtool
