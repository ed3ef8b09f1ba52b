// --backend mpi: distlaunch hands the job to Open MPI's mpirun with a
// generated hostfile (`host slots=N`) and `-x K=V` for every variable, and
// returns mpirun's exit status (mlx.launch does the same).
#pragma once

#include <string>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/launch/options.hpp"
#include "distkit/launch/plan.hpp"

namespace distkit::launch {

// The mpirun argv for `plan`, with `hostfile_path` holding the generated
// Open MPI hostfile; with --ssh-config, mpirun's rsh agent reads it too
// (`--mca plm_rsh_agent "ssh -F FILE"`). Throws UsageError for a
// --ssh-config path with whitespace, which that setting cannot carry.
std::vector<std::string> mpirun_argv(const Plan& plan, const LaunchOptions& options,
                                     const std::string& hostfile_path);

// Refuses (UsageError) what mpi does not use: with --backend mpi, the first
// option only distlaunch's own supervision reads (--record, --tag-output,
// --timeout, ... : under mpirun they would do nothing); otherwise --mpi-arg.
void check_backend_options(const Plan& plan, const LaunchOptions& options);

// Writes the hostfile to a temp file, runs mpirun, removes the file.
// Throws distkit::Error when mpirun cannot be started.
int run_mpi(const Plan& plan, const std::vector<hostfile::Host>& ranks,
            const LaunchOptions& options);

}  // namespace distkit::launch
