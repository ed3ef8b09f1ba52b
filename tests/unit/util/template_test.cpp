#include "distkit/util/template.hpp"

#include <stdexcept>

#include "catch.hpp"

using distkit::render_template;
using distkit::TemplateMode;

TEST_CASE("text mode substitutes values verbatim") {
  CHECK(render_template("{{host}} slots={{n}}\n", {{"host", "a b"}, {"n", "4"}},
                        TemplateMode::text) == "a b slots=4\n");
}

TEST_CASE("shell mode quotes every value unless marked raw") {
  CHECK(render_template("cd {{dir}} && exec {{cmd|raw}}",
                        {{"dir", "/my dir"}, {"cmd", "python3 'x y'"}},
                        TemplateMode::shell) == "cd '/my dir' && exec python3 'x y'");
}

TEST_CASE("a placeholder without a value is a programming error") {
  CHECK_THROWS_AS(render_template("{{missing}}", {}, TemplateMode::text), std::logic_error);
  CHECK_THROWS_AS(render_template("{{open", {}, TemplateMode::text), std::logic_error);
  CHECK_THROWS_AS(render_template("{{a|upper}}", {{"a", "x"}}, TemplateMode::text),
                  std::logic_error);
}

TEST_CASE("text without placeholders is unchanged") {
  CHECK(render_template("no fields } { here", {}, TemplateMode::shell) == "no fields } { here");
}

TEST_CASE("asking for a template that is not embedded throws") {
  CHECK_THROWS_AS(distkit::template_text("no-such-template.tpl"), std::logic_error);
}
