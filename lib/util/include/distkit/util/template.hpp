// Named-field templates for everything generated as text: remote scripts,
// setup commands, hostfile exports, long help texts. The templates live in
// templates/ and are embedded into the binaries at build time.
//
// Syntax: `{{name}}` is replaced by the field's value. In shell mode every
// value is passed through shell_quote(); `{{name|raw}}` inserts a value that
// is already shell (e.g. a word list joined with shell_join). A placeholder
// without a field is a programming error and throws std::logic_error, so a
// typo in a template is caught by the first test that renders it.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace distkit {

using TemplateFields = std::map<std::string, std::string, std::less<>>;

enum class TemplateMode { text, shell };

std::string render_template(std::string_view tpl, const TemplateFields& fields, TemplateMode mode);

// The embedded file templates/<name>; throws std::logic_error when absent.
std::string_view template_text(std::string_view name);

// render_template(template_text(name), ...).
std::string render_named(std::string_view name, const TemplateFields& fields, TemplateMode mode);

}  // namespace distkit
