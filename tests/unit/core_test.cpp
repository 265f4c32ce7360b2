// Core model tests: dtype table and lattice, layout algebra (exhaustive on small shapes, CuTe
// style), views and their bounds checks, host mappings, allocation identity, errors, sessions.
#include <functional>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>

#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro {
namespace {

template <class F> ErrorKind kind_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "expected an Error";
  return ErrorKind::internal;
}

TEST(DType, SizesNamesAndParsing) {
  const std::size_t sizes[] = {4, 8, 4, 8, 1, 8, 16};
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType d = kAllDTypes[i];
    EXPECT_EQ(dtype_size(d), sizes[i]);
    EXPECT_EQ(parse_dtype(dtype_name(d)), d);
  }
  EXPECT_EQ(parse_dtype("complex64"), DType::C32);
  EXPECT_EQ(parse_dtype("complex128"), DType::C64);
  EXPECT_FALSE(parse_dtype("f16").has_value());
}

TEST(DType, ConvertLatticeMatchesSemanticsTable) {
  // Written from SEMANTICS.md: Bool to anything; I32 to I64; any integer to F64 or C64;
  // F32 to F64, C32, C64; F64 to C64; C32 to C64; identity.
  using D = DType;
  const std::set<std::pair<D, D>> allowed = {
      {D::I32, D::I64}, {D::I32, D::F64}, {D::I32, D::C64}, {D::I64, D::F64}, {D::I64, D::C64},
      {D::F32, D::F64}, {D::F32, D::C32}, {D::F32, D::C64}, {D::F64, D::C64}, {D::C32, D::C64}};
  for (D a : kAllDTypes)
    for (D b : kAllDTypes) {
      const bool want = a == b || a == D::Bool || allowed.count({a, b});
      EXPECT_EQ(convert_allowed(a, b), want) << dtype_name(a) << "->" << dtype_name(b);
    }
}

