#include <parity/cli/parser.hpp>

#include <filesystem>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/command_spec.hpp>
#include <parity/core/error.hpp>
#include <parity/properties/gen/run_property.hpp>
#include <parity/registry/case_worker_server.hpp>

namespace parity::cli {
namespace {

constexpr const char* kVersion = "parity 0.1.0";
constexpr const char* kHelpDump = "help-dump";
constexpr std::size_t kWidth = 96;

constexpr const char* kGeneral =
    "Exit status: 0 holds, 1 a check failed, 2 a usage or input error (the message names the flag, file or "
    "field). Numbers, in flags and variables, are plain decimal (no sign, space, leading zero or 0x). Output "
    "paths are checked before the work; \"-\" and other non-regular files (/dev/stdout, a FIFO) are written in "
    "place, and with --json - or --junit - the human-readable output goes to stderr. Input files must be regular "
    "files of at most 4 MiB. A case over its family's work or memory limit (docs/command.md) is refused. Every "
    "command refuses a bad PARITY_CASES, PARITY_SEED, PARITY_THREADS or RC_PARAMS before any work.";

// `text` wrapped at kWidth, every line after `indent`.
std::string wrapped(const std::string& text, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > kWidth) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + indent + line;
}

const EnvironmentVariable& find_variable(const std::string& name) {
  for (const auto& v : environment_variables())
    if (v.name == name) return v;
  throw std::logic_error("command_specs() names an undocumented environment variable " + name);
}

std::string environment_text(const std::vector<std::string>& names) {
  std::string text = "environment:";
  for (const auto& name : names) text += "\n  " + name + "\n" + wrapped(find_variable(name).help, "      ");
  return text;
}

std::string top_footer() {
  std::vector<std::string> names;
  for (const auto& v : environment_variables()) names.push_back(v.name);
  return "\n" + wrapped(kGeneral, "") + "\n\n" + environment_text(names) +
         "\n\nparity COMMAND --help lists a command's arguments, flags and the variables it reads.";
}

void add_command(CLI::App& app, const CommandSpec& spec) {
  CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
  sub->allow_extras();  // unknown flags and surplus arguments are named by parsed_args()
  sub->footer("\n" + wrapped(spec.description, "") +
              (spec.environment.empty() ? "" : "\n\n" + environment_text(spec.environment)));
  for (const auto& p : spec.positionals) {
    CLI::Option* opt = sub->add_option(p.name)->description(p.help);
    if (p.many) opt->expected(1, -1);
  }
  for (const auto& f : spec.flags) {
    if (f.value.empty()) sub->add_flag(f.name)->description(f.help)->disable_flag_override();
    else
      sub->add_option(f.name)->description(f.help)->type_name(f.value)->multi_option_policy(
          CLI::MultiOptionPolicy::TakeLast);
  }
}

// The Args of the parsed subcommand `sub`. Positional arguments beyond those declared are
// positional too (each command names its own count in its message); an unknown flag throws, a
// former cap (--max-T, --max-work) naming the --max EXT=N that replaces it.
Args parsed_args(const CLI::App& sub, std::vector<std::string> raw) {
  std::map<std::string, std::string> values;
  std::vector<std::string> positional;
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt == sub.get_help_ptr() || opt->count() == 0) continue;
    if (opt->get_positional()) positional.insert(positional.end(), opt->results().begin(), opt->results().end());
    else values[opt->get_name()] = opt->get_expected_max() == 0 ? std::string() : opt->results().back();
  }
  for (const std::string& extra : sub.remaining()) {
    const std::string flag = extra.substr(0, extra.find('='));
    if (flag.starts_with("--max-") && sub.get_option_no_throw("--max"))
      throw InputError(flag + ": a former cap, which this parity no longer reads: " +
                       (flag == "--max-work" ? std::string("cap the extents with --max T=N,... (a reach case's work "
                                                           "with --max reach_work=N)")
                                             : "cap " + flag.substr(6) + " with --max " + flag.substr(6) + "=N") +
                       " or $PARITY_MAX_<EXTENT>");
    if (extra.size() > 1 && extra[0] == '-')
      throw InputError(flag + ": unknown flag (see parity " + sub.get_name() + " --help)");
    positional.push_back(extra);
  }
  return Args(sub.get_name(), std::move(values), std::move(positional), std::move(raw));
}

