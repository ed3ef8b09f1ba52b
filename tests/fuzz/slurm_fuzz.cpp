// Fuzzes distlaunch's readers of a Slurm allocation's environment
// (lib/launch/src/slurm.cpp): the input's first line is SLURM_JOB_NODELIST,
// its second SLURM_TASKS_PER_NODE (environment values have no newline). Checked besides "no crash,
// no sanitizer report": each is expanded or refused with a one-line UsageError (nothing else
// escapes), within the 100000-node bound however the groups multiply; an expanded node is a
// non-empty name without brackets or commas, and a count is at least 1.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/launch/slurm.hpp"
#include "distkit/util/error.hpp"
#include "fuzz_check.hpp"

namespace dl = distkit::launch;
using distkit::fuzz::require;

namespace {

template <class F>
void refused_in_one_line(F f) {
  try {
    f();
  } catch (const distkit::UsageError& e) {
    require(std::string_view(e.what()).find('\n') == std::string_view::npos);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto newline = in.find('\n');
  std::string_view nodelist = in.substr(0, newline);
  std::string_view counts = newline == std::string_view::npos ? "" : in.substr(newline + 1);
  counts = counts.substr(0, counts.find('\n'));
  refused_in_one_line([&] {
    auto nodes = dl::expand_slurm_nodelist(nodelist);
    require(!nodes.empty() && nodes.size() <= 100000);
    for (const auto& n : nodes) require(!n.empty() && n.find_first_of("[],") == std::string::npos);
  });
  refused_in_one_line([&] {
    auto per_node = dl::expand_slurm_tasks_per_node(counts);
    require(!per_node.empty() && per_node.size() <= 100000);
    for (int c : per_node) require(c >= 1);
  });
  return 0;
}
