// The CPU backend's threads: one pool per process, shared by every kernel (docs/design.md,
// "CPU threads").
//
// A parallel region splits [0, n) into chunks that threads claim one at a time from a shared
// counter, the calling thread among them. The caller never waits for a thread that has not
// claimed a chunk: a worker that is slow to wake (a busy machine, a descheduled core) finds the
// chunks gone and goes back to sleep, so a region costs at most about what it costs on one
// thread plus the chunk a late thread claimed. Idle workers spin for 50 us (kSpin) after a
// region (the next region of an einsum step usually follows within that), then sleep on a
// futex; they never spin while work waits for a core.
//
// One region runs at a time. A region started inside a region's body, or by a thread while
// another thread's region runs, runs serially in its caller: the cores are already busy, and
// the number of running threads never exceeds the pool's size. BLAS runs single-threaded
// (OpenBLAS is set to one thread when the pool starts); large products are split into tiles
// over the pool (gemm.cpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace tenferro::cpu {

/// Below this many elements (or multiply-adds) a kernel runs on one thread.
inline constexpr std::int64_t kParallelThreshold = 1 << 15;

/// Threads a region may use, the caller included (>= 1): set_cpu_threads, else
/// TENFERRO_NUM_THREADS, else the CPUs this process may run on (its affinity mask, read at first use).
int max_threads();

/// Reads and checks TENFERRO_NUM_THREADS (throws Error{invalid_argument}, op "environment", for
/// a value outside 1 to 1024). Called when the CPU backend is created, before any work.
void check_thread_setting();

/// Runs fn(ctx, begin, end, slot) for chunks [begin, end) of at most `chunk` items covering
/// [0, n), on up to `threads` threads; `slot` is in [0, threads) and no two chunks run at once
/// on one slot (per-slot scratch needs no lock). The first exception a chunk throws is rethrown
/// after every claimed chunk has finished; the chunks not yet claimed then are skipped.
using ChunkFn = void (*)(void* ctx, std::int64_t begin, std::int64_t end, int slot);
void run_chunks(std::int64_t n, std::int64_t chunk, int threads, ChunkFn fn, void* ctx);

/// body(begin, end, slot) over [0, n) on up to `threads` threads (read max_threads() once and
/// size per-slot scratch by the same value), in about `per_thread` contiguous chunks per thread
/// (the default 4 lets the others take a slow thread's share; 1 for bodies with a fixed cost
/// per chunk); threads <= 1: body(0, n, 0) here.
template <class Body> void parallel_chunks(std::int64_t n, int threads, Body&& body, int per_thread = 4) {
  if (threads <= 1 || n < 2) {
    body(std::int64_t{0}, n, 0);
    return;
  }
  const std::int64_t chunks = std::min<std::int64_t>(n, std::int64_t{per_thread} * threads);
  using B = std::remove_reference_t<Body>;
  run_chunks(n, (n + chunks - 1) / chunks, threads,
             [](void* ctx, std::int64_t b, std::int64_t e, int slot) { (*static_cast<B*>(ctx))(b, e, slot); },
             const_cast<void*>(static_cast<const void*>(&body)));
}

}  // namespace tenferro::cpu
