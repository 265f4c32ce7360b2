// Benchmark harness (STYLE.md B9): warmups, repeated wall-clock timings, median/p10/p90, and
// one JSON line per case with bytes or FLOPs turned into GB/s or GFLOP/s and the percentage
// of a ceiling measured in the same run (copy bandwidth, or a peer library's rate).
//   measure(f, opts) -> Timing      f() runs once per rep; the first `warmups` calls are dropped
//   run_for(seconds, min_calls, f)  warm-up by time
//   Record{...}.json()              {"op", "dtype", "shape", "layout", "backend", "threads",
//                                    "median_us", "p10_us", "p90_us", "gbps"|"gflops",
//                                    "ceiling", "pct_of_ceiling"}
// Host wall time (std::chrono::steady_clock); the caller synchronizes inside f() if needed.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace tenferro::bench {

struct Options {
  int warmups = 3;  // >= 3 for reported numbers
  int reps = 20;    // >= 20 for reported numbers
};

struct Timing {
  double median_us = 0, p10_us = 0, p90_us = 0;
  int reps = 0;
};

/// Nearest-rank percentile of sorted samples, p in [0, 1].
inline double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::lround(p * static_cast<double>(sorted.size() - 1)));
  return sorted[std::min(k, sorted.size() - 1)];
}

/// Calls f() at least `min_calls` times and until `seconds` have passed (GPU warm-up: a GPU
/// that sat idle runs its first work slowly, see bench/RESULTS.md).
template <class F> void run_for(double seconds, int min_calls, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < min_calls || std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds; ++i)
    f();
}

template <class F> Timing measure(F&& f, const Options& o) {
  for (int i = 0; i < o.warmups; ++i) f();
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(o.reps));
  for (int i = 0; i < o.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  return Timing{percentile(us, 0.5), percentile(us, 0.1), percentile(us, 0.9), o.reps};
}

/// One benchmark case. Exactly one of bytes/flops is non-zero; `ceiling` is the rate (GB/s or
/// GFLOP/s, same unit) the case is judged against, named by `ceiling_name`.
struct Record {
  std::string op, dtype, shape, layout = "compact", backend = "cpu";
  int threads = 1;
  Timing t;
  double bytes = 0, flops = 0;
  double ceiling = 0;
  std::string ceiling_name;

  /// GB/s (bytes) or GFLOP/s (flops) at the median time.
  double rate() const { return (bytes > 0 ? bytes : flops) / (t.median_us * 1e3); }
  double pct() const { return ceiling > 0 ? 100.0 * rate() / ceiling : 0.0; }

  std::string json() const {
    std::ostringstream os;
    os.precision(6);
    os << "{\"op\":\"" << op << "\",\"dtype\":\"" << dtype << "\",\"shape\":" << shape << ",\"layout\":\""
       << layout << "\",\"backend\":\"" << backend << "\",\"threads\":" << threads
       << ",\"median_us\":" << t.median_us << ",\"p10_us\":" << t.p10_us << ",\"p90_us\":" << t.p90_us
       << ",\"reps\":" << t.reps << (bytes > 0 ? ",\"gbps\":" : ",\"gflops\":") << rate();
    if (ceiling > 0) os << ",\"ceiling\":\"" << ceiling_name << "\",\"pct_of_ceiling\":" << pct();
    os << "}";
    return os.str();
  }
};

}  // namespace tenferro::bench
