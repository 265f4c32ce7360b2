// Vulkan runtime on a real device (lavapipe on CI): device probe, allocator reuse / cap /
// cache, transfers of every dtype, zero-copy mapping, sessions, threads, kernel-detected errors
// and a tensor larger than maxStorageBufferRange.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cmath>
#include <map>
#include <random>
#include <thread>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/runtime/allocator.hpp"

namespace tenferro::vktest {
namespace {

using RuntimeTest = VulkanTest;

Tensor iota_f32(Backend& be, std::int64_t n, float scale) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = scale * static_cast<float>(i % 1000);
  return be.upload(host_tensor<float>({n}, v));
}

Tensor add_on(Backend& be, const TensorView& a, const TensorView& b) {
  Tensor out = be.allocate(a.dtype(), a.shape());
  const TensorView in[2] = {a, b};
  be.elementwise(OpId::add, in, out, CompareDir::EQ);
  return out;
}

TEST_F(RuntimeTest, DeviceListingHasDetailsAndDefaultOrdinal) {
  const auto devices = vk::list_vulkan_devices();
  ASSERT_FALSE(devices.empty());
  for (const DeviceInfo& d : devices) {
    EXPECT_EQ(d.backend, "vulkan");
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.type.empty());
    EXPECT_FALSE(d.driver.empty());
    bool heap = false, range = false, f64 = false;
    for (const std::string& line : d.details) {
      heap |= line.rfind("memory heap", 0) == 0;
      range |= line.rfind("maxStorageBufferRange", 0) == 0;
      f64 |= line.rfind("shaderFloat64", 0) == 0;
    }
    EXPECT_TRUE(heap && range && f64) << d.name;
  }
  std::printf("validation layer active: %s\n", vk::validation_active(be()) ? "yes" : "no");
  const int ord = vk::default_vulkan_ordinal();
  EXPECT_EQ(&vk::vulkan_backend(ord), &be());
  try {
    vk::vulkan_backend(1000);
    ADD_FAILURE() << "ordinal 1000 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  }
}

TEST_F(RuntimeTest, AllocatorReusesFreedMemory) {
  be().synchronize();
  { Tensor warm = be().allocate(DType::F32, {1 << 18}); }  // ensure a block exists
  be().synchronize();
  const auto before = vk::allocator_stats(be());
  for (int round = 0; round < 5; ++round) {
    Tensor t = be().allocate(DType::F32, {1 << 18});
    be().fill(t, Scalar::of(DType::F32, 1.0));
    t = Tensor();
    be().synchronize();
    const auto after = vk::allocator_stats(be());
    EXPECT_EQ(after.bytes_reserved, before.bytes_reserved) << "round " << round;
    EXPECT_EQ(after.blocks, before.blocks);
    EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  }
}

// The free list under random allocations and frees of mixed sizes (splits, and merges with the
// previous range, the next, both or neither): in every block holding live allocations, those
// and the free ranges tile the block exactly, and no two free ranges touch.
TEST_F(RuntimeTest, AllocatorFreeListTilesBlocksUnderRandomFrees) {
  vk::Allocator alloc(dynamic_cast<vk::VulkanBackend&>(be()).device(), 0, vk::Allocator::kCacheAuto);
  std::mt19937 rng(3);
  std::vector<vk::Allocation> live;
  auto check_tiling = [&] {
    std::map<vk::Block*, std::vector<std::pair<VkDeviceSize, VkDeviceSize>>> pieces;
    for (const vk::Allocation& a : live) pieces[a.block].emplace_back(a.offset, a.size);
    for (auto& [b, v] : pieces) {
      for (auto it = b->free_ranges.begin(); it != b->free_ranges.end(); ++it) {
        v.emplace_back(it->first, it->second);
        if (std::next(it) != b->free_ranges.end()) {
          ASSERT_LT(it->first + it->second, std::next(it)->first);
        }
      }
      std::sort(v.begin(), v.end());
      VkDeviceSize at = 0;
      for (const auto& [off, size] : v) {
        ASSERT_EQ(off, at);
        at += size;
      }
      ASSERT_EQ(at, b->size);
    }
  };
  for (int step = 0; step < 4000; ++step) {
    if (live.empty() || rng() % 5 < 3) {
      live.push_back(alloc.allocate(100 * (1 + rng() % 80), vk::MemoryIntent::device_local));
    } else {
      const std::size_t i = rng() % live.size();
      alloc.free(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (step % 50 == 0) {
      ASSERT_NO_FATAL_FAILURE(check_tiling()) << "step " << step;
    }
  }
  ASSERT_NO_FATAL_FAILURE(check_tiling());
  for (const vk::Allocation& a : live) alloc.free(a);
  EXPECT_EQ(alloc.stats().bytes_in_use, 0u);
  EXPECT_EQ(alloc.stats().live_allocations, 0u);
}

TEST_F(RuntimeTest, MemoryCapGivesOutOfMemoryAndDeviceStaysUsable) {
  be().synchronize();
  const auto s0 = vk::allocator_stats(be());
  vk::set_memory_limits(be(), s0.bytes_reserved + (16ull << 20), s0.cache_limit);
  try {
    be().allocate(DType::F32, {64ll << 20});  // 256 MiB > cap
    ADD_FAILURE() << "allocation beyond the cap succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << e.what();
  }
  // Still usable, under the cap, and after restoring it.
  Tensor a = iota_f32(be(), 1000, 1.0f), b = iota_f32(be(), 1000, 2.0f);
  const auto got = to_vector<float>(be().download(add_on(be(), a, b)));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], 3.0f * static_cast<float>(i));
  vk::set_memory_limits(be(), s0.cap, s0.cache_limit);
  Tensor big = be().allocate(DType::F32, {8ll << 20});
  be().fill(big, Scalar::of(DType::F32, 0.0));
}

// Sets the cap for one scenario (after a synchronize; unless `keep_cache`, with no empty block
// cached: blocks that earlier tests left behind go back first) and restores the limits after it.
class CapScope {
 public:
  CapScope(Backend& be, std::uint64_t cap, bool keep_cache = false) : be_(be), s0_(vk::allocator_stats(be)) {
    be_.synchronize();
    vk::set_memory_limits(be_, cap, keep_cache ? s0_.cache_limit : 0);
  }
  ~CapScope() {
    be_.synchronize();
    vk::set_memory_limits(be_, s0_.cap, s0_.cache_limit);
  }
  CapScope(const CapScope&) = delete;
  CapScope& operator=(const CapScope&) = delete;

