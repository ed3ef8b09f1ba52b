// Fuzzes distaccept's task.json parser (lib/accept). Checked besides "no
// crash, no sanitizer report": a task is accepted or refused with a
// one-line UsageError (nothing else escapes, e.g. no nlohmann::json type
// error); an accepted task has a command and metrics, and tolerances that
// are not negative or NaN.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/accept/task.hpp"
#include "distkit/util/error.hpp"
#include "fuzz_check.hpp"

using distkit::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  distkit::accept::Task t;
  try {
    t = distkit::accept::parse_task(text, "fuzz");
  } catch (const distkit::UsageError& e) {
    require(std::string_view(e.what()).find('\n') == std::string_view::npos);
    return 0;
  }
  require(!t.command.empty());
  require(!t.metrics.empty());
  for (const auto& [name, tol] : t.metrics) require(tol.abs >= 0 && tol.rel >= 0);
  (void)distkit::accept::expand_words(t.command, "/run", "/from");
  return 0;
}
