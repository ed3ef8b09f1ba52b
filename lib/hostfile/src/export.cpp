// See export.hpp: other launchers' hostfile formats and the Slurm hostlist
// range compression.
#include "distkit/hostfile/export.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>

#include "distkit/hostfile/host_list.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::hostfile {

namespace {

constexpr std::pair<ExportFormat, std::string_view> kFormats[] = {
    {ExportFormat::openmpi, "openmpi"},
    {ExportFormat::mpich, "mpich"},
    {ExportFormat::slurm, "slurm"},
    {ExportFormat::deepspeed, "deepspeed"}};

// Characters each format gives a meaning to, with what that meaning is.
void check_name(const std::string& name, ExportFormat fmt) {
  auto refuse = [&](char c, const char* meaning) {
    throw UsageError(std::string(to_string(fmt)) + " export",
                     "host " + quote(name) + " contains '" + std::string(1, c) + "', which " +
                         meaning + " in that format",
                     "use a host name without it (an ssh_config Host alias works)");
  };
  if (name.find('#') != std::string::npos) refuse('#', "starts a comment");
  if (fmt == ExportFormat::mpich && name.find(':') != std::string::npos)
    refuse(':', "separates the rank count");
  if (fmt == ExportFormat::slurm)
    for (char c : {'[', ']', ','})
      if (name.find(c) != std::string::npos) refuse(c, "is hostlist syntax");
}

// Where the trailing number of `name` starts ("node07" -> 4); 0 when there
// is none to fold (no digits, only digits, more than 9, an IP address).
size_t number_start(const std::string& name) {
  size_t p = name.size();
  while (p > 0 && name[p - 1] >= '0' && name[p - 1] <= '9') --p;
  return p == name.size() || name.size() - p > 9 || is_ip_address(name) ? 0 : p;
}

// "01","02","03","07" -> "01-03,07" (numbers of one width class, sorted).
std::string ranges(std::vector<std::string> nums) {
  auto value = [](const std::string& s) { return std::stol(s); };
  std::sort(nums.begin(), nums.end(),
            [&](const std::string& a, const std::string& b) { return value(a) < value(b); });
  std::string out;
  for (size_t i = 0; i < nums.size();) {
    size_t j = i;
    while (j + 1 < nums.size() && value(nums[j + 1]) == value(nums[j]) + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? nums[i] : nums[i] + "-" + nums[j];
    i = j + 1;
  }
  return out;
}

// Width class of a number: its length when zero-padded, else 0 (natural).
size_t width_of(const std::string& digits) {
  return digits.size() > 1 && digits[0] == '0' ? digits.size() : 0;
}

// Names grouped by (prefix, width class) in order of first appearance; a
// name without a trailing number is a group of its own (width kPlain).
class NodeGroups {
 public:
  void add(const std::string& name) {
    const size_t p = number_start(name);
    const std::string digits = name.substr(p);
    const Key key = p ? Key{name.substr(0, p), width_of(digits)} : Key{name, kPlain};
    auto [it, inserted] = groups_.try_emplace(key);
    if (inserted) order_.push_back(key);
    if (p) it->second.push_back(digits);
  }

  // "10" reads the same at width 2, so it joins node01..node09.
  void merge_into_padded() {
    for (const Key& key : order_) {
      if (key.second == 0 || key.second == kPlain) continue;
      auto natural = groups_.find({key.first, 0});
      if (natural == groups_.end()) continue;
      auto& from = natural->second;
      auto fits = [&](const std::string& d) { return d.size() == key.second; };
      std::copy_if(from.begin(), from.end(), std::back_inserter(groups_[key]), fits);
      from.erase(std::remove_if(from.begin(), from.end(), fits), from.end());
    }
  }

  std::string format() {
    std::vector<std::string> parts;
    for (const Key& key : order_) {
      const auto& nums = groups_[key];
      if (key.second == kPlain)
        parts.push_back(key.first);
      else if (nums.size() == 1)
        parts.push_back(key.first + nums[0]);
      else if (!nums.empty())
        parts.push_back(key.first + "[" + ranges(nums) + "]");
    }
    return join(parts, ",");
  }

 private:
  using Key = std::pair<std::string, size_t>;
  static constexpr size_t kPlain = SIZE_MAX;
  std::vector<Key> order_;
  std::map<Key, std::vector<std::string>> groups_;
};

}  // namespace

std::string_view to_string(ExportFormat f) {
  for (const auto& [fmt, name] : kFormats)
    if (fmt == f) return name;
  return "";
}

ExportFormat parse_export_format(std::string_view name, std::string_view subject) {
  std::vector<std::string> names;
  for (const auto& [fmt, known] : kFormats) {
    if (known == name) return fmt;
    names.emplace_back(known);
  }
  throw UsageError(std::string(subject), "unknown hostfile format " + quote(name),
                   did_you_mean(name, names, "use one of " + join(names, ", ")));
}

std::string compress_node_list(const std::vector<std::string>& names) {
  NodeGroups groups;
  std::set<std::string> seen;
  for (const std::string& name : names)
    if (seen.insert(name).second) groups.add(name);
  groups.merge_into_padded();
  return groups.format();
}

std::string export_hosts(const std::vector<Host>& ranks, ExportFormat fmt) {
  std::vector<HostSlots> slots = count_slots(ranks);
  for (const HostSlots& s : slots) check_name(s.host, fmt);
  if (fmt == ExportFormat::slurm) {
    std::vector<std::string> hosts;
    hosts.reserve(slots.size());
    for (const HostSlots& s : slots) hosts.push_back(s.host);
    return render_named("export_slurm.line", {{"nodelist", compress_node_list(hosts)}},
                        TemplateMode::text);
  }
  std::string out;
  for (const HostSlots& s : slots)
    out += render_named("export_" + std::string(to_string(fmt)) + ".line",
                        {{"host", s.host}, {"slots", std::to_string(s.slots)}}, TemplateMode::text);
  return out;
}

}  // namespace distkit::hostfile