 private:
  Backend& be_;
  vk::AllocatorStats s0_;
};

// a + b for a, b of n floats each (3n floats of tensors), checked at every element.
void expect_add_of(Backend& be, std::int64_t n) {
  Tensor a = iota_f32(be, n, 1.0f), b = iota_f32(be, n, 2.0f);
  const auto got = to_vector<float>(be.download(add_on(be, a, b)));
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)], 3.0f * static_cast<float>(i % 1000)) << "element " << i;
}

// The cap bounds tensor memory: the error word, the parameter blocks of kernels and staging
// live outside it, so a workload whose tensors fit under the cap runs.
TEST_F(RuntimeTest, MemoryCapOf64MiBRunsSmallOpsAnd24MiBOfTensors) {
  CapScope cap(be(), 64ull << 20);  // exactly one tensor block
  expect_add_of(be(), 6);            // 24-byte tensors
  expect_add_of(be(), (8ll << 20) / 4);  // 3 x 8 MiB
  EXPECT_LE(vk::allocator_stats(be()).tensor_bytes_reserved, 64ull << 20);
}

TEST_F(RuntimeTest, MemoryCapOf96MiBRuns53MiBOfTensors) {
  CapScope cap(be(), 96ull << 20);
  expect_add_of(be(), 4684000);  // 3 x 17.87 MiB = 53.6 MiB
}

// Lowering the cap after every tensor was freed: the freed blocks go back (with no cache, or
// with blocks cached, those over the new cap), and an op runs under the new cap.
TEST_F(RuntimeTest, MemoryCapLoweredAfterFreesRunsAnOpUnderTheNewCap) {
  for (const bool keep_cache : {false, true}) {
    SCOPED_TRACE(keep_cache ? "cache kept" : "no cache");
    {
      CapScope cap(be(), 256ull << 20, keep_cache);
      expect_add_of(be(), (40ll << 20) / 4);  // 120 MiB of tensors, then all freed
    }
    CapScope cap(be(), 32ull << 20, keep_cache);
    EXPECT_LE(vk::allocator_stats(be()).tensor_bytes_reserved, 32ull << 20);
    Tensor t = be().allocate(DType::F32, {(8ll << 20) / 4});
    be().fill(t, Scalar::of(DType::F32, 2.5));
    const auto v = to_vector<float>(be().download(t));
    EXPECT_EQ(v.front(), 2.5f);
    EXPECT_EQ(v.back(), 2.5f);
    EXPECT_LE(vk::allocator_stats(be()).tensor_bytes_reserved, 32ull << 20);
  }
}

