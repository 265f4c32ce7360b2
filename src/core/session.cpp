// Sessions: one recording scope per backend per thread; re-entry is runtime_state.
#include <algorithm>
#include <vector>

#include "tenferro/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {
thread_local std::vector<const Backend*> t_open_sessions;
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
    be.end_session();
    throw;
  }
  be.end_session();
}

// Default fusion: run the steps one by one through the validated unfused ops.
void Backend::fused(const FusionPlan& plan, std::span<const TensorView> inputs, const TensorView& out) {
  std::vector<Tensor> results;
  results.reserve(plan.steps.size());
  for (const FusionStep& s : plan.steps) {
    std::vector<TensorView> args;
    for (int a : s.args) args.push_back(a >= 0 ? TensorView(results[static_cast<std::size_t>(a)])
                                                : inputs[static_cast<std::size_t>(-a - 1)]);
    results.push_back(tenferro::elementwise(*this, s.op, args, s.dir));
  }
  copy(results.back(), out);
}

}  // namespace tenferro
