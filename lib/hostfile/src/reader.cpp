// From JSON text to the model: bounded input, syntax errors with line and
// column, type errors naming the JSON path (`hosts[2].ips[0]`), unknown keys
// with "did you mean", then the semantic checks of validate().
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"
#include "fail.hpp"

namespace distkit::hostfile {

using detail::fail;
using detail::host_path;
using json = nlohmann::json;

namespace {

std::string describe_byte(std::string_view text, size_t offset) {
  if (offset >= text.size()) return "end of file";
  unsigned char c = static_cast<unsigned char>(text[offset]);
  if (c > 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
}

// nlohmann's "expected ..." hints, in our words; others are dropped.
std::string expected_hint(const std::string& msg) {
  static const std::pair<const char*, const char*> hints[] = {
      {"; expected ':'", ", expected ':'"},
      {"; expected ']'", ", expected ',' or ']'"},
      {"; expected '}'", ", expected ',' or '}'"},
      {"; expected string literal", ", expected a quoted key"},
      {"; expected end of input", ", expected end of file"},
      {"; expected '[', '{', or a literal", ", expected a value"}};
  for (const auto& [tail, ours] : hints)
    if (msg.ends_with(tail)) return ours;
  return "";
}

// The token nlohmann reports as unexpected, in our words; else the byte at
// the error position.
std::string unexpected_what(std::string_view text, size_t offset, const std::string& msg) {
  static const std::pair<const char*, const char*> tokens[] = {{"string literal", "string"},
                                                               {"number literal", "number"},
                                                               {"true literal", "true"},
                                                               {"false literal", "false"},
                                                               {"null literal", "null"},
                                                               {"end of input", "end of file"},
                                                               {"'['", "'['"},
                                                               {"'{'", "'{'"},
                                                               {"']'", "']'"},
                                                               {"'}'", "'}'"},
                                                               {"':'", "':'"},
                                                               {"','", "','"}};
  for (const auto& [theirs, ours] : tokens)
    if (msg.find(std::string(" - unexpected ") + theirs + ";") != std::string::npos) return ours;
  return describe_byte(text, offset);
}

std::string syntax_problem(std::string_view text, size_t offset, const std::string& msg) {
  if (msg.find("invalid string:") != std::string::npos) {
    if (msg.find("UTF-8") != std::string::npos) return "invalid UTF-8 in a string";
    if (msg.find("control character") != std::string::npos)
      return "unescaped control character in a string";
    if (msg.find("closing quote") != std::string::npos) return "unterminated string";
    return "invalid escape sequence in a string";
  }
  return "unexpected " + unexpected_what(text, offset, msg) + expected_hint(msg);
}

// Rejects nesting deeper than kMaxJsonDepth before building a DOM, so a file
// of 64 MiB of '[' costs a scan, not gigabytes; and NUL bytes, which
// nlohmann's reader would take for the end of the input.
void prescan(std::string_view text, std::string_view src) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\0')
      fail(src, "", "invalid JSON at " + line_column(text, i) + ": unexpected byte 0x00",
           "fix the JSON syntax there");
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        fail(src, "",
             "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
                 line_column(text, i),
             "a hostfile nests 5 levels at most; check the file");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

json parse_json(std::string_view text, std::string_view src) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    fail(src, "",
         "invalid JSON at " + line_column(text, offset) + ": " +
             syntax_problem(text, offset, e.what()),
         "fix the JSON syntax there");
  } catch (const json::exception&) {
    fail(src, "", "invalid JSON: a number is out of range",
         "a hostfile holds only strings, lists, objects and null");
  }
}

std::string found(const json& v) {
  static const std::pair<json::value_t, const char*> kinds[] = {
      {json::value_t::null, "null"},
      {json::value_t::object, "an object"},
      {json::value_t::array, "a list"},
      {json::value_t::string, "a string"},
      {json::value_t::boolean, "true/false"}};
  for (const auto& [type, text] : kinds)
    if (v.type() == type) return text;
  return "a number";
}

void expect(bool ok, const json& v, std::string_view src, const std::string& path,
            const std::string& expected, const std::string& example) {
  if (!ok) fail(src, path, "expected " + expected + ", found " + found(v), example);
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, std::string_view src,
                const std::string& path) {
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    fail(src, path, "unknown key " + quote(key),
         did_you_mean(key, allowed, "the keys are \"" + join(allowed, "\", \"") + "\""));
  }
}

