#include "playtest/session/files.hpp"

#include <optional>

#include "playtest/base/output_file.hpp"
#include "playtest/campaign/junit_report.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/report/html_report.hpp"

namespace playtest {

namespace {

// Passes a campaign on to the trace writer (a file, or one per run) and reports progress. The
// campaign reports runs in run order, one at a time.
class Progress final : public CampaignObserver {
 public:
  Progress(CampaignObserver* trace, std::uint32_t runs, std::function<void(std::uint32_t, std::uint32_t)> progress)
      : trace_(trace), runs_(runs), progress_(std::move(progress)) {}
  void on_campaign_begin(const GameGraph& g, const CampaignOptions& o) override {
    if (trace_) trace_->on_campaign_begin(g, o);
  }
  void on_run_begin(std::uint32_t run, std::uint64_t seed) override {
    if (runs_ > 1 && progress_) progress_(run - 1, runs_);
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

 private:
  CampaignObserver* trace_;
  std::uint32_t runs_;
  std::function<void(std::uint32_t, std::uint32_t)> progress_;
};

}  // namespace

struct CampaignFiles::State {
  std::optional<OutputFile> trace_out, junit_out, report_out;
  std::optional<JsonlTraceWriter> trace;
  std::optional<JsonlTraceDirWriter> trace_dir;
  std::optional<Progress> progress;
};

CampaignFiles::CampaignFiles(const CampaignFileOptions& options, std::uint32_t runs)
    : options_(options), state_(std::make_unique<State>()) {
  State& s = *state_;
  const CampaignFileOptions& o = options_;
  if (!o.junit.empty()) s.junit_out.emplace(o.junit);
  if (!o.report.empty()) s.report_out.emplace(o.report);
  if (!o.trace.empty()) {
    s.trace.emplace(s.trace_out.emplace(o.trace, OutputFile::Mode::streamed).stream(), o.strategy);
    s.trace->set_context(o.model, o.replay, o.params);
  }
  if (!o.trace_dir.empty()) {
    s.trace_dir.emplace(o.trace_dir, o.strategy);
    s.trace_dir->set_context(o.model, o.replay, o.params);
  }
  CampaignObserver* trace = s.trace       ? static_cast<CampaignObserver*>(&*s.trace)
                            : s.trace_dir ? static_cast<CampaignObserver*>(&*s.trace_dir)
                                          : nullptr;
  s.progress.emplace(trace, runs, o.on_progress);
}

CampaignFiles::~CampaignFiles() = default;

CampaignObserver* CampaignFiles::observer() { return &*state_->progress; }

void CampaignFiles::finish(const GameGraph& g, const CampaignResult& c) {
  State& s = *state_;
  if (s.trace_out) s.trace_out->commit();
  if (s.trace_dir) s.trace_dir->close();
  if (s.junit_out) {
    write_junit(s.junit_out->stream(), junit_suite(g, c,
                                                   {.suite = "playtest run " + options_.model,
                                                    .classname = "playtest." + options_.strategy,
                                                    .strategy = options_.strategy}));
    s.junit_out->commit();
  }
}

void CampaignFiles::write_report(const GameGraph& g, const CampaignResult& c, const StopSignal* stop) {
  State& s = *state_;
  if (!s.report_out) return;
  const CampaignFileOptions& o = options_;
  report::Report rep{.title = "playtest run " + o.model, .tool_version = o.tool_version, .model_name = o.model};
  rep.model = g.explored();  // on the fly: no picture of the model
  for (const RunResult& r : c.runs)
    rep.runs.push_back(report::run_record(
        g, r, r.run, {.strategy = o.strategy, .model = o.model, .replay = o.replay ? o.replay(r.seed) : ""}));
  report::ReportOptions ro;
  ro.graphviz.stop = stop;
  report::write_html_report(s.report_out->stream(), rep, ro);
  s.report_out->commit();
}

}  // namespace playtest
