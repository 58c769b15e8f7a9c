// playtest: test nondeterministic systems by playing a game against them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "command.hpp"
#include "common.hpp"
#include "interrupt.hpp"
#include "playtest/base/did_you_mean.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"

namespace playtest::cli {

std::vector<CommandInfo>& command_registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

namespace {

// The text of line `line` of `file`, read lazily; empty when not available.
// Only from a regular file (never a device or a pipe that goes on for ever), and bounded: lines
// are cut at 1000 bytes and no more than 256 MiB are read to find one.
std::string source_line(const std::string& file, std::uint32_t line) {
  if (file.empty() || file == "-" || line == 0) return {};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return {};
  std::ifstream in(file, std::ios::binary);
  std::string text;
  std::size_t read = 0;
  for (std::uint32_t l = 1; l <= line && read < (std::size_t{256} << 20) && std::getline(in, text); ++l) {
    read += text.size() + 1;
    if (l == line) return text.size() > 1000 ? text.substr(0, 1000) + "..." : text;
  }
  return {};
}

void report(const Error& e) {
  const Diagnostic& d = e.diagnostic();
  std::string line = source_line(d.where.file, d.where.line);
  std::string msg = line.empty() ? format_diagnostic(d) : format_diagnostic_with_line(d, line);
  fmt::print(stderr, "playtest: {}\n", terminal_text(msg));  // names and lines from files, escaped
}

// The flag of the chosen subcommand that sets the library parameter `parameter` ("max_states" is
// --max-states; "torx.p_stop" is looked up as --torx-p-stop, then as the last part --p-stop), or "".
std::string flag_for(const CLI::App* sub, const std::string& parameter) {
  if (sub == nullptr || parameter.empty()) return {};
  // The deepest parsed subcommand holds the options ("gen random", "ioco torx-prob").
  auto* cur = const_cast<CLI::App*>(sub);
  for (;;) {
    auto kids = cur->get_subcommands([](CLI::App* a) { return a->parsed(); });
    if (kids.empty()) break;
    cur = kids.front();
  }
  sub = cur;
  auto dashed = [](std::string s) {
    for (char& c : s)
      if (c == '_' || c == '.') c = '-';
    return s;
  };
  std::vector<std::string> candidates{dashed(parameter)};
  if (auto dot = parameter.rfind('.'); dot != std::string::npos)
    candidates.push_back(dashed(parameter.substr(dot + 1)));
  // The library names lists in the plural ("goals", "edges"), the tool's repeatable flags in the
  // singular (--goal, --edge).
  for (std::size_t i = 0, n = candidates.size(); i < n; ++i)
    if (candidates[i].size() > 1 && candidates[i].back() == 's')
      candidates.push_back(candidates[i].substr(0, candidates[i].size() - 1));
  for (const auto& c : candidates)
    if (const CLI::Option* opt = sub->get_option_no_throw("--" + c)) return opt->get_name();
  return {};
}

// Every option and input error has one shape: "playtest: error: option --x: what is wrong" (or
// without "option --x: " when no single option is at fault), then "  note: ..." lines that say
// what to do.
void print_usage_error(const std::string& flag, const std::string& message, const std::vector<std::string>& notes) {
  fmt::print(stderr, "playtest: error: {}{}\n", flag.empty() ? std::string() : "option " + flag + ": ",
             terminal_text(message));
  for (const std::string& note : notes) fmt::print(stderr, "  note: {}\n", terminal_text(note));
}

void report(const UsageError& e, const CLI::App* sub) {
  print_usage_error(flag_for(sub, e.parameter()), e.diagnostic().message, e.diagnostic().notes);
}

// The deepest subcommand the command line chose (the app itself when none).
const CLI::App* chosen_command(const CLI::App& app) {
  const CLI::App* cur = &app;
  for (;;) {
    auto kids = const_cast<CLI::App*>(cur)->get_subcommands([](CLI::App* a) { return a->parsed(); });
    if (kids.empty()) return cur;
    cur = kids.front();
  }
}

// "playtest run" for the note that points at --help.
std::string command_path(const CLI::App* sub) {
  std::string path;
  for (; sub != nullptr; sub = sub->get_parent()) path = sub->get_name() + (path.empty() ? "" : " " + path);
  return path.empty() ? "playtest" : path;
}

// CLI11's parse errors in the shape of every other usage error, with "did you mean" for a value
// outside a list (--objective reech) and for an unknown option or command.
void report(const CLI::ParseError& e, const CLI::App& app) {
  const CLI::App* sub = chosen_command(app);
  std::string msg = e.what();
  std::string flag;
  std::vector<std::string> notes;
  // "--x: ..." (validation, conversion, a missing value): the option is the part before ": ".
  if (const auto colon = msg.find(": "); msg.starts_with("-") && colon != std::string::npos) {
    flag = msg.substr(0, colon);
    msg = msg.substr(colon + 2);
  }
  static const std::regex not_in(R"(^(.*) not in \{(.*)\}$)");
  static const std::regex required(R"(^(\S+) is required$)");
  static const std::regex excludes(R"(^(\S+) excludes (\S+)$)");
  static const std::regex convert(R"(^Could not convert: (\S+) = (.*)$)");
  std::smatch m;
  if (msg == "A subcommand is required") {
    // A mistyped command is left over, unparsed: name it, with the nearest command.
    std::vector<std::string> known;
    for (const CLI::App* c : app.get_subcommands({})) known.push_back(c->get_name());
    std::string word;
    for (const std::string& w : app.remaining())
      if (!w.starts_with("-")) {
        word = w;
        break;
      }
    msg = word.empty() ? std::string("no command given")
                       : fmt::format("unknown command '{}'{}", word, did_you_mean(word, known));
    notes.push_back("playtest --help lists the commands");
  } else if (std::regex_match(msg, m, not_in)) {
    std::vector<std::string> known;
    std::string list;
    for (std::size_t at = 0; at <= m[2].str().size();) {
      const std::size_t comma = std::min(m[2].str().find(',', at), m[2].str().size());
      known.push_back(m[2].str().substr(at, comma - at));
      list += (list.empty() ? "" : ", ") + known.back();
      at = comma + 1;
    }
    msg = fmt::format("'{}' is not one of {}{}", m[1].str(), list, did_you_mean(m[1].str(), known));
  } else if (std::regex_match(msg, m, required)) {
    if (m[1].str() == "A subcommand") {
      msg = "no command given";
      notes.push_back("playtest --help lists the commands");
    } else if (m[1].str().starts_with("-")) {
      flag = m[1].str();
      msg = "is required";
    } else {
      msg = fmt::format("the argument {} is required", m[1].str());
    }
  } else if (std::regex_match(msg, m, excludes)) {
    flag = m[1].str();
    msg = fmt::format("cannot be given together with {}", m[2].str());
  } else if (std::regex_match(msg, m, convert)) {
    flag = m[1].str();
    msg = fmt::format("'{}' is not a value of the right type", m[2].str());
  } else if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // The words no option took, from the command that was parsed (not from the message's text):
    // the first unexpected option, else the first unexpected word.
    std::vector<std::string> left = sub->remaining();
    if (left.empty()) left = app.remaining(true);
    std::string word, all;
    for (const std::string& w : left) {
      if (word.empty() || (w.starts_with("-") && !word.starts_with("-"))) word = w;
      all += (all.empty() ? "" : " ") + w;
    }
    std::vector<std::string> known;
    if (word.starts_with("-")) {
      for (const CLI::Option* opt : sub->get_options())
        for (const std::string& name : opt->get_lnames()) known.push_back("--" + name);
      msg = fmt::format("unknown option {}{}", word, did_you_mean(word, known));
    } else if (sub == &app) {
      for (const CLI::App* c : app.get_subcommands({})) known.push_back(c->get_name());
      msg = fmt::format("unknown command '{}'{}", word, did_you_mean(word, known));
    } else {
      msg = fmt::format("unexpected argument '{}'", all);
    }
  } else if (!msg.empty()) {
    msg[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(msg[0])));
  }
  if (notes.empty()) notes.push_back(fmt::format("{} --help lists the options", command_path(sub)));
  print_usage_error(flag, msg, notes);
}

