// Fuzzes distaccept's readers of what hosts and ranks print (lib/accept/
// src/answers.cpp: the host probe's and the collection's answers, rank 0's
// log and a metrics file, all outside input) on the same bytes. Checked
// besides "no crash, no sanitizer report": nothing throws; a version is
// one of the four the probe prints and comes from one line; paths and
// hashes come from one line; metrics come with no error or an error with
// no metrics, and a number's text is a number again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/accept/answers.hpp"
#include "fuzz_check.hpp"

namespace da = distkit::accept;
using distkit::fuzz::require;
using distkit::fuzz::require_field;

namespace {

void require_metrics(const da::ParsedMetrics& m) {
  require(m.error.empty() || m.values.empty());
  for (const auto& [name, value] : m.values)
    if (value.is_number) require(!value.text.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto probe = da::parse_probe_answer(in);
  for (const auto& [key, value] : probe.versions) {
    require(key == "os" || key == "python" || key == "mlx" || key == "distkit");
    require_field(value, in);
  }
  for (const auto& [path, hash] : probe.inputs) {
    require_field(path, in);
    require_field(hash, in);
  }
  auto collected = da::parse_collect_answer(in);
  for (const auto& [path, hash] : collected.files) {
    require_field(path, in);
    require_field(hash, in);
  }
  if (collected.metrics_text) {
    require(collected.metrics_text->size() <= in.size() + 1);
    require_metrics(da::metrics_from_json(*collected.metrics_text));
  }
  require_metrics(da::metrics_from_log(in));
  return 0;
}
