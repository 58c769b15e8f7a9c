#include "playtest/strategy/evidence.hpp"

#include <algorithm>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

bool Evidence::Key::operator==(const Key& o) const {
  if (vertex != o.vertex || length != o.length) return false;
  for (std::uint32_t i = 0; i < length; ++i)
    if (edges[i] != o.edges[i]) return false;
  return true;
}

std::size_t Evidence::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = (std::uint64_t{k.vertex} << 8) ^ k.length;
  for (std::uint32_t i = 0; i < k.length; ++i) h = (h ^ k.edges[i].value) * 0x9e3779b97f4a7c15ull;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

Evidence::Evidence(std::uint32_t max_context, const Evidence* base) : max_context_(max_context), base_(base) {
  if (max_context_ > max_context_limit)
    throw UsageError("max_context", "Evidence: max_context above max_context_limit");
  if (base_ != nullptr && base_->max_context_ != max_context_)
    throw UsageError("base", "Evidence: a base with another max_context");
}

void Evidence::add(Counts& c, EdgeId outcome, std::uint64_t n) {
  for (auto& [e, k] : c)
    if (e == outcome) {
      k += n;
      return;
    }
  c.emplace_back(outcome, n);
}

std::uint64_t Evidence::get(const Counts& c, EdgeId outcome) {
  for (const auto& [e, k] : c)
    if (e == outcome) return k;
  return 0;
}

std::uint64_t Evidence::sum(const Counts& c) {
  std::uint64_t s = 0;
  for (const auto& [e, k] : c) s += k;
  return s;
}

Evidence::Key Evidence::key(VertexId v, std::span<const EdgeId> context) const {
  if (context.size() > max_context_) throw UsageError("context", "Evidence: a context longer than max_context");
  Key k;
  k.vertex = v.value;
  k.length = static_cast<std::uint32_t>(context.size());
  std::copy(context.begin(), context.end(), k.edges);
  return k;
}

void Evidence::record(VertexId v, std::span<const EdgeId> history, EdgeId outcome) {
  add(vertex_[v.value], outcome, 1);
  ++total_;
  const std::size_t n = std::min<std::size_t>(history.size(), max_context_);
  for (std::size_t len = 1; len <= n; ++len) add(context_[key(v, history.last(len))], outcome, 1);
}

void Evidence::extend(EdgeId e) {
  if (cut_) {
    starts_.push_back(path_.size());
    cut_ = false;
  }
  path_.push_back(e);
}

void Evidence::cut() { cut_ = true; }

void Evidence::merge_own(const Evidence& other) {
  if (other.max_context_ != max_context_) throw UsageError("other", "Evidence::merge_own: another max_context");
  for (std::size_t i = 0; i < other.starts_.size(); ++i) {
    const std::size_t end = i + 1 < other.starts_.size() ? other.starts_[i + 1] : other.path_.size();
    starts_.push_back(path_.size());
    path_.insert(path_.end(), other.path_.begin() + static_cast<std::ptrdiff_t>(other.starts_[i]),
                 other.path_.begin() + static_cast<std::ptrdiff_t>(end));
  }
  cut_ = true;
  for (const auto& [v, counts] : other.vertex_)
    for (const auto& [e, n] : counts) add(vertex_[v], e, n);
  for (const auto& [k, counts] : other.context_)
    for (const auto& [e, n] : counts) add(context_[k], e, n);
  total_ += other.total_;
}

std::uint64_t Evidence::visits(VertexId v) const {
  const auto it = vertex_.find(v.value);
  return (it == vertex_.end() ? 0 : sum(it->second)) + (base_ ? base_->visits(v) : 0);
}

std::uint64_t Evidence::count(VertexId v, EdgeId outcome) const {
  const auto it = vertex_.find(v.value);
  return (it == vertex_.end() ? 0 : get(it->second, outcome)) + (base_ ? base_->count(v, outcome) : 0);
}

std::uint64_t Evidence::visits(VertexId v, std::span<const EdgeId> context) const {
  if (context.empty()) return visits(v);
  const auto it = context_.find(key(v, context));
  return (it == context_.end() ? 0 : sum(it->second)) + (base_ ? base_->visits(v, context) : 0);
}

std::uint64_t Evidence::count(VertexId v, std::span<const EdgeId> context, EdgeId outcome) const {
  if (context.empty()) return count(v, outcome);
  const auto it = context_.find(key(v, context));
  return (it == context_.end() ? 0 : get(it->second, outcome)) + (base_ ? base_->count(v, context, outcome) : 0);
}

void Evidence::collect(std::unordered_map<Key, Counts, KeyHash>& into, VertexId v, std::uint32_t length) const {
  if (base_) base_->collect(into, v, length);
  for (const auto& [k, counts] : context_)
    if (k.vertex == v.value && k.length == length)
      for (const auto& [e, n] : counts) add(into[k], e, n);
}

std::vector<Evidence::Context> Evidence::contexts(VertexId v, std::uint32_t length) const {
  std::unordered_map<Key, Counts, KeyHash> all;
  collect(all, v, length);
  std::vector<Context> out;
  out.reserve(all.size());
  for (auto& [k, counts] : all) {
    Context c{.vertex = v, .edges = std::vector<EdgeId>(k.edges, k.edges + k.length)};
    std::sort(counts.begin(), counts.end());
    c.visits = sum(counts);
    c.outcomes = std::move(counts);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const Context& a, const Context& b) { return a.edges < b.edges; });
  return out;
}

std::uint32_t Evidence::num_contexts(VertexId v, std::uint32_t length) const {
  std::unordered_map<Key, Counts, KeyHash> all;
  collect(all, v, length);
  return static_cast<std::uint32_t>(all.size());
}

std::unordered_map<std::uint32_t, std::uint32_t> Evidence::num_contexts_by_vertex(std::uint32_t length) const {
  std::unordered_map<Key, bool, KeyHash> seen;
  for (const Evidence* e = this; e != nullptr; e = e->base_)
    for (const auto& [k, counts] : e->context_)
      if (k.length == length) seen.emplace(k, true);
  std::unordered_map<std::uint32_t, std::uint32_t> out;
  for (const auto& [k, unused] : seen) ++out[k.vertex];
  return out;
}

std::vector<VertexId> Evidence::vertices() const {
  std::vector<VertexId> out;
  for (const Evidence* e = this; e != nullptr; e = e->base_)
    for (const auto& [v, counts] : e->vertex_) out.push_back(VertexId{v});
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::uint64_t Evidence::total() const { return total_ + (base_ ? base_->total() : 0); }

}  // namespace playtest
