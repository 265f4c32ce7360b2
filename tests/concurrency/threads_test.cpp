// The threading model of docs/design.md ("Threads") exercised: several threads running ops and
// einsum on one Vulkan device and on the CPU backend at once, einsum programs recorded and
// replayed while other threads run ops, the two runtimes used from different threads, sessions
// on several threads, tensors shared, moved and mapped across threads, the einsum plan and
// program caches hit by many threads with the same and different instances, and the Vulkan
// allocator driven to its cap by threads that allocate until out_of_memory and free. Every
// result is checked against the CPU backend run on one thread, or against values computed
// here. These tests also run under ThreadSanitizer (the `tsan` preset: tests/README.md), which
// turns any data race they reach into a failure.
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backends.hpp"
#include "core/einsum/lower.hpp"
#include "core/einsum/program.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#if TENFERRO_HAVE_VULKAN
#include "vulkan/backend.hpp"
#include "vulkan/kernels/gemm/ozaki.hpp"
#include "vulkan/provider.hpp"
#endif

namespace tenferro {
namespace {

using test::RefTensor;

constexpr int kThreads = 4;

/// Runs body(t) on kThreads threads (t = 0..kThreads-1) and returns what they reported: a
/// thread's exception is a failure too. Failures are gathered and checked on the calling thread.
std::vector<std::string> on_threads(int threads, const std::function<void(int, std::vector<std::string>&)>& body) {
  std::vector<std::vector<std::string>> failures(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      auto& mine = failures[static_cast<std::size_t>(t)];
      try {
        body(t, mine);
      } catch (const std::exception& e) {
        mine.push_back("thread " + std::to_string(t) + " threw: " + e.what());
      }
    });
  for (auto& th : pool) th.join();
  std::vector<std::string> all;
  for (auto& f : failures) all.insert(all.end(), f.begin(), f.end());
  return all;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 20; ++i) s += v[i] + "\n";
  return s;
}

/// A host f64 tensor of small integers (a function of `seed` and the index): sums and products
/// of a few of them are exact in f64 in any order, so every backend and every thread count must
/// give bit-identical results.
Tensor host_ints(const Shape& shape, int seed) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>((i * 7 + seed * 3) % 7 - 3);
  return host_tensor<double>(shape, v);
}

/// One thread's workload on `be`: elementwise, analytic, reduce, dot_general, a transpose, a
/// cast, a reversal, a gather and a three-operand einsum, on operands whose extents depend on
/// `seed` (different seeds: different pipelines, plans and programs). `shared` (a [6, 5] f64
/// tensor of `be`, or undefined) is read by every thread that gets it. The results are read back
/// to the host.
std::vector<RefTensor> workload(Backend& be, int seed, const TensorView& shared = {}) {
  const std::int64_t m = 3 + seed % 4, k = 4 + seed % 3, n = 2 + seed % 5;
  const Tensor a = upload(be, host_ints({m, k}, seed)), b = upload(be, host_ints({k, n}, seed + 1)),
               c = upload(be, host_ints({m, n}, seed + 2)), d = upload(be, host_ints({n, 3}, seed + 3));
  std::vector<RefTensor> out;
  const Tensor ab = dot_general(be, a, b, DotGeneralConfig{{}, {}, {1}, {0}});
  const Tensor sum = add(be, ab, c);
  const Tensor sq = mul(be, sum, sum);
  out.push_back(test::read(be, sq));
  out.push_back(test::read(be, reduce_sum(be, sq, {0})));
  out.push_back(test::read(be, transpose_copy(be, sum, {1, 0})));
  out.push_back(test::read(be, cast(be, sum, DType::I64)));
  out.push_back(test::read(be, reverse_copy(be, a, {0, 1})));
  out.push_back(test::read(be, exp(be, mul(be, a, a))));
  const Tensor idx = upload(be, host_tensor<std::int64_t>({2, 1}, {m - 1, 0}));
  GatherConfig g;  // rows m-1 and 0 of a
  g.offset_dims = {1};
  g.collapsed_slice_dims = {0};
  g.start_index_map = {0};
  g.index_vector_dim = 1;
  g.slice_sizes = {1, k};
  out.push_back(test::read(be, gather(be, a, idx, g)));
  const TensorView ops[3] = {a, b, d};
  out.push_back(test::read(be, einsum(be, "ij,jk,kl->li", ops)));
  if (shared.defined()) out.push_back(test::read(be, reduce_sum(be, add(be, shared, shared), {1})));
  return out;
}

