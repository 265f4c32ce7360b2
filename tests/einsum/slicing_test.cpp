// Sliced einsum (tenferro/slicing.hpp): the planner's invariants on every instance and on
// generated networks, results against the unsliced contraction on every backend and on several
// devices at once, shares that add up, the memory peak within the limit, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/einsum/lower.hpp"
#include "instances.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "tenferro/slicing.hpp"

namespace tenferro {
namespace {

using test::load_instances;

std::vector<Backend*> test_backends() {
  std::vector<Backend*> out{&get_backend("cpu")};
  if (vulkan_available()) out.push_back(&get_backend("vulkan"));
  return out;
}

// Instance shapes with every extent clamped to `clamp` (0: as stored).
std::vector<Shape> clamped(std::vector<Shape> shapes, std::int64_t clamp) {
  if (clamp > 0)
    for (auto& sh : shapes)
      for (auto& e : sh) e = std::min(e, clamp);
  return shapes;
}

// An instance by name with its extents clamped (0: as stored).
struct Case {
  const char* name;
  std::int64_t clamp;
};
struct Loaded {
  Path path;  // the stored opt_size path
  std::vector<Shape> shapes;
  EinsumSpec spec;
};
Loaded load(const std::vector<test::Instance>& all, const Case& c) {
  const auto it = std::find_if(all.begin(), all.end(), [&](auto& i) { return i.name == c.name; });
  if (it == all.end()) throw std::runtime_error(std::string("no instance ") + c.name);
  Loaded l{it->opt_size, clamped(it->shapes, c.clamp), {}};
  l.spec = make_spec(it->format, l.shapes);
  return l;
}

// The plan that slices to a quarter of the unsliced working set.
SlicePlan quarter_plan(const Loaded& l, DType d) {
  return plan_slices(l.spec, l.path, d, plan_slices(l.spec, l.path, d, std::uint64_t{1} << 62).unsliced_bytes / 4);
}

template <class T> std::vector<Tensor> random_operands(Backend& be, const std::vector<Shape>& shapes,
                                                       std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Tensor> ops;
  for (const auto& sh : shapes) {
    std::vector<T> v(static_cast<std::size_t>(shape_numel(sh, "test")));
    for (T& x : v) {
      if constexpr (std::is_same_v<T, std::complex<double>>) x = {u(rng), u(rng)};
      else x = static_cast<T>(u(rng));
    }
    ops.push_back(upload(be, host_tensor<T>(sh, v)));
  }
  return ops;
}

SliceRun share(std::int64_t first, std::int64_t stride) {
  SliceRun r;
  r.first = first;
  r.stride = stride;
  return r;
}

std::vector<TensorView> views_of(const std::vector<Tensor>& ts) { return {ts.begin(), ts.end()}; }

// max |a - b| / max |b| over two results of any backend.
template <class T> double rel_diff(const TensorView& a, const TensorView& b) {
  const std::vector<T> x = to_vector<T>(a), y = to_vector<T>(b);
  EXPECT_EQ(x.size(), y.size());
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    scale = std::max(scale, static_cast<double>(std::abs(y[i])));
    diff = std::max(diff, static_cast<double>(std::abs(x[i] - y[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// The planner on every instance at a quarter and a sixteenth of its unsliced bound: the slice
// fits the limit, the slice spec is the spec with the sliced labels at their chunks, the cost is
// path_cost's, no chunk could double without exceeding the limit, and a limit at the unsliced
// bound slices nothing.
TEST(SlicePlanner, FitsTheLimitWithNoLabelToSpare) {
  for (const auto& inst : load_instances()) {
    const EinsumSpec spec = make_spec(inst.format, inst.shapes);
    const SlicePlan whole = plan_slices(spec, inst.opt_size, DType::F64, std::uint64_t{1} << 62);
    EXPECT_TRUE(whole.labels.empty()) << inst.name;
    EXPECT_EQ(whole.slices, 1) << inst.name;
    EXPECT_EQ(whole.overhead, 1.0) << inst.name;
    const SlicePlan exact = plan_slices(spec, inst.opt_size, DType::F64, whole.unsliced_bytes);
    EXPECT_TRUE(exact.labels.empty()) << inst.name;
    for (std::uint64_t div : {4, 16}) {
      const std::uint64_t limit = std::max<std::uint64_t>(whole.unsliced_bytes / div, 1);
      SlicePlan p;
      try {
        p = plan_slices(spec, inst.opt_size, DType::F64, limit);
      } catch (const Error& e) {
        // Only when even slicing every label cannot fit (operands alone too large to pack).
        EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << inst.name << ": " << e.what();
        continue;
      }
      EXPECT_LE(p.slice_bytes, limit) << inst.name;
      EXPECT_GE(p.slices, 2) << inst.name;
      EXPECT_GE(p.overhead, 1.0 - 1e-12) << inst.name;
      ASSERT_EQ(p.labels.size(), p.chunks.size()) << inst.name;
      std::int64_t slices = 1;
      EinsumSpec expect = spec;
      for (std::size_t j = 0; j < p.labels.size(); ++j) {
        const auto l = static_cast<std::size_t>(p.labels[j]);
        EXPECT_GE(p.chunks[j], 1) << inst.name;
        EXPECT_LT(p.chunks[j], spec.extents[l]) << inst.name;
        slices *= (spec.extents[l] + p.chunks[j] - 1) / p.chunks[j];
        expect.extents[l] = p.chunks[j];
      }
      EXPECT_EQ(p.slices, slices) << inst.name;
      EXPECT_EQ(p.slice_spec.extents, expect.extents) << inst.name;
      EXPECT_EQ(p.slice_cost.flops, path_cost(expect, inst.opt_size).flops) << inst.name;
      // No chunk could double (or the label go unsliced) and still fit.
      for (std::size_t j = 0; j < p.labels.size(); ++j) {
        const auto l = static_cast<std::size_t>(p.labels[j]);
        EinsumSpec back = p.slice_spec;
        back.extents[l] = std::min(spec.extents[l], 2 * p.chunks[j]);
        const SlicePlan grown = plan_slices(back, inst.opt_size, DType::F64, std::uint64_t{1} << 62);
        EXPECT_GT(grown.unsliced_bytes, limit) << inst.name << ": label " << l << " could take larger chunks";
      }
      std::printf("%-45s limit 1/%-3d slices %8lld  overhead %.3f  labels %zu\n", inst.name.c_str(),
                  static_cast<int>(div), static_cast<long long>(p.slices), p.overhead, p.labels.size());
    }
  }
}

// Generated networks not among the instances: square grids (PEPS-like norms) of bond D, planned
// by the library's own planner, sliced to a tenth of their bound.
TEST(SlicePlanner, GridNetworks) {
  for (int side : {4, 6}) {
    for (std::int64_t bond : {4, 8}) {
      std::string sub;
      std::vector<Shape> shapes;
      auto h = [&](int r, int c) { return static_cast<char32_t>(0x100 + r * side + c); };        // right bond
      auto v = [&](int r, int c) { return static_cast<char32_t>(0x100 + 4096 + r * side + c); };  // down bond
      auto put = [&](char32_t cp) {
        sub += static_cast<char>(0xC0 | (cp >> 6));
        sub += static_cast<char>(0x80 | (cp & 0x3F));
      };
      for (int r = 0; r < side; ++r) {
        for (int c = 0; c < side; ++c) {
          if (!sub.empty()) sub += ',';
          Shape sh;
          if (c > 0) put(h(r, c - 1)), sh.push_back(bond);
          if (c + 1 < side) put(h(r, c)), sh.push_back(bond);
          if (r > 0) put(v(r - 1, c)), sh.push_back(bond);
          if (r + 1 < side) put(v(r, c)), sh.push_back(bond);
          shapes.push_back(sh);
        }
      }
      sub += "->";
      const auto plan = make_plan(sub, shapes);
      const SlicePlan whole = plan_slices(plan->spec, plan->path, DType::C64, std::uint64_t{1} << 62);
      const std::uint64_t limit = whole.unsliced_bytes / 10;
      const SlicePlan p = plan_slices(plan->spec, plan->path, DType::C64, limit);
      EXPECT_LE(p.slice_bytes, limit) << side << "x" << side << " D=" << bond;
      EXPECT_GE(p.slices, 2);
      std::printf("grid %dx%d D=%lld: slices %lld overhead %.3f\n", side, side, static_cast<long long>(bond),
                  static_cast<long long>(p.slices), p.overhead);
    }
  }
}

// Sliced against unsliced on every backend, f64 and c64, at a quarter of the bound: the small
// instances as stored, the larger ones clamped.
TEST(SlicedEinsum, MatchesUnslicedOnEveryBackend) {
  const Case cases[] = {{"bin_matmul_256", 0},
                        {"lm_batch_likelihood_sentence_4_4d", 0},
                        {"str_matrix_chain_multiplication_100", 0},
                        {"str_nw_mera_open_26", 3},
                        {"nary_matmul_chain_64", 0}};
  const auto instances = load_instances();
  for (Backend* be : test_backends()) {
    for (const Case& c : cases) {
      const Loaded l = load(instances, c);
      const std::vector<Shape>& shapes = l.shapes;
      for (DType d : {DType::F64, DType::C64}) {
        const SlicePlan p = quarter_plan(l, d);
        ASSERT_GE(p.slices, 2) << c.name;
        const std::vector<Tensor> ops = d == DType::F64 ? random_operands<double>(*be, shapes, 7)
                                                        : random_operands<std::complex<double>>(*be, shapes, 7);
        const std::vector<TensorView> vs = views_of(ops);
        const Tensor want = execute(*be, l.spec, l.path, vs);
        Backend* devs[] = {be};
        const Tensor got = execute_sliced(devs, p, vs);
        EXPECT_EQ(got.domain(), be->domain());
        const double err = d == DType::F64 ? rel_diff<double>(got, want) : rel_diff<std::complex<double>>(got, want);
        EXPECT_LE(err, 1e-12) << be->name() << " " << c.name << " " << dtype_name(d) << ", " << p.slices << " slices";
      }
    }
  }
}

// Output labels sliced: with a limit below the result's size, the slices write disjoint parts of
// it; strided, offset and reversed operand views give the same result as compact copies.
TEST(SlicedEinsum, OutputLabelsAndOperandViews) {
  for (Backend* be : test_backends()) {
    const std::vector<Shape> shapes{{24, 10, 6}, {6, 30}, {30, 10}};
    const std::vector<Tensor> base = random_operands<double>(*be, {{26, 12, 6}, {6, 30}, {30, 10}}, 3);
    // Operand 0: an offset window with its first axis reversed (negative stride).
    Layout l0 = base[0].layout();
    l0.offset = l0.strides[0] * 25 + l0.strides[1] * 1;
    l0.strides[0] = -l0.strides[0];
    l0.shape = {24, 10, 6};
    const TensorView a(base[0].storage(), DType::F64, l0);
    const TensorView b = base[1].transpose({1, 0}).transpose({1, 0});
    const TensorView c = base[2];
    const std::vector<TensorView> vs{a, b, c};
    const EinsumSpec spec = make_spec("ijk,kl,lj->il", shapes);
    const Path path{{0, 1}, {0, 1}};
    const SlicePlan p = plan_slices(spec, path, DType::F64, 24 * 30 * 8);
    const bool output_sliced = std::any_of(p.labels.begin(), p.labels.end(), [&](int l) {
      return std::find(spec.output.begin(), spec.output.end(), l) != spec.output.end();
    });
    EXPECT_TRUE(output_sliced) << "the limit is below the result's size";
    const Tensor want = execute(*be, spec, path, std::vector<TensorView>{to_contiguous(*be, a), b, c});
    Backend* devs[] = {be};
    EXPECT_LE(rel_diff<double>(execute_sliced(devs, p, vs), want), 1e-13) << be->name();
  }
}

// Slices spread over the CPU and the Vulkan device together, and shares (first, stride) that
// add up to the whole (what MPI ranks take), give the unsliced result; an empty share is zeros.
TEST(SlicedEinsum, DevicesAndSharesAddUp) {
  const Loaded l = load(load_instances(), {"lm_batch_likelihood_sentence_4_4d", 0});
  const std::uint64_t limit = plan_slices(l.spec, l.path, DType::F64, std::uint64_t{1} << 62).unsliced_bytes / 16;
  const SlicePlan p = plan_slices(l.spec, l.path, DType::F64, limit);
  ASSERT_GE(p.slices, 3);
  Backend& cpu = get_backend("cpu");
  const std::vector<Tensor> ops = random_operands<double>(cpu, l.shapes, 11);
  const std::vector<TensorView> vs = views_of(ops);
  const Tensor want = execute(cpu, l.spec, l.path, vs);
  const std::vector<Backend*> all = test_backends();
  std::atomic<int> calls{0};
  SliceRun every;
  every.progress = [&](std::size_t done, std::size_t total) {
    EXPECT_LE(done, total);
    EXPECT_EQ(total, static_cast<std::size_t>(p.slices));
    ++calls;
  };
  EXPECT_LE(rel_diff<double>(execute_sliced(all, p, vs, every), want), 1e-12);
  EXPECT_EQ(calls.load(), p.slices);
  for (std::int64_t ranks : {2, 3}) {
    Tensor sum;
    for (std::int64_t r = 0; r < ranks; ++r) {
      const Tensor part = execute_sliced(std::span<Backend* const>(all.data() + r % all.size(), 1), p, vs,
                                         share(r, ranks));
      const Tensor host = download(*all[static_cast<std::size_t>(r) % all.size()], part);
      sum = sum.defined() ? add(cpu, sum, host) : host;
    }
    EXPECT_LE(rel_diff<double>(sum, want), 1e-12) << ranks << " shares";
  }
  const Tensor none = execute_sliced(std::span<Backend* const>(all.data(), 1), p, vs,
                                     share(p.slices, p.slices + 1));
  for (double x : to_vector<double>(none)) EXPECT_EQ(x, 0.0);
}

// The device memory a sliced run holds beside its operands and result stays within the limit
// on every backend that tracks it (the Vulkan device's tensors; the CPU's host tensors), for
// the instances whose bound is largest, clamped as in EinsumMemory.DevicePeakWithinOneAndAHalfOfThePlan.
TEST(SlicedEinsum, PeakWithinTheLimit) {
  const Case cases[] = {{"str_nw_mera_open_26", 3},
                        {"str_nw_mera_closed_120", 3},
                        {"gm_queen5_5_3.wcsp", 2},
                        {"lm_batch_likelihood_sentence_4_4d", 0},
                        {"lm_batch_likelihood_brackets_4_4d", 0},
                        {"str_matrix_chain_multiplication_100", 0},
                        {"nary_matmul_chain_64", 0},
                        {"bin_matmul_256", 0},
                        {"tensornetwork_permutation_light_415", 0}};
  const auto instances = load_instances();
  for (Backend* be : test_backends()) {
    for (const Case& c : cases) {
      const Loaded l = load(instances, c);
      const SlicePlan p = quarter_plan(l, DType::F64);
      const std::uint64_t limit = p.memory_limit;
      const std::vector<Tensor> ops = random_operands<double>(*be, l.shapes, 5);
      be->synchronize();
      const std::uint64_t before = be->memory_usage().in_use;
      be->reset_memory_peak();
      Backend* devs[] = {be};
      const Tensor r = execute_sliced(devs, p, views_of(ops));
      be->synchronize();
      const MemoryUsage m = be->memory_usage();
      ASSERT_TRUE(m.tracked) << be->name();
      const std::uint64_t result = static_cast<std::uint64_t>(r.numel()) * 8;
      const std::uint64_t held = m.peak - std::min(m.peak, before + result);
      std::printf("%-8s %-45s slices %6lld  held %10.3f MiB  limit %10.3f MiB  unsliced %10.3f MiB\n",
                  be->name().c_str(), c.name, static_cast<long long>(p.slices), held / 1048576.0, limit / 1048576.0,
                  p.unsliced_bytes / 1048576.0);
      EXPECT_LE(held, limit) << be->name() << " " << c.name;
    }
  }
}

// One program serves operands at any offset: the slices of a contraction replay one program.
TEST(SlicedEinsum, ProgramsDoNotDependOnOperandOffsets) {
  const EinsumSpec spec = make_spec("ij,jk->ik", std::vector<Shape>{{4, 5}, {5, 6}});
  const Path path{{0, 1}};
  std::vector<Layout> at0{Layout::compact({4, 5}), Layout::compact({5, 6})};
  std::vector<Layout> moved = at0;
  moved[0].offset = 17;
  moved[1].offset = 3;
  const auto p0 = einsum_detail::program_for(spec, path, at0, DType::F64, {});
  const auto p1 = einsum_detail::program_for(spec, path, moved, DType::F64, {});
  EXPECT_EQ(p0.get(), p1.get());
}

// Errors name einsum and the argument, before any work; the backends stay usable.
TEST(SlicedEinsum, Errors) {
  Backend& cpu = get_backend("cpu");
  const EinsumSpec spec = make_spec("ij,jk->ik", std::vector<Shape>{{40, 50}, {50, 60}});
  const Path path{{0, 1}};
  auto kind_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(e.op(), "einsum") << e.what();
      return e.kind();
    }
    ADD_FAILURE() << "no error";
    return ErrorKind::backend_failure;
  };
  EXPECT_EQ(kind_of([&] { plan_slices(spec, path, DType::F64, 0); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { plan_slices(spec, path, DType::F64, 8); }), ErrorKind::out_of_memory);
  const SlicePlan p = plan_slices(spec, path, DType::F64, 8000);
  const std::vector<Tensor> ops = random_operands<double>(cpu, {{40, 50}, {50, 60}}, 1);
  const std::vector<TensorView> vs = views_of(ops);
  Backend* none[] = {nullptr};
  Backend* twice[] = {&cpu, &cpu};
  Backend* one[] = {&cpu};
  EXPECT_EQ(kind_of([&] { execute_sliced(std::span<Backend* const>(), p, vs); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { execute_sliced(none, p, vs); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { execute_sliced(twice, p, vs); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { execute_sliced(one, p, vs, share(2, 2)); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { execute_sliced(one, p, std::vector<TensorView>{vs[0]}); }), ErrorKind::invalid_argument);
  const std::vector<Tensor> f32 = {cast(cpu, vs[0], DType::F32), cast(cpu, vs[1], DType::F32)};
  EXPECT_EQ(kind_of([&] { execute_sliced(one, p, views_of(f32)); }), ErrorKind::dtype_mismatch);
  const std::vector<TensorView> wrong{vs[1], vs[0]};
  EXPECT_EQ(kind_of([&] { execute_sliced(one, p, wrong); }), ErrorKind::shape_mismatch);
  // Still usable.
  EXPECT_LE(rel_diff<double>(execute_sliced(one, p, vs), execute(cpu, spec, path, vs)), 1e-13);
}

}  // namespace
}  // namespace tenferro
