// Smaller pieces of distlaunch: Slurm node lists, the mpirun command line,
// the dry-run plan, the run manifest and line assembly.
#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "distkit/launch/dry_run.hpp"
#include "distkit/launch/manifest.hpp"
#include "distkit/launch/mpi.hpp"
#include "distkit/launch/output.hpp"
#include "distkit/launch/slurm.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/sha256.hpp"
#include "job_fixture.hpp"

using namespace distkit;
using namespace distkit::launch;

namespace {

// What a plan writer (write_plan_text, write_plan_json) sends its sink.
template <typename Writer>
std::string collected(Writer write, const Plan& plan) {
  std::string out;
  write(plan, RankSettings{}, [&out](std::string_view s) { out.append(s); });
  return out;
}

}  // namespace

TEST_CASE("Slurm node lists expand ranges, padding and several groups", "[launch][slurm]") {
  CHECK(expand_slurm_nodelist("n[1-3,7],gpu[01-02]x,login") ==
        std::vector<std::string>{"n1", "n2", "n3", "n7", "gpu01x", "gpu02x", "login"});
  CHECK(expand_slurm_nodelist("r[1-2]n[1-2]") ==
        std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"});
}

TEST_CASE("a malformed Slurm node list is refused", "[launch][slurm]") {
  try {
    expand_slurm_nodelist("n[1-3");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "SLURM_JOB_NODELIST: cannot expand 'n[1-3': unbalanced '['; give the hosts with "
          "--hosts or --hostfile");
  }
}

