// The protocol's one table (distkit/launch/agent_frames.hpp) against its
// encoder, its decoder and its document: every frame the encoder makes
// reads back as the table says, whatever the split; every malformed header
// is refused and stops the stream; distkit-agent(1) documents exactly the
// table's frames.
#include <csignal>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/rank_request.hpp"
#include "distkit/util/signal_names.hpp"

using namespace distkit::launch;
namespace af = distkit::agent_frames;

namespace {

// The header line of an encoded frame, and what follows it.
std::pair<std::string, std::string> split(const std::string& frame) {
  auto nl = frame.find('\n');
  REQUIRE(nl != std::string::npos);
  return {frame.substr(0, nl), frame.substr(nl + 1)};
}

using Frame = af::FrameStream::Frame;

// What the decoder reads of `bytes` on `channel`, fed `step` bytes at a time.
std::vector<Frame> read_all(af::Channel channel, const std::string& bytes, std::size_t step,
                            af::FrameStream* stream = nullptr) {
  af::FrameStream own(channel);
  af::FrameStream& s = stream ? *stream : own;
  std::vector<Frame> out;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    s.feed(std::string_view(bytes).substr(at, step));
    while (auto f = s.next()) out.push_back(*f);
  }
  return out;
}

}  // namespace

TEST_CASE("the launcher's encoders make frames the table reads back", "[launch][frames]") {
  for (char kind : {'N', 'I', 'C', 'A'}) {
    INFO(kind);
    auto [line, rest] = split(agent_frame(kind, 42, "a\nb"));
    auto h = af::parse_header(af::Channel::to_agent, line);
    REQUIRE(h);
    CHECK(h->kind == kind);
    CHECK(h->number == 42);
    bool sized = kind == 'N' || kind == 'I';
    CHECK(h->size.has_value() == sized);
    CHECK(rest == (sized ? "a\nb" : ""));
    if (sized) CHECK(h->size == 3u);
  }
  auto [p_line, p_rest] = split(agent_frame('P', 0, "a=1"));
  auto p = af::parse_header(af::Channel::to_agent, p_line);
  REQUIRE(p);
  CHECK((p->kind == 'P' && p->size == 3u && p_rest == "a=1"));
  CHECK(p_line == "P 3");                  // no id: its only field is the size
  CHECK_THROWS(agent_frame('O', 1, "x"));  // the agent's, not ours
  CHECK(af::encode_frame(af::Channel::from_agent, 'V', 4, "0.1.0") == "V 4 0.1.0\n");
  CHECK(af::encode_frame(af::Channel::from_agent, 'X', 3, "s9") == "X 3 s9\n");
  const std::string secret(64, 'f');
  struct {
    std::string frame;
    char kind;
    std::string word;
  } rank_frames[] = {{frame::secret(secret), 'S', secret}, {frame::heartbeat(), 'H', ""},
                     {frame::end_of_input(), 'E', ""},     {frame::signal("USR1"), 'G', "USR1"},
                     {frame::terminate(), 'T', ""},        {frame::kill(), 'K', ""}};
  for (const auto& w : rank_frames) {
    INFO(w.frame);
    const std::string line = split(w.frame).first;  // h->word points into it
    auto h = af::parse_header(af::Channel::to_rank, line);
    REQUIRE(h);
    CHECK(h->kind == w.kind);
    CHECK(h->word == w.word);
  }
  auto [line, rest] = split(frame::data("xyz"));
  auto d = af::parse_header(af::Channel::to_rank, line);
  REQUIRE(d);
  CHECK((d->kind == 'D' && d->size == 3u && rest == "xyz"));
}

