#include "playtest/campaign/trace_writer.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "campaign/claim_json.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/graph_digest.hpp"

namespace playtest {

void JsonlTraceWriter::on_campaign_begin(const GameGraph& g, const CampaignOptions& o) {
  const TestGraph* t = g.explored();
  write_campaign(t ? std::optional(coverage_of(g, {})) : std::nullopt, o, t ? graph_digest(*t) : std::string());
}

void JsonlTraceWriter::write_campaign(std::optional<Coverage> totals, const CampaignOptions& o,
                                      const std::string& model_digest) {
  nlohmann::json j = {{"event", "campaign"},
                      {"runs", o.runs},
                      {"seed", o.seed},
                      {"strategy", strategy_},
                      {"edges", totals ? nlohmann::json(totals->edges_total) : nlohmann::json(nullptr)},
                      {"labels", totals ? nlohmann::json(totals->labels_total) : nlohmann::json(nullptr)}};
  if (!totals) j["on_the_fly"] = true;
  // A model program says how it was played: explored whole, or on the fly and why.
  if (o.model_play.model_program) {
    j["exploration"] = totals ? "whole" : "on_the_fly";
    if (!totals) j["on_the_fly_reason"] = o.model_play.on_the_fly_reason;
  }
  if (!o.shard.is_whole()) j["shard"] = to_string(o.shard);
  if (!model_digest.empty()) j["model_digest"] = model_digest;
  if (!o.settings.empty()) j["settings"] = o.settings;
  if (o.fail_fast) j["fail_fast"] = true;
  out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out_.flush();
}

void JsonlTraceWriter::begin_run(std::uint32_t run, std::uint64_t seed, std::string_view strategy) {
  run_ = run;
  nlohmann::json j = {{"event", "begin"}, {"run", run}, {"seed", seed}, {"strategy", std::string(strategy)}};
  // Standard input ("-") is no file to read the model from again: the model is not named then.
  if (!model_.empty() && model_ != "-") j["model"] = model_;
  if (!params_.empty()) j["params"] = params_;
  if (replay_) {
    std::string replay = replay_(seed);
    if (!replay.empty()) j["replay"] = std::move(replay);
  }
  out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out_.flush();
}

void JsonlTraceWriter::on_step(const GameGraph& g, const TraceStep& s) {
  nlohmann::json j = {{"event", "step"},
                      {"run", run_},
                      {"step", s.step},
                      {"time_ms", std::round(s.time_ms * 1000.0) / 1000.0},
                      {"kind", std::string(to_string(s.kind))},
                      {"vertex", (g.vertex_name(s.from))}};
  if (s.kind != StepKind::reset) j["label"] = s.label;
  if (!s.concrete.empty()) j["concrete"] = s.concrete;
  // On the fly edges are numbered in the order the runs discovered them, which is not the explored
  // graph's: the step is named by its vertices and label only, which is what readers match then.
  if (g.is_explored() && !s.edge.is_none()) j["edge"] = (g.edge_name(s.edge));
  if (s.kind != StepKind::unexpected && s.kind != StepKind::silence) j["to"] = (g.vertex_name(s.to));
  out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out_.flush();
}

void JsonlTraceWriter::on_end(const GameGraph& g, const RunResult& r) {
  nlohmann::json j = {{"event", "end"},
                      {"run", run_},
                      {"verdict", std::string(to_string(r.verdict))},
                      {"steps", r.steps},
                      {"resets", r.resets},
                      {"elapsed_ms", std::round(r.elapsed_ms * 1000.0) / 1000.0},
                      {"purpose_met", r.purpose_met},
                      {"message", r.message}};
  if (r.verdict == Verdict::fail)
    j["failure"] = {{"vertex", (g.vertex_name(r.fail_vertex))},
                    {"allowed", r.allowed},
                    {"observed", r.observed.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.observed)}};
  if (r.interrupted) {
    j["interrupted"] = true;
    j["signal"] = r.signal != 0 ? nlohmann::json(signal_name(r.signal)) : nlohmann::json(nullptr);
  }
  detail::add_stopped_by_json(j, g, r);  // stopped: continuing was futile
  out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out_.flush();
}

JsonlTraceDirWriter::JsonlTraceDirWriter(std::string dir, std::string strategy)
    : dir_(std::move(dir)), strategy_(std::move(strategy)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_))
    throw EnvironmentError(dir_, ec ? ec.value() : ENOTDIR, "cannot create the trace directory");
}

JsonlTraceDirWriter::~JsonlTraceDirWriter() = default;

void JsonlTraceDirWriter::on_campaign_begin(const GameGraph& g, const CampaignOptions& options) {
  const TestGraph* t = g.explored();
  totals_ = t ? std::optional(coverage_of(g, {})) : std::nullopt;
  digest_ = t ? graph_digest(*t) : std::string();
  options_ = options;
}

