// See scripts.hpp. Every step line is a function call whose arguments go
// through shell_join; the functions live in templates/netsetup_<os>.sh.
#include "distkit/netsetup/scripts.hpp"

#include <algorithm>
#include <stdexcept>

#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::netsetup {

namespace {

const char* os_name(Os os) {
  return os == Os::macOS ? "macOS" : "Linux";
}

const Endpoint& my_end(const LinkPlan& l, const std::string& host) {
  return l.cable.a.host == host ? l.cable.a : l.cable.b;
}

// Links of `host` that have an interface name (an unmapped port cannot be
// configured; topology warnings already name it).
std::vector<const LinkPlan*> usable_links(const Plan& plan, const std::string& host) {
  std::vector<const LinkPlan*> out;
  for (const auto* l : links_of(plan, host))
    if (!my_end(*l, host).iface.empty()) out.push_back(l);
  return out;
}

std::string header(const HostTarget& h) {
  return render_named("netsetup_common.sh",
                      {{"host", h.host}, {"os", os_name(h.os)}, {"state_file", h.state_file}},
                      TemplateMode::shell) +
         std::string(template_text(h.os == Os::macOS ? "netsetup_macos.sh" : "netsetup_linux.sh"));
}

std::string steps(const HostTarget& h, const Plan& plan, const SetupOptions& o) {
  std::string out = "state_ok || { failed \"use $STATE\"; ns_end; }\n";
  auto links = usable_links(plan, h.host);
  if (h.os == Os::macOS) {
    out += "ns_location\n";  // once, before the links: the doctor compares it
    if (o.bridge == BridgeMode::down)
      out += "ns_bridge_down bridge0\n";
    else
      for (const auto* l : links)
        out += "ns_bridge_out bridge0 " + shell_quote(my_end(*l, h.host).iface) + "\n";
  }
  for (const auto* l : links) {
    const Endpoint& me = my_end(*l, h.host);
    out +=
        "# cable " + me.str() + " <-> " + (l->cable.a == me ? l->cable.b : l->cable.a).str() + "\n";
    if (h.os == Os::Linux) out += "ns_link_up " + shell_quote(me.iface) + "\n";
    std::vector<std::string> args{me.iface, l->address_of(me), std::to_string(l->net.prefix)};
    if (h.os == Os::macOS) args.push_back(format_ipv4(l->net.mask()));
    out += "ns_addr " + shell_join(args) + "\n";
    out += "ns_route " + shell_join({me.iface, l->peer_address_of(me)}) + "\n";
  }
  return out;
}

std::string persist_block(const HostTarget& h, const std::string& script_text) {
  const bool mac = h.os == Os::macOS;
  // Where --persist installs the script and the boot job.
  std::string script = mac ? "/var/db/distkit/netsetup.sh" : "/var/lib/distkit/netsetup.sh";
  std::string job = mac ? "/Library/LaunchDaemons/com.distkit.netsetup.plist"
                        : "/etc/systemd/system/distkit-netsetup.service";
  std::string job_text = render_named(mac ? "netsetup_launchd.plist" : "netsetup_systemd.service",
                                      {{"script", script}}, TemplateMode::text);
  std::string enable =
      mac ? "launchctl bootstrap system " + shell_quote(job) +
                " >/dev/null 2>&1 || launchctl load -w " + shell_quote(job) + " >/dev/null 2>&1"
          : "if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then "
            "systemctl daemon-reload; systemctl enable distkit-netsetup.service >/dev/null 2>&1; "
            "else say \"note no systemd running here: the unit is written but nothing starts it at "
            "boot\"; fi";
  return render_named("netsetup_persist.sh",
                      {{"kind", mac ? "a launchd daemon" : "a systemd unit"},
                       {"script", script},
                       {"job", job},
                       {"script_text", script_text},
                       {"job_text", job_text},
                       {"enable", enable}},
                      TemplateMode::shell);
}

std::string command_line(Os os, const std::string& key, const TemplateFields& fields) {
  std::string_view all = template_text(os == Os::macOS ? "netsetup_commands_macos.txt"
                                                       : "netsetup_commands_linux.txt");
  for (std::string_view line : split_lines(all)) {
    size_t sp = line.find(' ');
    if (line.substr(0, sp) == key)
      return render_template(line.substr(sp + 1), fields, TemplateMode::shell) + "\n";
  }
  throw std::logic_error("netsetup: no command template for " + key);
}

}  // namespace

std::string state_file_for(Os os, const std::string& host, const std::string& pattern) {
  if (pattern.empty())
    return os == Os::macOS ? "/var/db/distkit/netsetup.state" : "/var/lib/distkit/netsetup.state";
  std::string safe = host, out = pattern;
  std::ranges::replace(safe, '/', '_');
  for (size_t at = out.find("%h"); at != std::string::npos; at = out.find("%h", at + safe.size()))
    out.replace(at, 2, safe);
  return out;
}

std::string setup_script(const HostTarget& h, const Plan& plan, const SetupOptions& o) {
  std::string base = header(h) + steps(h, plan, o);
  if (!o.persist) return base + "ns_end\n";
  return base + persist_block(h, base + "ns_end\n") + "ns_persist\nns_end\n";
}

std::string teardown_script(const HostTarget& h) {
  return header(h) + "ns_teardown\nns_end\n";
}

std::string verify_script(const HostTarget& h, const Plan& plan, int port) {
  auto links = usable_links(plan, h.host);
  std::vector<std::string> addrs;
  std::string checks;
  for (const auto* l : links) {
    const Endpoint& me = my_end(*l, h.host);
    addrs.push_back(l->address_of(me));
    checks += "check " + shell_join({me.iface, l->peer_address_of(me)}) + "\n";
  }
  return render_named("netsetup_verify.sh",
                      {{"host", h.host},
                       {"os", os_name(h.os)},
                       {"port", std::to_string(port)},
                       {"links", std::to_string(links.size())},
                       // How long the listener waits for peers, and how long a
                       // refused connection is retried (seconds).
                       {"lifetime", "12"},
                       {"retry", "6"},
                       {"addresses", shell_join(addrs)},
                       {"checks", checks}},
                      TemplateMode::shell);
}

std::string state_script(const HostTarget& h) {
  return render_named(
      "netsetup_state.sh",
      {{"capture", std::string(template_text("capture_writer.sh"))}, {"state_file", h.state_file}},
      TemplateMode::shell);
}

std::string setup_commands(const HostTarget& h, const Plan& plan, const SetupOptions& o) {
  std::string out;
  auto links = usable_links(plan, h.host);
  if (h.os == Os::macOS) {
    if (o.bridge == BridgeMode::down)
      out += command_line(h.os, "bridge_down", {{"bridge", "bridge0"}});
    else
      for (const auto* l : links)
        out += command_line(h.os, "bridge_out",
                            {{"bridge", "bridge0"}, {"iface", my_end(*l, h.host).iface}});
  }
  for (const auto* l : links) {
    const Endpoint& me = my_end(*l, h.host);
    TemplateFields f{{"iface", me.iface},
                     {"cidr", l->address_of(me) + "/" + std::to_string(l->net.prefix)},
                     {"ip", l->address_of(me)},
                     {"netmask", format_ipv4(l->net.mask())},
                     {"peer", l->peer_address_of(me)}};
    if (h.os == Os::Linux) out += command_line(h.os, "link_up", f);
    out += command_line(h.os, "addr", f);
    out += command_line(h.os, "route", f);
  }
  return out;
}

std::string root_command() {
  return std::string(trim(template_text("netsetup_run.sh")));
}

}  // namespace distkit::netsetup
