// Parsing and writing the probe capture format (see capture.hpp).
#include "distkit/probe/capture.hpp"

#include "distkit/util/decimal.hpp"
#include "distkit/util/random.hpp"

#include "distkit/util/error.hpp"

namespace distkit::probe {

const Section* Capture::find(std::string_view name) const {
  auto it = sections.find(name);
  return it == sections.end() ? nullptr : &it->second;
}

const Section* Capture::ok(std::string_view name) const {
  const Section* s = find(name);
  return s && s->status == 0 ? s : nullptr;
}

namespace {

constexpr std::string_view kMagic = "distkit-probe 1 ";

// Reads the line starting at `pos` (without its '\n'); advances pos.
std::string_view take_line(std::string_view text, size_t& pos) {
  size_t nl = text.find('\n', pos);
  size_t end = nl == std::string_view::npos ? text.size() : nl;
  std::string_view line = text.substr(pos, end - pos);
  pos = nl == std::string_view::npos ? text.size() : nl + 1;
  return line;
}

}  // namespace

Capture parse_capture(std::string_view text, std::string_view host) {
  size_t pos = 0;
  std::string_view header = take_line(text, pos);
  if (header.substr(0, kMagic.size()) != kMagic || header.size() <= kMagic.size())
    throw RemoteError(std::string(host), "the probe printed no capture header",
                      "run with --verbose to see its output");
  Capture c;
  c.boundary = std::string(header.substr(kMagic.size()));
  const std::string begin = c.boundary + " begin ";
  const std::string end_mark = "\n" + c.boundary + " end ";
  while (pos < text.size()) {
    std::string_view line = take_line(text, pos);
    if (line.substr(0, begin.size()) != begin) continue;
    std::string name(line.substr(begin.size()));
    size_t e = text.find(end_mark + name + " ", pos);
    Section& s = c.sections[name];
    if (e == std::string_view::npos) {
      s = {std::string(text.substr(pos)), -1};
      break;
    }
    s.output = std::string(text.substr(pos, e - pos));
    pos = e + end_mark.size() + name.size() + 1;
    s.status = static_cast<int>(parse_digits(take_line(text, pos), 4).value_or(-1));
  }
  return c;
}

std::string make_boundary() {
  return "DISTKIT-" + random_hex(16);
}

}  // namespace distkit::probe
