// The CPU thread pool (src/cpu/pool.hpp, docs/design.md "CPU threads"): every index covered once
// in chunks no larger than asked, slots below the thread count and never shared by two running
// chunks, exceptions carried to the caller with the pool usable afterwards, nested and
// concurrent regions run on their callers, and the thread-count setting.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cpu/pool.hpp"
#include "tenferro/error.hpp"
#include "tenferro/options.hpp"

namespace tenferro::cpu {
namespace {

/// Runs run_chunks and checks coverage, chunk sizes, slot bounds and slot exclusivity.
void check_region(std::int64_t n, std::int64_t chunk, int threads) {
  SCOPED_TRACE("n " + std::to_string(n) + " chunk " + std::to_string(chunk) + " threads " + std::to_string(threads));
  std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
  std::vector<std::atomic<int>> busy(static_cast<std::size_t>(std::max(threads, 1)));
  std::atomic<int> bad_chunk{0}, bad_slot{0}, shared_slot{0};
  struct Ctx {
    std::vector<std::atomic<int>>& hits;
    std::vector<std::atomic<int>>& busy;
    std::atomic<int>&bad_chunk, &bad_slot, &shared_slot;
    std::int64_t chunk;
    int threads;
  } ctx{hits, busy, bad_chunk, bad_slot, shared_slot, chunk, threads};
  run_chunks(
      n, chunk, threads,
      [](void* p, std::int64_t b, std::int64_t e, int slot) {
        auto& c = *static_cast<Ctx*>(p);
        if (e - b > std::max<std::int64_t>(c.chunk, 1) || b >= e) c.bad_chunk++;
        if (slot < 0 || slot >= std::max(c.threads, 1)) {
          c.bad_slot++;
          return;
        }
        if (c.busy[static_cast<std::size_t>(slot)].fetch_add(1) != 0) c.shared_slot++;
        for (std::int64_t i = b; i < e; ++i) c.hits[static_cast<std::size_t>(i)]++;
        c.busy[static_cast<std::size_t>(slot)].fetch_sub(1);
      },
      &ctx);
  EXPECT_EQ(bad_chunk.load(), 0);
  EXPECT_EQ(bad_slot.load(), 0);
  EXPECT_EQ(shared_slot.load(), 0);
  std::int64_t wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  EXPECT_EQ(wrong, 0) << "indices not covered exactly once";
}

TEST(PoolTest, ChunksCoverEveryIndexOnceWithinSlotBounds) {
  for (int threads : {1, 2, 3, 8})
    for (std::int64_t n : {1, 2, 7, 64, 1000, 100003})
      for (std::int64_t chunk : {1, 3, 64, 5000}) check_region(n, chunk, threads);
  check_region(0, 1, 4);  // nothing to do, nothing called
}

TEST(PoolTest, ParallelChunksSplitsContiguouslyAndSerialRunsOnCaller) {
  std::vector<std::atomic<int>> hits(1000);
  parallel_chunks(1000, 4, [&](std::int64_t b, std::int64_t e, int) {
    for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)]++;
  });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  const std::thread::id me = std::this_thread::get_id();
  int calls = 0;
  parallel_chunks(1000, 1, [&](std::int64_t b, std::int64_t e, int slot) {
    ++calls;
    EXPECT_EQ(std::this_thread::get_id(), me);
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 1000);
    EXPECT_EQ(slot, 0);
  });
  EXPECT_EQ(calls, 1);
}

TEST(PoolTest, ExceptionReachesCallerAndPoolStaysUsable) {
  for (int round = 0; round < 3; ++round) {
    std::atomic<int> ran{0};
    EXPECT_THROW(parallel_chunks(64, 4,
                                 [&](std::int64_t b, std::int64_t, int) {
                                   ran++;
                                   if (b == 0) throw std::runtime_error("chunk 0 failed");
                                 }),
                 std::runtime_error);
    EXPECT_GE(ran.load(), 1);
    check_region(10000, 10, 4);
  }
}

TEST(PoolTest, NestedRegionsRunOnTheirCaller) {
  std::vector<std::atomic<int>> hits(64 * 100);
  std::atomic<int> foreign{0};
  parallel_chunks(64, 4, [&](std::int64_t b, std::int64_t e, int) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::thread::id me = std::this_thread::get_id();
      parallel_chunks(100, 4, [&](std::int64_t ib, std::int64_t ie, int slot) {
        if (std::this_thread::get_id() != me || slot != 0) foreign++;
        for (std::int64_t j = ib; j < ie; ++j) hits[static_cast<std::size_t>(i * 100 + j)]++;
      });
    }
  });
  EXPECT_EQ(foreign.load(), 0);
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(PoolTest, ConcurrentCallersAllComplete) {
  constexpr int kCallers = 6;
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      for (int r = 0; r < 50; ++r) {
        const std::int64_t n = 1000 + 37 * t + r;
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
        parallel_chunks(n, 4, [&](std::int64_t b, std::int64_t e, int slot) {
          if (slot < 0 || slot >= 4) failures++;
          for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)]++;
        });
        for (auto& h : hits) failures += h.load() != 1;
      }
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(PoolTest, ThreadSettingIsCheckedAndRestored) {
  const int dflt = cpu_threads();
  EXPECT_GE(dflt, 1);
  set_cpu_threads(3);
  EXPECT_EQ(cpu_threads(), 3);
  EXPECT_EQ(max_threads(), 3);
  for (int bad : {-1, 1025}) {
    try {
      set_cpu_threads(bad);
      ADD_FAILURE() << "set_cpu_threads(" << bad << ") did not throw";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
      EXPECT_EQ(e.op(), "set_cpu_threads");
      EXPECT_EQ(e.arg(), "n");
    }
    EXPECT_EQ(cpu_threads(), 3) << "a refused setting changed the count";
  }
  set_cpu_threads(0);
  EXPECT_EQ(cpu_threads(), dflt);
}

}  // namespace
}  // namespace tenferro::cpu