/// Compares one workload's results: exact, except exp (element 5) within a few ulp.
void check_workload(const std::vector<RefTensor>& want, const std::vector<RefTensor>& got, const std::string& what,
                    std::vector<std::string>& failures) {
  if (want.size() != got.size()) {
    failures.push_back(what + ": " + std::to_string(got.size()) + " results, expected " + std::to_string(want.size()));
    return;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const test::Tol tol = i == 5 ? test::ulp_tol(DType::F64, 8) : test::Tol{};
    const std::string diff = test::compare(want[i], got[i], tol);
    if (!diff.empty()) failures.push_back(what + ", result " + std::to_string(i) + ": " + diff);
  }
}

/// The shared operand of `workload`, on `be`.
Tensor shared_operand(Backend& be) { return upload(be, host_ints({6, 5}, 11)); }

/// The workload's results of seeds 0..seeds-1 on the CPU backend, on this thread.
std::vector<std::vector<RefTensor>> references(int seeds) {
  const Tensor shared = shared_operand(cpu_backend());
  std::vector<std::vector<RefTensor>> r;
  for (int s = 0; s < seeds; ++s) r.push_back(workload(cpu_backend(), s, shared));
  return r;
}

/// The Vulkan backend under test, or nullptr (no device, or the provider is not built).
Backend* vulkan_or_null() {
#if TENFERRO_HAVE_VULKAN
  if (vk::list_vulkan_devices().empty()) return nullptr;
  return &get_backend("vulkan");
#else
  return nullptr;
#endif
}

#define TENFERRO_REQUIRE_VULKAN(var)                                                  \
  Backend* var = vulkan_or_null();                                                    \
  if (!var) GTEST_SKIP() << "no Vulkan device present (lavapipe or a GPU is needed)"

constexpr int kRounds = 3;

