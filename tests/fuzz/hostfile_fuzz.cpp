// libFuzzer entry for the hostfile library. Properties checked on every
// input, besides "no crash, no sanitizer report":
//  - parse() either returns a model or throws a UsageError whose text is
//    one line (no other exception type escapes);
//  - a parsed model survives serialize -> parse unchanged, and serialize is
//    a fixed point (the writer never produces what the reader refuses);
//  - --hosts parsing, -n repetition and every export accept or refuse the
//    input with a UsageError, never anything else.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/hostfile/export.hpp"
#include "distkit/hostfile/host_list.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/error.hpp"

namespace hf = distkit::hostfile;

namespace {

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void require_one_line(const distkit::UsageError& e) {
  require(std::string_view(e.what()).find('\n') == std::string_view::npos);
}

void check_exports(const std::vector<hf::Host>& ranks) {
  for (auto fmt : {hf::ExportFormat::openmpi, hf::ExportFormat::mpich, hf::ExportFormat::slurm,
                   hf::ExportFormat::deepspeed}) {
    try {
      require(!hf::export_hosts(ranks, fmt).empty());
    } catch (const distkit::UsageError& e) {
      require_one_line(e);
    }
  }
}

void fuzz_hostfile(std::string_view text) {
  hf::Hostfile model;
  try {
    model = hf::parse(text, "fuzz");
  } catch (const distkit::UsageError& e) {
    require_one_line(e);
    return;
  }
  model.backend = model.backend.value_or(hf::Backend::none);  // a bare list is written with ""
  std::string out = hf::serialize(model);
  hf::Hostfile again = hf::parse(out, "fuzz");
  require(again == model);
  require(hf::serialize(again) == out);
  check_exports(model.hosts);
}

void fuzz_host_list(std::string_view text) {
  std::vector<hf::Host> ranks;
  try {
    ranks = hf::repeat_hosts(hf::parse_host_list(text), 1 + static_cast<int>(text.size() % 3));
  } catch (const distkit::UsageError& e) {
    require_one_line(e);
    return;
  }
  hf::Hostfile model;
  model.hosts = ranks;
  hf::validate(model, "fuzz");  // must accept what --hosts accepted
  check_exports(ranks);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_hostfile(text);
  fuzz_host_list(text);
  return 0;
}
