// A testing strategy as one row of a table (as Spot's emptiness-check table): its name, what it
// needs, the options of its own, and a `prepare` that turns a graph and a test purpose into a
// policy maker, or into a typed refusal that says why it cannot play them. Each row is defined
// beside its algorithm (strategy/, solve/, cover/, plan/, ioco/); the table of every row is
// catalog/strategy_table.hpp. run/ and the simulator see policy makers only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/game_graph.hpp"
#include "playtest/strategy/policy.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

class Evidence;
class TestGraph;

// An option of a strategy's own, as the tool offers it: --NAME VALUE (or --NAME alone, a flag, when
// `value` is empty). Options with the same name in two rows are one option of the tool.
struct StrategyOption {
  std::string_view name;   // without the dashes: "bound", "torx-p"
  std::string_view value;  // what the value looks like ("N", "STOP:INPUT:OBSERVE"); empty: a flag
  std::string_view help;
  bool positive = false;  // a positive integer, checked when the command line is read
};

// The values of the strategy options that were given: name -> text ("true" for a flag).
class StrategyArgs {
 public:
  StrategyArgs() = default;
  StrategyArgs(std::initializer_list<std::pair<const std::string, std::string>> values) : values_(values) {}
  void set(std::string name, std::string value) { values_[std::move(name)] = std::move(value); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  std::optional<std::string_view> get(std::string_view name) const;
  // The value of `name` as an unsigned integer within [min, max] (`fallback` when absent); throws
  // UsageError(name) naming the option for anything else.
  std::uint64_t integer(std::string_view name, std::uint64_t fallback, std::uint64_t min = 0,
                        std::uint64_t max = UINT64_MAX) const;
  // As `integer`, for a finite number.
  double number(std::string_view name, double fallback) const;
  const std::map<std::string, std::string, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// Whether adaptive strategies learn the system's choices while they play (issue 22,
// docs/testing.md "Adaptive strategies"): with `on` they re-plan on the outcomes the system has
// shown (strategy/evidence.hpp) instead of the model's declared probabilities.
enum class Adaptation : std::uint8_t { off, on };

// What a strategy is prepared for.
struct StrategyContext {
  // What the runs play on: an explored graph (graph.explored() is the whole TestGraph), or a model
  // explored on the fly.
  const GameGraph& graph;
  // The test purpose, resolved against the graph (on the fly: its kind only; the goals are the
  // model's final states and the edges every edge discovered).
  const TestPurpose& purpose;
  const StrategyArgs& args;
  Adaptation adapt = Adaptation::off;
  // Play a solver's strategy even when its value could not be certified (the default refuses it).
  bool allow_uncertified = false;
};

// Why a strategy does not play what it was prepared for: an option, a purpose or a graph it cannot
// play (`option` names what to change: "strategy", "goals", "bound", ...), or a solution that is
// not certified. The tool turns it into a usage error (exit 2).
struct StrategyRefusal {
  std::string option;
  std::string message;
  std::vector<std::string> notes;
};

struct PreparedStrategy {
  PolicyMaker maker;  // empty when refused
  std::optional<StrategyRefusal> refusal;
  // What the user should know about the strategy being played ("expected cost 12.5, certified to
  // 1e-9"), shown beside the results; may be empty.
  std::vector<std::string> notes;

  static PreparedStrategy refuse(std::string option, std::string message, std::vector<std::string> notes = {}) {
    PreparedStrategy p;
    p.refusal = StrategyRefusal{std::move(option), std::move(message), std::move(notes)};
    return p;
  }
  static PreparedStrategy play(PolicyMaker maker, std::vector<std::string> notes = {}) {
    PreparedStrategy p;
    p.maker = std::move(maker);
    p.notes = std::move(notes);
    return p;
  }
};

// How a strategy re-plans on what the system shows when adaptation is on (issue 22).
enum class Replanning : std::uint8_t {
  none,      // it plays as prepared
  coverage,  // cover, planner: steers to the purpose edges the system withholds, in the history that gets them
  reach,     // bounded reachability re-solved on the learned probabilities and histories
  expected,  // expected cost re-solved on the learned probabilities and histories
};

struct StrategyRow {
  std::string_view name;     // as users write it: "random", "anti-ant", ...
  std::string_view summary;  // one line for --help and `playtest strategies`
  std::string_view source;   // the paper and section it implements
  bool needs_goals = false;  // aims at goal vertices (needs at least one)
  bool on_the_fly = false;   // plays a model explored on the fly (needs no whole graph)
  // The purpose it plays when none is asked for (--purpose auto); needs_goals rows: reach.
  TestPurpose::Kind default_purpose = TestPurpose::Kind::cover;
  std::span<const StrategyOption> options;
  Replanning replanning = Replanning::none;  // what it re-plans when adaptation is on
  // Adaptation's trigger: an outcome never seen counts as withheld (the plan on the learned model
  // takes over) once its declared probability would have shown it with this probability. cover
  // takes 0.5 (one miss of an even coin): its steering to the nearest purpose edge left beats its
  // tour even against systems that toss the model's coins (docs/testing.md, the table there); the
  // planner's own plan is better than that steering on such systems, so it waits for 0.9.
  double adapt_suspicion = 0.9;
  PreparedStrategy (*prepare)(const StrategyContext& context) = nullptr;
};

// prepare(), with the checks every row shares done first: goals for needs_goals rows, the whole
// graph for rows that do not play on the fly (the refusal names the rows of `table`, the table `row`
// is one of, that do). Never returns an empty maker without a refusal.
PreparedStrategy prepare_strategy(const StrategyRow& row, const StrategyContext& context,
                                  std::span<const StrategyRow* const> table);

// The names of the rows that play on the fly (StrategyRow::on_the_fly), in table order, in words:
// "random, anti-ant and pessimistic" (with `conjunction` "or": "random, anti-ant or pessimistic").
// Every message and help text that lists them says it with this.
std::string on_the_fly_names(std::span<const StrategyRow* const> table, std::string_view conjunction = "and");

// The goals a strategy aims at: the purpose's, else the graph's goal vertices.
std::vector<VertexId> goals_of(const TestGraph& g, const TestPurpose& purpose);

}  // namespace playtest
