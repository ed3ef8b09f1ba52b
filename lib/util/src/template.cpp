// A deliberately tiny renderer: substitution only, no logic. Loops belong in
// C++ (render one line template per item), which keeps every template
// readable as the text it produces.
#include "distkit/util/template.hpp"

#include <optional>
#include <stdexcept>

#include "distkit/util/shell_quote.hpp"

namespace distkit {
namespace embedded::templates {
std::optional<std::string_view> find(std::string_view name);
}

std::string render_template(std::string_view tpl, const TemplateFields& fields, TemplateMode mode) {
  std::string out;
  out.reserve(tpl.size());
  size_t pos = 0;
  while (pos < tpl.size()) {
    size_t open = tpl.find("{{", pos);
    if (open == std::string_view::npos) {
      out.append(tpl.substr(pos));
      break;
    }
    out.append(tpl.substr(pos, open - pos));
    size_t close = tpl.find("}}", open + 2);
    if (close == std::string_view::npos) throw std::logic_error("template: unterminated '{{'");
    std::string_view key = tpl.substr(open + 2, close - open - 2);
    bool raw = false;
    if (auto bar = key.find('|'); bar != std::string_view::npos) {
      if (key.substr(bar + 1) != "raw")
        throw std::logic_error("template: unknown filter in {{" + std::string(key) + "}}");
      raw = true;
      key = key.substr(0, bar);
    }
    auto it = fields.find(key);
    if (it == fields.end())
      throw std::logic_error("template: no value for {{" + std::string(key) + "}}");
    out += (mode == TemplateMode::shell && !raw) ? shell_quote(it->second) : it->second;
    pos = close + 2;
  }
  return out;
}

std::string_view template_text(std::string_view name) {
  auto t = embedded::templates::find(name);
  if (!t) throw std::logic_error("template not embedded: " + std::string(name));
  return *t;
}

std::string render_named(std::string_view name, const TemplateFields& fields, TemplateMode mode) {
  return render_template(template_text(name), fields, mode);
}

}  // namespace distkit
