#include "campaign_files.hpp"

#include <optional>

#include "common.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/run/junit_report.hpp"
#include "playtest/run/trace_writer.hpp"
#include "progress.hpp"

namespace playtest::cli {

namespace {

// Passes a campaign on to the trace writer (a file, or one per run) and keeps a progress line (on a
// terminal only). The campaign reports runs in run order, one at a time.
class Progress final : public CampaignObserver {
 public:
  Progress(CampaignObserver* trace, std::uint32_t runs) : trace_(trace), runs_(runs), line_("run", "runs") {}
  void on_campaign_begin(const GameGraph& g, const CampaignOptions& o) override {
    if (trace_) trace_->on_campaign_begin(g, o);
  }
  void on_run_begin(std::uint32_t run, std::uint64_t seed) override {
    if (runs_ > 1) line_.update(run - 1, runs_);
    if (trace_) trace_->on_run_begin(run, seed);
  }
  void on_step(const GameGraph& g, const TraceStep& step) override {
    if (trace_) trace_->on_step(g, step);
  }
  void on_end(const GameGraph& g, const RunResult& result) override {
    if (trace_) trace_->on_end(g, result);
  }
  RunObserver* on_live_run(std::uint32_t run, std::uint64_t seed) override {
    return trace_ ? trace_->on_live_run(run, seed) : nullptr;
  }
  void finish() { line_.finish(); }

 private:
  CampaignObserver* trace_;
  std::uint32_t runs_;
  ProgressLine line_;
};

}  // namespace

struct CampaignFiles::State {
  std::optional<Output> trace_out, junit_out, report_out;
  std::optional<JsonlTraceWriter> trace;
  std::optional<JsonlTraceDirWriter> trace_dir;
  std::optional<Progress> progress;
};

CampaignFiles::CampaignFiles(const CampaignFileNames& names, std::uint32_t runs)
    : names_(names), state_(std::make_unique<State>()) {
  State& s = *state_;
  if (!names.junit.empty()) s.junit_out.emplace(names.junit);
  if (!names.report.empty()) s.report_out.emplace(names.report);
  if (!names.trace.empty()) {
    s.trace.emplace(s.trace_out.emplace(names.trace, OutputFile::Mode::streamed).stream(), names.strategy);
    s.trace->set_context(names.model, names.replay, names.params);
  }
  if (!names.trace_dir.empty()) {
    s.trace_dir.emplace(names.trace_dir, names.strategy);
    s.trace_dir->set_context(names.model, names.replay, names.params);
  }
  CampaignObserver* trace = s.trace       ? static_cast<CampaignObserver*>(&*s.trace)
                            : s.trace_dir ? static_cast<CampaignObserver*>(&*s.trace_dir)
                                          : nullptr;
  s.progress.emplace(trace, runs);
}

CampaignFiles::~CampaignFiles() = default;

CampaignObserver* CampaignFiles::observer() {
  return &*state_->progress;
}

void CampaignFiles::finish(const GameGraph& g, const CampaignResult& c) {
  State& s = *state_;
  s.progress->finish();
  if (s.trace_out) s.trace_out->close();
  if (s.trace_dir) s.trace_dir->close();
  if (s.junit_out) {
    write_junit(s.junit_out->stream(), junit_suite(g, c,
                                                   {.suite = "playtest run " + names_.model,
                                                    .classname = "playtest." + names_.strategy,
                                                    .strategy = names_.strategy}));
    s.junit_out->close();
  }
}

void CampaignFiles::write_report(const GameGraph& g, const CampaignResult& c, const StopSignal* stop) {
  State& s = *state_;
  if (!s.report_out) return;
  report::Report rep{
      .title = "playtest run " + names_.model, .tool_version = PLAYTEST_VERSION, .model_name = names_.model};
  rep.model = g.explored();  // on the fly: no picture of the model
  for (const RunResult& r : c.runs)
    rep.runs.push_back(report::run_record(
        g, r, r.run, {.strategy = names_.strategy, .model = names_.model, .replay = names_.replay(r.seed)}));
  report::ReportOptions options;
  options.graphviz.stop = stop;
  report::write_html_report(s.report_out->stream(), rep, options);
  s.report_out->close();
}

}  // namespace playtest::cli
