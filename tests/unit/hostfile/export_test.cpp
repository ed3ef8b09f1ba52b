// Each launcher format pinned exactly, and the Slurm hostlist compression.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/export.hpp"
#include "distkit/hostfile/host_list.hpp"
#include "error_text.hpp"

using namespace distkit::hostfile;
using distkit::hostfile::test::usage_error_of;

namespace {
// studio-a and studio-b with two ranks each, then 10.0.0.3 with two.
std::vector<Host> two_per_host() {
  return repeat_hosts(parse_host_list("studio-a,studio-b,10.0.0.3"), 2);
}
}  // namespace

TEST_CASE("Open MPI hostfiles list each host with its slots") {
  CHECK(export_hosts(two_per_host(), ExportFormat::openmpi) ==
        "studio-a slots=2\nstudio-b slots=2\n10.0.0.3 slots=2\n");
}

TEST_CASE("MPICH Hydra hostfiles use host:count") {
  CHECK(export_hosts(two_per_host(), ExportFormat::mpich) ==
        "studio-a:2\nstudio-b:2\n10.0.0.3:2\n");
}

TEST_CASE("DeepSpeed hostfiles use host slots=count") {
  CHECK(export_hosts(parse_host_list("worker-1,worker-2"), ExportFormat::deepspeed) ==
        "worker-1 slots=1\nworker-2 slots=1\n");
}

TEST_CASE("Slurm node lists fold numbered names into one expression") {
  CHECK(export_hosts(repeat_hosts(parse_host_list("node1,node2,node3,node4,node7"), 3),
                     ExportFormat::slurm) == "node[1-4,7]\n");
  CHECK(export_hosts(parse_host_list("studio-a,studio-b"), ExportFormat::slurm) ==
        "studio-a,studio-b\n");
}

TEST_CASE("node list compression keeps padding, order of prefixes and plain names") {
  CHECK(compress_node_list({"node01", "node02", "node03", "node07"}) == "node[01-03,07]");
  CHECK(compress_node_list({"node09", "node10", "node11"}) == "node[09-11]");
  CHECK(compress_node_list({"node9", "node10", "node11"}) == "node[9-11]");
  CHECK(compress_node_list({"b2", "a1", "b1", "login", "a2", "b2"}) == "b[1-2],a[1-2],login");
  CHECK(compress_node_list({"node7"}) == "node7");
  CHECK(compress_node_list({"10.0.0.1", "10.0.0.2"}) == "10.0.0.1,10.0.0.2");
  CHECK(compress_node_list({"n3", "n1", "n2", "n5"}) == "n[1-3,5]");
  CHECK(compress_node_list({"node001", "node1"}) == "node001,node1");
  CHECK(compress_node_list({}).empty());
}

TEST_CASE("names a format cannot hold are refused with the reason") {
  CHECK(usage_error_of([] { export_hosts(parse_host_list("fe80::1"), ExportFormat::mpich); }) ==
        "mpich export: host \"fe80::1\" contains ':', which separates the rank count in that "
        "format; use a host name without it (an ssh_config Host alias works)");
  CHECK(usage_error_of([] { export_hosts(parse_host_list("a#b"), ExportFormat::openmpi); }) ==
        "openmpi export: host \"a#b\" contains '#', which starts a comment in that format; use a "
        "host name without it (an ssh_config Host alias works)");
  CHECK(usage_error_of([] { export_hosts(parse_host_list("n[1]"), ExportFormat::slurm); }) ==
        "slurm export: host \"n[1]\" contains '[', which is hostlist syntax in that format; use a "
        "host name without it (an ssh_config Host alias works)");
}

TEST_CASE("export format names parse with a did-you-mean") {
  CHECK(parse_export_format("deepspeed", "--export") == ExportFormat::deepspeed);
  CHECK(to_string(ExportFormat::mpich) == "mpich");
  CHECK(usage_error_of([] { parse_export_format("open-mpi", "--export"); }) ==
        "--export: unknown hostfile format \"open-mpi\"; did you mean \"openmpi\"?");
  CHECK(usage_error_of([] { parse_export_format("pbs", "--export"); }) ==
        "--export: unknown hostfile format \"pbs\"; use one of openmpi, mpich, slurm, deepspeed");
}
