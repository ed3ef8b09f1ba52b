// See utc_time.hpp.
#include "distkit/util/utc_time.hpp"

namespace distkit {

std::string utc_time(std::time_t t, UtcFormat format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  // Literal formats, so the compiler checks them (-Wformat=2).
  std::size_t n = format == UtcFormat::iso8601
                      ? std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm)
                      : std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return std::string(buf, n);
}

}  // namespace distkit