namespace {
template <class F>
std::string usage_text_of(F f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a Slurm node list expands to at most 100000 nodes", "[launch][slurm]") {
  CHECK(expand_slurm_nodelist("n[0-99999]").size() == 100000);
  // Each range is within the bound; together they multiply past it.
  CHECK(usage_text_of([] { expand_slurm_nodelist("a[1-99999]b[1-99999]"); }) ==
        "SLURM_JOB_NODELIST: cannot expand 'a[1-99999]b[1-99999]': more than 100000 nodes; give "
        "the hosts with --hosts or --hostfile");
  // The parts of one bracket add up before any name is made (50 parts of
  // 100000 each would be 5 million names).
  std::string parts = "n[0-99999";
  for (int i = 0; i < 49; ++i) parts += ",0-99999";
  CHECK(usage_text_of([&] { expand_slurm_nodelist(parts + "]"); }) ==
        "SLURM_JOB_NODELIST: cannot expand '" + parts +
            "]': more than 100000 nodes; give the hosts with --hosts or --hostfile");
  CHECK(usage_text_of([] { expand_slurm_nodelist("n[0-99999],login"); }) ==
        "SLURM_JOB_NODELIST: cannot expand 'n[0-99999],login': more than 100000 nodes; give the "
        "hosts with --hosts or --hostfile");
}

TEST_CASE("Slurm task counts per node expand their repeats", "[launch][slurm]") {
  CHECK(expand_slurm_tasks_per_node("2(x3),1") == std::vector<int>{2, 2, 2, 1});
  CHECK(expand_slurm_tasks_per_node("1(x4)") == std::vector<int>{1, 1, 1, 1});
  CHECK(expand_slurm_tasks_per_node("3") == std::vector<int>{3});
  CHECK(usage_text_of([] { expand_slurm_tasks_per_node("2(x3"); }) ==
        "SLURM_TASKS_PER_NODE: cannot read '2(x3': '2(x3' has no closing ')'; give the ranks per "
        "host with -n/--repeat-hosts");
  CHECK(usage_text_of([] { expand_slurm_tasks_per_node("0,2"); }) ==
        "SLURM_TASKS_PER_NODE: cannot read '0,2': a count below 1; give the ranks per host with "
        "-n/--repeat-hosts");
}

TEST_CASE("the allocation's layout: SLURM_TASKS_PER_NODE, else SLURM_NTASKS_PER_NODE, else 1",
          "[launch][slurm]") {
  CHECK(slurm_tasks_per_node("2(x2),1", "9", 3) == std::vector<int>{2, 2, 1});
  CHECK(slurm_tasks_per_node(nullptr, "2", 3) == std::vector<int>{2, 2, 2});
  CHECK(slurm_tasks_per_node("", nullptr, 2) == std::vector<int>{1, 1});
  CHECK(usage_text_of([] { slurm_tasks_per_node("2(x3)", nullptr, 4); }) ==
        "SLURM_TASKS_PER_NODE: '2(x3)' counts 3 node(s), SLURM_JOB_NODELIST has 4; give the ranks "
        "per host with -n/--repeat-hosts");
  CHECK(usage_text_of([] { slurm_tasks_per_node(nullptr, "two", 4); }) ==
        "SLURM_NTASKS_PER_NODE: 'two' is not a count of tasks; give the ranks per host with "
        "-n/--repeat-hosts");
}

TEST_CASE("srun is the launcher inside an allocation, ssh outside, as --launcher says",
          "[launch][slurm]") {
  CHECK(choose_launcher(std::nullopt, "42") == Launcher::srun);
  CHECK(choose_launcher(std::nullopt, nullptr) == Launcher::ssh);
  CHECK(choose_launcher(std::nullopt, "") == Launcher::ssh);
  CHECK(choose_launcher(std::string("ssh"), "42") == Launcher::ssh);
  CHECK(choose_launcher(std::string("srun"), "42") == Launcher::srun);
  CHECK(usage_text_of([] { choose_launcher(std::string("srun"), nullptr); }) ==
        "--launcher: srun needs a Slurm allocation, and SLURM_JOB_ID is not set; run distlaunch "
        "inside salloc or an sbatch script, or use --launcher ssh");
}

TEST_CASE("under srun every host must be a node of the allocation", "[launch][slurm]") {
  check_allocation_hosts({"n1", "n3"}, "n[1-3]");
  check_allocation_hosts({"mac1"}, "");
  CHECK(usage_text_of([] {
          check_allocation_hosts({"n1", "mac1"}, "n[1-3]");
        }) ==
        "--launcher srun: 'mac1' is not a node of this Slurm allocation (n[1-3]); give the "
        "allocation's nodes, or use --launcher ssh for other hosts");
}

namespace {
// A one-host hostfile and --backend mpi options running `command`.
hostfile::Hostfile one_host() {
  hostfile::Hostfile hf;
  hf.hosts.push_back({"a", {}, {}});
  return hf;
}
LaunchOptions mpi_options(std::vector<std::string> command) {
  LaunchOptions o;
  o.backend = "mpi";
  o.command = std::move(command);
  return o;
}
}  // namespace

TEST_CASE("mpirun gets the generated hostfile, -x per shared variable and the command",
          "[launch][mpi]") {
  hostfile::Hostfile hf = one_host();
  LaunchOptions o = mpi_options({"python3", "job.py"});
  o.env = {"K=V"};
  o.mpi_args = {"--bind-to", "none"};
  Plan plan = build_plan(hf, o, nullptr, "j1");
  CHECK(mpirun_argv(plan, o, "/tmp/h") ==
        std::vector<std::string>{"mpirun", "--hostfile", "/tmp/h", "-np", "1", "-x",
                                 "DISTKIT_WORLD_SIZE=1", "-x", "DISTKIT_JOB_ID=j1", "-x", "K=V",
                                 "-x", "PYTHONUNBUFFERED=1", "--bind-to", "none", "python3",
                                 "job.py"});
}

TEST_CASE("mpirun's rsh agent reads distlaunch's --ssh-config", "[launch][mpi]") {
  hostfile::Hostfile hf = one_host();
  LaunchOptions o = mpi_options({"true"});
  o.ssh_config = "/etc/dk/ssh_config";
  Plan plan = build_plan(hf, o, nullptr, "j1");
  auto argv = mpirun_argv(plan, o, "/tmp/h");
  REQUIRE(argv.size() > 8);
  CHECK(std::vector<std::string>(argv.begin() + 5, argv.begin() + 8) ==
        std::vector<std::string>{"--mca", "plm_rsh_agent", "ssh -F /etc/dk/ssh_config"});
  o.ssh_config = "/etc/my dk/ssh_config";
  CHECK(usage_text_of([&] { mpirun_argv(plan, o, "/tmp/h"); }) ==
        "--ssh-config: '/etc/my dk/ssh_config' has a space, which mpirun's rsh agent setting "
        "cannot carry; move the file to a path without spaces");
}

TEST_CASE("--backend mpi refuses what only distlaunch's supervision reads; --mpi-arg needs it",
          "[launch][mpi]") {
  hostfile::Hostfile hf = one_host();
  LaunchOptions o = mpi_options({"true"});
  o.ssh_config = "/etc/dk/ssh_config";
  o.cwd = "/tmp";
  o.mpi_args = {"--bind-to", "none"};
  Plan plan = build_plan(hf, o, nullptr, "j1");
  CHECK_NOTHROW(check_backend_options(plan, o));  // what mpirun uses
  LaunchOptions recorded = o;
  recorded.record_dir = "/tmp/rec";
  CHECK(usage_text_of([&] { check_backend_options(plan, recorded); }) ==
        "--record: not used with --backend mpi (mpirun starts, watches and stops the ranks); "
        "drop it, or use another backend");
  LaunchOptions timed = o;
  timed.timeout = std::chrono::seconds(5);
  CHECK(usage_text_of([&] { check_backend_options(plan, timed); }).rfind("--timeout: ", 0) == 0);
  LaunchOptions ring = o;
  ring.backend = "ring";
  Plan ring_plan = build_plan(hf, ring, nullptr, "j1");
  CHECK(usage_text_of([&] { check_backend_options(ring_plan, ring); }) ==
        "--mpi-arg: only --backend mpi runs mpirun; drop it, or add --backend mpi");
  ring.mpi_args.clear();
  ring.record_dir = "/tmp/rec";
  CHECK_NOTHROW(check_backend_options(ring_plan, ring));
}

TEST_CASE("the dry run shows every rank, its environment and never the secret",
          "[launch][dry-run]") {
  Plan plan = test::local_plan(2, {"echo", "hi there"});
  std::string text = collected(write_plan_text, plan);
  CHECK(text.find("rank 1 -> localhost (local rank 1 of 2)\n") != std::string::npos);
  CHECK(text.find("  MLX_HOSTFILE=$DISTLAUNCH_TMP/ring.json\n") != std::string::npos);
  CHECK(text.find("  MLX_RANK=1\n") != std::string::npos);
  CHECK(text.find("# command: echo 'hi there'\n") != std::string::npos);
  auto j = nlohmann::json::parse(collected(write_plan_json, plan));
  CHECK(j["ranks"][1]["env"]["MLX_RANK"] == "1");
  CHECK(j["ranks"][0]["files"]["ring.json"] == R"([["127.0.0.1:32323"], ["127.0.0.1:32324"]])");
  // The start request's arguments end with the command's words, unquoted.
  auto args = j["ranks"][0]["agent_args"].get<std::vector<std::string>>();
  REQUIRE(args.size() >= 2);
  CHECK(args[0] == "0");
  CHECK(args[args.size() - 2] == "echo");
  CHECK(args.back() == "hi there");
  CHECK(text.find("# rank 0's start request to its host agent (distkit-agent), as words:\n0 ") !=
        std::string::npos);
}

TEST_CASE("the JSON plan carries its schema and is laid out as one dump(2) of the whole",
          "[launch][dry-run]") {
  Plan plan = test::local_plan(3, {"echo", "a\nb \"q\""});
  std::string text = collected(write_plan_json, plan);
  auto j = nlohmann::ordered_json::parse(text);
  CHECK(j["schema"] == "distkit.launch-plan/2");
  CHECK(j["ranks"].size() == 3);
  CHECK(text == j.dump(2) + "\n");
}

TEST_CASE("every rank of a large plan shares one copy of the ring list", "[launch][plan]") {
  hostfile::Hostfile hf;
  for (int i = 0; i < 512; ++i)
    hf.hosts.push_back({"n" + std::to_string(i),
                        {"10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256)},
                        {}});
  LaunchOptions o;
  o.command = {"true"};
  Plan plan = build_plan(hf, o, nullptr, "j1");
  REQUIRE(plan.ranks.size() == 512);
  CHECK(plan.ranks[0].files[0].content == plan.ranks[511].files[0].content);
  CHECK(plan.ranks[0].files[0].content.use_count() == 512);
  CHECK(plan.ranks[0].files[0].text().rfind("[\"10.0.1.255:32834\"]]") != std::string::npos);
}

TEST_CASE("the manifest records hostfile hash, per-rank outcome and no secret",
          "[launch][manifest]") {
  Plan plan = test::local_plan(2, {"sh", "-c", "exit $MLX_RANK"});
  auto so = test::quiet_options();
  so.secret = "deadbeefcafe";
  auto run = test::run_local(plan, so);
  LaunchOptions o;
  o.hostfile = "/x/hosts.json";
  PreflightReport facts;
  facts.hosts["localhost"].os = "Linux 6.1 x86_64";
  facts.hosts["localhost"].agent = "/opt/homebrew/bin/distkit-agent";
  std::string text = render_manifest({o, plan, facts, run.result, std::string("[]")});
  CHECK(text.find("deadbeefcafe") == std::string::npos);
  auto j = nlohmann::json::parse(text);
  CHECK(j["hostfile"]["sha256"] == sha256_hex("[]"));
  CHECK(j["exit_code"] == 1);
  CHECK(j["ranks"][1]["exit_status"] == 1);
  CHECK(j["ranks"][1]["host"] == "localhost");
  CHECK(j["ranks"][1]["pid"].get<int>() > 0);
  CHECK(j["ranks"][0]["env"]["MLX_RANK"] == "0");
  CHECK(j["hosts"]["localhost"]["os"] == "Linux 6.1 x86_64");
  CHECK(j["hosts"]["localhost"]["agent"] == "/opt/homebrew/bin/distkit-agent");
}

TEST_CASE("line assembly joins chunks and never splits a line", "[launch][output]") {
  LineAssembler a;
  std::vector<std::string> lines;
  auto emit = [&](std::string_view l) { lines.emplace_back(l); };
  a.feed("ab", emit);
  a.feed("c\nde\nf", emit);
  CHECK(lines == std::vector<std::string>{"abc\n", "de\n"});
  a.flush(emit);
  CHECK(lines.back() == "f\n");
}

TEST_CASE("line runs: a chunk's whole lines in at most two pieces, never a split line",
          "[launch][output]") {
  LineAssembler a;
  std::vector<std::string> runs;
  auto emit = [&](std::string_view l) { runs.emplace_back(l); };
  a.feed_runs("ab", emit);
  CHECK(runs.empty());
  a.feed_runs("c\nde\nfg\nh", emit);  // "abc" finished, then a run of two
  CHECK(runs == std::vector<std::string>{"abc\n", "de\nfg\n"});
  a.feed_runs("i\n", emit);
  CHECK(runs.back() == "hi\n");
  a.feed_runs("j\nk\n", emit);  // nothing pending: one run
  CHECK(runs.back() == "j\nk\n");
  CHECK(runs.size() == 4);
  a.feed_runs("tail", emit);
  a.flush(emit);
  CHECK(runs.back() == "tail\n");
}

TEST_CASE("a tagged run of lines gets the prefix on every line", "[launch][output]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  {
    OutputSink sink(out, stderr, true, {"h1", "h2"}, std::nullopt);
    sink.line(1, Stream::out, "a\nb\n");
    sink.line(0, Stream::out, "c\n");
  }
  std::rewind(out);
  char buf[256] = {0};
  size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::fclose(out);
  CHECK(std::string(buf, n) == "[1 h2] a\n[1 h2] b\n[0 h1] c\n");
}

TEST_CASE("a carriage return ends a line, as a progress bar's redraw, and \\r\\n is one end",
          "[launch][output]") {
  LineAssembler a;
  std::vector<std::string> lines;
  auto emit = [&](std::string_view l) { lines.emplace_back(l); };
  // tqdm's redraws: each is out as soon as the next begins (they were held
  // until a '\n', so a bar showed nothing until it finished).
  a.feed("\rstep 1", emit);
  CHECK(lines == std::vector<std::string>{"\r"});
  a.feed("\rstep 2", emit);
  CHECK(lines.back() == "step 1\r");
  a.feed("\n", emit);
  CHECK(lines.back() == "step 2\n");
  // "\r\n" is one end, also split across chunks; a '\r' last in a chunk waits.
  lines.clear();
  a.feed("x\r\ny\r", emit);
  CHECK(lines == std::vector<std::string>{"x\r\n"});
  a.feed("\nz\r", emit);
  CHECK(lines.back() == "y\r\n");
  a.feed("w", emit);
  CHECK(lines.back() == "z\r");
  a.flush(emit);
  CHECK(lines.back() == "w\n");
  // Runs end where lines do.
  std::vector<std::string> runs;
  a.feed_runs("a\rb\rc", [&](std::string_view r) { runs.emplace_back(r); });
  CHECK(runs == std::vector<std::string>{"a\rb\r"});
}

TEST_CASE("a line that never ends is let out at the limit, so memory stays bounded",
          "[launch][output]") {
  LineAssembler a;
  size_t out = 0, pieces = 0;
  auto emit = [&](std::string_view l) { out += l.size(), ++pieces; };
  const std::string chunk(LineAssembler::kMaxLine / 4, 'a');
  for (int i = 0; i < 10; ++i) a.feed_runs(chunk, emit);  // 2.5 MiB, no end
  CHECK(pieces == 2);
  CHECK(out == 2 * LineAssembler::kMaxLine);
  a.feed_runs("b\n", emit);
  CHECK(out == 10 * chunk.size() + 2);
}

TEST_CASE("a pause mid-line lets the held line out unended only where pauses are shown",
          "[launch][output]") {
  std::vector<std::string> shown, whole;
  LineAssembler live(true), kept;
  auto feed = [&](std::string_view c) {
    live.feed_runs(c, [&](std::string_view l) { shown.emplace_back(l); });
    kept.feed_runs(c, [&](std::string_view l) { whole.emplace_back(l); });
  };
  feed("a\nHel");
  feed("");  // the agent's word: the rank paused there
  feed("");  // nothing held: nothing to let out
  feed("lo wor");
  feed("");
  feed("ld\nnext");
  CHECK(shown == std::vector<std::string>{"a\n", "Hel", "lo wor", "ld\n"});
  CHECK(whole == std::vector<std::string>{"a\n", "Hello world\n"});
  // At the end of the stream a line let out unended gets its newline.
  feed("");
  live.flush([&](std::string_view l) { shown.emplace_back(l); });
  CHECK(shown.back() == "\n");
  CHECK(shown[shown.size() - 2] == "next");
  kept.flush([&](std::string_view l) { whole.emplace_back(l); });
  CHECK(whole.back() == "next\n");
}

TEST_CASE("a line let out unended is continued by its rank, and ended before anything else",
          "[launch][output]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  std::FILE* err = std::tmpfile();
  REQUIRE(err);
  {
    OutputSink sink(out, err, true, {"h1", "h2"}, std::nullopt);
    CHECK_FALSE(sink.is_terminal(Stream::out));
    sink.line(0, Stream::out, "Hel");
    sink.line(0, Stream::out, "lo\n");       // continued: one prefix
    sink.line(0, Stream::out, "The quick");  // then rank 1 writes a line
    sink.line(1, Stream::out, "x\n");
    sink.line(0, Stream::out, " fox\n");
    sink.line(0, Stream::out, "wait");
    sink.note("distlaunch: a note");  // on err: out's open line ends first
    sink.line(0, Stream::out, "ed\n");
  }
  auto text = [](std::FILE* f) {
    std::rewind(f);
    std::string s(4096, '\0');
    s.resize(std::fread(s.data(), 1, s.size(), f));
    std::fclose(f);
    return s;
  };
  CHECK(text(out) ==
        "[0 h1] Hello\n[0 h1] The quick\n[1 h2] x\n[0 h1]  fox\n[0 h1] wait\n[0 h1] ed\n");
  CHECK(text(err) == "distlaunch: a note\n");
}

TEST_CASE("tagged redraws get the prefix each, as lines", "[launch][output]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  {
    OutputSink sink(out, stderr, true, {"h1"}, std::nullopt);
    sink.line(0, Stream::out, "p1\rp2\r\n");
  }
  std::rewind(out);
  char buf[256] = {0};
  size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::fclose(out);
  CHECK(std::string(buf, n) == "[0 h1] p1\r[0 h1] p2\r\n");
}