// One run's file, written as the run is played.
class JsonlTraceDirWriter::RunFile final : public RunObserver {
 public:
  RunFile(JsonlTraceDirWriter& owner, std::uint32_t run, std::string path)
      : owner_(owner),
        run_(run),
        path_(std::move(path)),
        file_(path_, std::ios::binary),
        writer_(file_, owner.strategy_) {}
  JsonlTraceWriter& writer() { return writer_; }
  bool ok() const { return static_cast<bool>(file_); }
  void on_step(const GameGraph& g, const TraceStep& step) override { writer_.on_step(g, step); }
  void on_end(const GameGraph& g, const RunResult& result) override {
    writer_.on_end(g, result);
    errno = 0;
    file_.close();
    owner_.run_done(run_, path_, static_cast<bool>(file_), errno);  // destroys this: the last thing it does
  }

 private:
  JsonlTraceDirWriter& owner_;
  std::uint32_t run_;
  std::string path_;
  std::ofstream file_;
  JsonlTraceWriter writer_;
};

RunObserver* JsonlTraceDirWriter::on_live_run(std::uint32_t run, std::uint64_t seed) {
  const int width = static_cast<int>(std::to_string(options_.runs).size());
  std::string path = (std::filesystem::path(dir_) / fmt::format("run-{:0{}}.jsonl", run, width)).string();
  errno = 0;
  auto file = std::make_unique<RunFile>(*this, run, path);
  const int err = errno;
  RunFile* f = file.get();
  {
    const std::lock_guard lock(m_);
    if (!f->ok() && failed_.empty()) failed_ = path, failed_errno_ = err;
    open_[run] = std::move(file);
  }
  if (replay_ || !model_.empty()) f->writer().set_context(model_, replay_, params_);
  f->writer().write_campaign(totals_, options_, digest_);
  f->writer().on_run_begin(run, seed);
  return f;
}

void JsonlTraceDirWriter::run_done(std::uint32_t run, const std::string& path, bool ok, int err) {
  const std::lock_guard lock(m_);
  if (!ok && failed_.empty()) failed_ = path, failed_errno_ = err;
  open_.erase(run);
}

void JsonlTraceDirWriter::close() {
  const std::lock_guard lock(m_);
  open_.clear();  // runs cut short (a stop): their files end where the run stopped
  if (!failed_.empty()) throw EnvironmentError(failed_, failed_errno_, "write error");
}

namespace {

std::string step_text(const GameGraph& g, const TraceStep& s) {
  std::string head = fmt::format("{:>5} {:>9.1f} ms  {:<11} ", s.step, s.time_ms, to_string(s.kind));
  if (!s.concrete.empty()) {  // the model's label with the system's values: "Delete(Job#0) = Delete(17)"
    TraceStep shown = s;
    shown.label = s.label + " = " + s.concrete;
    shown.concrete.clear();
    return step_text(g, shown);
  }
  switch (s.kind) {
    case StepKind::stimulus:
      return head + fmt::format("{} --{}--> {}", g.vertex_name(s.from), s.label, g.vertex_name(s.to));
    case StepKind::observation:
      return head + fmt::format("{} --{}--> {}", g.vertex_name(s.from), s.label, g.vertex_name(s.to));
    case StepKind::timeout:
      return head + fmt::format("{} --(timeout) {}--> {}", g.vertex_name(s.from), s.label, g.vertex_name(s.to));
    case StepKind::reset:
      return head + fmt::format("{} ==reset==> {}", g.vertex_name(s.from), g.vertex_name(s.to));
    case StepKind::unexpected:
      return head + fmt::format("{} --{}--> ? (not allowed here)", g.vertex_name(s.from), s.label);
    case StepKind::silence:
      return head + fmt::format("{} --(silence)--> ? (no timeout edge here)", g.vertex_name(s.from));
    case StepKind::wait:
      return head + fmt::format("{} --({})--> {}", g.vertex_name(s.from), s.label, g.vertex_name(s.to));
  }
  return head;
}

std::string trace_text(const GameGraph& g, const RunResult& r, std::size_t max_steps) {
  std::string out;
  std::size_t first = r.trace.size() > max_steps ? r.trace.size() - max_steps : 0;
  if (first > 0) out += fmt::format("  ... {} earlier steps\n", first);
  for (std::size_t i = first; i < r.trace.size(); ++i) out += step_text(g, r.trace[i]) + "\n";
  return out;
}

}  // namespace

std::string format_step(const GameGraph& g, const TraceStep& s) { return step_text(g, s); }
std::string format_trace(const GameGraph& g, const RunResult& r, std::size_t max_steps) {
  return trace_text(g, r, max_steps);
}

void write_trace(std::ostream& out, const GameGraph& g, const RunResult& r, const TraceHeader& header) {
  JsonlTraceWriter w(out);
  w.set_context(header.model, {}, header.params);
  w.begin_run(header.run, header.seed, header.strategy);
  for (const TraceStep& s : r.trace) w.on_step(g, s);
  w.on_end(g, r);
}

}  // namespace playtest