TEST_F(RuntimeTest, WorkloadBeyondTheCapIsOutOfMemoryAndTheBackendStaysUsable) {
  CapScope cap(be(), 32ull << 20);
  std::vector<Tensor> held;
  try {
    for (int i = 0; i < 3; ++i) held.push_back(be().allocate(DType::F32, {(12ll << 20) / 4}));  // 36 MiB
    ADD_FAILURE() << "36 MiB of tensors under a 32 MiB cap";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << e.what();
    EXPECT_EQ(held.size(), 2u);
  }
  held.clear();
  expect_add_of(be(), (8ll << 20) / 4);  // 24 MiB
}

TEST_F(RuntimeTest, CacheIsBoundedAfterEverythingIsFreed) {
  be().synchronize();
  const auto s0 = vk::allocator_stats(be());
  const std::uint64_t cache = 8ull << 20;
  vk::set_memory_limits(be(), 0, cache);
  {
    std::vector<Tensor> ts;
    for (int i = 0; i < 6; ++i) {
      ts.push_back(be().allocate(DType::F32, {(40ll << 20) / 4}));  // 40 MiB each: own blocks
    }
    EXPECT_GE(vk::allocator_stats(be()).bytes_reserved, 240ull << 20);
  }
  be().synchronize();
  const auto s1 = vk::allocator_stats(be());
  EXPECT_LE(s1.bytes_cached, cache);
  EXPECT_LE(s1.bytes_reserved, s1.bytes_in_use + std::max<std::uint64_t>(cache, s0.bytes_cached) + (64ull << 20));
  vk::set_memory_limits(be(), 0, s0.cache_limit);
}

TEST_F(RuntimeTest, UploadDownloadRoundTripEveryDtypeAndCountsBytes) {
  for (DType d : kAllDTypes) {
    const Shape shape{3, 5};
    std::vector<Val> vals(15);
    for (std::size_t i = 0; i < vals.size(); ++i) {
      vals[i].i = d == DType::Bool ? std::int64_t(i % 3 == 0) : std::int64_t(i) * 7 - 40;
      vals[i].c = {0.25 * double(vals[i].i), -0.5 * double(i)};
    }
    const Tensor host = host_of(d, shape, vals);
    const TransferStats t0 = be().transfer_stats();
    const Tensor dev = be().upload(host);
    EXPECT_EQ(dev.placement(), be().placement());
    const Tensor back = be().download(dev);
    const TransferStats t1 = be().transfer_stats();
    const std::uint64_t bytes = 15 * dtype_size(d);
    EXPECT_EQ(t1.uploaded_bytes - t0.uploaded_bytes, bytes) << dtype_name(d);
    EXPECT_EQ(t1.downloaded_bytes - t0.downloaded_bytes, bytes) << dtype_name(d);
    EXPECT_EQ(t1.uploads - t0.uploads, 1u);
    EXPECT_EQ(t1.downloads - t0.downloads, 1u);
    EXPECT_EQ(std::memcmp(back.storage()->host_data(), host.storage()->host_data(), bytes), 0) << dtype_name(d);

    // Any host view layout uploads (transposed + reversed), and device views download.
    const TensorView view = host.transpose({1, 0}).reverse({0});
    const Tensor back2 = be().download(be().upload(view));
    const TensorView dview = dev.transpose({1, 0}).slice({1, 0}, {5, 3}, {2, 1});
    const Tensor back3 = be().download(dview);
    for (std::int64_t i = 0; i < view.numel(); ++i) {
      EXPECT_EQ(host_at(back2, i).i, host_at(view, i).i);
      EXPECT_EQ(host_at(back2, i).c, host_at(view, i).c) << dtype_name(d) << " element " << i;
    }
    const TensorView hview = host.transpose({1, 0}).slice({1, 0}, {5, 3}, {2, 1});
    for (std::int64_t i = 0; i < hview.numel(); ++i) EXPECT_EQ(host_at(back3, i).c, host_at(hview, i).c);
  }
  // Empty tensors move no bytes but are counted as transfers.
  const Tensor e = be().upload(cpu_backend().allocate(DType::F64, {0, 4}));
  EXPECT_EQ(be().download(e).shape(), (Shape{0, 4}));
}

