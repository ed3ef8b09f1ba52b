// See thunderbolt.hpp. Written defensively: every field is optional and of
// unknown type until checked, because the input comes from other machines
// (and from the fuzzer).
#include "distkit/probe/thunderbolt.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "distkit/util/strings.hpp"

namespace distkit::probe {

using nlohmann::json;

namespace {

// find() on anything but an object finds nothing.
std::string str_field(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Walks `_items` recursively (docks nest peers deeper); bounded depth so a
// hostile document cannot exhaust the stack.
void walk_items(const json& parent, int depth, TbPort& port) {
  if (depth > 8 || !parent.is_object()) return;
  auto items = parent.find("_items");
  if (items == parent.end() || !items->is_array()) return;
  for (const auto& item : *items) {
    if (!item.is_object()) continue;
    port.connected = true;
    std::string uuid = str_field(item, "domain_uuid_key");
    if (!uuid.empty()) port.peers.push_back({uuid});
    walk_items(item, depth + 1, port);
  }
}

int gbps_of(std::string_view speed) {
  int v = 0;
  size_t i = speed.find_first_of("0123456789");
  if (i != speed.npos) std::from_chars(speed.data() + i, speed.data() + speed.size(), v);
  return v;
}

TbPort parse_bus(const json& bus) {
  TbPort p;
  p.domain_uuid = str_field(bus, "domain_uuid_key");
  auto tag = bus.find("receptacle_1_tag");
  if (tag != bus.end() && tag->is_object()) {
    p.receptacle = str_field(*tag, "receptacle_id_key");
    p.speed = str_field(*tag, "current_speed_key");
    p.connected = str_field(*tag, "receptacle_status_key") == "receptacle_connected";
  }
  walk_items(bus, 1, p);
  return p;
}

}  // namespace

int TbPort::linked_gbps() const {
  if (speed.rfind("Up to", 0) == 0) return 0;
  return gbps_of(speed);
}

int TbPort::max_gbps() const {
  return gbps_of(speed);
}

TbReport parse_system_profiler_thunderbolt(std::string_view json_text) {
  TbReport r;
  json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) {
    r.error = "system_profiler printed invalid JSON";
    return r;
  }
  auto buses = doc.find("SPThunderboltDataType");
  if (buses == doc.end() || !buses->is_array()) {
    r.error = "system_profiler JSON has no SPThunderboltDataType list";
    return r;
  }
  for (const auto& bus : *buses) {
    if (!bus.is_object()) continue;
    if (str_field(bus, "domain_uuid_key").empty()) continue;
    if (r.machine_name.empty()) r.machine_name = str_field(bus, "device_name_key");
    r.ports.push_back(parse_bus(bus));
  }
  return r;
}

std::vector<LinuxTbDevice> parse_linux_thunderbolt(std::string_view text) {
  std::vector<LinuxTbDevice> out;
  for (std::string_view line : split_lines(text)) {
    if (trim(line).empty()) continue;
    auto f = split(line, '\t');
    f.resize(4);
    out.push_back({f[0], f[1], f[2], f[3]});
  }
  return out;
}

}  // namespace distkit::probe