// Every thread runs the workload of several seeds on the CPU backend at once (one thread's kernel
// runs on the pool, the others' on their calling threads meanwhile), all reading one shared input.
TEST(Threads, CpuBackendRunsOpsAndEinsumOnSeveralThreads) {
  const auto want = references(kThreads * kRounds);
  Backend& be = cpu_backend();
  const Tensor shared = shared_operand(be);
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    for (int r = 0; r < kRounds; ++r) {
      const int seed = t + kThreads * r;
      check_workload(want[static_cast<std::size_t>(seed)], workload(be, seed, shared), "cpu seed " + std::to_string(seed), f);
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
}

// The same on one Vulkan device: recording, allocation and submission from four threads, inside
// sessions (odd rounds) and outside them, every thread reading one shared device tensor.
TEST(Threads, OneVulkanDeviceRunsOpsAndEinsumOnSeveralThreads) {
  TENFERRO_REQUIRE_VULKAN(vk);
  const auto want = references(kThreads * kRounds);
  const Tensor shared = shared_operand(*vk);
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    for (int r = 0; r < kRounds; ++r) {
      const int seed = t + kThreads * r;
      std::vector<RefTensor> got;
      if (r % 2)
        with_session(*vk, [&] { got = workload(*vk, seed, shared); });
      else
        got = workload(*vk, seed, shared);
      check_workload(want[static_cast<std::size_t>(seed)], got, "vulkan seed " + std::to_string(seed), f);
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  vk->synchronize();  // no kernel error was left behind
}

// Einsum programs recorded and replayed on one Vulkan device from several threads while other
// threads run ops on it: a capture holds the device for its whole body, so no other thread's
// work lands in it, and replays interleave with the other threads' batches.
TEST(Threads, EinsumProgramsRecordAndReplayWhileOtherThreadsRunOps) {
  TENFERRO_REQUIRE_VULKAN(vk);
  const auto want = references(kThreads * kRounds);
  const Tensor shared = shared_operand(*vk);
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    if (t % 2) {  // ops
      for (int r = 0; r < kRounds; ++r) {
        const int seed = t + kThreads * r;
        check_workload(want[static_cast<std::size_t>(seed)], workload(*vk, seed, shared),
                       "vulkan seed " + std::to_string(seed), f);
      }
      return;
    }
    const std::int64_t m = 3 + t, k = 4, n = 2 + t;
    EinsumProgram prog(*vk, "ij,jk,kl->li", {{m, k}, {k, n}, {n, 3}}, DType::F64);
    if (!prog.recorded()) f.push_back("thread " + std::to_string(t) + ": the program was not recorded");
    for (int r = 0; r < kRounds; ++r) {
      const Tensor a = host_ints({m, k}, t + r), b = host_ints({k, n}, t + r + 1), d = host_ints({n, 3}, t + r + 2);
      const TensorView host_ops[3] = {a, b, d};
      const RefTensor expect = test::read(cpu_backend(), einsum(cpu_backend(), "ij,jk,kl->li", host_ops));
      const Tensor got = prog({upload(*vk, a), upload(*vk, b), upload(*vk, d)});
      const std::string diff = test::compare(expect, test::read(*vk, got), test::Tol{});
      if (!diff.empty()) f.push_back("program of thread " + std::to_string(t) + ", run " + std::to_string(r) + ": " + diff);
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  vk->synchronize();
}

// The two runtimes from different threads at once: even threads on the CPU backend, odd ones on
// the Vulkan device, and each thread also moves a result to the other runtime and back.
TEST(Threads, CpuAndVulkanRuntimesOnDifferentThreads) {
  TENFERRO_REQUIRE_VULKAN(vk);
  const auto want = references(kThreads * kRounds);
  const Tensor shared_cpu = shared_operand(cpu_backend()), shared_vk = shared_operand(*vk);
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    Backend& mine = t % 2 ? *vk : cpu_backend();
    const Tensor& shared = t % 2 ? shared_vk : shared_cpu;
    for (int r = 0; r < kRounds; ++r) {
      const int seed = t + kThreads * r;
      check_workload(want[static_cast<std::size_t>(seed)], workload(mine, seed, shared),
                     mine.name() + " seed " + std::to_string(seed), f);
      // Host tensor -> device -> op on the device -> host -> op on the CPU backend.
      const Tensor h = host_ints({5, 7}, seed);
      const Tensor on_vk = mul(*vk, upload(*vk, h), upload(*vk, h));
      const Tensor back = add(cpu_backend(), download(*vk, on_vk), h);
      const RefTensor hr = test::read(cpu_backend(), h), got = test::read(cpu_backend(), back);
      for (std::int64_t i = 0; i < hr.numel(); ++i) {
        const double x = hr.v[static_cast<std::size_t>(i)].real();
        if (got.v[static_cast<std::size_t>(i)].real() != x * x + x) {
          f.push_back("round trip, seed " + std::to_string(seed) + ", element " + std::to_string(i));
          break;
        }
      }
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
}

// Sessions on several threads of one backend at once: each thread's session batches a dependent
// chain; opening a second session of the same backend on the same thread raises runtime_state
// (its body does not run) while the other threads' sessions stay open; a session of the other
// runtime nests fine. Tensors made inside a thread's session are read by another thread later.
TEST(Threads, SessionsOnSeveralThreads) {
  std::vector<Backend*> backends = {&cpu_backend()};
  if (Backend* vk = vulkan_or_null()) backends.push_back(vk);
  constexpr std::int64_t kN = 1000;
  constexpr int kSteps = 24;
  for (Backend* be : backends) {
    SCOPED_TRACE(be->name());
    std::vector<Tensor> made(kThreads);
    std::barrier sync(kThreads);
    const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
      const Tensor one = upload(*be, host_ints({kN}, t));
      Tensor x = one;
      with_session(*be, [&] {
        sync.arrive_and_wait();  // every thread holds a session of `be` from here
        for (int s = 0; s < kSteps; ++s) x = add(*be, x, one);
        bool ran = false;
        try {
          with_session(*be, [&] { ran = true; });
          f.push_back("a nested session of " + be->name() + " opened");
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::runtime_state) f.push_back(std::string("nested session: ") + e.what());
        }
        if (ran) f.push_back("the nested session's body ran");
        if (Backend* other = be->is_host() ? vulkan_or_null() : &cpu_backend()) {
          bool other_ran = false;  // a session of the other runtime nests
          with_session(*other, [&] { other_ran = true; });
          if (!other_ran) f.push_back("the session of " + other->name() + " inside one of " + be->name() + " did not run");
        }
        sync.arrive_and_wait();  // the chains were recorded while every session was open
      });
      made[static_cast<std::size_t>(t)] = x;
    });
    EXPECT_TRUE(failures.empty()) << joined(failures);
    // Thread t reads thread (t + 1)'s result: (kSteps + 1) times its operand.
    const auto read_failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
      const int other = (t + 1) % kThreads;
      const RefTensor got = test::read(*be, made[static_cast<std::size_t>(other)]);
      const RefTensor one = test::read(cpu_backend(), host_ints({kN}, other));
      for (std::int64_t i = 0; i < kN; ++i)
        if (got.v[static_cast<std::size_t>(i)].real() != (kSteps + 1) * one.v[static_cast<std::size_t>(i)].real()) {
          f.push_back("chain of thread " + std::to_string(other) + ", element " + std::to_string(i));
          break;
        }
    });
    EXPECT_TRUE(read_failures.empty()) << joined(read_failures);
  }
}

