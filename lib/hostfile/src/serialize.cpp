// Writes the object form of a hostfile byte-for-byte as Python's
// json.dump(obj, f, indent=4) does, so files written by distconfig and by
// MLX's own tool diff cleanly: 4-space indentation, ", " never used (the
// item separator is "," at line end), ": " after keys, empty lists as "[]",
// ensure_ascii escaping, no trailing newline.
#include <string>
#include <variant>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/json_text.hpp"

namespace distkit::hostfile {

namespace {

class Writer {
 public:
  std::string take() { return std::move(out_); }

  void newline(int depth) {
    out_ += '\n';
    out_.append(static_cast<size_t>(depth) * 4, ' ');
  }
  void string(std::string_view s) { append_json_string(out_, s); }
  void raw(std::string_view s) { out_ += s; }
  void key(int depth, std::string_view k, bool first) {
    if (!first) out_ += ',';
    newline(depth);
    string(k);
    out_ += ": ";
  }

  // A list whose items are written by `item(index, depth)`.
  template <typename F>
  void list(size_t n, int depth, F&& item) {
    if (n == 0) {
      out_ += "[]";
      return;
    }
    out_ += '[';
    for (size_t i = 0; i < n; ++i) {
      if (i) out_ += ',';
      newline(depth + 1);
      item(i, depth + 1);
    }
    newline(depth);
    out_ += ']';
  }

  void string_list(const std::vector<std::string>& v, int depth) {
    list(v.size(), depth, [&](size_t i, int) { string(v[i]); });
  }

 private:
  std::string out_;
};

void write_rdma_entry(Writer& w, const RdmaEntry& e, int depth) {
  if (std::holds_alternative<std::monostate>(e)) {
    w.raw("null");
  } else if (const auto* name = std::get_if<std::string>(&e)) {
    w.string(*name);
  } else {
    w.string_list(std::get<std::vector<std::string>>(e), depth);
  }
}

void write_host(Writer& w, const Host& h, int depth) {
  w.raw("{");
  w.key(depth + 1, "ssh", true);
  w.string(h.ssh);
  w.key(depth + 1, "ips", false);
  w.string_list(h.ips, depth + 1);
  w.key(depth + 1, "rdma", false);
  w.list(h.rdma.size(), depth + 1, [&](size_t i, int d) { write_rdma_entry(w, h.rdma[i], d); });
  w.newline(depth);
  w.raw("}");
}

}  // namespace

std::string serialize(const Hostfile& hf) {
  Writer w;
  w.raw("{");
  w.key(1, "backend", true);
  w.string(to_string(hf.backend.value_or(Backend::none)));
  w.key(1, "envs", false);
  w.string_list(hf.envs, 1);
  w.key(1, "hosts", false);
  w.list(hf.hosts.size(), 1, [&](size_t i, int d) { write_host(w, hf.hosts[i], d); });
  w.newline(0);
  w.raw("}");
  return w.take();
}

}  // namespace distkit::hostfile
