// The CPU thread pool (pool.hpp). One region at a time is published in `state_`:
//   bits 32-63  the region's epoch (counts regions),
//   bit 31      open: workers may still join,
//   bits 0-30   the workers that joined and have not left.
// A worker joins with a compare-exchange on the whole word, so it can only join the region it
// read while that region is open; the region's fields (fn, ctx, n, chunk) stay valid until
// every joined worker has left, which the caller waits for after closing the region. A worker
// that reads the word late, after the caller closed it, never touches the fields.
#include "pool.hpp"

#include <cblas.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/env.hpp"
#include "tenferro/error.hpp"
#include "tenferro/options.hpp"

namespace tenferro::cpu {
namespace {

constexpr int kMaxSetting = 1024;
/// How long an idle worker spins before it sleeps, and how long the caller spins before it
/// yields while joined workers finish.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr std::uint64_t kOpen = std::uint64_t{1} << 31;
constexpr std::uint64_t kCount = kOpen - 1;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// The CPUs in the process's affinity mask, read once: max_threads() is asked at every kernel
/// launch, and a system call there costs microseconds per op (more in a sandboxed VM).
int affinity_cpus() {
  static const int n = [] {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return n;
}

/// The environment's setting (0 when unset), read once.
int env_threads() {
  static const int n = static_cast<int>(env::uint("TENFERRO_NUM_THREADS", 0, 1, kMaxSetting));
  return n;
}

std::atomic<int> g_set{0};  // set_cpu_threads; 0: the environment or the machine

thread_local bool t_in_region = false;

/// The chunks in order on the calling thread (slot 0), as a region's body (nested regions
/// inside it run serially too).
void serial(std::int64_t n, std::int64_t chunk, ChunkFn fn, void* ctx) {
  struct Restore {
    bool v;
    ~Restore() { t_in_region = v; }
  } restore{t_in_region};
  t_in_region = true;
  for (std::int64_t b = 0; b < n; b += chunk) fn(ctx, b, std::min(n, b + chunk), 0);
}

class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }

  void run(std::int64_t n, std::int64_t chunk, ChunkFn fn, void* ctx, int threads) {
    std::unique_lock<std::mutex> lock(run_mu_, std::try_to_lock);
    if (!lock.owns_lock()) return serial(n, chunk, fn, ctx);
    start_workers(threads - 1);
    limit_.store(threads, std::memory_order_relaxed);
    fn_ = fn;
    ctx_ = ctx;
    n_ = n;
    chunk_ = chunk;
    next_.store(0, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    err_ = nullptr;
    const std::uint64_t epoch = (state_.load(std::memory_order_relaxed) >> 32) + 1;
    state_.store(epoch << 32 | kOpen, std::memory_order_release);
    wake_.fetch_add(1, std::memory_order_release);
    wake_.notify_all();
    t_in_region = true;
    work(0);
    t_in_region = false;
    // Close: no worker joins from now on; wait for the joined ones to leave.
    state_.fetch_and(~kOpen, std::memory_order_acq_rel);
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned i = 0; (state_.load(std::memory_order_acquire) & kCount) != 0; ++i) {
      if (i % 64 != 63 || std::chrono::steady_clock::now() - t0 < kSpin) pause();
      else std::this_thread::yield();
    }
    if (err_) std::rethrow_exception(err_);
  }