// Tensor handles cross threads: producers make tensors that consumer threads read through
// host mappings (map_read) and downloads at the same time, and drop last (a device tensor's
// memory then goes back from a thread other than the one that allocated it).
TEST(Threads, TensorsMadeOnOneThreadAreMappedReadAndDroppedOnOthers) {
  std::vector<Backend*> backends = {&cpu_backend()};
  if (Backend* vk = vulkan_or_null()) backends.push_back(vk);
  constexpr int kTensors = 16;
  constexpr std::int64_t kN = 4096;
  for (Backend* be : backends) {
    SCOPED_TRACE(be->name());
    std::vector<Tensor> made(kTensors);
    std::barrier sync(kThreads);
    const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
      for (int i = t; i < kTensors; i += kThreads) {  // produce: value i + 0.5 everywhere
        const Tensor x = be->allocate(DType::F64, {kN});
        be->fill(x, Scalar::of(DType::F64, i + 0.5));
        made[static_cast<std::size_t>(i)] = x;
      }
      sync.arrive_and_wait();
      for (int i = 0; i < kTensors; ++i) {  // every thread reads every tensor
        const Tensor& x = made[static_cast<std::size_t>(i)];
        const bool mappable = x.storage()->host_data() != nullptr;
        const Tensor h = mappable ? Tensor() : be->download(x);
        const HostMapping m = map_read(mappable ? x : h);
        const auto v = m.read<double>();
        if (v.size() != static_cast<std::size_t>(kN) || v[0] != i + 0.5 || v[kN - 1] != i + 0.5)
          f.push_back("tensor " + std::to_string(i) + " read wrong on thread " + std::to_string(t));
      }
      sync.arrive_and_wait();
      for (int i = t; i < kTensors; i += kThreads) made[static_cast<std::size_t>((i + 1) % kTensors)] = Tensor();
    });
    EXPECT_TRUE(failures.empty()) << joined(failures);
    for (const Tensor& x : made) EXPECT_FALSE(x.defined());
    be->synchronize();
  }
}

