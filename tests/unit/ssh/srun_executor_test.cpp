// SrunExecutor's command line (the steps themselves run against a real
// Slurm in tests/integration/slurm_*.sh).
#include "distkit/ssh/srun_executor.hpp"

#include "catch.hpp"

using namespace distkit::ssh;

TEST_CASE("a command on a node is one overlapping one-task srun step there") {
  SrunExecutor ex("node07");
  CHECK(ex.host() == "node07");
  CHECK_FALSE(ex.is_local());
  CHECK(ex.argv("echo 'a b'") ==
        std::vector<std::string>{
            "srun", "--nodes=1", "--ntasks=1", "--nodelist=node07", "--overlap", "--quiet",
            "--mpi=none", "--export=ALL,DISTKIT_AGENT_LINES=1", "/bin/sh", "-c", "echo 'a b'"});
}

TEST_CASE("srun connections: one executor per distinct node, in the order given") {
  auto c = srun_connect_all({"n1", "n2", "n1"}, {});
  REQUIRE(c.executors.size() == 3);
  CHECK(c.errors.empty());
  CHECK(c.executors[0] == c.executors[2]);
  CHECK(c.executors[0]->host() == "n1");
  CHECK(c.executors[1]->host() == "n2");
}
