// Slurm host-list and task-count expansion, and the launcher choice (see
// slurm.hpp). Host lists may have several bracket groups per name
// ("r[1-2]n[1-2]" -> r1n1 r1n2 r2n1 r2n2).
#include "distkit/launch/slurm.hpp"

#include <algorithm>

#include "distkit/util/decimal.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::launch {

namespace {

// More nodes than any allocation has: a bound on what a list may expand to.
constexpr size_t kMaxNodes = 100000;

[[noreturn]] void bad(std::string_view list, const std::string& why) {
  throw UsageError("SLURM_JOB_NODELIST", "cannot expand '" + std::string(list) + "': " + why,
                   "give the hosts with --hosts or --hostfile");
}

// "1-3,07" -> {"1","2","3","07"}
std::vector<std::string> expand_ranges(std::string_view inside, std::string_view list) {
  std::vector<std::string> out;
  for (const auto& part : split(inside, ',')) {
    auto dash = part.find('-');
    std::string lo = part.substr(0, dash);
    std::string hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    auto first = parse_digits(lo, 9), last = parse_digits(hi, 9);
    if (!first || !last) bad(list, "'" + part + "' is not a number or range");
    if (*last < *first || *last - *first >= static_cast<long>(kMaxNodes))
      bad(list, "range '" + part + "' is backwards or too large");
    // The parts of one bracket add up ("n[0-99999,0-99999,...]").
    if (out.size() + static_cast<size_t>(*last - *first) >= kMaxNodes)
      bad(list, "more than 100000 nodes");
    for (long v = *first; v <= *last; ++v) {
      std::string s = std::to_string(v);
      if (s.size() < lo.size()) s.insert(0, lo.size() - s.size(), '0');
      out.push_back(s);
    }
  }
  return out;
}

// Expands one name that may contain several [..] groups.
void expand_name(std::string_view name, const std::string& prefix, std::vector<std::string>& out,
                 std::string_view list) {
  auto open = name.find('[');
  if (open == std::string_view::npos) {
    if (name.find(']') != std::string_view::npos) bad(list, "unbalanced ']'");
    // The bound a range keeps, for the whole list: groups multiply
    // ("a[1-99999]b[1-99999]" would be ~10^10 names).
    if (out.size() >= kMaxNodes) bad(list, "more than 100000 nodes");
    out.push_back(prefix + std::string(name));
    return;
  }
  auto close = name.find(']', open);
  if (close == std::string_view::npos) bad(list, "unbalanced '['");
  std::string head = prefix + std::string(name.substr(0, open));
  for (const auto& v : expand_ranges(name.substr(open + 1, close - open - 1), list))
    expand_name(name.substr(close + 1), head + v, out, list);
}

[[noreturn]] void bad_counts(std::string_view counts, const std::string& why) {
  throw UsageError("SLURM_TASKS_PER_NODE", "cannot read '" + std::string(counts) + "': " + why,
                   "give the ranks per host with -n/--repeat-hosts");
}

int count_of(std::string_view word, std::string_view counts) {
  auto v = parse_digits(word, 6);
  if (!v) bad_counts(counts, "'" + std::string(word) + "'");
  if (*v < 1) bad_counts(counts, "a count below 1");
  return static_cast<int>(*v);
}

}  // namespace

std::vector<std::string> expand_slurm_nodelist(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0) bad(list, "unbalanced ']'");
    if (c == ',' && depth == 0) {
      std::string_view name = trim(list.substr(start, i - start));
      if (!name.empty()) expand_name(name, "", out, list);
      start = i + 1;
    }
  }
  if (depth != 0) bad(list, "unbalanced '['");
  if (out.empty()) bad(list, "no nodes");
  return out;
}

std::vector<int> expand_slurm_tasks_per_node(std::string_view counts) {
  std::vector<int> out;
  for (const auto& part : split(counts, ',')) {
    std::string_view p = trim(part);
    int times = 1;
    if (auto open = p.find("(x"); open != std::string_view::npos) {
      if (p.back() != ')') bad_counts(counts, "'" + std::string(p) + "' has no closing ')'");
      times = count_of(p.substr(open + 2, p.size() - open - 3), counts);
      p = p.substr(0, open);
    }
    int n = count_of(p, counts);
    if (out.size() + static_cast<size_t>(times) > kMaxNodes) bad_counts(counts, "too many nodes");
    out.insert(out.end(), static_cast<size_t>(times), n);
  }
  if (out.empty()) bad_counts(counts, "no counts");
  return out;
}

std::vector<int> slurm_tasks_per_node(const char* tasks_per_node, const char* ntasks_per_node,
                                      std::size_t nodes) {
  if (tasks_per_node && *tasks_per_node) {
    auto counts = expand_slurm_tasks_per_node(tasks_per_node);
    if (counts.size() != nodes)
      throw UsageError("SLURM_TASKS_PER_NODE",
                       "'" + std::string(tasks_per_node) + "' counts " +
                           std::to_string(counts.size()) + " node(s), SLURM_JOB_NODELIST has " +
                           std::to_string(nodes),
                       "give the ranks per host with -n/--repeat-hosts");
    return counts;
  }
  if (ntasks_per_node && *ntasks_per_node) {
    auto v = parse_digits(ntasks_per_node, 6);
    if (v.value_or(0) < 1)
      throw UsageError("SLURM_NTASKS_PER_NODE",
                       "'" + std::string(ntasks_per_node) + "' is not a count of tasks",
                       "give the ranks per host with -n/--repeat-hosts");
    return std::vector<int>(nodes, static_cast<int>(*v));
  }
  return std::vector<int>(nodes, 1);
}

Launcher choose_launcher(const std::optional<std::string>& flag, const char* slurm_job_id) {
  const bool in_job = slurm_job_id && *slurm_job_id;
  if (!flag) return in_job ? Launcher::srun : Launcher::ssh;
  if (*flag == "ssh") return Launcher::ssh;
  if (*flag != "srun")
    throw UsageError("--launcher", "unknown launcher '" + *flag + "'", "give ssh or srun");
  if (!in_job)
    throw UsageError("--launcher", "srun needs a Slurm allocation, and SLURM_JOB_ID is not set",
                     "run distlaunch inside salloc or an sbatch script, or use --launcher ssh");
  return Launcher::srun;
}

void check_allocation_hosts(const std::vector<std::string>& hosts, std::string_view nodelist) {
  if (trim(nodelist).empty()) return;
  auto nodes = expand_slurm_nodelist(nodelist);
  for (const auto& h : hosts)
    if (std::find(nodes.begin(), nodes.end(), h) == nodes.end())
      throw UsageError(
          "--launcher srun",
          "'" + h + "' is not a node of this Slurm allocation (" + std::string(nodelist) + ")",
          "give the allocation's nodes, or use --launcher ssh for other hosts");
}

}  // namespace distkit::launch
