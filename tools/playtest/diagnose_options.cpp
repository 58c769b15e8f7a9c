#include "diagnose_options.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "command.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"

namespace playtest::cli {

void add_sut_options(CLI::App* sub, SutCliOptions& o) {
  sub->add_option("--sut", o.sut, "Adapter command, run with /bin/sh -c (docs/adapter-protocol.md)")->required();
  sub->add_option("--sut-stderr", o.sut_stderr,
                  "The adapter's stderr: inherit (default), discard, or a FILE (appended)");
  sub->add_option("--timeout-ms", o.timeout_ms, "Wait for an output at a passive vertex")->default_val(1000);
  sub->add_option("--vertex-timeout", o.vertex_timeouts, "VERTEX=MS: the wait at one passive vertex (repeatable)");
  sub->add_option("--ack-timeout-ms", o.ack_timeout_ms, "Wait for the adapter's ack of a stimulus")->default_val(5000);
  sub->add_option("--ready-timeout-ms", o.ready_timeout_ms, "Wait for the adapter's ready (start, reset)")
      ->default_val(5000);
}

SubprocessOptions subprocess_options(const SutCliOptions& o) {
  SubprocessOptions so{.command = o.sut};
  so.ack_timeout = std::chrono::milliseconds(o.ack_timeout_ms);
  so.ready_timeout = std::chrono::milliseconds(o.ready_timeout_ms);
  if (o.sut_stderr == "discard") {
    so.stderr_mode = SubprocessOptions::Stderr::discard;
  } else if (!o.sut_stderr.empty() && o.sut_stderr != "inherit") {
    so.stderr_mode = SubprocessOptions::Stderr::file;
    so.stderr_path = o.sut_stderr;
    if (std::FILE* f = std::fopen(o.sut_stderr.c_str(), "a"))
      std::fclose(f);
    else
      throw UsageError("sut_stderr",
                       fmt::format("cannot open '{}' for appending: {}", o.sut_stderr, std::strerror(errno)));
  }
  return so;
}

void apply_timeouts(const TestGraph& g, const SutCliOptions& o, RunOptions& ro) {
  ro.timeout = std::chrono::milliseconds(o.timeout_ms);
  if (o.vertex_timeouts.empty()) return;
  ro.vertex_timeouts.assign(g.num_vertices(), std::chrono::milliseconds(0));
  for (const std::string& vt : o.vertex_timeouts) {
    const auto eq = vt.rfind('=');
    if (eq == std::string::npos) throw UsageError("vertex_timeout", fmt::format("'{}': expected VERTEX=MS", vt));
    const VertexId v = vertex_named(g, vt.substr(0, eq), "a vertex of --vertex-timeout");
    const std::string ms = vt.substr(eq + 1);
    std::uint32_t value = 0;
    auto [end, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), value);
    if (ms.empty() || ec != std::errc() || end != ms.data() + ms.size())
      throw UsageError("vertex_timeout", fmt::format("'{}': '{}' is not a number of milliseconds", vt, ms));
    ro.vertex_timeouts[v.index()] = std::chrono::milliseconds(value);
  }
}

std::string shell_quote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@+") ==
          std::string::npos)
    return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string sut_arguments(const SutCliOptions& o) {
  std::string s = " --sut " + shell_quote(o.sut);
  if (o.timeout_ms != 1000) s += fmt::format(" --timeout-ms {}", o.timeout_ms);
  for (const std::string& vt : o.vertex_timeouts) s += " --vertex-timeout " + shell_quote(vt);
  if (o.ack_timeout_ms != 5000) s += fmt::format(" --ack-timeout-ms {}", o.ack_timeout_ms);
  if (o.ready_timeout_ms != 5000) s += fmt::format(" --ready-timeout-ms {}", o.ready_timeout_ms);
  if (!o.sut_stderr.empty()) s += " --sut-stderr " + shell_quote(o.sut_stderr);
  return s;
}

std::string model_path(const std::string& model, const RecordedRun& run) {
  if (!model.empty()) return model;
  if (!run.model.empty()) return run.model;
  throw UsageError("model", "the trace does not name the model it was recorded with; give it");
}

int verdict_exit_code(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return exit_ok;
    case Verdict::fail:
      return exit_fail;
    case Verdict::inconclusive:
      return exit_inconclusive;
    case Verdict::error:
      return exit_error;
  }
  return exit_error;
}

}  // namespace playtest::cli