TEST_F(RuntimeTest, MappingIsZeroCopyWhenHostVisible) {
  const Tensor dev = be().upload(host_tensor<float>({4}, {1, 2, 3, 4}));
  const TransferStats t0 = be().transfer_stats();
  if (!be().placement().host_visible()) {
    EXPECT_EQ(be().placement().memory, MemoryKind::Device);
    EXPECT_THROW(map_read(dev), Error);
    return;
  }
  EXPECT_EQ(be().placement().memory, MemoryKind::Managed);
  {
    const HostMapping w = map_write(dev);
    w.write<float>()[2] = 30.0f;
  }
  const Tensor sum = add_on(be(), dev, dev);
  const HostMapping r = map_read(sum);  // waits for the add, no download
  EXPECT_EQ(r.read<float>()[2], 60.0f);
  EXPECT_EQ(r.read<float>()[3], 8.0f);
  const TransferStats t1 = be().transfer_stats();
  EXPECT_EQ(t1.uploaded_bytes, t0.uploaded_bytes);
  EXPECT_EQ(t1.downloaded_bytes, t0.downloaded_bytes);
}

TEST_F(RuntimeTest, SessionReentryRaisesRuntimeStateAndInnerBodyDoesNotRun) {
  bool inner_ran = false;
  Tensor out;
  with_session(be(), [&] {
    Tensor a = iota_f32(be(), 100, 1.0f);
    out = add_on(be(), a, a);
    try {
      with_session(be(), [&] { inner_ran = true; });
      ADD_FAILURE() << "nested session accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::runtime_state);
    }
    out = add_on(be(), out, a);
  });
  EXPECT_FALSE(inner_ran);
  const auto v = to_vector<float>(be().download(out));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(v[static_cast<std::size_t>(i)], 3.0f * static_cast<float>(i));
}

TEST_F(RuntimeTest, DependentChainInOneSessionInsertsBarriersAndIsCorrect) {
  const std::uint64_t b0 = vk::barrier_count(be());
  Tensor r;
  with_session(be(), [&] {
    Tensor a = iota_f32(be(), 4096, 1.0f);
    Tensor b = add_on(be(), a, a);  // reads a (written by the upload)
    Tensor c = add_on(be(), b, a);  // RAW on b
    r = add_on(be(), c, b);         // RAW on c
  });
  EXPECT_GE(vk::barrier_count(be()) - b0, 2u);
  const auto v = to_vector<float>(be().download(r));
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], 5.0f * static_cast<float>(i % 1000));
}

// Runs einsum `spec` on `ops` (uploaded, synchronized) with the path of two chains of two
// products each and a final product: (0 1), (0 4), (0 1), (0 2), (0 1). Returns the barriers
// recorded for it (one session).
std::uint64_t two_chain_einsum(Backend& be, const char* spec, const std::vector<Tensor>& ops, Tensor& r) {
  be.synchronize();
  EinsumOptions opt;
  opt.use_path = true;
  opt.cache = false;
  opt.path = {{0, 1}, {0, 4}, {0, 1}, {0, 2}, {0, 1}};
  const std::vector<TensorView> in(ops.begin(), ops.end());
  const std::uint64_t b0 = vk::barrier_count(be);
  with_session(be, [&] { r = einsum(be, spec, in, opt); });
  return vk::barrier_count(be) - b0;
}

// einsum runs independent steps back to back (core/einsum/schedule.cpp, interleave): two
// independent chains of two products each, given in the order chain 1 then chain 2, take one
// barrier fewer than that order (4 with the reordering off: each second product after its
// first, the outer product after both, its copy into output order); the result is checked
// against a host loop.
TEST_F(RuntimeTest, EinsumRunsIndependentStepsWithoutBarriersBetweenThem) {
  const std::int64_t n = 6;
  std::vector<Tensor> ops;
  std::vector<std::vector<float>> host;
  for (int t = 0; t < 6; ++t) {
    std::vector<float> v(static_cast<std::size_t>(n * n));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<float>((i * 7 + static_cast<std::size_t>(t) * 3) % 11) - 5.0f;
    host.push_back(v);
    ops.push_back(be().upload(host_tensor<float>({n, n}, v)));
  }
  // ab,bc,cd | xy,yz,zw: (ab bc), (cd ac), (xy yz), (zw xz), (ad xw).
  Tensor r;
  EXPECT_LE(two_chain_einsum(be(), "ab,bc,cd,xy,yz,zw->adxw", ops, r), 3u);
  auto at = [&](int t, std::int64_t i, std::int64_t j) {
    return static_cast<double>(host[static_cast<std::size_t>(t)][static_cast<std::size_t>(i + j * n)]);
  };
  auto chain = [&](int t, std::int64_t i, std::int64_t l) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k) s += at(t, i, j) * at(t + 1, j, k) * at(t + 2, k, l);
    return s;
  };
  const auto v = to_vector<float>(be().download(r));
  ASSERT_EQ(v.size(), static_cast<std::size_t>(n * n * n * n));
  for (std::int64_t a = 0; a < n; ++a)
    for (std::int64_t d = 0; d < n; ++d)
      for (std::int64_t x = 0; x < n; ++x)
        for (std::int64_t w = 0; w < n; ++w) {
          const double want = chain(0, a, d) * chain(3, x, w);
          ASSERT_NEAR(v[static_cast<std::size_t>(a + n * (d + n * (x + n * w)))], want, 1e-3 * (1 + std::abs(want)));
        }
}