// ---- einsum caches ----------------------------------------------------------------------------

/// A chain "ab,bc,cd->ad" of extents that depend on `v`: a distinct plan-cache key per v.
struct Chain {
  std::vector<Shape> shapes;
  explicit Chain(int v) : shapes{{2 + v % 3, 3 + v % 5}, {3 + v % 5, 2 + v % 7}, {2 + v % 7, 4}} {}
};

/// The chain's result computed with loops here, from the operands host_ints(shape, 0, 1, 2).
RefTensor chain_reference(const Chain& c) {
  const RefTensor a = test::read(cpu_backend(), host_ints(c.shapes[0], 0)),
                  b = test::read(cpu_backend(), host_ints(c.shapes[1], 1)),
                  d = test::read(cpu_backend(), host_ints(c.shapes[2], 2));
  const std::int64_t A = c.shapes[0][0], B = c.shapes[0][1], C = c.shapes[1][1], D = c.shapes[2][1];
  RefTensor out(DType::F64, {A, D});
  for (std::int64_t i = 0; i < A; ++i)
    for (std::int64_t l = 0; l < D; ++l) {
      double s = 0;
      for (std::int64_t j = 0; j < B; ++j)
        for (std::int64_t k = 0; k < C; ++k)
          s += a.v[static_cast<std::size_t>(i + A * j)].real() * b.v[static_cast<std::size_t>(j + B * k)].real() *
               d.v[static_cast<std::size_t>(k + C * l)].real();
      out.set(i + A * l, s);
    }
  return out;
}

