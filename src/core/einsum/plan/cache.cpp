// make_plan: parse, bind and plan, cached by (subscripts, shapes, options).
#include <charconv>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/einsum/lower.hpp"
#include "core/einsum/plan/planners.hpp"

namespace tenferro {
namespace {

std::mutex g_cache_mutex;
std::unordered_map<std::string, std::shared_ptr<const EinsumPlan>> g_cache;
constexpr std::size_t kCacheLimit = 512;

/// The key: subscripts, shapes, planner options and the given path, as text. Built with
/// to_chars (an ostringstream cost about 15 us for a network of 84 operands, which every
/// einsum call with a path pays).
std::string cache_key(std::string_view subscripts, std::span<const Shape> shapes, const EinsumOptions& o) {
  std::string k;
  k.reserve(subscripts.size() + 16 * shapes.size() + 8 * o.path.size() + 64);
  auto num = [&k](auto v, char sep) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    k.append(buf, r.ptr);
    k.push_back(sep);
  };
  k.append(subscripts);
  k.push_back('|');
  for (const auto& s : shapes) {
    for (auto e : s) num(e, ',');
    k.push_back(';');
  }
  const auto& p = o.plan;
  k.push_back('|');
  num(static_cast<int>(p.method), ',');
  num(p.max_intermediate, ',');
  num(p.optimal_max_inputs, ',');
  num(p.restarts, ',');
  num(p.time_budget_s, ',');
  num(p.subtree_size, ',');
  num(p.seed, ',');
  if (o.use_path) {
    k.append("|path");
    for (const auto& [i, j] : o.path) {
      num(i, '-');
      num(j, ',');
    }
  }
  return k;
}

}  // namespace

std::shared_ptr<const EinsumPlan> make_plan(std::string_view subscripts, std::span<const Shape> shapes,
                                            const EinsumOptions& opts) {
  std::string key;
  if (opts.cache) {
    key = cache_key(subscripts, shapes, opts);
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = g_cache.find(key);
    if (it != g_cache.end()) return it->second;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto plan = std::make_shared<EinsumPlan>();
  plan->spec = make_spec(subscripts, shapes);
  const int n = static_cast<int>(plan->spec.num_inputs());
  if (opts.use_path) {
    plan->path = opts.path;
    plan->method = "given";
  } else {
    plan->path = plan_path(plan->spec, opts.plan);
    plan->method = n <= 2 ? "trivial" : path_method_name(einsum_detail::resolved_method(n, opts.plan));
  }
  plan->cost = path_cost(plan->spec, plan->path);  // validates a given path
  einsum_detail::check_sizes(plan->spec, plan->path, 1);  // element counts (the dtype comes later)
  plan->plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (opts.cache) {
    // Threads that missed together planned alike: the first plan stored is everyone's.
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
    if (g_cache.size() >= kCacheLimit) g_cache.clear();
    g_cache.emplace(std::move(key), plan);
  }
  return plan;
}

std::size_t plan_cache_size() {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  return g_cache.size();
}

void clear_plan_cache() {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  g_cache.clear();
}

}  // namespace tenferro
