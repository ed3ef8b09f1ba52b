// Where the test data lives (tests/data, copied from real captures), and a
// reader for it. Tests never read ../shared.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace distkit::test {

inline std::filesystem::path data_dir() {
  return DISTKIT_TEST_DATA_DIR;
}

inline std::string read_data(const std::filesystem::path& rel) {
  std::ifstream in(data_dir() / rel, std::ios::binary);
  if (!in) throw std::runtime_error("missing test data: " + rel.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace distkit::test
