// Sessions: one recording scope per backend per thread; re-entry is runtime_state. Also the
// registry of backends by allocation domain, the default fusion and the text form of a GPU
// profile report.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {
thread_local std::vector<const Backend*> t_open_sessions;

struct Registry {
  std::mutex mutex;
  std::map<DomainId, Backend*> backends;
};
Registry& registry() {
  static Registry r;
  return r;
}
}  // namespace

void register_backend(DomainId domain, Backend& be) {
  Registry& r = registry();
  std::lock_guard guard(r.mutex);
  r.backends[domain] = &be;
}

void unregister_backend(DomainId domain) noexcept {
  Registry& r = registry();
  std::lock_guard guard(r.mutex);
  r.backends.erase(domain);
}

Backend* registered_backend(DomainId domain) noexcept {
  Registry& r = registry();
  std::lock_guard guard(r.mutex);
  const auto it = r.backends.find(domain);
  return it == r.backends.end() ? nullptr : it->second;
}

bool detail::session_open(const Backend& be) {
  return std::find(t_open_sessions.begin(), t_open_sessions.end(), &be) != t_open_sessions.end();
}

void with_session(Backend& be, const std::function<void()>& f) {
  TENFERRO_CHECK(std::find(t_open_sessions.begin(), t_open_sessions.end(), &be) == t_open_sessions.end(),
                 runtime_state, "with_session", "", "a session of backend ", be.name(),
                 " is already open on this thread (sessions do not nest)");
  t_open_sessions.push_back(&be);
  struct Close {
    Backend& be;
    ~Close() {
      t_open_sessions.pop_back();
    }
  } close{be};
  be.begin_session();
  try {
    f();
  } catch (...) {
    // The body's error is the one raised; closing the session may fail for the same cause (a
    // lost device), and a backend whose failure persists raises it again at its next call.
    try {
      be.end_session();
    } catch (const Error&) {
    }
    throw;
  }
  be.end_session();
}

// Default fusion: run the steps (and the reduction) one by one through the validated unfused ops.
void Backend::fused(const FusionPlan& plan, std::span<const TensorView> inputs, const TensorView& out) {
  std::vector<Tensor> results;
  results.reserve(plan.steps.size());
  for (const FusionStep& s : plan.steps) {
    std::vector<TensorView> args;
    for (int a : s.args) args.push_back(a >= 0 ? TensorView(results[static_cast<std::size_t>(a)])
                                                : inputs[static_cast<std::size_t>(-a - 1)]);
    results.push_back(tenferro::elementwise(*this, s.op, args, s.dir));
  }
  if (plan.reduce && !plan.reduce_axes.empty())
    copy(tenferro::reduce(*this, *plan.reduce, results.back(), plan.reduce_axes), out);
  else
    copy(results.back(), out);
}

std::string format_profile(const ProfileReport& r) {
  if (!r.supported) return "profile: no GPU timestamps on this backend\n";
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%-12s %10s %12s %7s\n", "family", "dispatches", "gpu_us", "%busy");
  out += line;
  for (const ProfileFamily& f : r.families) {
    std::snprintf(line, sizeof line, "%-12s %10llu %12.1f %7.1f\n", f.name.c_str(),
                  static_cast<unsigned long long>(f.dispatches), f.gpu_us,
                  r.busy_us > 0 ? 100.0 * f.gpu_us / r.busy_us : 0.0);
    out += line;
  }
  std::snprintf(line, sizeof line,
                "total: %llu dispatches in %llu batches, GPU busy %.1f us, span %.1f us, idle %.1f us\n",
                static_cast<unsigned long long>(r.dispatches), static_cast<unsigned long long>(r.batches), r.busy_us,
                r.span_us, std::max(0.0, r.span_us - r.busy_us));
  out += line;
  return out;
}

}  // namespace tenferro