TEST_CASE("a header that is not a frame of its channel is refused", "[launch][frames]") {
  using C = af::Channel;
  const std::pair<C, std::string> bad[] = {
      {C::to_agent, "O 1 2"},           // the agent's kind, not the launcher's
      {C::to_agent, "N 1"},             // its size missing
      {C::to_agent, "N 1 2 3"},         // a field too many
      {C::to_agent, "C x"},             // not a number
      {C::to_agent, "C  1"},            // two spaces
      {C::to_agent, "C -1"},            // a sign
      {C::to_agent, "I 1 1234567890"},  // a size of 1 GB or more
      {C::from_agent, "V 2"},           // the version missing
      {C::from_agent, "V 2 a$b"},       // not a version
      {C::from_agent, "X 1 256"},
      {C::from_agent, "X 1 s"},
      {C::from_agent, "X 1 s9x"},
      {C::to_rank, "S"},
      {C::to_rank, "S "},
      {C::to_rank, "H x"},
      {C::to_rank, "D"},
      {C::to_rank, "G "},
      {C::to_rank, ""},
      {C::from_agent, "O 1 " + std::string(70, '1')},  // past the longest header
  };
  for (const auto& [channel, line] : bad) {
    INFO(line);
    CHECK_FALSE(af::parse_header(channel, line));
  }
  auto x = af::parse_header(C::from_agent, "X 7 s15");
  REQUIRE(x);
  CHECK((x->number == 7 && x->word == "s15" && !x->size));
  auto v = af::parse_header(C::from_agent, "V 2 0.1.0+g3f2a");
  REQUIRE(v);
  CHECK((v->number == 2 && v->word == "0.1.0+g3f2a"));
}

TEST_CASE("the decoder reassembles every channel's frames, split anywhere", "[launch][frames]") {
  using namespace std::string_literals;
  const std::string from_agent =
      "V 2 0.1.0-rc1\nF 3\na=\0O 3 5\nab\ncdR 12 0\nX 3 0\nO 1 2\n\n\nX 12 s9\n"s;
  const std::string payload("line\n\0tail", 10);
  const std::string to_rank = frame::secret("c0ffee") + frame::heartbeat() + frame::data(payload) +
                              frame::end_of_input() + frame::signal("INT") + frame::terminate() +
                              frame::kill();
  for (std::size_t step : {1, 2, 7, 1000}) {
    INFO("fed " << step << " bytes at a time");
    af::FrameStream stream(af::Channel::from_agent);
    auto f = read_all(af::Channel::from_agent, from_agent, step, &stream);
    REQUIRE(f.size() == 7);
    CHECK((f[0].kind == 'V' && f[0].number == 2 && f[0].data == "0.1.0-rc1"));
    CHECK((f[1].kind == 'F' && f[1].data == "a=\0"s));
    CHECK((f[2].kind == 'O' && f[2].number == 3 && f[2].data == "ab\ncd"));
    CHECK((f[3].kind == 'R' && f[3].number == 12 && f[3].data.empty()));
    CHECK((f[4].kind == 'X' && f[4].number == 3 && f[4].data == "0"));
    CHECK((f[5].kind == 'O' && f[5].number == 1 && f[5].data == "\n\n"));
    CHECK((f[6].kind == 'X' && f[6].number == 12 && f[6].data == "s9"));
    CHECK((!stream.broken() && stream.buffered() == 0));

    auto w = read_all(af::Channel::to_rank, to_rank, step);
    std::string kinds;
    for (const auto& fr : w) kinds += fr.kind;
    REQUIRE(kinds == "SHDEGTK");
    CHECK(w[0].data == "c0ffee");
    CHECK(w[2].data == payload);
    CHECK(w[4].data == "INT");

    auto a =
        read_all(af::Channel::to_agent, agent_frame('P', 0, "a=1") + agent_frame('C', 5), step);
    REQUIRE(a.size() == 2);
    CHECK((a[0].kind == 'P' && a[0].data == "a=1" && a[1].kind == 'C' && a[1].number == 5));
  }
}

TEST_CASE("the decoder waits for a sized frame's bytes", "[launch][frames]") {
  af::FrameStream s(af::Channel::to_rank);
  s.feed("D 5\nab");
  CHECK_FALSE(s.next());
  s.feed("cde");
  auto f = s.next();
  REQUIRE(f);
  CHECK((f->kind == 'D' && f->data == "abcde"));
}

