// One rank as the host agent (distkit-agent, apps/agent/rank.hpp) runs it,
// through a real agent on this machine: the rank dies when the launcher's
// stream ends without the end marker, when heartbeats stop, and on the T/K
// frames; start errors are clear.
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>

#include "catch.hpp"
#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/launch/rank_request.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/version.hpp"
#include "job_fixture.hpp"

using namespace distkit;
using namespace distkit::launch;
using namespace std::chrono;

namespace {

// The agent's heartbeat limit in these tests (distlaunch sends it in the
// agent's timing; 5 s by default): short, so the rank's watchdogs speak.
constexpr seconds kHeartbeatLimit{2};

// Runs rank `rank` of `plan` through a real host agent on this machine,
// through AgentClient, as distlaunch runs every rank.
test::StartedRank start_rank(const Plan& plan, RankSettings ws, const std::string& redirect = "",
                             size_t rank = 0) {
  // The ranks' stderr reaches us framed on the agent's stdout: a redirect
  // of stderr applies to that, and a stand-in's opening then answers for
  // the agent. Its timing is sent as distlaunch sends it.
  std::string r = redirect.rfind(" 2>", 0) == 0 ? " >" + redirect.substr(3) : redirect;
  auto agent = test::local_agent(kHeartbeatLimit, (r.empty() ? "" : test::stand_in_opening()) +
                                                      test::real_agent_command() + r);
  return test::start_request(
      *agent, agent_frames::encode_request(rank_request(plan, plan.ranks[rank], ws)));
}

RankSettings fast() {
  RankSettings ws;
  ws.grace = milliseconds(2000);  // generous: ps is slow on a loaded machine
  return ws;
}

}  // namespace

TEST_CASE("the rank dies when the launcher's stream ends without the end marker",
          "[launch][rank]") {
  auto s = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat());
  auto t0 = steady_clock::now();
  s.cmd->close_stdin();
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 143);
  CHECK(steady_clock::now() - t0 < seconds(2));
  CHECK(s.err->find("lost the launcher (connection closed); stopping the rank") !=
        std::string::npos);
}