// What a command printed must have reached standard output: a full disk or a closed pipe is an
// environment error (exit 6 where the command itself succeeded), said on stderr, never a silent
// success with the answer lost. A verdict's own exit code is kept (the message still says it).
int checked_stdout(int code) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return code;
  EnvironmentError e("", errno, "could not write to standard output");
  if (code == exit_ok) throw e;
  report(e);
  return code;
}

// A test-only trigger for the rows of the table below that no input reaches (docs/testing.md
// "Verdicts and exit codes"): with PLAYTEST_TEST_THROW set to a kind's name the chosen command
// throws that kind instead of running (InternalError, std::bad_alloc, std::exception and
// "unknown", an exception outside std::exception, as well as every ErrorKind's name), so
// tests/cli/errors checks that each row maps the code it documents.
void test_throw_trigger() {
  const char* what = std::getenv("PLAYTEST_TEST_THROW");
  if (what == nullptr || *what == '\0') return;
  const std::string w = what;
  const std::string message = "thrown on request (PLAYTEST_TEST_THROW=" + w + ")";
  if (w == "InternalError") throw InternalError(message);
  if (w == "std::bad_alloc") throw std::bad_alloc();
  if (w == "std::exception") throw std::runtime_error(message);
  if (w == "unknown") throw 42;
  if (w == "InputError") throw InputError(message);
  if (w == "UsageError") throw UsageError("", message);
  if (w == "AdapterError") throw AdapterError(message);
  if (w == "EnvironmentError") throw EnvironmentError("", 0, message);
  if (w == "StopRequested") throw StopRequested(message, SIGTERM);
  if (w == "BudgetSpent") throw BudgetSpent(message);
  throw UsageError("", "PLAYTEST_TEST_THROW=" + w + " names no kind the exit-code table knows");
}