// The reordering never raises the live intermediates above the planned order's peak: two
// chains whose first products are large (64 x 64 from 64 x 2 by 2 x 64) and whose second
// products shrink them (to 64) keep the planned order, one large intermediate at a time (the
// barrier count of the planned order, 4 with the reordering off; taking the second chain's
// large product early would save one barrier and hold both large intermediates at once).
TEST_F(RuntimeTest, EinsumKeepsThePlannedOrderWhenReorderingWouldHoldMoreMemory) {
  const std::int64_t n = 64;
  auto upload = [&](std::int64_t r, std::int64_t c, float scale) {
    std::vector<float> v(static_cast<std::size_t>(r * c));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(i % 7) - 1.0f;
    return be().upload(host_tensor<float>({r, c}, v));
  };
  std::vector<Tensor> ops = {upload(n, 2, 0.5f), upload(2, n, 0.25f), upload(n, 1, 1.0f),
                             upload(n, 2, 0.75f), upload(2, n, 0.5f), upload(n, 1, 0.5f)};
  // ab,bc,cq | xy,yz,zq: (ab bc) -> ac, (cq ac) -> aq, (xy yz) -> xz, (zq xz) -> xq, (aq xq) -> ax.
  Tensor r;
  EXPECT_EQ(two_chain_einsum(be(), "ab,bc,cq,xy,yz,zq->ax", ops, r), 4u);
  std::vector<Tensor> host_ops;
  for (const Tensor& t : ops) host_ops.push_back(be().download(t));
  EinsumOptions opt;
  opt.use_path = true;
  opt.path = {{0, 1}, {0, 4}, {0, 1}, {0, 2}, {0, 1}};
  const std::vector<TensorView> host_in(host_ops.begin(), host_ops.end());
  const Tensor ref = einsum(cpu_backend(), "ab,bc,cq,xy,yz,zq->ax", host_in, opt);
  const auto got = to_vector<float>(be().download(r)), want = to_vector<float>(ref);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-3 * (1 + std::abs(want[i]))) << i;
}

