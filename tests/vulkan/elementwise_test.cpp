// Elementwise families on the GPU against a naive host loop in double / complex<double> /
// wrapping int64: every op and dtype the backend supports, over compact, transposed,
// broadcast (stride 0), offset-slice, negative-stride, empty and rank-0 layouts.
#include <cmath>
#include <limits>
#include <string>

#include "vulkan/options.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vktest {
namespace {

using c128 = std::complex<double>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::int64_t wrap(DType d, std::uint64_t x) {
  return d == DType::I32 ? std::int64_t(std::int32_t(std::uint32_t(x))) : std::int64_t(x);
}

// ---- the naive reference ---------------------------------------------------------------------
Val ref_unary(OpId op, DType d, const Val& a) {
  Val r;
  if (is_integer(d)) {
    const std::int64_t x = a.i;
    switch (op) {
      case OpId::neg: r.i = wrap(d, 0 - std::uint64_t(x)); break;
      case OpId::conj: r.i = x; break;
      case OpId::abs: r.i = x < 0 ? wrap(d, 0 - std::uint64_t(x)) : x; break;
      default: r.i = x > 0 ? 1 : (x < 0 ? -1 : 0); break;  // sign
    }
    return r;
  }
  const c128 z = a.c;
  switch (op) {
    case OpId::neg: r.c = -z; break;
    case OpId::conj: r.c = std::conj(z); break;
    case OpId::abs: r.c = std::abs(z); break;
    default:
      if (is_complex(d)) r.c = z == c128(0) ? c128(0) : z / std::abs(z);
      else r.c = z.real() > 0 ? 1.0 : (z.real() < 0 ? -1.0 : z.real());
  }
  return r;
}

Val ref_binary(OpId op, DType d, const Val& a, const Val& b) {
  Val r;
  if (is_integer(d)) {
    const std::int64_t x = a.i, y = b.i;
    const auto ux = std::uint64_t(x), uy = std::uint64_t(y);
    switch (op) {
      case OpId::add: r.i = wrap(d, ux + uy); break;
      case OpId::sub: r.i = wrap(d, ux - uy); break;
      case OpId::mul: r.i = wrap(d, ux * uy); break;
      case OpId::div: r.i = y == -1 ? wrap(d, 0 - ux) : x / y; break;
      case OpId::rem: r.i = y == -1 ? 0 : x % y; break;
      case OpId::pow: {
        std::uint64_t acc = 1, base = ux;
        for (std::int64_t e = y; e > 0; e >>= 1) {
          if (e & 1) acc *= base;
          base *= base;
        }
        r.i = wrap(d, acc);
        break;
      }
      case OpId::maximum: r.i = std::max(x, y); break;
      default: r.i = std::min(x, y); break;
    }
    return r;
  }
  const c128 x = a.c, y = b.c;
  const double xr = x.real(), yr = y.real();
  switch (op) {
    case OpId::add: r.c = x + y; break;
    case OpId::sub: r.c = x - y; break;
    case OpId::mul: r.c = x * y; break;
    case OpId::div: r.c = is_complex(d) ? x / y : c128(xr / yr); break;
    case OpId::rem: r.c = std::fmod(xr, yr); break;
    case OpId::pow: r.c = is_complex(d) ? std::pow(x, y) : c128(std::pow(xr, yr)); break;
    case OpId::maximum: r.c = std::isnan(xr) ? xr : (std::isnan(yr) ? yr : std::max(xr, yr)); break;
    default: r.c = std::isnan(xr) ? xr : (std::isnan(yr) ? yr : std::min(xr, yr)); break;
  }
  return r;
}

bool ref_compare(CompareDir dir, DType d, const Val& a, const Val& b) {
  if (is_complex(d)) return (a.c == b.c) == (dir == CompareDir::EQ);
  const bool ints = is_integer(d) || d == DType::Bool;
  const double x = a.c.real(), y = b.c.real();
  switch (dir) {
    case CompareDir::EQ: return ints ? a.i == b.i : x == y;
    case CompareDir::NE: return ints ? a.i != b.i : !(x == y);
    case CompareDir::LT: return ints ? a.i < b.i : x < y;
    case CompareDir::LE: return ints ? a.i <= b.i : x <= y;
    case CompareDir::GT: return ints ? a.i > b.i : x > y;
    case CompareDir::GE: return ints ? a.i >= b.i : x >= y;
  }
  return false;
}

// ---- inputs ------------------------------------------------------------------------------------
// Values by dtype; `role` 1 marks a divisor/exponent (no zero divisors, small exponents).
Val make_value(DType d, std::int64_t k, int role, OpId op) {
  Val v;
  if (d == DType::Bool) {
    v.i = (k * 7 + role) % 3 == 0;
  } else if (is_integer(d)) {
    const std::int64_t mn = d == DType::I32 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
    std::int64_t x = (k * 37 + 11 * role) % 19 - 9;
    if (role == 0 && k % 11 == 3) x = mn;  // MIN / -1, MIN % -1, abs(MIN), -MIN
    if (role == 1 && (op == OpId::div || op == OpId::rem) && x == 0) x = -1;
    if (role == 1 && op == OpId::pow) x = (k * 5) % 7;
    v.i = x;
  } else {
    double re = double((k * 37 + 13 * role) % 29 - 14) * 0.375;
    double im = double((k * 17 + 5 * role) % 23 - 11) * 0.25;
    if (k % 13 == 5 && op != OpId::pow) re = role ? 0.0 : kNaN;  // NaN propagation, x / 0
    if (k % 17 == 7 && role == 0 && op != OpId::pow) re = -kInf;
    if (op == OpId::pow && role == 1) re = double(k % 9 - 4) * 0.5;
    if (op == OpId::pow && role == 0 && !is_complex(d)) re = std::abs(re) + (k % 3 == 0 ? 0.0 : 0.5) - (k % 4 == 1 ? 3.0 : 0.0);
    v.c = is_complex(d) ? c128(re, im) : c128(re, 0.0);
  }
  v.c = as_stored(d, v.c);  // float rounding for F32 / C32; the others hold it as is
  return v;
}

enum class LayoutCase { compact, transposed, broadcast, offset_slice, negative_stride, empty, rank0 };
const LayoutCase kLayouts[] = {LayoutCase::compact, LayoutCase::transposed, LayoutCase::broadcast,
                               LayoutCase::offset_slice, LayoutCase::negative_stride, LayoutCase::empty,
                               LayoutCase::rank0};
const char* layout_name(LayoutCase c) {
  switch (c) {
    case LayoutCase::compact: return "compact";
    case LayoutCase::transposed: return "transposed";
    case LayoutCase::broadcast: return "broadcast";
    case LayoutCase::offset_slice: return "offset_slice";
    case LayoutCase::negative_stride: return "negative_stride";
    case LayoutCase::empty: return "empty";
    case LayoutCase::rank0: return "rank0";
  }
  return "?";
}

Shape logical_shape(LayoutCase c) {
  switch (c) {
    case LayoutCase::empty: return {0, 3};
    case LayoutCase::rank0: return {};
    default: return {5, 7};
  }
}

// A host base tensor and the view of it with `c`'s layout (shape logical_shape(c)).
struct Operand {
  Tensor host_base;
  TensorView host_view;
};

Operand make_operand(DType d, LayoutCase c, int role, OpId op) {
  Shape base_shape;
  switch (c) {
    case LayoutCase::transposed: base_shape = {7, 5}; break;
    case LayoutCase::broadcast: base_shape = {5, 1}; break;
    case LayoutCase::offset_slice: base_shape = {8, 10}; break;
    default: base_shape = logical_shape(c);
  }
  const std::int64_t n = shape_numel(base_shape);
  std::vector<Val> vals;
  for (std::int64_t k = 0; k < n; ++k) vals.push_back(make_value(d, k, role, op));
  Operand o{host_of(d, base_shape, vals), {}};
  switch (c) {
    case LayoutCase::transposed: o.host_view = o.host_base.transpose({1, 0}); break;
    case LayoutCase::broadcast: o.host_view = o.host_base.broadcast_in_dim({5, 7}, {0, 1}); break;
    case LayoutCase::offset_slice: o.host_view = o.host_base.slice({2, 1}, {7, 8}, {1, 1}); break;
    case LayoutCase::negative_stride: o.host_view = o.host_base.reverse({0, 1}); break;
    default: o.host_view = o.host_base;
  }
  return o;
}

// The same view over the uploaded base tensor.
TensorView device_view(const TensorView& dev_base, const TensorView& host_view) {
  return TensorView(dev_base.storage(), host_view.dtype(), host_view.layout());
}

// ---- comparison ----------------------------------------------------------------------------------
bool close(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
}

::testing::AssertionResult same(DType d, const Val& got, const Val& want, double tol) {
  if (is_integer(d) || d == DType::Bool) {
    if (got.i == want.i) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got.i << ", want " << want.i;
  }
  if (is_complex(d)) {
    // Complex NaN/inf results may differ in which part is NaN; accept any non-finite pair.
    const bool want_bad = !std::isfinite(want.c.real()) || !std::isfinite(want.c.imag());
    const bool got_bad = !std::isfinite(got.c.real()) || !std::isfinite(got.c.imag());
    if (want_bad && got_bad) return ::testing::AssertionSuccess();
    const double scale = std::max(1.0, std::abs(want.c));
    if (!want_bad && std::abs(got.c - want.c) <= tol * scale) return ::testing::AssertionSuccess();
  } else if (close(got.c.real(), want.c.real(), tol)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << got.c << ", want " << want.c;
}

double tolerance(OpId op, DType d) {
  const bool single = d == DType::F32 || d == DType::C32;
  double tol = single ? 4e-7 : 4e-16;
  if (op == OpId::pow) tol = single ? 4e-6 : 1e-14;
  if (is_complex(d) && (op == OpId::div || op == OpId::sign || op == OpId::abs)) tol *= 4;
  return tol;
}

// ---- the test ----------------------------------------------------------------------------------
struct Case {
  OpId op;
  CompareDir dir = CompareDir::EQ;
};

std::vector<Case> all_cases() {
  std::vector<Case> cs;
  for (OpId op : {OpId::neg, OpId::conj, OpId::abs, OpId::sign, OpId::add, OpId::sub, OpId::mul, OpId::div,
                  OpId::rem, OpId::pow, OpId::maximum, OpId::minimum, OpId::select, OpId::clamp})
    cs.push_back({op});
  for (CompareDir dir : {CompareDir::EQ, CompareDir::NE, CompareDir::LT, CompareDir::LE, CompareDir::GT, CompareDir::GE})
    cs.push_back({OpId::compare, dir});
  return cs;
}

class ElementwiseTest : public VulkanTest {};

void run_case(Backend& be, const Case& cs, DType d, LayoutCase lc) {
  const OpFamily fam = op_info(cs.op).family;
  const int arity = fam == OpFamily::unary ? 1 : (fam == OpFamily::select || fam == OpFamily::clamp) ? 3 : 2;
  std::vector<Operand> ops;
  std::vector<DType> in_dtypes(static_cast<std::size_t>(arity), d);
  if (fam == OpFamily::select) in_dtypes[0] = DType::Bool;
  for (int j = 0; j < arity; ++j) {
    // Operand j plays role j (clamp: x, lower, upper; lower > upper also occurs and is defined).
    const int role = j;
    LayoutCase oc = lc;
    if (lc == LayoutCase::broadcast && j == 1) oc = LayoutCase::compact;  // mix broadcast and compact
    ops.push_back(make_operand(in_dtypes[static_cast<std::size_t>(j)], oc, role, cs.op));
  }
  std::vector<Tensor> dev_bases;
  std::vector<TensorView> dev_views;
  for (const Operand& o : ops) {
    dev_bases.push_back(be.upload(o.host_base));
    dev_views.push_back(device_view(dev_bases.back(), o.host_view));
  }
  const Shape shape = ops[0].host_view.shape();
  DType out_dtype = d;
  if (fam == OpFamily::compare) out_dtype = DType::Bool;
  if (cs.op == OpId::abs) out_dtype = real_dtype(d);
  Tensor out = be.allocate(out_dtype, shape);
  be.elementwise(cs.op, dev_views, out, cs.dir);
  const Tensor got = be.download(out);
  ASSERT_EQ(got.shape(), shape);

  const double tol = tolerance(cs.op, d);
  for (std::int64_t i = 0; i < got.numel(); ++i) {
    std::vector<Val> x;
    for (const Operand& o : ops) x.push_back(host_at(o.host_view, i));
    Val want;
    switch (fam) {
      case OpFamily::unary: want = ref_unary(cs.op, d, x[0]); break;
      case OpFamily::binary: want = ref_binary(cs.op, d, x[0], x[1]); break;
      case OpFamily::compare: want.i = ref_compare(cs.dir, d, x[0], x[1]); break;
      case OpFamily::select: want = x[0].i ? x[1] : x[2]; break;
      case OpFamily::clamp: want = ref_binary(OpId::minimum, d, ref_binary(OpId::maximum, d, x[0], x[1]), x[2]); break;
      default: FAIL();
    }
    ASSERT_TRUE(same(out_dtype, host_at(got, i), want, tol))
        << op_name(cs.op) << (fam == OpFamily::compare ? std::string("/") + std::string(compare_dir_name(cs.dir)) : "")
        << " " << dtype_name(d) << " " << layout_name(lc) << " element " << i << " inputs " << x[0].c << " / "
        << x[0].i << (x.size() > 1 ? " , " : "") << (x.size() > 1 ? x[1].c : c128()) << " / "
        << (x.size() > 1 ? x[1].i : 0);
  }
}

TEST_F(ElementwiseTest, EveryOpDtypeAndLayoutMatchesNaiveReference) {
  int ran = 0;
  for (const Case& cs : all_cases())
    for (DType d : kAllDTypes) {
      if (!contract_allows(cs.op, d)) continue;
      if (cs.op == OpId::compare && is_complex(d) && cs.dir != CompareDir::EQ && cs.dir != CompareDir::NE) continue;
      if (!be().supports(cs.op, d)) {
        // Only f64 / complex pow may be missing (pow.comp needs shaderFloat64 for f64 / c64).
        EXPECT_TRUE(cs.op == OpId::pow && (d == DType::F64 || is_complex(d))) << op_name(cs.op) << " " << dtype_name(d);
        continue;
      }
      for (LayoutCase lc : kLayouts) {
        SCOPED_TRACE(std::string(op_name(cs.op)) + " " + std::string(dtype_name(d)) + " " + layout_name(lc));
        run_case(be(), cs, d, lc);
        ++ran;
      }
    }
  EXPECT_GT(ran, 300);
}

TEST_F(ElementwiseTest, FillAndCopyEveryDtypeAndStridedViews) {
  for (DType d : kAllDTypes) {
    std::vector<Val> vals;
    for (int k = 0; k < 6 * 4; ++k) vals.push_back(make_value(d, k, 0, OpId::add));
    const Tensor host = host_of(d, {6, 4}, vals);
    const Tensor dev = be().upload(host);
    // copy: transposed + reversed source into a strided destination slice.
    Tensor dst_base = be().allocate(d, {5, 12});
    Val fv;
    fv.i = 1;
    fv.c = {2.5, -1.5};
    Scalar s = is_integer(d) || d == DType::Bool ? Scalar::of_int(d, 1) : Scalar::of_complex(d, fv.c);
    be().fill(dst_base, s);
    const TensorView src = dev.transpose({1, 0}).reverse({1});             // [4, 6]
    const TensorView dst = dst_base.slice({1, 0}, {5, 12}, {1, 2});        // [4, 6], stride 2
    be().copy(src, dst);
    const Tensor got = be().download(dst_base);
    const TensorView want_src = host.transpose({1, 0}).reverse({1});
    for (std::int64_t i = 0; i < 60; ++i) {
      const std::int64_t r = i % 5, c = i / 5;
      Val want;
      if (r >= 1 && c % 2 == 0) {
        want = host_at(want_src, (r - 1) + 4 * (c / 2));
      } else {
        want.i = 1;
        want.c = d == DType::Bool ? c128(1) : (is_integer(d) ? c128(1) : (is_complex(d) ? fv.c : c128(fv.c.real())));
      }
      ASSERT_TRUE(same(d, host_at(got, i), want, 0.0)) << dtype_name(d) << " element " << i;
    }
  }
}

// One session recording add, add, sub, ... over 600 ops: consecutive dispatches of one pipeline
// bind it once (Recorder::bind), switches bind again, and every batch boundary (256 commands,
// plus the early submissions) starts a fresh command buffer that must bind again. Also runs
// under the validation layer (vk_elementwise_validation_test).
TEST_F(ElementwiseTest, AlternatingPipelinesAcrossBatches) {
  const std::vector<Val> zeros(64, Val{0, 0.0}), ones(64, Val{1, 1.0});
  const Tensor one = be().upload(host_of(DType::F64, {64}, ones));
  Tensor z = be().upload(host_of(DType::F64, {64}, zeros));
  constexpr int kOps = 600;
  with_session(be(), [&] {
    for (int k = 0; k < kOps; ++k) z = k % 3 == 2 ? sub(be(), z, one) : add(be(), z, one);
  });
  const Tensor h = be().download(z);
  for (std::int64_t i = 0; i < 64; ++i) EXPECT_EQ(host_at(h, i).c.real(), double(kOps / 3)) << i;
}

// The f32 / c32 "w" variants (computed in f64 / c64, docs/accuracy.md) are taken where the driver
// flushes f32 subnormals, and everywhere with f64 when TENFERRO_VK_F32_VIA_F64=1: the ctest
// entries *_f32_via_f64 run the conformance tests that way, and this asserts they do take them.
TEST_F(ElementwiseTest, F32ViaF64VariantsFollowTheOptionAndTheDevice) {
  auto& vb = static_cast<vk::VulkanBackend&>(be());
  const vk::DeviceCaps& caps = vb.device().caps();
  const F32ViaF64 mode = accuracy(vb).f32_via_f64;  // the process default (TENFERRO_VK_F32_VIA_F64)
  const bool wide = caps.f64 && (mode == F32ViaF64::always || (mode == F32ViaF64::where_flushed && caps.flushes_f32));
  if (mode == F32ViaF64::always) {
    EXPECT_EQ(wide, caps.f64);
  }
  EXPECT_EQ(vk::arith_tag(vb, DType::F32), wide ? "f32w" : "f32");
  // c32 only when forced (options.hpp: its wide mul's speed on the H200).
  EXPECT_EQ(vk::arith_tag(vb, DType::C32), wide && mode == F32ViaF64::always ? "c32w" : "c32");
  for (DType d : {DType::F64, DType::C64, DType::I32, DType::I64}) EXPECT_EQ(vk::arith_tag(vb, d), vk::type_tag(d));
}

}  // namespace
}  // namespace tenferro::vktest