// Every command as the parser holds it, and the variables its help names (cli/parser.hpp).
nlohmann::json help_dump(const CLI::App& app) {
  nlohmann::json commands = nlohmann::json::array();
  for (const CommandSpec& spec : command_specs()) {
    const CLI::App* sub = app.get_subcommand(spec.name);
    nlohmann::json flags = nlohmann::json::array(), positionals = nlohmann::json::array();
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt == sub->get_help_ptr()) continue;
      (opt->get_positional() ? positionals : flags).push_back(opt->get_name());
    }
    commands.push_back(
        {{"name", spec.name}, {"positionals", positionals}, {"flags", flags}, {"environment", spec.environment}});
  }
  nlohmann::json environment = nlohmann::json::array();
  for (const auto& v : environment_variables()) environment.push_back(v.name);
  return {{"commands", commands}, {"environment", environment}};
}

// CLI11's message for `e`, in the project's words where CLI11 does not name the flag as typed.
std::string parse_message(const CLI::ParseError& e) {
  const std::string text = e.what();
  const std::string override_tail = " was given a disallowed flag override";  // --switch=value
  if (text.size() > override_tail.size() && text.ends_with(override_tail))
    return "--" + text.substr(0, text.size() - override_tail.size()) + ": takes no value";
  return text;
}

bool is_command(const std::string& name) {
  if (name == kHelpDump) return true;
  for (const auto& spec : command_specs())
    if (spec.name == name) return true;
  return false;
}

}  // namespace

int run_command_line(const std::vector<std::string>& given) {
  // The supervised worker of check, probes, replay and fuzz-repro (cli/case_worker_flags.hpp):
  // hidden, for parity's own use.
  if (!given.empty() && given[0] == kWorkerCommand)
    return registry::serve_case_checks({given.begin() + 1, given.end()});
  std::vector<std::string> args = given;
  if (!args.empty() && args[0] == "help") {  // `parity help [COMMAND]`
    args.erase(args.begin());
    args.push_back("--help");
  }
  if (!args.empty() && !args[0].empty() && args[0][0] != '-' && !is_command(args[0])) {
    std::cerr << "parity: unknown command '" << escaped(args[0]) << "' (see parity --help)\n";
    return 2;
  }
  CLI::App app(std::string(kVersion) + " - differential testing of numerical kernels", "parity");
  app.require_subcommand(0, 1);  // one command; its arguments never select another
  app.set_version_flag("--version", kVersion);
  app.footer(top_footer());
  for (const auto& spec : command_specs()) add_command(app, spec);
  app.add_subcommand(kHelpDump, "")->group("");  // hidden

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const auto chosen = app.get_subcommands();
    const std::string name = chosen.empty() ? std::string() : chosen.front()->get_name();
    std::cerr << "parity" << (name.empty() ? "" : " " + name) << ": " << escaped(parse_message(e)) << " (see parity "
              << (name.empty() ? "" : name + " ") << "--help)\n";
    return 2;
  }
  const auto chosen = app.get_subcommands();
  if (chosen.empty()) {
    std::cout << app.help();
    return 2;
  }
  const CLI::App& sub = *chosen.front();
  if (sub.get_name() == kHelpDump) {
    std::cout << help_dump(app).dump(2) << "\n";
    return 0;
  }
  try {
    const Args parsed = parsed_args(sub, {args.begin() + 1, args.end()});
    gen::check_environment();  // a bad PARITY_* or RC_PARAMS is refused before any work
    for (const auto& spec : command_specs())
      if (spec.name == sub.get_name()) return spec.run(parsed);
    return 2;  // unreachable: the parser knows only these commands
  } catch (const InputError& e) {
    std::cerr << "parity " << sub.get_name() << ": " << e.what() << "\n";  // escaped by InputError
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "parity " << sub.get_name() << ": " << escaped(e.what()) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "parity " << sub.get_name() << ": error: " << escaped(e.what()) << "\n";
  }
  return 2;
}

}  // namespace parity::cli