std::string read_string(const json& v, std::string_view src, const std::string& path,
                        const std::string& example) {
  expect(v.is_string(), v, src, path, "a string", example);
  return v.get<std::string>();
}

std::vector<std::string> read_strings(const json& v, std::string_view src, const std::string& path,
                                      const std::string& example) {
  expect(v.is_array(), v, src, path, "a list of strings", example);
  std::vector<std::string> out;
  out.reserve(v.size());
  for (size_t k = 0; k < v.size(); ++k)
    out.push_back(read_string(v[k], src, path + "[" + std::to_string(k) + "]", example));
  return out;
}

RdmaEntry read_rdma_entry(const json& v, std::string_view src, const std::string& path) {
  const std::string example = "write null, \"rdma_en3\" or [\"rdma_en3\", \"rdma_en4\"]";
  if (v.is_null()) return std::monostate{};
  if (v.is_string()) return v.get<std::string>();
  expect(v.is_array(), v, src, path, "null, a device name or a list of device names", example);
  return read_strings(v, src, path, example);
}

Host read_host(const json& v, size_t i, std::string_view src) {
  std::string path = host_path(i);
  expect(v.is_object(), v, src, path, "an object",
         "write each host as {\"ssh\": \"name\", \"ips\": [...], \"rdma\": [...]}");
  check_keys(v, {"ssh", "ips", "rdma"}, src, path);
  if (!v.contains("ssh")) fail(src, path, "has no \"ssh\"", "add \"ssh\": \"<host name>\"");
  Host h;
  h.ssh = read_string(v["ssh"], src, path + ".ssh", "write e.g. \"ssh\": \"studio-a\"");
  if (v.contains("ips"))
    h.ips = read_strings(v["ips"], src, path + ".ips", "write e.g. \"ips\": [\"192.168.0.2\"]");
  if (v.contains("rdma")) {
    const json& r = v["rdma"];
    expect(r.is_array(), r, src, path + ".rdma", "a list",
           "write e.g. \"rdma\": [null, \"rdma_en3\"], or [] without RDMA");
    for (size_t j = 0; j < r.size(); ++j)
      h.rdma.push_back(read_rdma_entry(r[j], src, path + ".rdma[" + std::to_string(j) + "]"));
  }
  return h;
}

std::vector<Host> read_hosts(const json& v, std::string_view src) {
  expect(v.is_array(), v, src, "hosts", "a list of hosts",
         "write e.g. \"hosts\": [{\"ssh\": \"studio-a\"}, {\"ssh\": \"studio-b\"}]");
  detail::check_host_count(v.size(), src);
  std::vector<Host> hosts;
  hosts.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) hosts.push_back(read_host(v[i], i, src));
  return hosts;
}

Hostfile from_json(const json& doc, std::string_view src) {
  Hostfile hf;
  if (doc.is_array()) {
    hf.hosts = read_hosts(doc, src);
    return hf;
  }
  expect(doc.is_object(), doc, src, "top level", "an object or a list of hosts",
         "write {\"hosts\": [{\"ssh\": \"studio-a\"}, ...]} or [{\"ssh\": \"studio-a\"}, ...]");
  check_keys(doc, {"backend", "envs", "hosts"}, src, "");
  if (doc.contains("backend")) {
    std::string name =
        read_string(doc["backend"], src, "backend", "write e.g. \"backend\": \"ring\"");
    std::string subject = src.empty() ? "backend" : std::string(src) + ": backend";
    hf.backend = parse_backend(name, subject);
  }
  if (doc.contains("envs"))
    hf.envs =
        read_strings(doc["envs"], src, "envs", "write e.g. \"envs\": [\"MLX_RING_VERBOSE=1\"]");
  if (!doc.contains("hosts"))
    fail(src, "", "has no \"hosts\" list", "add \"hosts\": [{\"ssh\": \"studio-a\"}, ...]");
  hf.hosts = read_hosts(doc["hosts"], src);
  return hf;
}

}  // namespace

Hostfile parse(std::string_view json_text, std::string_view subject) {
  if (json_text.size() > kMaxHostfileBytes)
    fail(subject, "", "is larger than 64 MiB", "give a hostfile (they are a few KiB)");
  if (json_text.find_first_not_of(" \t\n\r") == json_text.npos)
    fail(subject, "", "is empty", "write a hostfile, e.g. [{\"ssh\": \"studio-a\"}]");
  prescan(json_text, subject);
  Hostfile hf = from_json(parse_json(json_text, subject), subject);
  validate(hf, subject);
  return hf;
}

}  // namespace distkit::hostfile
