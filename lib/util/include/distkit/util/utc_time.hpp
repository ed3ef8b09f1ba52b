// UTC timestamps as every record distkit writes spells them (manifests,
// watch history, run directories): one place for gmtime_r + strftime.
#pragma once

#include <ctime>
#include <string>

namespace distkit {

enum class UtcFormat {
  iso8601,  // "2026-12-03T04:29:35Z": records (manifests, histories)
  compact   // "20261203T042935Z": file and directory names
};

// `t` in UTC, spelled as `format` says.
std::string utc_time(std::time_t t, UtcFormat format = UtcFormat::iso8601);

}  // namespace distkit