TEST_F(RuntimeTest, TwoThreadsShareTheDevice) {
  std::atomic<int> failures{0};
  auto work = [&](int seed) {
    try {
      for (int it = 0; it < 20; ++it) {
        const std::int64_t n = 1000 + 37 * it + seed;
        Tensor a = iota_f32(be(), n, float(seed)), b = iota_f32(be(), n, 1.0f);
        Tensor c;
        if (it % 2) {
          with_session(be(), [&] { c = add_on(be(), add_on(be(), a, b), b); });
        } else {
          c = add_on(be(), add_on(be(), a, b), b);
        }
        const auto v = to_vector<float>(be().download(c));
        for (std::int64_t i = 0; i < n; ++i)
          if (v[static_cast<std::size_t>(i)] != float(seed + 2) * float(i % 1000)) {
            failures++;
            break;
          }
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      failures++;
    }
  };
  std::thread t1(work, 1), t2(work, 2);
  t1.join();
  t2.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(RuntimeTest, KernelDetectedErrorsAreRethrownAtSyncNamingTheOp) {
  const Tensor a = be().upload(host_tensor<std::int32_t>({3}, {1, 2, 3}));
  const Tensor z = be().upload(host_tensor<std::int32_t>({3}, {1, 0, 1}));
  Tensor q = be().allocate(DType::I32, {3});
  const TensorView in[2] = {a, z};
  be().elementwise(OpId::div, in, q, CompareDir::EQ);
  try {
    be().synchronize();
    ADD_FAILURE() << "division by zero not reported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::numerical_failure);
    EXPECT_EQ(e.op(), "div");
    EXPECT_EQ(e.arg(), "rhs");
  }
  be().synchronize();  // reported once, then cleared

  const Tensor e = be().upload(host_tensor<std::int64_t>({2}, {2, -1}));
  const Tensor base = be().upload(host_tensor<std::int64_t>({2}, {3, 3}));
  Tensor p = be().allocate(DType::I64, {2});
  const TensorView pin[2] = {base, e};
  be().elementwise(OpId::pow, pin, p, CompareDir::EQ);
  try {
    be().download(p);
    ADD_FAILURE() << "negative exponent not reported";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::numerical_failure);
    EXPECT_EQ(err.op(), "pow");
  }
  // The device and existing tensors remain usable.
  const auto v = to_vector<std::int32_t>(be().download(add_on(be(), a, a)));
  EXPECT_EQ(v, (std::vector<std::int32_t>{2, 4, 6}));
}

// The backend's methods are public through Backend&: a host tensor (or none) given to them is
// an error naming the method and the argument, as the ops raise, and the device stays usable.
TEST_F(RuntimeTest, BackendMethodsRejectHostAndUndefinedTensors) {
  const Tensor host = host_tensor<float>({3}, {1, 2, 3});
  Tensor dev = be().upload(host);
  const Scalar one = Scalar::of(DType::F32, 1.0);
  const auto expect_error = [](auto&& f, ErrorKind kind, const char* op, const char* arg) {
    try {
      f();
      ADD_FAILURE() << op << " accepted the tensor";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_EQ(e.op(), op) << e.what();
      EXPECT_EQ(e.arg(), arg) << e.what();
    }
  };
  const auto state = ErrorKind::runtime_state, invalid = ErrorKind::invalid_argument;
  expect_error([&] { be().download(host); }, state, "download", "t");
  expect_error([&] { be().download(TensorView{}); }, invalid, "download", "t");
  expect_error([&] { be().upload(dev); }, state, "upload", "host");
  expect_error([&] { be().upload(TensorView{}); }, invalid, "upload", "host");
  expect_error([&] { be().copy(host, dev); }, state, "copy", "src");
  expect_error([&] { be().copy(dev, host); }, state, "copy", "dst");
  expect_error([&] { be().fill(host, one); }, state, "fill", "out");
  expect_error([&] { be().fill(TensorView{}, one); }, invalid, "fill", "out");
  expect_error([&] { be().cast(host, dev, "cast", false); }, state, "cast", "src");
  const TensorView in[2] = {dev, host};
  expect_error([&] { be().elementwise(OpId::add, in, dev, CompareDir::EQ); }, state, "add", "inputs");
  expect_error([&] { be().elementwise(OpId::add, std::span(in, 1), host, CompareDir::EQ); }, state, "add", "out");
  Tensor sum = be().allocate(DType::F32, {});
  expect_error([&] { be().reduce(OpId::reduce_sum, host, {0}, sum); }, state, "reduce_sum", "x");
  expect_error([&] { be().triangular(host.reshape({3, 1}), 0, true, dev.reshape({3, 1})); }, state, "tril", "x");
  // Shapes that differ would read or write past a tensor.
  expect_error([&] { be().copy(be().allocate(DType::F32, {4}), dev); }, ErrorKind::shape_mismatch, "copy", "dst");
  // Still usable.
  be().fill(dev, one);
  EXPECT_EQ(to_vector<float>(be().download(add_on(be(), dev, dev))), (std::vector<float>{2, 2, 2}));
}

// 160 MiB per operand: beyond lavapipe's 128 MiB maxStorageBufferRange (buffer device address).
TEST_F(RuntimeTest, LargeTensorsBeyondMaxStorageBufferRangeAdd) {
  const std::int64_t n = (160ll << 20) / 4;
  std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = static_cast<float>(i % 65536) * 0.5f;
    y[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 1031) - 500.0f;
  }
  Tensor a = be().upload(host_tensor<float>({n}, x));
  Tensor b = be().upload(host_tensor<float>({n}, y));
  const Tensor sum = be().download(add_on(be(), a, b));
  a = Tensor();
  b = Tensor();
  const float* s = reinterpret_cast<const float*>(sum.storage()->host_data());
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double ref = double(x[static_cast<std::size_t>(i)]) + double(y[static_cast<std::size_t>(i)]);
    if (static_cast<double>(s[i]) != static_cast<double>(static_cast<float>(ref))) ++bad;
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace tenferro::vktest