TEST_CASE("the agent gives up on a rank when no start frame comes within the heartbeat limit",
          "[launch][rank]") {
  auto s = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  // Nothing sent and stdin kept open: a launcher gone silent before the start.
  auto t0 = steady_clock::now();
  REQUIRE(s.exit.wait_for(seconds(6)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 143);
  CHECK(steady_clock::now() - t0 >= milliseconds(1500));
  CHECK(s.err->find("no start frame from the launcher for 2s; giving up") != std::string::npos);
  s.cmd->close_stdin();
}

TEST_CASE("local rank 0 removes only dead agents' dirs of its host and PID namespace",
          "[launch][rank]") {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("distkit-sweep-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::error_code ec;
  const std::string ns = fs::read_symlink("/proc/self/ns/pid", ec).string();
  const std::string me = ec ? std::string(host) : std::string(host) + "/" + ns;
  auto owned = [&](const std::string& name, const std::string& owner) {
    fs::create_directories(tmp / name);
    std::FILE* f = std::fopen((tmp / name / "owner").c_str(), "w");
    REQUIRE(f != nullptr);
    std::fprintf(f, "%s 999999999\n", owner.c_str());  // no such pid
    std::fclose(f);
  };
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  owned("distlaunch.dead", me);
  owned("distlaunch.elsewhere", std::string(host) + "/pid:[1]");  // same name, other PIDs
  owned("distlaunch.otherhost", "another-host");
  auto s = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat());
  // The running rank's own dir names its host and PID namespace.
  std::string own;
  for (int i = 0; i < 300 && own.empty(); ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    for (const auto& e : fs::directory_iterator(tmp)) {
      const std::string name = e.path().filename().string();
      if (name == "distlaunch.elsewhere" || name == "distlaunch.otherhost" ||
          !fs::exists(e.path() / "owner"))
        continue;
      std::FILE* f = std::fopen((e.path() / "owner").c_str(), "r");
      char line[512] = {};
      if (f && std::fgets(line, sizeof line, f)) own = line;
      if (f) std::fclose(f);
    }
  }
  CHECK(own.rfind(me + " ", 0) == 0);
  s.cmd->write_stdin(frame::kill());
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK_FALSE(fs::exists(tmp / "distlaunch.dead"));
  CHECK(fs::exists(tmp / "distlaunch.otherhost"));
  if (!ec) CHECK(fs::exists(tmp / "distlaunch.elsewhere"));
  s.cmd->close_stdin();
  // Only local rank 0 sweeps (one per host and job): local rank 1 leaves it.
  owned("distlaunch.dead", me);
  auto r1 = start_rank(test::local_plan(2, {"true"}), fast(), "", 1);
  r1.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(r1.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(r1.exit.get().exit_status == 0);
  CHECK(fs::exists(tmp / "distlaunch.dead"));
  r1.cmd->close_stdin();
  fs::remove_all(tmp / "distlaunch.dead");
  if (old_tmpdir)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  fs::remove_all(tmp);
}

TEST_CASE("the rank dies when heartbeats stop", "[launch][rank]") {
  auto s = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat());
  REQUIRE(s.exit.wait_for(seconds(8)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 143);
  CHECK(s.err->find("no heartbeat from the launcher for 2s; stopping the rank") !=
        std::string::npos);
  s.cmd->close_stdin();
}

namespace {

// A process that is gone or a zombie (its parent may be stuck elsewhere).
bool process_gone(int pid) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (!f) return true;
  char buf[512] = {0};
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  std::string stat(buf, n);
  auto rp = stat.rfind(')');
  return rp == std::string::npos || rp + 2 >= stat.size() || stat[rp + 2] == 'Z';
}

}  // namespace

TEST_CASE("a rank whose output nobody reads is still stopped when heartbeats stop",
          "[launch][rank]") {
  // A cut link: stderr (the rank's and the agent's) goes to a pipe nobody
  // drains, here a FIFO whose reader (this test) stops reading. The
  // rank fills it and blocks; the agent's message would block too, so it
  // must stop the rank before it says why.
  namespace fs = std::filesystem;
  auto dir = fs::temp_directory_path() / ("distkit-rank-fifo-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fifo = (dir / "err").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string pidfile = (dir / "pid").string();
  fs::remove(pidfile);
  auto plan = test::local_plan(
      1, {"sh", "-c",
          "echo $$ > " + pidfile +
              "; while :; do echo 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' >&2; "
              "done"});
  // We hold the read end and do not read; closing it at the end is the
  // connection going away (writers then get EPIPE), as sshd does.
  int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  REQUIRE(fd >= 0);
  auto s = start_rank(plan, fast(), " 2>" + shell_quote(fifo));
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat());
  int pid = 0;
  for (int i = 0; i < 100 && pid == 0; ++i) {
    std::this_thread::sleep_for(milliseconds(50));
    if (std::FILE* f = std::fopen(pidfile.c_str(), "r")) {
      if (std::fscanf(f, "%d", &pid) != 1) pid = 0;
      std::fclose(f);
    }
  }
  REQUIRE(pid > 0);
  // No more heartbeats: limit 2 s, grace 2 s, then the rank must be gone.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    gone = process_gone(pid);
  }
  CHECK(gone);
  if (!gone) ::kill(-pid, SIGKILL);
  // Drain the pipe so the agent (and bash's job notices) can finish.
  char buf[65536];
  for (int i = 0; i < 200 && s.exit.wait_for(milliseconds(20)) != std::future_status::ready; ++i)
    while (::read(fd, buf, sizeof buf) > 0) {
    }
  ::close(fd);
  s.cmd->close_stdin();
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  fs::remove_all(dir);
}

TEST_CASE("a line the rank leaves unended is told as a pause (an empty chunk); lines are not",
          "[launch][rank]") {
  // The stdout chunks as they came, '|' for each empty one. The rank
  // stops mid-line for 0.5 s (a prompt, a token stream), then prints 200
  // whole lines and stops mid-line again until told to go on (its stdin
  // ends): the pauses come while it waits, not at its end.
  auto seen = std::make_shared<std::string>();
  auto mu = std::make_shared<std::mutex>();
  auto plan = test::local_plan(
      1, {"sh", "-c",
          "printf abc; sleep 0.5; printf 'def\\n'; i=0; "
          "while [ $i -lt 200 ]; do echo \"line $i\"; i=$((i + 1)); done; printf xyz; cat"});
  RankSettings ws = fast();
  ws.stdin_forwarded = true;
  auto agent = test::local_agent(kHeartbeatLimit, test::real_agent_command());
  auto s = test::start_request(*agent,
                               agent_frames::encode_request(rank_request(plan, plan.ranks[0], ws)),
                               [seen, mu](std::string_view c) {
                                 std::lock_guard lock(*mu);
                                 seen->append(c.empty() ? "|" : std::string(c));
                               });
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat());
  auto text = [&] {
    std::lock_guard lock(*mu);
    return *seen;
  };
  for (int i = 0; i < 100 && text().find("xyz|") == std::string::npos; ++i) {
    if (i % 10 == 9) s.cmd->write_stdin(frame::heartbeat());
    std::this_thread::sleep_for(milliseconds(50));
  }
  s.cmd->write_stdin(frame::end_of_input());
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 0);
  std::string lines;
  for (int i = 0; i < 200; ++i) lines += "line " + std::to_string(i) + "\n";
  CHECK(text() == "abc|def\n" + lines + "xyz|");
  s.cmd->close_stdin();
}

