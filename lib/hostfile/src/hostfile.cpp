// Backend names and the file-level entry points (load/save); the parsing,
// checking and writing live in reader.cpp, validate.cpp and serialize.cpp.
#include "distkit/hostfile/hostfile.hpp"

#include <system_error>

#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::hostfile {

namespace {
constexpr std::pair<Backend, std::string_view> kBackends[] = {
    {Backend::none, ""},       {Backend::ring, "ring"},
    {Backend::jaccl, "jaccl"}, {Backend::jaccl_ring, "jaccl-ring"},
    {Backend::nccl, "nccl"},   {Backend::mpi, "mpi"}};
}  // namespace

std::string_view to_string(Backend b) {
  for (const auto& [backend, name] : kBackends)
    if (backend == b) return name;
  return "";
}

Backend parse_backend(std::string_view name, std::string_view subject) {
  for (const auto& [backend, known] : kBackends)
    if (known == name) return backend;
  std::vector<std::string> names;
  for (const auto& [backend, known] : kBackends)
    if (!known.empty()) names.emplace_back(known);
  throw UsageError(std::string(subject), "unknown backend " + quote(name),
                   did_you_mean(lower(name), names,
                                "use one of \"" + join(names, "\", \"") + "\" or \"\" (none)"));
}

Hostfile load(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UsageError(path.string(), "no such hostfile",
                     "check the path, or write one with distconfig");
  return parse(read_file(path, kMaxHostfileBytes), path.string());
}

void save(const std::filesystem::path& path, const Hostfile& hf) {
  validate(hf, path.string());
  write_file_atomic(path, serialize(hf));
}

}  // namespace distkit::hostfile