// SmallVector against std::vector: random edits across the inline/heap boundary (N = 4), with
// copies and moves of both kinds taken along the way.
TEST(SmallVector, AgreesWithStdVectorAcrossTheInlineBoundary) {
  using SV = SmallVector<std::int64_t, 4>;
  std::mt19937 rng(7);
  SV s;
  std::vector<std::int64_t> v;
  auto same = [&](const SV& x) { return std::vector<std::int64_t>(x.begin(), x.end()) == v; };
  for (int step = 0; step < 4000; ++step) {
    const auto val = static_cast<std::int64_t>(rng() % 100);
    const std::size_t pos = v.empty() ? 0 : rng() % (v.size() + 1);
    switch (rng() % 9) {
      case 0: s.push_back(val), v.push_back(val); break;
      case 1: if (!v.empty()) s.pop_back(), v.pop_back(); break;
      case 2: s.insert(s.begin() + pos, val), v.insert(v.begin() + pos, val); break;
      case 3: s.insert(s.begin() + pos, 3, val), v.insert(v.begin() + pos, 3, val); break;
      case 4: if (pos < v.size()) s.erase(s.begin() + pos), v.erase(v.begin() + pos); break;
      case 5: s.erase(s.begin(), s.begin() + pos / 2), v.erase(v.begin(), v.begin() + pos / 2); break;
      case 6: s.resize(pos + 2), v.resize(pos + 2); break;
      case 7: { SV c = s; s = std::move(c); ASSERT_TRUE(c.empty()); break; }
      default: { const SV c(s); SV m(std::move(s)); ASSERT_TRUE(same(c)); s = m; } break;
    }
    ASSERT_TRUE(same(s)) << "step " << step;
    if (v.size() > 12) s.clear(), v.clear();
  }
  EXPECT_EQ(SV(6, 2), (SV{2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(SV(3), (SV{0, 0, 0}));
  EXPECT_EQ(SV(std::vector<std::int64_t>{1, 2}), (SV{1, 2}));
  EXPECT_LT((SV{1, 2}), (SV{1, 2, 0}));
  EXPECT_LT((SV{1, 2, 3, 4, 5}), (SV{1, 3}));
  EXPECT_THROW(SV{1}.at(1), std::out_of_range);
  std::ostringstream os;
  os << Shape{2, 3} << Shape{};
  EXPECT_EQ(os.str(), "[2, 3][]");
}

TEST(Layout, CompactStridesAreColumnMajor) {
  EXPECT_EQ(compact_strides({3, 4, 5}), (Strides{1, 3, 12}));
  EXPECT_EQ(compact_strides({}), Strides{});
  EXPECT_TRUE(Layout::compact({3, 4}).is_compact());
  EXPECT_FALSE((Layout{{3, 4}, {4, 1}, 0}).is_compact());
}

TEST(Layout, NumelOverflowAndNegativeExtentAreInvalid) {
  EXPECT_EQ(kind_of([] { shape_numel({1ll << 40, 1ll << 40}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([] { shape_numel({3, -1}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(shape_numel({}), 1);
  EXPECT_EQ(shape_numel({4, 0, 1ll << 62}), 0);
}

// A zero extent beside extents whose product passes int64: empty, and nothing overflows.
TEST(Layout, EmptyShapesWithHugeExtentsHaveValidStridesAndNoElements) {
  const std::int64_t big = std::int64_t{1} << 62;
  for (const Shape& shape : {Shape{0, big, big}, Shape{0, big, big, 3}, Shape{big, big, 0}, Shape{big, 0, big, big}}) {
    const Strides s = compact_strides(shape);
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_GE(s[i], 1) << shape << " axis " << i;
      if (i > 0) {
        EXPECT_GE(s[i], s[i - 1]) << shape << " axis " << i;
      }
    }
    EXPECT_EQ(Layout::compact(shape).numel(), 0) << shape;
    EXPECT_TRUE(Layout::compact(shape).is_compact()) << shape;
    const Tensor t = host_empty(DType::F64, shape);
    EXPECT_EQ(t.numel(), 0);
    EXPECT_EQ(t.strides(), s);
    EXPECT_EQ(host_empty(DType::F64, {0}).reshape(shape).shape(), shape);
    // Views of it: reversed along every axis, and every third index of every axis.
    Axes all(shape.size());
    Shape starts(shape.size(), 0), steps(shape.size(), 3), thirds(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
      all[i] = static_cast<std::int64_t>(i);
      thirds[i] = shape[i] == 0 ? 0 : (shape[i] - 1) / 3 + 1;
    }
    EXPECT_EQ(t.reverse(all).shape(), shape);
    EXPECT_EQ(t.reverse(all).numel(), 0);
    EXPECT_EQ(t.slice(starts, shape, steps).shape(), thirds);
    EXPECT_EQ(t.slice(starts, shape, steps).numel(), 0);
  }
}

// @post of coalesce: same offset function, rank never grows. Exhaustive over small layouts.
TEST(Layout, CoalescePreservesOffsetFunctionExhaustive) {
  const std::int64_t strides_pool[] = {-6, -2, -1, 0, 1, 2, 3, 6, 12};
  int checked = 0;
  for (std::int64_t e0 = 0; e0 <= 3; ++e0)
    for (std::int64_t e1 = 1; e1 <= 3; ++e1)
      for (std::int64_t e2 = 1; e2 <= 2; ++e2)
        for (std::int64_t s0 : strides_pool)
          for (std::int64_t s1 : strides_pool)
            for (std::int64_t s2 : {1ll, 4ll, -3ll}) {
              Layout l{{e0, e1, e2}, {s0, s1, s2}, 40};
              Layout c = coalesce(l);
              ASSERT_LE(c.rank(), l.rank());
              ASSERT_EQ(c.numel(), l.numel());
              for (std::int64_t i = 0; i < l.numel(); ++i) ASSERT_EQ(c.offset_of(i), l.offset_of(i));
              ++checked;
            }
  EXPECT_GT(checked, 1000);
}

TEST(Layout, JointCoalesceMergesOnlyWhereAllAgree) {
  Layout a = Layout::compact({4, 5, 6});
  Layout b{{4, 5, 6}, {1, 4, 40}, 0};  // axes 0,1 merge in both; axis 2 only in a
  auto out = coalesce_jointly({a, b});
  EXPECT_EQ(out[0].shape, (Shape{20, 6}));
  EXPECT_EQ(out[1].strides, (Strides{1, 40}));
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    EXPECT_EQ(out[0].offset_of(i), a.offset_of(i));
    EXPECT_EQ(out[1].offset_of(i), b.offset_of(i));
  }
}

TEST(Layout, MinMaxOffsetsWithNegativeStrides) {
  Layout l{{3, 4}, {-1, 5}, 10};
  EXPECT_EQ(l.min_offset(), 8);
  EXPECT_EQ(l.max_offset(), 25);
}

Tensor iota_f64(const Shape& shape) {
  std::vector<double> v(static_cast<std::size_t>(shape_numel(shape)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return host_tensor<double>(shape, v);
}

TEST(TensorView, TransposeIsMetadataOnly) {
  Tensor t = iota_f64({2, 3});
  TensorView v = t.transpose({1, 0});
  EXPECT_EQ(v.shape(), (Shape{3, 2}));
  EXPECT_EQ(v.storage(), t.storage());
  // v[i, j] = t[j, i] = j + 2 i.
  EXPECT_EQ(to_vector<double>(v), (std::vector<double>{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(kind_of([&] { t.transpose({0}); }), ErrorKind::rank_mismatch);
  EXPECT_EQ(kind_of([&] { t.transpose({0, 2}); }), ErrorKind::axis_out_of_bounds);
  EXPECT_EQ(kind_of([&] { t.transpose({1, 1}); }), ErrorKind::invalid_argument);
}

TEST(TensorView, SliceWithPositiveAndNegativeSteps) {
  Tensor t = iota_f64({7});
  EXPECT_EQ(to_vector<double>(t.slice({1}, {6}, {2})), (std::vector<double>{1, 3, 5}));
  EXPECT_EQ(to_vector<double>(t.slice({6}, {-1}, {-3})), (std::vector<double>{6, 3, 0}));
  EXPECT_EQ(to_vector<double>(t.slice({4}, {4}, {1})), std::vector<double>{});
  EXPECT_EQ(kind_of([&] { t.slice({0}, {8}, {1}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { t.slice({0}, {3}, {0}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { t.slice({0, 0}, {1, 1}, {1, 1}); }), ErrorKind::rank_mismatch);
}

TEST(TensorView, ReverseBroadcastReshapeDiagonal) {
  Tensor t = iota_f64({2, 3});
  EXPECT_EQ(to_vector<double>(t.reverse({1})), (std::vector<double>{4, 5, 2, 3, 0, 1}));
  TensorView b = iota_f64({3}).broadcast_in_dim({2, 3}, {1});
  EXPECT_EQ(b.strides()[0], 0);
  EXPECT_EQ(to_vector<double>(b), (std::vector<double>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(kind_of([] { iota_f64({3}).broadcast_in_dim({2, 4}, {1}); }), ErrorKind::shape_mismatch);
  // Column-major reshape of compact data keeps colex order.
  EXPECT_EQ(to_vector<double>(t.reshape({3, 2})), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(kind_of([&] { t.reshape({4}); }), ErrorKind::shape_mismatch);
  EXPECT_EQ(kind_of([&] { t.transpose({1, 0}).reshape({6}); }), ErrorKind::invalid_argument);
  Tensor sq = iota_f64({3, 3});
  EXPECT_EQ(to_vector<double>(sq.diagonal(0, 1)), (std::vector<double>{0, 4, 8}));
  EXPECT_EQ(kind_of([&] { sq.diagonal(1, 1); }), ErrorKind::invalid_argument);
}

TEST(TensorView, ViewsOutsideStorageAreRejected) {
  Tensor t = iota_f64({4});
  EXPECT_EQ(kind_of([&] { TensorView(t.storage(), DType::F64, Layout{{3}, {2}, 0}); }),
            ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { TensorView(t.storage(), DType::F64, Layout{{2}, {-1}, 0}); }),
            ErrorKind::invalid_argument);
  EXPECT_NO_THROW(TensorView(t.storage(), DType::F64, Layout{{2}, {-3}, 3}));
  // An empty view reaches nothing, wherever its offset points.
  EXPECT_NO_THROW(TensorView(t.storage(), DType::F64, Layout{{0}, {1}, 100}));
  // Reaches that wrap int64 (4 * 2^62 wraps to 0) are out of range too.
  Tensor big = iota_f64({60});
  for (std::int64_t s : {std::int64_t{1} << 62, -(std::int64_t{1} << 62)})
    EXPECT_EQ(kind_of([&] { TensorView(big.storage(), DType::F64, Layout{{3, 4, 5}, {1, 3, s}, 0}); }),
              ErrorKind::invalid_argument)
        << s;
  EXPECT_EQ(kind_of([&] { TensorView(big.storage(), DType::F64, Layout{{2}, {1}, INT64_MAX}); }),
            ErrorKind::invalid_argument);
}

TEST(HostMapping, CheckedSpansRejectOutOfRangeOverflowAndMisalignedTypes) {
  Tensor t = iota_f64({4});
  HostMapping m = map_read(t);
  auto s = m.read<double>();
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(s[3], 3.0);
  EXPECT_EQ(kind_of([&] { (void)s[4]; }), ErrorKind::host_access);
  EXPECT_EQ(kind_of([&] { s.subspan(3, 2); }), ErrorKind::host_access);
  EXPECT_EQ(kind_of([&] { s.subspan(2, SIZE_MAX); }), ErrorKind::host_access);
  EXPECT_EQ(kind_of([&] { m.bytes(SIZE_MAX, 2); }), ErrorKind::host_access);
  EXPECT_EQ(kind_of([&] { m.read<float>(); }), ErrorKind::host_access);  // element size mismatch
  EXPECT_EQ(kind_of([&] { m.write<double>(); }), ErrorKind::host_access);  // read-only
  HostMapping w = map_write(t);
  w.write<double>()[0] = 42.0;
  EXPECT_EQ(to_vector<double>(t)[0], 42.0);
}

TEST(HostMapping, UndefinedViewsAreInvalidArgumentNamingTheFunction) {
  const TensorView undefined;
  const auto expect_named = [](auto&& f, const char* op) {
    try {
      f();
      ADD_FAILURE() << op << " accepted an undefined view";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
      EXPECT_EQ(e.op(), op);
      EXPECT_EQ(e.arg(), "t");
    }
  };
  expect_named([&] { map_read(undefined); }, "map_read");
  expect_named([&] { map_write(undefined); }, "map_write");
  expect_named([&] { to_vector<float>(undefined); }, "to_vector");
  expect_named([&] { to_vector<bool>(undefined); }, "to_vector");
}

TEST(TensorViewTest, UndefinedViewHasNoPlacementDomainOrDevice) {
  const TensorView undefined;
  for (auto [f, op] : {std::pair<std::function<void()>, const char*>{[&] { (void)undefined.placement(); }, "placement"},
                       {[&] { (void)undefined.domain(); }, "domain"},
                       {[&] { (void)undefined.device(); }, "device"}}) {
    try {
      f();
      ADD_FAILURE() << op << " of an undefined view returned";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
      EXPECT_EQ(e.op(), op);
    }
  }
}

// A mapping owns the storage it exposes: spans of a temporary mapping would dangle, so they
// are only taken from a mapping that outlives the expression (an lvalue).
template <class M> concept ReadsSpan = requires(M&& m) { std::forward<M>(m).template read<float>(); };
template <class M> concept WritesSpan = requires(M&& m) { std::forward<M>(m).template write<float>(); };
template <class M> concept GivesBytes = requires(M&& m) { std::forward<M>(m).bytes(0, 1); };
template <class M> concept GivesRaw = requires(M&& m) { std::forward<M>(m).raw(); };
static_assert(ReadsSpan<HostMapping&> && ReadsSpan<const HostMapping&>);
static_assert(WritesSpan<HostMapping&> && GivesBytes<HostMapping&> && GivesRaw<HostMapping&>);
static_assert(!ReadsSpan<HostMapping> && !ReadsSpan<const HostMapping>, "map_read(t).read<T>() would dangle");
static_assert(!WritesSpan<HostMapping> && !GivesBytes<HostMapping> && !GivesRaw<HostMapping>);

TEST(Identity, AllocationIdsAndDomainsAreUnique) {
  Tensor a = iota_f64({2}), b = iota_f64({2});
  EXPECT_NE(a.storage()->allocation_id(), b.storage()->allocation_id());
  EXPECT_EQ(a.domain(), cpu_backend().domain());
  EXPECT_NE(new_domain_id(), new_domain_id());
  EXPECT_EQ(a.placement().device, DeviceKind::Cpu);
  EXPECT_TRUE(a.placement().host_visible());
}

TEST(Errors, CarryKindOpArgumentAndBracketedMessage) {
  try {
    TENFERRO_FAIL(shape_mismatch, "pad", "low", "got ", 3, ", expected ", 2);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::shape_mismatch);
    EXPECT_EQ(e.op(), "pad");
    EXPECT_EQ(e.arg(), "low");
    EXPECT_EQ(std::string(e.what()).rfind("[pad] got 3, expected 2", 0), 0u) << e.what();
  }
  ErrorKind k;
  for (int i = 0; i <= static_cast<int>(ErrorKind::internal); ++i) {
    ASSERT_TRUE(parse_error_kind(error_kind_name(static_cast<ErrorKind>(i)), k));
    EXPECT_EQ(static_cast<int>(k), i);
  }
}

TEST(OpTable, EveryOpHasAUniqueNameThatParses) {
  std::set<std::string_view> names;
  for (const OpInfo& o : all_ops()) {
    EXPECT_TRUE(names.insert(o.name).second) << o.name;
    EXPECT_EQ(parse_op(o.name), o.id);
    EXPECT_EQ(op_name(o.id), o.name);
  }
  EXPECT_TRUE(contract_allows(OpId::erf, DType::F64));
  EXPECT_FALSE(contract_allows(OpId::erf, DType::C64));
  EXPECT_FALSE(contract_allows(OpId::add, DType::Bool));
  EXPECT_FALSE(contract_allows(OpId::maximum, DType::C32));
}

TEST(Sessions, ReentryOnTheSameThreadIsRuntimeStateAndBodyDoesNotRun) {
  Backend& be = cpu_backend();
  bool inner_ran = false;
  ErrorKind k = ErrorKind::internal;
  with_session(be, [&] {
    try {
      with_session(be, [&] { inner_ran = true; });
    } catch (const Error& e) {
      k = e.kind();
    }
  });
  EXPECT_EQ(k, ErrorKind::runtime_state);
  EXPECT_FALSE(inner_ran);
  // After the outer session closed, a new one opens fine; an exception closes it too.
  EXPECT_THROW(with_session(be, [] { throw std::runtime_error("x"); }), std::runtime_error);
  bool ran = false;
  with_session(be, [&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST(Sessions, OtherThreadsMayOpenTheirOwn) {
  Backend& be = cpu_backend();
  std::atomic<int> count{0};
  with_session(be, [&] {
    std::thread th([&] { with_session(be, [&] { count++; }); });
    th.join();
    count++;
  });
  EXPECT_EQ(count.load(), 2);
}

TEST(Residency, ForeignDomainTensorsAreRejected) {
  // A storage of a made-up domain stands for another runtime's tensor.
  struct Foreign final : Storage {
    Foreign() : Storage(64, new_domain_id(), {MemoryKind::Device, DeviceKind::Vulkan, 9}) {}
  };
  TensorView foreign(std::make_shared<Foreign>(), DType::F64, Layout::compact({4}));
  Tensor host = iota_f64({4});
  EXPECT_EQ(kind_of([&] { download(cpu_backend(), foreign); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { upload(cpu_backend(), foreign); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { map_read(foreign); }), ErrorKind::host_access);
  TensorView foreign_bool(std::make_shared<Foreign>(), DType::Bool, Layout::compact({4}));
  EXPECT_EQ(kind_of([&] { to_vector<bool>(foreign_bool); }), ErrorKind::host_access);
}

// The CPU backend's primitives are public through Backend&: they check their tensors as the
// ops do instead of reading another runtime's memory (or none) as host memory.
TEST(Residency, CpuBackendPrimitivesRejectForeignAndUndefinedTensors) {
  struct Foreign final : Storage {
    Foreign() : Storage(64, new_domain_id(), {MemoryKind::Device, DeviceKind::Vulkan, 9}) {}
  };
  const TensorView foreign(std::make_shared<Foreign>(), DType::F64, Layout::compact({4}));
  Backend& be = cpu_backend();
  Tensor host = iota_f64({4});
  const Scalar one = Scalar::of(DType::F64, 1.0);
  EXPECT_EQ(kind_of([&] { be.download(foreign); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { be.upload(foreign); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { be.upload(TensorView{}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of([&] { be.copy(foreign, host); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { be.copy(host, foreign); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { be.fill(foreign, one); }), ErrorKind::runtime_state);
  EXPECT_EQ(kind_of([&] { be.fill(TensorView{}, one); }), ErrorKind::invalid_argument);
  const TensorView in[2] = {host, foreign};
  EXPECT_EQ(kind_of([&] { be.elementwise(OpId::add, in, host, CompareDir::EQ); }), ErrorKind::runtime_state);
  // Mismatched shapes would read or write past a tensor.
  EXPECT_EQ(kind_of([&] { be.copy(iota_f64({5}), host); }), ErrorKind::shape_mismatch);
  const TensorView short_in[2] = {host, iota_f64({2})};
  EXPECT_EQ(kind_of([&] { be.elementwise(OpId::add, short_in, host, CompareDir::EQ); }), ErrorKind::shape_mismatch);
  be.fill(host, one);
  EXPECT_EQ(to_vector<double>(host), (std::vector<double>{1, 1, 1, 1}));
}

TEST(Runtime, DeviceListAlwaysHasTheCpuAndSelectionByName) {
  auto devs = list_devices();
  ASSERT_FALSE(devs.empty());
  EXPECT_EQ(devs[0].backend, "cpu");
  EXPECT_EQ(&get_backend("cpu"), &cpu_backend());
  EXPECT_EQ(kind_of([] { get_backend("tpu"); }), ErrorKind::unsupported);
}

TEST(Runtime, DeviceInfoFindsTheBackendsRow) {
  const auto cpu = device_info(cpu_backend());
  ASSERT_TRUE(cpu.has_value());
  EXPECT_EQ(cpu->backend, "cpu");
  if (vulkan_available()) {
    Backend& vk = get_backend("vulkan");
    const auto info = device_info(vk);
    ASSERT_TRUE(info.has_value());
    EXPECT_EQ(info->backend, "vulkan");
    EXPECT_EQ(info->name + " (" + info->type + ", " + info->driver + ")", vk.device_name());
  }
}

}  // namespace
}  // namespace tenferro
