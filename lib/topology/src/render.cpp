// See render.hpp.
#include "distkit/topology/render.hpp"

#include <algorithm>
#include <numeric>

#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::topology {

namespace {

// MLX's node ids: a..z, then two letters (least significant first).
std::string node_id(size_t i) {
  std::string n;
  do {
    n += char('a' + i % 26);
    i /= 26;
  } while (i != 0);
  return n;
}

std::string iface_or_q(const Topology& t, int host, const Link& l) {
  const std::string& s = t.iface(host, l);
  return s.empty() ? "?" : s;
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string render_dot(const Topology& t) {
  std::string out = "graph G {\n  node [shape=rectangle];\n";
  for (size_t i = 0; i < t.hosts.size(); ++i)
    out += "  " + node_id(i) + " [label=\"" + dot_escape(t.hosts[i].name) + "\"];\n";
  std::vector<size_t> order(t.links.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::ranges::stable_sort(order, {}, [&](size_t k) {  // by the lower host's side
    int lo = std::min(t.links[k].a, t.links[k].b);
    return std::make_pair(lo, t.links[k].port_on(lo));
  });
  for (size_t k : order) {
    const Link& l = t.links[k];
    int lo = std::min(l.a, l.b), hi = std::max(l.a, l.b);
    out += "  " + node_id(size_t(lo)) + " -- " + node_id(size_t(hi)) + " [label=\"" +
           iface_or_q(t, lo, l) + "/" + iface_or_q(t, hi, l) + "\"";
    if (!l.symmetric())
      out += ", style=dashed] // asymmetric: only " + t.hosts[size_t(l.a)].name + " lists it\n";
    else
      out += "]\n";
  }
  return out + "}\n";
}

std::string render_matrix(const Topology& t) {
  size_t w = 1;
  for (const auto& h : t.hosts) w = std::max(w, h.name.size());
  auto pad = [](const std::string& s, size_t width) {
    return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
  };
  std::string out = std::string(w, ' ');
  for (const auto& h : t.hosts) out += "  " + pad(h.name, w);
  out += "\n";
  for (size_t i = 0; i < t.hosts.size(); ++i) {
    out += pad(t.hosts[i].name, w);
    for (size_t j = 0; j < t.hosts.size(); ++j) {
      std::string cell = i == j ? "-" : std::to_string(t.count[i][j]);
      if (i != j && std::ranges::any_of(t.links_between(int(i), int(j)),
                                        [&](int l) { return !t.links[size_t(l)].symmetric(); }))
        cell += "*";
      out += "  " + pad(cell, w);
    }
    out += "\n";
  }
  return out;
}

std::string free_ports_text(const Topology& t, int host) {
  std::vector<std::string> names;
  for (const Port* p : t.free_ports(host)) names.push_back(p->label());
  return t.hosts[size_t(host)].name + ": " + (names.empty() ? "none" : join(names, ", "));
}

std::string render_recovery(const Topology& t, const RdmaReadiness::HostGap& gap) {
  return render_named(
      "distconfig_rdma_recovery.txt",
      {{"host", t.hosts[size_t(gap.host)].name}, {"devices", join(gap.missing_devices, ", ")}},
      TemplateMode::text);
}

std::string link_name(const Topology& t, int link) {
  const Link& l = t.links[size_t(link)];
  return t.hosts[size_t(l.a)].name + " " + iface_or_q(t, l.a, l) + " <-> " +
         t.hosts[size_t(l.b)].name + " " + iface_or_q(t, l.b, l);
}

}  // namespace distkit::topology
