// The protocol's one table (distkit/launch/agent_frames.hpp) against its
// encoders, its reader and its document: every frame an encoder makes reads
// back as the table says, every malformed header is refused, and
// distkit-agent(1) documents exactly the table's frames.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/wrapper.hpp"

using namespace distkit::launch;
namespace af = distkit::agent_frames;

namespace {

// The header line of an encoded frame, and what follows it.
std::pair<std::string, std::string> split(const std::string& frame) {
  auto nl = frame.find('\n');
  REQUIRE(nl != std::string::npos);
  return {frame.substr(0, nl), frame.substr(nl + 1)};
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
    CHECK(h->sized == sized);
    CHECK(rest == (sized ? "a\nb" : ""));
    if (sized) CHECK(h->size == 3);
  }
  auto [p_line, p_rest] = split(agent_frame('P', 0, "a=1"));
  auto p = af::parse_header(af::Channel::to_agent, p_line);
  REQUIRE(p);
  CHECK((p->kind == 'P' && p->sized && p->size == 3 && p_rest == "a=1"));
  CHECK(p_line == "P 3");                  // no id: its only field is the size
  CHECK_THROWS(agent_frame('O', 1, "x"));  // the agent's, not ours
  const std::string secret(64, 'f');
  struct {
    std::string frame;
    char kind;
    std::string word;
  } wrapper_frames[] = {{frame::secret(secret), 'S', secret}, {frame::heartbeat(), 'H', ""},
                        {frame::end_of_input(), 'E', ""},     {frame::signal("USR1"), 'G', "USR1"},
                        {frame::terminate(), 'T', ""},        {frame::kill(), 'K', ""}};
  for (const auto& w : wrapper_frames) {
    INFO(w.frame);
    const std::string line = split(w.frame).first;  // h->word points into it
    auto h = af::parse_header(af::Channel::to_wrapper, line);
    REQUIRE(h);
    CHECK(h->kind == w.kind);
    CHECK(h->word == w.word);
  }
  auto [line, rest] = split(frame::data("xyz"));
  auto d = af::parse_header(af::Channel::to_wrapper, line);
  REQUIRE(d);
  CHECK((d->kind == 'D' && d->sized && d->size == 3 && rest == "xyz"));
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
      {C::to_wrapper, "S"},
      {C::to_wrapper, "S "},
      {C::to_wrapper, "H x"},
      {C::to_wrapper, "D"},
      {C::to_wrapper, "G "},
      {C::to_wrapper, ""},
      {C::from_agent, "O 1 " + std::string(70, '1')},  // past the longest header
  };
  for (const auto& [channel, line] : bad) {
    INFO(line);
    CHECK_FALSE(af::parse_header(channel, line));
  }
  auto x = af::parse_header(C::from_agent, "X 7 s15");
  REQUIRE(x);
  CHECK((x->number == 7 && x->word == "s15" && !x->sized));
  auto v = af::parse_header(C::from_agent, "V 2 0.1.0+g3f2a");
  REQUIRE(v);
  CHECK((v->number == 2 && v->word == "0.1.0+g3f2a"));
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