void report_bug(const std::string& what) {
  fmt::print(stderr, "playtest: internal error (a bug in playtest, please report it): {}\n", terminal_text(what));
}

// The exit code of the exception in flight (call only from a catch block), said on stderr.
int exit_code_of_current_exception(const CLI::App* chosen) {
  try {
    throw;
  } catch (const Error& e) {
    if (const auto* usage = dynamic_cast<const UsageError*>(&e))
      report(*usage, chosen);
    else
      report(e);
    if (adds_signal(e.kind()))
      if (const auto* stop = dynamic_cast<const StopRequested*>(&e); stop != nullptr && stop->signal() != 0)
        return stopped_exit_code(stop->signal());
    return exit_code(e.kind());
  } catch (const InternalError& e) {
    report_bug(e.what());
    return exit_code(Outside::internal_error);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "playtest: error: out of memory\n");
    return exit_code(Outside::out_of_memory);
  } catch (const std::exception& e) {
    report_bug(e.what());
    return exit_code(Outside::other_exception);
  } catch (...) {
    report_bug("an exception that is not a std::exception");
    return exit_code(Outside::not_an_exception);
  }
}

}  // namespace
}  // namespace playtest::cli

int main(int argc, char** argv) {
  using namespace playtest;
  using namespace playtest::cli;
  CLI::App app{
      "playtest: test nondeterministic systems by playing a game against them.\n"
      "Exit codes: 0 ok/PASS, 1 FAIL, 2 usage or input error, 3 ERROR, 4 INCONCLUSIVE,\n"
      "5 answer not certified (solve), 6 playtest's environment (a file or standard output not written,\n"
      "no pipe, process or file descriptor), 7 a bug in playtest, 128+N stopped by signal N."};
  app.set_version_flag("--version", std::string("playtest ") + PLAYTEST_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  auto& reg = command_registry();
  std::stable_sort(reg.begin(), reg.end(),
                   [](const CommandInfo& a, const CommandInfo& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, std::function<int()>>> runs;
  const CLI::App* chosen = nullptr;
  for (auto& c : reg) {
    std::size_t before = app.get_subcommands({}).size();
    auto run = c.setup(app);
    auto subs = app.get_subcommands({});
    if (subs.size() != before + 1) {
      fmt::print(stderr, "playtest: internal error: command '{}' did not add exactly one subcommand\n", c.name);
      return exit_code(Outside::internal_error);
    }
    runs.emplace_back(subs.back(), std::move(run));
  }
  set_command_line(argc, argv);
  install_exit_cleanup();
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return exit_code(app.exit(e) == 0 ? Outcome::done : Ending{ErrorKind::usage});
    } catch (const CLI::CallForAllHelp& e) {
      return exit_code(app.exit(e) == 0 ? Outcome::done : Ending{ErrorKind::usage});
    } catch (const CLI::CallForVersion& e) {
      return exit_code(app.exit(e) == 0 ? Outcome::done : Ending{ErrorKind::usage});
    } catch (const CLI::ParseError& e) {
      report(e, app);
      return exit_code(ErrorKind::usage);
    }
    for (auto& [sub, run] : runs)
      if (sub->parsed()) {
        chosen = sub;
        test_throw_trigger();
        return checked_stdout(run());
      }
    print_usage_error("", "no command given", {"playtest --help lists the commands"});
    return exit_code(ErrorKind::usage);
  } catch (...) {
    return exit_code_of_current_exception(chosen);
  }
}
