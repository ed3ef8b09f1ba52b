// Rendering the rank wrapper from templates/: one line template per data file
// and per exported variable, then the sh script around them, which hands
// over to distlaunch-rank where the host has it, else to the perl wrapper
// (its code and arguments as words) where the host has perl. Every value
// goes through shell_quote (template shell mode); keys are validated by the
// plan.
#include "distkit/launch/wrapper.hpp"

#include "distkit/launch/host_agent.hpp"

#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::launch {

namespace {

// Data file contents go into shell variables once, before the wrapper is
// chosen: the sh wrapper writes them from there and the perl one gets them
// as arguments, so a large MLX_HOSTFILE is not sent twice (one sh -c
// argument is limited to 128 KiB on Linux).
std::string render_file_contents(const RankSpec& rank) {
  std::string out;
  for (size_t i = 0; i < rank.files.size(); ++i)
    out += render_named("launch_file_content.sh",
                        {{"index", std::to_string(i)}, {"content", rank.files[i].text()}},
                        TemplateMode::shell);
  return out;
}

std::string render_files(const RankSpec& rank) {
  std::string out;
  for (size_t i = 0; i < rank.files.size(); ++i)
    out += render_named("launch_file.sh",
                        {{"index", std::to_string(i)},
                         {"name", rank.files[i].name},
                         {"key", rank.files[i].env}},
                        TemplateMode::shell);
  return out;
}

std::string render_exports(const RankSpec& rank) {
  std::string out;
  for (const auto& [k, v] : rank.env)
    out += render_named("launch_export.sh", {{"key", k}, {"value", v}}, TemplateMode::shell);
  return out;
}

// A template without its full-line comments and blank lines (and, for perl,
// indentation): the wrapper travels in every rank's exec request, and its
// size is paid by sshd, the login shell and sh or perl on every rank. Safe
// for these two templates: no line of a multi-line string starts with '#'.
// Applied to the template, never to rendered values.
std::string strip_comments(std::string_view text, bool indentation) {
  std::string out;
  for (auto line : split_lines(text)) {
    auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    out.append(indentation ? line.substr(first) : line);
    out += '\n';
  }
  return out;
}

// Both wrappers stripped once per process, not once per rank.
const std::string& perl_wrapper_code() {
  static const std::string code = strip_comments(template_text("launch_rank.pl"), true);
  return code;
}

const std::string& sh_wrapper_template() {
  static const std::string text = strip_comments(template_text("launch_rank.sh"), false);
  return text;
}

// The wrappers' arguments before the data files (perl, distlaunch-rank and
// the host agent's start request take the same list).
std::vector<std::string> wrapper_head_args(const RankSpec& rank, const TemplateFields& f) {
  return {
      f.at("rank"), f.at("stall_limit"),  f.at("grace_ticks"), f.at("heartbeat_limit"),
      f.at("cwd"),  f.at("cwd_required"), f.at("stdin_fifo"),  std::to_string(rank.files.size())};
}

// The perl wrapper's arguments (see templates/launch_rank.pl).
std::string perl_wrapper_args(const Plan& plan, const RankSpec& rank, const TemplateFields& f) {
  std::string out = shell_join(wrapper_head_args(rank, f));
  for (size_t i = 0; i < rank.files.size(); ++i)  // contents from the variables
    out += " " + shell_join({rank.files[i].env, rank.files[i].name}) + " \"$distkit_file_" +
           std::to_string(i) + "\"";
  return out + " " + shell_join(plan.command);
}

// The loop over distlaunch-rank candidates ("" when there are none); it
// takes the perl wrapper's arguments.
std::string render_helper(const WrapperSettings& settings, const std::string& args) {
  if (settings.rank_helpers.empty()) return "";
  static const std::string text = strip_comments(template_text("launch_rank_helper.sh"), false);
  return render_template(text, {{"helpers", shell_join(settings.rank_helpers)}, {"args", args}},
                         TemplateMode::shell);
}

// The host agent's start request: the environment, then the wrapper's
// arguments (as perl_wrapper_args, with the file contents themselves).
std::string render_agent_request(const Plan& plan, const RankSpec& rank, const TemplateFields& f) {
  std::vector<std::string> env;
  for (const auto& [k, v] : rank.env) env.push_back(k + "=" + v);
  std::vector<std::string> args = wrapper_head_args(rank, f);
  for (const auto& file : rank.files)
    args.insert(args.end(), {file.env, file.name, file.text()});
  args.insert(args.end(), plan.command.begin(), plan.command.end());
  return agent_request(env, args);
}

}  // namespace

std::string render_rank_script(const Plan& plan, const RankSpec& rank,
                               const WrapperSettings& settings) {
  TemplateFields f;
  f["rank"] = std::to_string(rank.rank);
  f["grace_ticks"] = std::to_string(std::max<long long>(1, settings.grace.count() / 100));
  f["heartbeat_limit"] = std::to_string(std::max<long long>(1, settings.heartbeat_limit.count()));
  f["stall_limit"] = std::to_string(std::max<long long>(0, settings.stall_limit.count()));
  f["cwd"] = settings.cwd.value_or("");
  f["cwd_required"] = settings.cwd_required ? "1" : "0";
  f["stdin_fifo"] = settings.stdin_forwarded ? "1" : "0";
  if (settings.agent_hosts.count(rank.host)) return render_agent_request(plan, rank, f);
  f["file_contents"] = render_file_contents(rank);
  f["exports"] = render_exports(rank);
  f["perl_args"] = perl_wrapper_args(plan, rank, f);
  auto known = settings.helper_on_host.find(rank.host);
  if (known != settings.helper_on_host.end() && !known->second.empty()) {
    // The preflight found the helper: the hand-over alone (no fallbacks).
    static const std::string text =
        strip_comments(template_text("launch_rank_known_helper.sh"), false);
    f["helper"] = known->second;
    return render_template(text, f, TemplateMode::shell);
  }
  f["files"] = render_files(rank);
  f["command"] = shell_join(plan.command);
  f["use_perl"] = settings.use_perl ? "1" : "0";
  f["perl_code"] = perl_wrapper_code();
  bool none_there = known != settings.helper_on_host.end();
  f["helper"] = none_there ? "" : render_helper(settings, f.at("perl_args"));
  return render_template(sh_wrapper_template(), f, TemplateMode::shell);
}

namespace frame {
std::string secret(std::string_view hex) { return "S " + std::string(hex) + "\n"; }
std::string data(std::string_view bytes) {
  return "D " + std::to_string(bytes.size()) + "\n" + std::string(bytes);
}
std::string signal(std::string_view name) { return "G " + std::string(name) + "\n"; }
}  // namespace frame

}  // namespace distkit::launch