TEST_CASE("the terminate and kill frames stop the rank", "[launch][rank]") {
  auto t = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  t.cmd->write_stdin(frame::secret("ab") + frame::terminate());
  REQUIRE(t.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(t.exit.get().exit_status == 143);
  auto k = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  k.cmd->write_stdin(frame::secret("ab") + frame::kill());
  REQUIRE(k.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(k.exit.get().exit_status == 137);
  t.cmd->close_stdin();
  k.cmd->close_stdin();
}

TEST_CASE("a frame of the rank's the agent cannot read stops the rank, and says so",
          "[launch][rank]") {
  // Nothing after it can be trusted, heartbeats included.
  auto s = start_rank(test::local_plan(1, {"sleep", "30"}), fast());
  s.cmd->write_stdin(frame::secret("ab") + frame::heartbeat() + "bogus\n" + frame::heartbeat());
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 143);
  CHECK(s.err->find("protocol error: unexpected frame 'bogus' from the launcher; rank stopped") !=
        std::string::npos);
  s.cmd->close_stdin();
}

TEST_CASE("stdin reaches the rank through a pipe, or the rank reads /dev/null when it gets none",
          "[launch][rank]") {
  // The rank copies its stdin to stderr, lists its temp dir and prints
  // its MLX_HOSTFILE (a data file the agent must write; a job
  // of 2 ranks has one, rank 0 runs here).
  auto plan = test::local_plan(2, {"sh", "-c",
                                   "cat >&2; echo; ls \"${DISTKIT_SECRET_FILE%/*}\" >&2; "
                                   "cat \"$MLX_HOSTFILE\" >&2"});
  for (bool forwarded : {true, false}) {
    INFO((forwarded ? "forwarded" : "not forwarded"));
    auto ws = fast();
    ws.stdin_forwarded = forwarded;
    auto s = start_rank(plan, ws);
    // A launcher sends no data to a rank without stdin; the agent must
    // still drop any it gets, not block on a FIFO nobody reads.
    s.cmd->write_stdin(frame::secret("ab") + frame::data("typed\n") + frame::end_of_input() +
                       frame::heartbeat());
    REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
    CHECK(s.exit.get().exit_status == 0);
    CHECK((s.err->find("typed\n") != std::string::npos) == forwarded);
    // The agent feeds a pipe: never a FIFO in the temp dir.
    CHECK(s.err->find("\nstdin\n") == std::string::npos);
    CHECK(s.err->find("\nsecret\n") != std::string::npos);
    CHECK(s.err->find("[[\"127.0.0.1:") != std::string::npos);
    s.cmd->close_stdin();
  }
}

TEST_CASE("stdin for a rank that reads late arrives whole, and the rank is not stopped meanwhile",
          "[launch][rank]") {
  // 3 MiB queued while the rank sleeps past the heartbeat limit: the agent
  // must keep it (and not miss the heartbeats sent after it) and deliver
  // every byte once the rank reads.
  auto plan = test::local_plan(1, {"sh", "-c", "sleep 3; wc -c >&2"});
  auto s = start_rank(plan, fast());
  s.cmd->write_stdin(frame::secret("ab"));
  const std::string chunk(65536, 'x');
  for (int i = 0; i < 48; ++i) s.cmd->write_stdin(frame::data(chunk));
  s.cmd->write_stdin(frame::end_of_input());
  std::future_status st = std::future_status::timeout;
  for (int i = 0; i < 40 && st != std::future_status::ready; ++i) {
    s.cmd->write_stdin(frame::heartbeat());
    st = s.exit.wait_for(milliseconds(250));
  }
  REQUIRE(st == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 0);
  CHECK(s.err->find("3145728") != std::string::npos);
  CHECK(s.err->find("stopping the rank") == std::string::npos);
  s.cmd->close_stdin();
}

TEST_CASE("a missing --cwd or command is a clear error of the rank", "[launch][rank]") {
  auto ws = fast();
  ws.cwd = "/nonexistent/dir";
  ws.cwd_required = true;
  auto s = start_rank(test::local_plan(1, {"true"}), ws);
  s.cmd->write_stdin(frame::secret("ab"));
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 126);
  // The host as the hostfile names it, as distlaunch's own lines do, not
  // this machine's hostname.
  CHECK(s.err->find(
            "distlaunch: rank 0 on localhost: cannot cd to /nonexistent/dir; create it there or "
            "fix --cwd\n") != std::string::npos);
  s.cmd->close_stdin();
  // A command that is not there: 127, as a shell says, naming it.
  auto m = start_rank(test::local_plan(1, {"distkit-no-such-command"}), fast());
  m.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(m.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(m.exit.get().exit_status == 127);
  CHECK(m.err->find("distkit-no-such-command") != std::string::npos);
  m.cmd->close_stdin();
}

TEST_CASE("a rank runs in its --cwd (a relative command there too), searching its own PATH",
          "[launch][rank]") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("distkit-rank-cwd-" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  auto script = [](const fs::path& path, const std::string& body) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fprintf(f, "#!/bin/sh\n%s\n", body.c_str());
    std::fclose(f);
    fs::permissions(path, fs::perms::owner_all);
  };
  script(dir / "here.sh", "pwd >&2");
  script(dir / "bin" / "distkit-only-on-rank-path", "echo found >&2");
  // ./here.sh is the cwd's; a bare name is looked up on the rank's PATH,
  // which the plan sets and the agent's own does not have.
  auto ws = fast();
  ws.cwd = dir.string();
  ws.cwd_required = true;
  auto here = start_rank(test::local_plan(1, {"./here.sh"}), ws);
  here.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(here.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(here.exit.get().exit_status == 0);
  CHECK(here.err->find(dir.string() + "\n") != std::string::npos);
  here.cmd->close_stdin();
  auto plan = test::local_plan(1, {"distkit-only-on-rank-path"});
  const char* path = std::getenv("PATH");
  plan.ranks[0].env.emplace_back("PATH", (dir / "bin").string() + ":" + (path ? path : ""));
  auto found = start_rank(plan, fast());
  found.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(found.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(found.exit.get().exit_status == 0);
  CHECK(found.err->find("found\n") != std::string::npos);
  found.cmd->close_stdin();
  fs::remove_all(dir);
}

TEST_CASE("a rank gets the open-file limit the agent started with, not the one it raised",
          "[launch][rank]") {
  // The agent raises its soft limit to the hard one (three descriptors a
  // rank); the rank must see what its own channel would have given it.
  rlimit saved{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max <= 300) {
    WARN("hard open-file limit too low to raise past 256; not checked");
    return;
  }
  rlimit low = saved;
  low.rlim_cur = 256;
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
  auto s = start_rank(test::local_plan(1, {"sh", "-c", "ulimit -n >&2"}), fast());
  ::setrlimit(RLIMIT_NOFILE, &saved);
  s.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 0);
  CHECK(s.err->find("\n256\n") != std::string::npos);
  s.cmd->close_stdin();
}

TEST_CASE("a malformed start request ends that rank with 126 and the remedy", "[launch][rank]") {
  auto agent = test::local_agent(seconds(2), test::real_agent_command());
  for (const agent_frames::StartRequest& bad :
       {agent_frames::StartRequest{{}, {}},
        agent_frames::StartRequest{{}, {"0", "x", "", "0", "1", "0", "true"}},
        agent_frames::StartRequest{{}, {"0", "30", "", "0", "1", "2", "true"}}}) {
    auto s = test::start_request(*agent, agent_frames::encode_request(bad));
    REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
    CHECK(s.exit.get().exit_status == 126);
    CHECK(s.err->find(": malformed start request; use the same distkit version on every host\n") !=
          std::string::npos);
  }
}

TEST_CASE("the agent runs the rank itself, and refuses to be started by hand", "[launch][rank]") {
  // The rank names its parent: distkit-agent, with no process between.
  auto s = start_rank(test::local_plan(1, {"sh", "-c", "ps -o comm= -p $PPID >&2"}), fast());
  s.cmd->write_stdin(frame::secret("ab") + frame::end_of_input() + frame::heartbeat());
  REQUIRE(s.exit.wait_for(seconds(5)) == std::future_status::ready);
  CHECK(s.exit.get().exit_status == 0);
  CHECK(s.err->find("distkit-agent\n") != std::string::npos);
  s.cmd->close_stdin();
  // Ranks come only through the agent: a rank's arguments by hand, or
  // another protocol, is refused with what it is and the fix.
  for (std::string args : {std::string(kAgentProtocolFlag) + " 4 0 30 5 '' 0 1 0 true",
                           std::string("--protocol=9 --host-agent 4")}) {
    INFO(args);
    std::string cmd = std::string(DISTKIT_AGENT_PATH) + " " + args + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    char line[512] = {0};
    std::string said = std::fgets(line, sizeof line, p) ? line : "";
    int status = ::pclose(p);
    CHECK(WEXITSTATUS(status) == 126);
    CHECK(said.find(std::string("distkit-agent: this is distkit ") + kVersion + "'s host agent (" +
                    kAgentProtocolFlag + "); distlaunch starts it, not a user") == 0);
    CHECK((said.find("the launcher speaks another protocol") != std::string::npos) ==
          (args.find("protocol=9") != std::string::npos));
  }
}

TEST_CASE("frames are one line each, data framed by its length", "[launch][rank]") {
  CHECK(frame::secret("abc") == "S abc\n");
  CHECK(frame::data(std::string("a\nb\0c", 5)) == std::string("D 5\na\nb\0c", 9));
  CHECK(frame::signal("INT") == "G INT\n");
}
