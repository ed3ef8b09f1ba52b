// StallWatch (stall_watch.hpp). The report's wording is what users read in
// a stalled job's output: change it only on purpose.
#include "distkit/launch/stall_watch.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "distkit/util/strings.hpp"

namespace distkit::launch {

namespace {

using std::chrono::duration;

std::string seconds(duration<double> d) {
  return seconds_text(d.count());
}

std::string bytes(long long n) {
  if (n < 1024) return fmt::format("{} B", n);
  if (n < 1024LL * 1024) return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024);
  return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1024 * 1024));
}

}  // namespace

StallWatch::StallWatch(std::vector<RankName> ranks, std::chrono::milliseconds limit)
    : limit_(limit) {
  for (auto& r : ranks) ranks_.emplace_back().name = std::move(r);
}

void StallWatch::start(Time now) {
  started_ = now;
  for (auto& r : ranks_) r.progress = now;
}

void StallWatch::progressed(Rank& r, Time now) {
  r.progress = std::max(r.progress, now);
}

void StallWatch::output(size_t rank, Time now) {
  Rank& r = ranks_[rank];
  r.last_output = now;
  progressed(r, now);
}

void StallWatch::fed(size_t rank, Time now) {
  progressed(ranks_[rank], now);
}

void StallWatch::sampled(size_t rank, const ProgressSample& s, Time now) {
  Rank& r = ranks_[rank];
  if (!r.samples.empty()) {
    const ProgressSample& before = r.samples.back().second;
    if ((s.io_bytes >= 0 && s.io_bytes > before.io_bytes) || s.heartbeat_ms != before.heartbeat_ms)
      progressed(r, now);
  } else if (s.heartbeat_ms >= 0) {
    progressed(r, now);  // a heartbeat file that exists has been touched
  }
  r.samples.emplace_back(now, s);
  // Keep one sample at or before the window's start as its baseline.
  while (r.samples.size() > 2 && r.samples[1].first <= now - limit_) r.samples.pop_front();
}

void StallWatch::ended(size_t rank) {
  ranks_[rank].running = false;
}

StallWatch::Time StallWatch::last_progress() const {
  Time last = started_;
  for (const auto& r : ranks_)
    if (r.running) last = std::max(last, r.progress);
  return last;
}

StallWatch::Time StallWatch::deadline() const {
  if (!on() || std::none_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return r.running; }))
    return Time::max();
  return last_progress() + limit_;
}

std::vector<std::string> StallWatch::report(Time now) const {
  const std::string window = seconds(limit_);
  std::vector<std::string> lines = {
      "stall: no rank made progress for " + window +
      " (no output, I/O, heartbeat or stdin); CPU over the window tells blocked from spinning:"};
  for (const auto& r : ranks_) {
    if (!r.running) continue;
    std::string line = "  rank " + std::to_string(r.name.rank) + " on " + r.name.host + ": ";
    line +=
        r.last_output ? "last output " + seconds(now - *r.last_output) + " ago" : "no output yet";
    if (r.samples.size() < 2) {
      lines.push_back(line + "; I/O and CPU not sampled (no samples from its host yet)");
      continue;
    }
    const auto& [t0, first] = r.samples.front();
    const auto& [t1, last] = r.samples.back();
    const double span = duration<double>(t1 - t0).count();
    line += ", in the last " + seconds(t1 - t0) + ": I/O " +
            (last.io_bytes >= 0 && first.io_bytes >= 0
                 ? bytes(std::max(0LL, last.io_bytes - first.io_bytes))
                 : std::string("unknown"));
    if (last.cpu_ms >= 0 && first.cpu_ms >= 0) {
      const double cpu = static_cast<double>(std::max(0LL, last.cpu_ms - first.cpu_ms)) / 1000;
      line += ", CPU " + seconds(duration<double>(cpu));
      // A quarter of a core or more busy without progress: spinning (a
      // loaded host gives a spinning rank less than a core); under 5%: blocked.
      const double busy = span > 0 ? cpu / span : 0;
      line += busy >= 0.25 ? " (spinning)" : busy < 0.05 ? " (blocked)" : " (partly busy)";
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace distkit::launch