// Many threads plan the same instance at once: one plan comes back to all of them (a plan made
// twice by threads that missed the cache together is not kept twice), and it runs correctly.
TEST(Threads, PlanCacheGivesEveryThreadTheSamePlanOfOneInstance) {
  clear_plan_cache();
  const Chain c(1);
  const RefTensor want = chain_reference(c);
  constexpr int kMany = 8;
  std::vector<std::shared_ptr<const EinsumPlan>> plans(kMany);
  std::barrier sync(kMany);
  const auto failures = on_threads(kMany, [&](int t, std::vector<std::string>& f) {
    sync.arrive_and_wait();
    plans[static_cast<std::size_t>(t)] = make_plan("ab,bc,cd->ad", c.shapes);
    const Tensor ops[3] = {host_ints(c.shapes[0], 0), host_ints(c.shapes[1], 1), host_ints(c.shapes[2], 2)};
    const TensorView views[3] = {ops[0], ops[1], ops[2]};
    const Tensor got = execute(cpu_backend(), plans[static_cast<std::size_t>(t)]->spec,
                               plans[static_cast<std::size_t>(t)]->path, views);
    const std::string diff = test::compare(want, test::read(cpu_backend(), got), {});
    if (!diff.empty()) f.push_back("thread " + std::to_string(t) + ": " + diff);
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  for (const auto& p : plans) EXPECT_EQ(p.get(), plans[0].get());
  EXPECT_EQ(plan_cache_size(), 1u);
}

// Many threads plan and run many different instances, more than the plan cache holds (it is
// emptied when full, while other threads read it) and more than the program cache holds (it
// evicts), on both runtimes; every result against the loops above.
TEST(Threads, EinsumCachesUnderManyThreadsAndInstances) {
  clear_plan_cache();
  constexpr int kInstances = 105;  // distinct chains (3 x 5 x 7 extents)
  constexpr int kPlans = 600;      // more than the plan cache's 512 entries
  std::vector<RefTensor> want;
  for (int v = 0; v < kInstances; ++v) want.push_back(chain_reference(Chain(v)));
  Backend* vk = vulkan_or_null();
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    for (int i = t; i < kPlans; i += kThreads) {
      const Chain c(i % kInstances);
      EinsumOptions o;
      o.plan.seed = static_cast<std::uint64_t>(i / kInstances);  // a distinct key per i
      const auto plan = make_plan("ab,bc,cd->ad", c.shapes, o);
      if (plan->spec.extents.size() != 4 || plan->path.size() != 2) {
        f.push_back("plan " + std::to_string(i) + " is not a plan of its chain");
        continue;
      }
      if (i % 8 >= 2) continue;  // run one in four (planning is what most threads hammer)
      Backend& be = vk && i % 8 == 1 ? *vk : cpu_backend();
      const Tensor ops[3] = {upload(be, host_ints(c.shapes[0], 0)), upload(be, host_ints(c.shapes[1], 1)),
                             upload(be, host_ints(c.shapes[2], 2))};
      const TensorView views[3] = {ops[0], ops[1], ops[2]};
      const std::string diff =
          test::compare(want[static_cast<std::size_t>(i % kInstances)], test::read(be, einsum(be, "ab,bc,cd->ad", views, o)), {});
      if (!diff.empty()) f.push_back(be.name() + ", chain " + std::to_string(i) + ": " + diff);
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  EXPECT_LE(plan_cache_size(), 512u);
}

// The program cache (einsum_detail::program_for) from many threads: one program per key comes
// back to every thread asking for it at once, and keys beyond its capacity evict while other
// threads look up.
TEST(Threads, ProgramCacheGivesEveryThreadTheSameProgramOfOneKey) {
  constexpr int kMany = 8;
  constexpr int kKeys = 48;  // more than the cache's 32 entries
  std::vector<EinsumSpec> specs;
  std::vector<std::vector<Layout>> layouts;
  for (int v = 0; v < kKeys; ++v) {
    const Chain c(v);
    specs.push_back(make_spec("ab,bc,cd->ad", c.shapes));
    layouts.push_back({});
    for (const Shape& s : c.shapes) layouts.back().push_back(Layout::compact(s));
  }
  const Path path = {{0, 1}, {0, 1}};
  std::vector<std::vector<Shape>> got(kMany, std::vector<Shape>(kKeys));
  std::barrier sync(kMany);
  std::vector<std::shared_ptr<const einsum_detail::Program>> keep(kMany);  // key 0 stays alive
  const auto failures = on_threads(kMany, [&](int t, std::vector<std::string>& f) {
    sync.arrive_and_wait();
    keep[static_cast<std::size_t>(t)] =
        einsum_detail::program_for(specs[0], path, layouts[0], DType::F64, einsum_detail::LowerOptions{});
    sync.arrive_and_wait();
    for (int k = 0; k < kKeys; ++k) {
      const int key = (k + t * 5) % kKeys;
      const auto p = einsum_detail::program_for(specs[static_cast<std::size_t>(key)], path,
                                                layouts[static_cast<std::size_t>(key)], DType::F64,
                                                einsum_detail::LowerOptions{});
      if (!p) {
        f.push_back("no program for key " + std::to_string(key));
        continue;
      }
      got[static_cast<std::size_t>(t)][static_cast<std::size_t>(key)] = p->result_shape;
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  for (const auto& p : keep) EXPECT_EQ(p.get(), keep[0].get());
  // Each thread got, for each key, the program of that key's chain: its result is [a, d].
  for (int t = 0; t < kMany; ++t)
    for (int k = 0; k < kKeys; ++k) {
      const Chain c(k);
      EXPECT_EQ(got[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)], (Shape{c.shapes[0][0], c.shapes[2][1]}))
          << "thread " << t << ", key " << k;
    }
}

// ---- the Vulkan allocator at its cap ------------------------------------------------------------
#if TENFERRO_HAVE_VULKAN

// Threads allocate 1 MiB tensors (each filled with its thread's value) until out_of_memory
// under a 64 MiB cap while two others run ops that need memory too (out_of_memory is the only
// error they may get); with every allocating thread stopped the cap holds and was reached; every
// tensor holds its value; all is freed and the rounds repeat; the backend runs an op afterwards,
// under the cap and with it restored.
TEST(Threads, VulkanAllocatorAtItsCapWithThreadsAllocatingUntilOutOfMemory) {
  TENFERRO_REQUIRE_VULKAN(be);
  be->synchronize();
  const vk::AllocatorStats s0 = vk::allocator_stats(*be);
  const std::uint64_t in_use0 = be->memory_usage().in_use;
  constexpr std::uint64_t kCap = 64ull << 20;
  constexpr std::int64_t kElems = (1 << 20) / 8;  // 1 MiB of f64
  vk::set_memory_limits(*be, kCap, 0);            // cache 0: blocks left by earlier tests go back
  constexpr int kAllocators = 3, kOpThreads = 2, kAllocRounds = 3;
  std::barrier sync(kAllocators + 1);  // allocating threads and this one
  std::atomic<bool> stop{false};
  std::vector<std::vector<Tensor>> held(kAllocators);
  std::vector<std::string> failures;
  std::vector<std::thread> pool;
  std::vector<std::vector<std::string>> thread_failures(kAllocators + kOpThreads);
  for (int t = 0; t < kAllocators; ++t)
    pool.emplace_back([&, t] {
      auto& f = thread_failures[static_cast<std::size_t>(t)];
      auto& mine = held[static_cast<std::size_t>(t)];
      for (int r = 0; r < kAllocRounds; ++r) {
        try {
          for (;;) {
            Tensor x = be->allocate(DType::F64, {kElems});
            be->fill(x, Scalar::of(DType::F64, 10.0 * t + r));
            mine.push_back(std::move(x));
          }
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::out_of_memory) f.push_back(std::string("allocate: ") + e.what());
        } catch (const std::exception& e) {
          f.push_back(std::string("allocate: ") + e.what());
        }
        sync.arrive_and_wait();  // every allocating thread stopped at out_of_memory
        sync.arrive_and_wait();  // checked by the main thread
        try {
          for (const Tensor& x : mine) {
            const RefTensor v = test::read(*be, x);
            if (v.v.front().real() != 10.0 * t + r || v.v.back().real() != 10.0 * t + r) {
              f.push_back("a tensor of thread " + std::to_string(t) + " lost its value");
              break;
            }
          }
        } catch (const std::exception& e) {
          f.push_back(std::string("reading back: ") + e.what());
        }
        mine.clear();
        sync.arrive_and_wait();  // all freed
      }
    });
  for (int t = 0; t < kOpThreads; ++t)
    pool.emplace_back([&, t] {
      auto& f = thread_failures[static_cast<std::size_t>(kAllocators + t)];
      for (int i = 0; !stop.load(); ++i) {
        try {
          const Tensor h = host_ints({257, 3}, i + t);
          const RefTensor got = test::read(*be, add(*be, upload(*be, h), upload(*be, h)));
          const RefTensor x = test::read(cpu_backend(), h);
          for (std::int64_t e = 0; e < x.numel(); ++e)
            if (got.v[static_cast<std::size_t>(e)] != 2.0 * x.v[static_cast<std::size_t>(e)]) {
              f.push_back("an op beside the allocations computed a wrong element");
              break;
            }
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::out_of_memory) f.push_back(std::string("op: ") + e.what());
        } catch (const std::exception& e) {
          f.push_back(std::string("op: ") + e.what());
        }
      }
    });
  for (int r = 0; r < kAllocRounds; ++r) {
    sync.arrive_and_wait();
    const vk::AllocatorStats s = vk::allocator_stats(*be);
    std::uint64_t held_bytes = 0;
    for (const auto& h : held) held_bytes += h.size() * (1ull << 20);
    EXPECT_LE(s.tensor_bytes_reserved, kCap) << "round " << r;
    EXPECT_LE(held_bytes, kCap) << "round " << r;
    // Out of memory came from the cap: no room was left for one more tensor beyond what the
    // op threads may hold (a few small tensors).
    EXPECT_GT(held_bytes + (2ull << 20), kCap - kOpThreads * (1ull << 20)) << "round " << r;
    sync.arrive_and_wait();
    sync.arrive_and_wait();
  }
  stop = true;
  for (auto& th : pool) th.join();
  for (auto& f : thread_failures) failures.insert(failures.end(), f.begin(), f.end());
  EXPECT_TRUE(failures.empty()) << joined(failures);
  be->synchronize();
  EXPECT_EQ(be->memory_usage().in_use, in_use0);
  // Usable under the cap (24 MiB of tensors) and after restoring the limits.
  const Tensor a = be->allocate(DType::F64, {kElems * 8});
  be->fill(a, Scalar::of(DType::F64, 1.5));
  const RefTensor twice = test::read(*be, add(*be, a, a));
  EXPECT_EQ(twice.v.front().real(), 3.0);
  EXPECT_EQ(twice.v.back().real(), 3.0);
  vk::set_memory_limits(*be, s0.cap, s0.cache_limit);
  const RefTensor again = test::read(*be, mul(*be, a, a));
  EXPECT_EQ(again.v[12345].real(), 2.25);
}

// Two Vulkan devices on different threads (a second backend opened on the default device's
// ordinal: another VkDevice, with its own mutex): each runs the workload and certified Ozaki-II
// f64 products, forced by the test hook with the failure history, so both devices keep their
// products' outcomes at once. The history is per device (a map shared by the devices was
// changed under two different mutexes); every product is counted.
TEST(Threads, TwoVulkanDevicesOnDifferentThreads) {
  TENFERRO_REQUIRE_VULKAN(first);
  const auto want = references(kThreads);
  vk::VulkanBackend second(vk::default_vulkan_ordinal());
  struct OverrideScope {  // ends before `second` goes: the history holds its tensors
    OverrideScope() {
      vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = 14, .portable = true, .certified = true, .history = true});
    }
    ~OverrideScope() { vk::set_gemm_ozaki_override(std::nullopt); }
  } scope;
  const Tensor shared_first = shared_operand(*first), shared_second = shared_operand(second);
  // A product the scheme takes (K = 400; gemm_small's sizes are not taken), of small integers:
  // exact on both devices.
  const Tensor ha = host_ints({40, 400}, 5), hb = host_ints({400, 35}, 6);
  const RefTensor product = test::read(cpu_backend(), dot_general(cpu_backend(), ha, hb, DotGeneralConfig{{}, {}, {1}, {0}}));
  constexpr int kProducts = 2;
  const std::uint64_t runs = vk::gemm_ozaki_runs();
  const auto failures = on_threads(kThreads, [&](int t, std::vector<std::string>& f) {
    Backend& be = t % 2 ? static_cast<Backend&>(second) : *first;
    const std::string name = t % 2 ? "second device" : "first device";
    check_workload(want[static_cast<std::size_t>(t)], workload(be, t, t % 2 ? shared_second : shared_first),
                   name + ", seed " + std::to_string(t), f);
    for (int i = 0; i < kProducts; ++i) {
      const Tensor got = dot_general(be, upload(be, ha), upload(be, hb), DotGeneralConfig{{}, {}, {1}, {0}});
      const std::string diff = test::compare(product, test::read(be, got), {});
      if (!diff.empty()) f.push_back(name + ", product " + std::to_string(i) + ": " + diff);
    }
  });
  EXPECT_TRUE(failures.empty()) << joined(failures);
  EXPECT_EQ(vk::gemm_ozaki_runs() - runs, std::uint64_t{kThreads * kProducts});
  second.synchronize();
}

#endif  // TENFERRO_HAVE_VULKAN

}  // namespace
}  // namespace tenferro
