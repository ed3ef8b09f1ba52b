// Writes the object form of a hostfile byte-for-byte as Python's
// json.dump(obj, f, indent=4) does, so files written by distconfig and by
// MLX's own tool diff cleanly: 4-space indentation, ", " never used (the
// item separator is "," at line end), ": " after keys, empty lists as "[]",
// ensure_ascii escaping, no trailing newline. nlohmann::json's dump with
// indent 4 and ensure_ascii writes exactly that; ordered_json keeps the keys
// in the reference tool's order.
#include <nlohmann/json.hpp>

#include <string>
#include <variant>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/json_text.hpp"

namespace distkit::hostfile {

namespace {

// Not `json`: that is reader.cpp's nlohmann::json, in the same unity build.
using OrderedJson = nlohmann::ordered_json;

// Bytes that are not UTF-8 become U+FFFD, as json_string writes them.
OrderedJson text(std::string_view s) {
  return valid_utf8(s);
}

OrderedJson texts(const std::vector<std::string>& v) {
  auto out = OrderedJson::array();
  for (const auto& s : v) out.push_back(text(s));
  return out;
}

OrderedJson rdma_entry(const RdmaEntry& e) {
  if (const auto* name = std::get_if<std::string>(&e)) return text(*name);
  if (const auto* list = std::get_if<std::vector<std::string>>(&e)) return texts(*list);
  return nullptr;
}

}  // namespace

std::string serialize(const Hostfile& hf) {
  auto hosts = OrderedJson::array();
  for (const Host& h : hf.hosts) {
    auto rdma = OrderedJson::array();
    for (const auto& e : h.rdma) rdma.push_back(rdma_entry(e));
    hosts.push_back({{"ssh", text(h.ssh)}, {"ips", texts(h.ips)}, {"rdma", rdma}});
  }
  OrderedJson doc = {{"backend", text(to_string(hf.backend.value_or(Backend::none)))},
                     {"envs", texts(hf.envs)},
                     {"hosts", hosts}};
  return doc.dump(4, ' ', true);
}

}  // namespace distkit::hostfile
