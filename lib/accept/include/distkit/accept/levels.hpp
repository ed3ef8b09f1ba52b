// The three acceptance levels, judged from the evidence (pure):
//   runs          every rank of every baseline and cluster repetition exited 0;
//   reproducible  every declared metric and file agrees across all runs
//                 within its tolerance, every host reports the same OS build
//                 and python/mlx/distkit versions, the same input hashes, and
//                 the task declares its seeds;
//   deliverable   every run manifest has the fields a result needs (command,
//                 git commit of the working directory per host, hostfile
//                 SHA-256, the ranks' environment), every declared input was
//                 hashed, and the declared checkpoint/resume step succeeded
//                 and agrees with the cluster's metrics.
// Every check names its subject and carries its evidence; a failing one
// has a kind and becomes a Problem (problems_of). The exit code is
// that of the lowest level not reached: 3 runs, 4 reproducible, 5
// deliverable; 0 when all pass.
#pragma once

#include <string>
#include <vector>

#include "distkit/accept/evidence.hpp"
#include "distkit/accept/task.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::accept {

struct Check {
  bool ok = true;
  std::string subject;  // the run, host, metric, file or input it is about
  std::string kind;     // a failing check's stable tag (distaccept(1), JSON OUTPUT)
  std::string what;     // what was found
  std::string more;     // where to look or what to do ("" for nothing)
  // The report's line, "<subject>: <what>; <more>" (as Error::what() is).
  std::string text() const;
};

struct Level {
  std::string name;  // "runs", "reproducible", "deliverable"
  bool passed = true;
  std::vector<Check> checks;
};

inline constexpr int kExitRuns = 3;
inline constexpr int kExitReproducible = 4;
inline constexpr int kExitDeliverable = 5;

struct Verdict {
  std::vector<Level> levels;  // always the three, in order
  std::string reached;        // highest level reached in order, "" for none
  int exit_code = 0;
};

Verdict judge(const Task& task, const Evidence& evidence);

// The failing checks, level by level, as the Problems distaccept prints
// and its JSON carries.
std::vector<Problem> problems_of(const Verdict& verdict);

// The manifest fields a deliverable result needs that `manifest_json`
// lacks, each as "<field> missing" with the reason when known (e.g.
// "hosts.h1.git_commit_of_cwd missing (the working directory is not a git
// repository there)"). Empty when complete. `hosts`: the run's hosts.
std::vector<std::string> missing_manifest_fields(const std::string& manifest_json,
                                                 const std::vector<std::string>& hosts);

}  // namespace distkit::accept