  ~Pool() {
    stop_.store(true, std::memory_order_relaxed);
    wake_.fetch_add(1, std::memory_order_release);
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

 private:
  /// Claims and runs chunks until none is left (or one has thrown).
  void work(int slot) {
    for (;;) {
      const std::int64_t b = next_.fetch_add(chunk_, std::memory_order_relaxed);
      if (b >= n_ || failed_.load(std::memory_order_relaxed)) return;
      try {
        fn_(ctx_, b, std::min(n_, b + chunk_), slot);
      } catch (...) {
        std::lock_guard<std::mutex> g(err_mu_);
        if (!err_) err_ = std::current_exception();
        failed_.store(true, std::memory_order_relaxed);
      }
    }
  }

  /// Starts workers up to `count` (run_mu_ held). A thread that cannot be started leaves the
  /// pool smaller; the regions still complete (the caller claims what nobody else does).
  void start_workers(int count) {
    while (static_cast<int>(workers_.size()) < count) {
      try {
        const int slot = static_cast<int>(workers_.size()) + 1;
        workers_.emplace_back([this, slot] { worker(slot); });
      } catch (...) {
        return;
      }
    }
  }

  void worker(int slot) {
    std::uint64_t seen = state_.load(std::memory_order_relaxed) >> 32;
    for (;;) {
      // Wait for a region this worker has not seen: spin for kSpin, then sleep on wake_.
      std::uint64_t s = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (unsigned i = 0;; ++i) {
        const std::uint32_t w = wake_.load(std::memory_order_acquire);
        s = state_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_relaxed)) return;
        if ((s & kOpen) && (s >> 32) != seen) break;
        if (i % 64 == 63 && std::chrono::steady_clock::now() - t0 >= kSpin) wake_.wait(w, std::memory_order_acquire);
        else pause();
      }
      seen = s >> 32;
      if (slot >= limit_.load(std::memory_order_relaxed)) continue;
      if (!state_.compare_exchange_strong(s, s + 1, std::memory_order_acq_rel)) continue;
      t_in_region = true;
      work(slot);
      t_in_region = false;
      state_.fetch_sub(1, std::memory_order_release);
    }
  }

  std::mutex run_mu_;  // one region at a time
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> state_{0};
  std::atomic<std::uint32_t> wake_{0};  // futex word: bumped on every region and at exit
  std::atomic<int> limit_{1};           // slots below this may join
  std::atomic<bool> stop_{false};
  // The region (written by its caller before it opens, read by joined workers).
  ChunkFn fn_ = nullptr;
  void* ctx_ = nullptr;
  std::int64_t n_ = 0, chunk_ = 1;
  std::atomic<std::int64_t> next_{0};
  std::atomic<bool> failed_{false};
  std::mutex err_mu_;
  std::exception_ptr err_;
};

void blas_single_threaded() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

}  // namespace

}  // namespace tenferro::cpu

namespace tenferro {

std::string blas_coretype_hint() {
#if defined(__x86_64__)
  if (env::text("OPENBLAS_CORETYPE")) return "";
  const std::string core = openblas_get_corename();
  for (const char* fits : {"Haswell", "Zen", "SkylakeX", "Cooperlake", "SapphireRapids", "Excavator"})
    if (core == fits) return "";
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
  return "";
}

}  // namespace tenferro

namespace tenferro::cpu {

int max_threads() {
  const int set = g_set.load(std::memory_order_relaxed);
  if (set > 0) return set;
  const int e = env_threads();
  return e > 0 ? e : affinity_cpus();
}

void check_thread_setting() {
  (void)env_threads();
  blas_single_threaded();
}

void run_chunks(std::int64_t n, std::int64_t chunk, int threads, ChunkFn fn, void* ctx) {
  if (n <= 0) return;
  chunk = std::max<std::int64_t>(chunk, 1);
  threads = static_cast<int>(std::min<std::int64_t>(std::min(threads, kMaxSetting), (n + chunk - 1) / chunk));
  if (threads <= 1 || t_in_region) return serial(n, chunk, fn, ctx);
  blas_single_threaded();
  Pool::get().run(n, chunk, fn, ctx, threads);
}

}  // namespace tenferro::cpu

namespace tenferro {

int cpu_threads() { return cpu::max_threads(); }

void set_cpu_threads(int n) {
  if (n < 0 || n > cpu::kMaxSetting)
    TENFERRO_FAIL(invalid_argument, "set_cpu_threads", "n", "n = ", n, " is outside 0 to ", cpu::kMaxSetting,
                  " (0: the default)");
  cpu::g_set.store(n, std::memory_order_relaxed);
}

}  // namespace tenferro