TEST_CASE("empty lines are padding on the agent's channel only", "[launch][frames]") {
  const std::string bytes = "V 2 0.1.0\n\nO 3 2\nab\n\nX 3 0\n";
  for (std::size_t step : {1, 3, 1000}) {
    INFO(step);
    auto f = read_all(af::Channel::from_agent, bytes, step);
    REQUIRE(f.size() == 3);
    CHECK((f[1].kind == 'O' && f[1].data == "ab"));
    CHECK((f[2].kind == 'X' && f[2].data == "0"));
  }
  auto w = read_all(af::Channel::to_rank, "H\n\nH\n", 1000);
  REQUIRE(w.size() == 2);
  CHECK((w[0].kind == 'H' && w[1].kind == 0));
}

TEST_CASE("garbage is read once, and nothing after it", "[launch][frames]") {
  const std::vector<std::string> bads = {"hello\n",   "O x 3\nabc", "X 1 256\n",
                                         "X 1 sx\n",  "Q 1 2\nab",  "O 1\n",
                                         "V 2 a b\n", "V 2 \n",     std::string(100, 'a')};
  for (const auto& bad : bads) {
    INFO(bad);
    af::FrameStream s(af::Channel::from_agent);
    auto f = read_all(af::Channel::from_agent, bad + "X 1 0\n", 1000, &s);
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == 0);
    CHECK(f[0].data == bad.substr(0, std::min<std::size_t>(40, bad.find('\n'))));
    CHECK(s.broken());
    s.feed("X 1 0\n");
    CHECK_FALSE(s.next());
  }
  // A length that is not a number is not a data frame.
  auto w = read_all(af::Channel::to_rank, "D x\nabc\nH\n", 1);
  REQUIRE(w.size() == 1);
  CHECK((w[0].kind == 0 && w[0].data == "D x"));
}

TEST_CASE("signal names map as the launcher sends them", "[launch][frames]") {
  using distkit::signal_number;
  CHECK(signal_number("INT") == SIGINT);
  CHECK(signal_number("TERM") == SIGTERM);
  CHECK(signal_number("SIGHUP") == SIGHUP);
  CHECK(signal_number("USR1") == SIGUSR1);
  CHECK(signal_number("9") == 9);
  CHECK(signal_number("NOPE") == 0);
  CHECK(signal_number("") == 0);
  // One table both ways: every name the launcher sends reads back.
  for (const auto& s : distkit::kSignalNames) {
    INFO(s.name);
    CHECK(signal_number(distkit::signal_name(s.number)) == s.number);
  }
  CHECK(distkit::signal_name(0) == "0");
}

TEST_CASE("P and F pairs round-trip, and a list encode_pairs cannot make is refused",
          "[launch][frames]") {
  using namespace std::string_literals;
  const af::Pairs pairs = {{"cwd", "/a b\nc"}, {"ports", ""}, {"cmd", "x=y"}};
  auto back = af::decode_pairs(af::encode_pairs(pairs));
  REQUIRE(back);
  CHECK(*back == pairs);
  CHECK(af::pair_value(*back, "cmd") == "x=y");
  CHECK(af::pair_value(*back, "absent").empty());
  CHECK(af::decode_pairs("")->empty());
  for (const auto& bad : {"a=1"s, "=1\0"s, "A=1\0"s, "a1=1\0"s, "a=1\0a=2\0"s, "noequals\0"s}) {
    INFO(bad);
    CHECK_FALSE(af::decode_pairs(bad));
  }
}

TEST_CASE("distkit-agent(1) documents exactly the table's frames", "[launch][frames]") {
  std::ifstream in(std::string(DISTKIT_TEST_DATA_DIR) + "/../../man/distkit-agent.1.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string page = ss.str();
  auto at = page.find("## PROTOCOL");
  auto end = page.find("\n## ", at + 1);
  REQUIRE(at != std::string::npos);
  const std::string protocol = page.substr(at, end - at);
  // Each frame appears as a code span starting with its letter: `N ID SIZE`, `H`.
  std::set<char> documented;
  for (std::size_t i = 0; i + 2 < protocol.size(); ++i)
    if (protocol[i] == '`' && protocol[i + 1] >= 'A' && protocol[i + 1] <= 'Z' &&
        (protocol[i + 2] == ' ' || protocol[i + 2] == '`'))
      documented.insert(protocol[i + 1]);
  std::set<char> table;
  for (const auto& s : af::kFrames) table.insert(s.kind);
  CHECK(documented == table);
}
