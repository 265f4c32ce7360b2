// Conformance of dot_general / dot_general_into on every backend and inexact dtype, against the
// reference oracle (tests/reference/dot_general.*). A result element passes when
//   |got - want| <= kC * eps * ((K + 2) * |alpha| * sum_k |a||b| + |beta| * |out0|)
// (K = number of contracted index tuples; exact when that right side is 0, e.g. K == 0 and
// beta == 0). A backend that does not run dot_general for a dtype must declare the gap and
// raise Error{unsupported}.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>

#include "backends.hpp"
#include "dot_general.hpp"
#include "ref.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

constexpr DType kDotDTypes[] = {DType::F32, DType::F64, DType::C32, DType::C64};
constexpr double kC = 2.0;

double eps_of(DType d) { return d == DType::F32 || d == DType::C32 ? FLT_EPSILON : DBL_EPSILON; }

/// How dot_general_into's out view is laid out: a place() case or every axis stepped by 2.
enum class OutLayout { compact, transposed, offset, negative_stride, strided };
constexpr OutLayout kOutLayouts[] = {OutLayout::compact, OutLayout::transposed, OutLayout::offset,
                                     OutLayout::negative_stride, OutLayout::strided};
const char* out_layout_name(OutLayout o) {
  switch (o) {
    case OutLayout::compact: return "compact";
    case OutLayout::transposed: return "transposed";
    case OutLayout::offset: return "offset";
    case OutLayout::negative_stride: return "negative_stride";
    case OutLayout::strided: return "strided";
  }
  return "?";
}

std::string axes_str(const Axes& a) {
  std::ostringstream os;
  os << "[";
  for (std::size_t i = 0; i < a.size(); ++i) os << (i ? "," : "") << a[i];
  return os.str() + "]";
}

struct DotCase {
  Shape lhs, rhs;
  DotGeneralConfig cfg;
  LayoutCase llc = LayoutCase::compact, rlc = LayoutCase::compact;
  bool lconj = false, rconj = false;

  std::string describe() const {
    std::ostringstream os;
    os << "lhs " << axes_str(lhs) << " " << layout_name(llc) << (lconj ? " conj" : "") << ", rhs "
       << axes_str(rhs) << " " << layout_name(rlc) << (rconj ? " conj" : "") << ", batch "
       << axes_str(cfg.lhs_batching_dims) << "/" << axes_str(cfg.rhs_batching_dims) << ", contract "
       << axes_str(cfg.lhs_contracting_dims) << "/" << axes_str(cfg.rhs_contracting_dims);
    return os.str();
  }
};

/// A plain batched matmul: lhs [M,K,(B)], rhs [K,N,(B)].
DotCase matmul(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t b = -1) {
  DotCase c;
  c.lhs = {m, k};
  c.rhs = {k, n};
  c.cfg.lhs_contracting_dims = {1};
  c.cfg.rhs_contracting_dims = {0};
  if (b >= 0) {
    c.lhs.push_back(b);
    c.rhs.push_back(b);
    c.cfg.lhs_batching_dims = {2};
    c.cfg.rhs_batching_dims = {2};
  }
  return c;
}

/// "" when every element of got is within the bound around alpha*dot + beta*out0, else the
/// first violation. beta == 0 ignores out0 (which may hold NaN).
std::string within_bound(const DotReference& ref, const RefTensor& got, DType d, c64 alpha, c64 beta,
                         const RefTensor* out0) {
  std::ostringstream os;
  if (got.dtype != d) return "dtype " + std::string(dtype_name(got.dtype)) + ", expected " + std::string(dtype_name(d));
  if (got.shape != ref.value.shape) {
    os << "shape " << got.shape << ", expected " << ref.value.shape;
    return os.str();
  }
  const bool use_out = beta != c64(0, 0);
  for (std::int64_t i = 0; i < got.numel(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    c64 want = alpha * ref.value.v[k];
    double bound = static_cast<double>(ref.k + 2) * std::abs(alpha) * ref.scale[k];
    if (use_out) {
      want += beta * out0->v[k];
      bound += std::abs(beta) * std::abs(out0->v[k]);
    }
    bound *= kC * eps_of(d);
    const double err = std::abs(got.v[k] - want);
    if (!(err <= bound)) {  // also catches NaN
      os.precision(17);
      os << "element " << i << " of " << got.numel() << " (shape " << got.shape << "): got " << got.v[k]
         << ", expected " << want << ", |err| " << err << " > bound " << bound << " (K " << ref.k << ")";
      return os.str();
    }
  }
  return "";
}

template <class F> void expect_kind(ErrorKind kind, F&& f) {
  try {
    f();
    ADD_FAILURE() << "expected Error{" << error_kind_name(kind) << "}, nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
  }
}

/// True when the backend runs dot_general on d; otherwise checks the declared gap and the
/// unsupported error and returns false.
bool runs(const TestBackend& tb, DType d, const std::function<void()>& call) {
  if (tb.be->supports(OpId::dot_general, d)) return true;
  EXPECT_EQ(check_gap_declaration(tb, OpId::dot_general, d), "");
  expect_kind(ErrorKind::unsupported, call);
  return false;
}

void check_case(const TestBackend& tb, DType d, const DotCase& c, std::uint64_t seed) {
  SCOPED_TRACE(tb.name + " " + std::string(dtype_name(d)) + " " + c.describe() + " seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const RefTensor l = random_ref(d, c.lhs, rng, c.llc), r = random_ref(d, c.rhs, rng, c.rlc);
  const TensorView lv = place(*tb.be, l, c.llc), rv = place(*tb.be, r, c.rlc);
  Tensor out;
  if (!runs(tb, d, [&] { dot_general(*tb.be, lv, rv, c.cfg, c.lconj, c.rconj); })) return;
  out = dot_general(*tb.be, lv, rv, c.cfg, c.lconj, c.rconj);
  const DotReference want = ref_dot_general(l, r, c.cfg, c.lconj, c.rconj);
  EXPECT_TRUE(out.is_compact());
  EXPECT_EQ(within_bound(want, read(*tb.be, out), d, 1.0, 0.0, nullptr), "");
}

/// out0 placed as an out view in layout o.
TensorView place_out(Backend& be, const RefTensor& out0, OutLayout o) {
  switch (o) {
    case OutLayout::compact: return place(be, out0, LayoutCase::compact);
    case OutLayout::transposed: return place(be, out0, LayoutCase::transposed);
    case OutLayout::offset: return place(be, out0, LayoutCase::offset);
    case OutLayout::negative_stride: return place(be, out0, LayoutCase::negative_stride);
    case OutLayout::strided: break;
  }
  // Every axis stepped by 2 inside a tensor twice as large, surrounded by garbage.
  Shape pshape = out0.shape, starts(out0.shape.size(), 0), steps(out0.shape.size(), 2);
  for (auto& e : pshape) e *= 2;
  RefTensor phys(out0.dtype, pshape);
  for (std::int64_t i = 0; i < phys.numel(); ++i) phys.set(i, c64(7, 7));
  for (std::int64_t i = 0; i < out0.numel(); ++i) {
    Shape idx(out0.shape.size());
    std::int64_t rest = i;
    for (std::size_t a = 0; a < idx.size(); ++a) {
      idx[a] = 2 * (rest % out0.shape[a]);
      rest /= out0.shape[a];
    }
    phys.v[static_cast<std::size_t>(phys.index(idx))] = out0.v[static_cast<std::size_t>(i)];
  }
  Tensor host = to_host(phys);
  TensorView t = be.is_host() ? host : be.upload(host);
  return t.slice(starts, pshape, steps);
}

struct IntoArgs {
  OutLayout out = OutLayout::compact;
  Scalar alpha = Scalar::of(DType::F64, 1.0), beta = Scalar::of(DType::F64, 0.0);
  bool nan_out = false;  // fill out with NaN (only meaningful with beta == 0)
};

c64 coefficient_value(const Scalar& s, DType d) { return round_to(d, s.as<c64>()); }

void check_into(const TestBackend& tb, DType d, const DotCase& c, const IntoArgs& ia, std::uint64_t seed) {
  std::ostringstream tr;
  tr << tb.name << " " << dtype_name(d) << " " << c.describe() << ", out " << out_layout_name(ia.out) << ", alpha "
     << ia.alpha.as<c64>() << ", beta " << ia.beta.as<c64>() << (ia.nan_out ? ", NaN out" : "") << " seed " << seed;
  SCOPED_TRACE(tr.str());
  std::mt19937_64 rng(seed);
  const RefTensor l = random_ref(d, c.lhs, rng, c.llc), r = random_ref(d, c.rhs, rng, c.rlc);
  const Shape oshape = ref_dot_general_shape(c.lhs, c.rhs, c.cfg);
  RefTensor out0 = random_ref(d, oshape, rng);
  if (ia.nan_out)
    for (auto& x : out0.v) x = c64(std::numeric_limits<double>::quiet_NaN(), is_complex(d) ? std::nan("") : 0.0);
  const TensorView lv = place(*tb.be, l, c.llc), rv = place(*tb.be, r, c.rlc);
  const TensorView ov = place_out(*tb.be, out0, ia.out);
  auto call = [&] { dot_general_into(*tb.be, lv, rv, c.cfg, c.lconj, c.rconj, ia.alpha, ia.beta, ov); };
  if (!runs(tb, d, call)) return;
  call();
  const DotReference want = ref_dot_general(l, r, c.cfg, c.lconj, c.rconj);
  EXPECT_EQ(within_bound(want, read(*tb.be, ov), d, coefficient_value(ia.alpha, d), coefficient_value(ia.beta, d),
                         &out0),
            "");
}

// ---- fixed cases --------------------------------------------------------------------------

TEST(DotGeneralTest, MatmulExtentsMatchReference) {
  const std::int64_t shapes[][3] = {{1, 1, 1},   {7, 1, 7},  {1, 7, 1},   {7, 7, 7},    {129, 7, 3},
                                    {3, 129, 7}, {7, 3, 129}, {1000, 3, 2}, {2, 1000, 3}, {1, 1000, 1},
                                    {129, 129, 1}, {1, 129, 129}, {33, 65, 17}};
  std::uint64_t seed = 1;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (const auto& s : shapes) check_case(tb, d, matmul(s[0], s[1], s[2]), seed++);
}

TEST(DotGeneralTest, LargeSquareMatchesReference) {
  std::uint64_t seed = 100;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes) {
      check_case(tb, d, matmul(129, 129, 129), seed++);
      DotCase t = matmul(129, 129, 129);
      t.llc = LayoutCase::transposed;
      t.rlc = LayoutCase::transposed;
      check_case(tb, d, t, seed++);
    }
}

TEST(DotGeneralTest, ZeroExtentsGiveEmptyOrZeroResults) {
  // M, N, K or B zero. K == 0 must give exact zeros; empty outputs must be correctly shaped.
  const DotCase cases[] = {matmul(0, 3, 4), matmul(3, 4, 0), matmul(3, 0, 4), matmul(3, 0, 4, 2),
                           matmul(3, 4, 5, 0), matmul(0, 0, 0), matmul(70, 0, 70, 3)};
  std::uint64_t seed = 200;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (const DotCase& c : cases) check_case(tb, d, c, seed++);
}

TEST(DotGeneralTest, RankZeroAndOuterProductsMatchReference) {
  DotCase scalar;  // rank 0 x rank 0
  DotCase outer;   // no contraction
  outer.lhs = {5, 3};
  outer.rhs = {4};
  DotCase inner;  // vector . vector
  inner.lhs = {9};
  inner.rhs = {9};
  inner.cfg.lhs_contracting_dims = {0};
  inner.cfg.rhs_contracting_dims = {0};
  DotCase total;  // full contraction of rank 3 in a permuted order
  total.lhs = {3, 4, 5};
  total.rhs = {5, 3, 4};
  total.cfg.lhs_contracting_dims = {0, 1, 2};
  total.cfg.rhs_contracting_dims = {1, 2, 0};
  std::uint64_t seed = 300;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (const DotCase& c : {scalar, outer, inner, total}) check_case(tb, d, c, seed++);
}

TEST(DotGeneralTest, BatchAxisAnywhereMatchesReference) {
  // lhs holds (M=9, K=17, B=4) and rhs (K=17, N=6, B=4) with the axes in every position.
  const Axes perms[] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::uint64_t seed = 400;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (const Axes& pl : perms)
        for (const Axes& pr : {perms[0], perms[3], perms[5]}) {
          // pl[i] is the position of logical axis i (0: free, 1: contract, 2: batch).
          DotCase c;
          const std::int64_t le[3] = {9, 17, 4}, re[3] = {17, 6, 4};
          c.lhs.assign(3, 0);
          c.rhs.assign(3, 0);
          for (int i = 0; i < 3; ++i) {
            c.lhs[static_cast<std::size_t>(pl[i])] = le[i];
            c.rhs[static_cast<std::size_t>(pr[i])] = re[i];
          }
          c.cfg.lhs_contracting_dims = {pl[1]};
          c.cfg.lhs_batching_dims = {pl[2]};
          c.cfg.rhs_contracting_dims = {pr[0]};
          c.cfg.rhs_batching_dims = {pr[2]};
          check_case(tb, d, c, seed++);
        }
}

TEST(DotGeneralTest, MultipleContractingAndBatchAxesMatchReference) {
  DotCase c;
  c.lhs = {2, 3, 4, 5, 3};  // batch {0, 4}, contract {3, 1}, free {2}
  c.rhs = {5, 6, 3, 2, 3};  // batch {3, 2}, contract {0, 4}, free {1}
  c.cfg.lhs_batching_dims = {0, 4};
  c.cfg.rhs_batching_dims = {3, 2};
  c.cfg.lhs_contracting_dims = {3, 1};
  c.cfg.rhs_contracting_dims = {0, 4};
  DotCase chains;  // contracting pairs listed against storage order on both sides
  chains.lhs = {8, 5, 6, 2};
  chains.rhs = {5, 6, 7, 2};
  chains.cfg.lhs_contracting_dims = {2, 1};
  chains.cfg.rhs_contracting_dims = {1, 0};
  chains.cfg.lhs_batching_dims = {3};
  chains.cfg.rhs_batching_dims = {3};
  std::uint64_t seed = 500;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (LayoutCase lc : kAllLayouts) {
        DotCase a = c, b = chains;
        a.llc = b.rlc = lc;
        check_case(tb, d, a, seed++);
        check_case(tb, d, b, seed++);
      }
}

TEST(DotGeneralTest, EveryLayoutPairMatchesReference) {
  // Large enough per batch (17*9*6) to reach BLAS, and a tiny one for the direct loop.
  DotCase big = matmul(17, 9, 6, 3), tiny = matmul(3, 2, 4, 3);
  std::uint64_t seed = 600;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (LayoutCase ll : kAllLayouts)
        for (LayoutCase rl : kAllLayouts)
          for (DotCase c : {big, tiny}) {
            c.llc = ll;
            c.rlc = rl;
            check_case(tb, d, c, seed++);
          }
}

TEST(DotGeneralTest, BlockedSizesEveryLayoutMatchReference) {
  // Products large on both sides (a GPU's blocked kernels take them: WebGPU's tiles of 64 and
  // 128), with edges that cut tiles and K that ends mid-slab or fits within one: every layout
  // pair, and every conjugation on complex.
  std::uint64_t seed = 650;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (DotCase c : {matmul(131, 21, 70, 2), matmul(40, 5, 33)})
        for (int flags = 0; flags < (is_complex(d) ? 4 : 1); ++flags)
          for (LayoutCase ll : kAllLayouts)
            for (LayoutCase rl : kAllLayouts) {
              c.lconj = flags & 1;
              c.rconj = flags & 2;
              c.llc = ll;
              c.rlc = rl;
              check_case(tb, d, c, seed++);
            }
}

TEST(DotGeneralTest, ConjFlagsMatchReference) {
  std::uint64_t seed = 700;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (int flags = 0; flags < 4; ++flags)
        for (LayoutCase lc : {LayoutCase::compact, LayoutCase::transposed, LayoutCase::negative_stride})
          for (DotCase c : {matmul(17, 9, 6, 2), matmul(3, 2, 2)}) {
            c.lconj = flags & 1;
            c.rconj = flags & 2;
            c.llc = c.rlc = lc;
            check_case(tb, d, c, seed++);
          }
}

TEST(DotGeneralTest, VectorAndLongKProductsMatchReference) {
  // One row or one column of output with K past the direct loop (dot and matrix-vector calls on
  // the CPU), and narrow outputs with long K (split along K on several threads): every layout
  // pair and conjugation, then into-forms with alpha and beta (NaN out with beta 0).
  const DotCase cases[] = {matmul(1, 1500, 1), matmul(1, 700, 5), matmul(6, 700, 1), matmul(1, 1100, 1, 3),
                           matmul(1, 3000, 1), matmul(20, 2500, 30)};
  std::uint64_t seed = 750;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (DotCase c : cases)
        for (int flags = 0; flags < (is_complex(d) ? 4 : 1); ++flags)
          for (std::size_t l = 0; l < std::size(kAllLayouts); ++l) {
            c.lconj = flags & 1;
            c.rconj = flags & 2;
            c.llc = kAllLayouts[l];
            c.rlc = kAllLayouts[(l + flags + 1) % std::size(kAllLayouts)];
            check_case(tb, d, c, seed++);
          }
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (const DotCase& c : {cases[0], cases[1], cases[2], cases[5]}) {
        check_into(tb, d, c, {OutLayout::strided, Scalar::of(DType::F64, -0.5), Scalar::of(DType::F64, 0.0), true},
                   seed++);
        check_into(tb, d, c, {OutLayout::negative_stride, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, 2.0), false},
                   seed++);
      }
}

TEST(DotGeneralTest, ManySmallBatchesMatchReference) {
  // Exercises the batch-parallel path (small products, many batches) with both BLAS and direct sizes.
  std::uint64_t seed = 800;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (DotCase c : {matmul(16, 16, 16, 40), matmul(4, 5, 3, 300), matmul(8, 70, 8, 33)}) {
        check_case(tb, d, c, seed++);
        c.llc = LayoutCase::transposed;
        c.rlc = LayoutCase::negative_stride;
        check_case(tb, d, c, seed++);
      }
}

TEST(DotGeneralIntoTest, OutLayoutsAndCoefficientsMatchReference) {
  const struct {
    Scalar alpha, beta;
    bool nan_out;
  } coefs[] = {{Scalar::of(DType::F64, 1.0), Scalar::of(DType::F64, 0.0), true},
               {Scalar::of(DType::F64, -0.75), Scalar::of(DType::F64, 0.0), true},
               {Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -2.0), false},
               {Scalar::of_int(DType::I64, 3), Scalar::of_int(DType::I32, 1), false},
               {Scalar::of(DType::F32, 0.3f), Scalar::of(DType::F64, 0.7), false}};
  const Scalar calpha = Scalar::of_complex(DType::C64, c64(0.5, -1.25)),
               cbeta = Scalar::of_complex(DType::C32, c64(-1.0, 0.5));
  // Two lhs free axes so a stepped out view is not one chain (goes through a temp).
  DotCase two_free;
  two_free.lhs = {5, 4, 9, 2};
  two_free.rhs = {9, 6, 2};
  two_free.cfg.lhs_contracting_dims = {2};
  two_free.cfg.rhs_contracting_dims = {0};
  two_free.cfg.lhs_batching_dims = {3};
  two_free.cfg.rhs_batching_dims = {2};
  std::uint64_t seed = 900;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (OutLayout ol : kOutLayouts)
        for (const DotCase& c : {matmul(17, 9, 6, 2), matmul(3, 2, 4), two_free, matmul(5, 0, 4, 2)}) {
          for (const auto& cf : coefs) check_into(tb, d, c, {ol, cf.alpha, cf.beta, cf.nan_out}, seed++);
          if (is_complex(d)) {
            check_into(tb, d, c, {ol, calpha, cbeta, false}, seed++);
            check_into(tb, d, c, {ol, calpha, Scalar::of_complex(DType::C64, c64(0, 0)), true}, seed++);
          }
        }
}

TEST(DotGeneralIntoTest, ConjAndStridedOperandsIntoTransposedOut) {
  std::uint64_t seed = 1000;
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (int flags = 0; flags < 4; ++flags)
        for (LayoutCase lc : kAllLayouts) {
          DotCase c = matmul(17, 9, 6, 2);
          c.lconj = flags & 1;
          c.rconj = flags & 2;
          c.llc = lc;
          c.rlc = LayoutCase::transposed;
          check_into(tb, d, c, {OutLayout::transposed, Scalar::of(DType::F64, 2.0), Scalar::of(DType::F64, 0.5), false},
                     seed++);
        }
}

// ---- canonicalization: what core asks of the backend ------------------------------------------

/// Forwards to a backend and counts the primitives core lowers dot_general to. With
/// hide_chained_output it reports no chained GEMM outputs (GemmCaps), so that core takes the
/// path of backends without them on a backend that has them.
class CountingBackend final : public Backend {
 public:
  explicit CountingBackend(Backend& inner) : in_(inner) {}
  int copies = 0, allocations = 0, gemms = 0;
  std::string name() const override { return in_.name(); }
  std::string device_name() const override { return in_.device_name(); }
  DomainId domain() const override { return in_.domain(); }
  Placement placement() const override { return in_.placement(); }
  bool supports(OpId op, DType d) const override { return in_.supports(op, d); }
  bool is_host() const override { return in_.is_host(); }
  bool hide_chained_output = false;
  GemmCaps gemm_caps() const override {
    return {.chained_output = in_.gemm_caps().chained_output && !hide_chained_output};
  }
  Tensor allocate(DType dtype, const Shape& shape) override {
    ++allocations;
    return in_.allocate(dtype, shape);
  }
  Tensor upload(const TensorView& host) override { return in_.upload(host); }
  Tensor download(const TensorView& t) override { return in_.download(t); }
  void fill(const TensorView& out, const Scalar& value) override { in_.fill(out, value); }
  void copy(const TensorView& src, const TensorView& dst) override {
    ++copies;
    in_.copy(src, dst);
  }
  void cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) override {
    in_.cast(src, dst, op, exact);
  }
  void elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir) override {
    in_.elementwise(op, inputs, out, dir);
  }
  void reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) override {
    in_.reduce(op, x, axes, out);
  }
  void gemm(const GemmCall& call) override {
    ++gemms;
    if (call.chained()) ++chained_gemms;
    in_.gemm(call);
  }
  int chained_gemms = 0;  // gemm calls with a chained c (GemmCall::chained)
  void triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) override {
    in_.triangular(x, k, lower, out);
  }
  void gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
              const TensorView& out) override {
    in_.gather(operand, indices, cfg, out);
  }
  void scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
               const ScatterConfig& cfg) override {
    in_.scatter(out, indices, updates, cfg);
  }

 private:
  Backend& in_;
};

TEST(DotGeneralCanonicalTest, StrideChainsAreReadInPlaceOthersPackedOnce) {
  const struct {
    const char* what;
    DotCase c;
    int copies;
  } cases[] = {
      {"compact matmul", matmul(9, 17, 6, 3), 0},
      {"transposed operands", [] { DotCase c = matmul(9, 17, 6, 3); c.llc = c.rlc = LayoutCase::transposed; return c; }(), 0},
      {"negative strides", [] { DotCase c = matmul(9, 17, 6, 3); c.llc = c.rlc = LayoutCase::negative_stride; return c; }(), 0},
      {"offset views", [] { DotCase c = matmul(9, 17, 6, 3); c.llc = c.rlc = LayoutCase::offset; return c; }(), 0},
      {"batch axis first", [] { DotCase c; c.lhs = {3, 9, 17}; c.rhs = {3, 17, 6};
         c.cfg = {{0}, {0}, {2}, {1}}; return c; }(), 0},
      {"contracting pairs against storage order", [] { DotCase c; c.lhs = {8, 5, 6}; c.rhs = {5, 6, 7};
         c.cfg = {{}, {}, {2, 1}, {1, 0}}; return c; }(), 0},
      {"lhs contracting axes not adjacent", [] { DotCase c; c.lhs = {2, 3, 4}; c.rhs = {2, 4, 5};
         c.cfg = {{}, {}, {0, 2}, {0, 1}}; return c; }(), 1},
      {"lhs chains only in stride order, rhs in none", [] { DotCase c; c.lhs = {8, 5, 6}; c.rhs = {6, 7, 5};
         c.cfg = {{}, {}, {2, 1}, {0, 2}}; return c; }(), 1},
      {"both operands need packing", [] { DotCase c; c.lhs = {2, 3, 4}; c.rhs = {2, 5, 4};
         c.cfg = {{}, {}, {0, 2}, {0, 2}}; return c; }(), 2},
  };
  std::uint64_t seed = 1100;
  for (const auto& k : cases) {
    SCOPED_TRACE(k.what);
    CountingBackend be(cpu_backend());
    std::mt19937_64 rng(seed++);
    const RefTensor l = random_ref(DType::F64, k.c.lhs, rng, k.c.llc), r = random_ref(DType::F64, k.c.rhs, rng, k.c.rlc);
    const TensorView lv = place(be, l, k.c.llc), rv = place(be, r, k.c.rlc);
    be.copies = be.allocations = 0;
    const Tensor out = dot_general(be, lv, rv, k.c.cfg);
    EXPECT_EQ(be.copies, k.copies);
    EXPECT_EQ(be.allocations, 1 + k.copies);  // the output, plus one per packed operand
    EXPECT_EQ(be.gemms, 1);
    EXPECT_EQ(within_bound(ref_dot_general(l, r, k.c.cfg), read(be, out), DType::F64, 1.0, 0.0, nullptr), "");
  }
}

// An operand whose unit stride is a batch axis is packed in a product of at least 1e9 flops
// whose partner free extent is at least 256 (lower_dot_general); smaller products, short partner
// extents and operands with a free or contracted axis at unit stride are read in place.
TEST(DotGeneralCanonicalTest, BatchUnitStrideOperandsOfLargeProductsArePacked) {
  using detail::lower_dot_general;
  // rhs [K, N, B] with B at unit stride (strides B, K B, 1); lhs compact [M, K, B].
  auto lower = [](std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B) {
    const Layout lhs = Layout::compact({M, K, B});
    const Layout rhs{{K, N, B}, {B, K * B, 1}, 0};
    return lower_dot_general(lhs, rhs, DotGeneralConfig{{2}, {2}, {1}, {0}});
  };
  auto big = lower(300, 300, 40, 200);  // 1.44e9 flops, M = 300
  EXPECT_TRUE(big.lhs_in_place);
  EXPECT_FALSE(big.rhs_in_place);
  EXPECT_TRUE(lower(300, 300, 40, 100).rhs_in_place);  // 0.72e9 flops
  EXPECT_TRUE(lower(200, 300, 40, 300).rhs_in_place);  // M = 200 < 256
  // The same product with rhs compact: in place.
  const Layout lhs = Layout::compact({300, 40, 200}), rhs = Layout::compact({40, 300, 200});
  EXPECT_TRUE(lower_dot_general(lhs, rhs, DotGeneralConfig{{2}, {2}, {1}, {0}}).rhs_in_place);
}

TEST(DotGeneralCanonicalTest, IntoChainOutIsWrittenInPlaceOtherOutsThroughOneTemp) {
  DotCase two_free;  // two lhs free axes: a stepped out view breaks that group's chain
  two_free.lhs = {5, 4, 9};
  two_free.rhs = {9, 6};
  two_free.cfg = {{}, {}, {2}, {0}};
  const DotCase mm = matmul(9, 17, 6, 3);
  const struct {
    const DotCase& c;
    OutLayout out;
    double beta;
    int copies, allocations;
  } cases[] = {{two_free, OutLayout::compact, 0.5, 0, 0},
               {two_free, OutLayout::negative_stride, 0.5, 0, 0},
               // Reversed axes: the lhs free group (strides 24, 6) is no chain in output order.
               {two_free, OutLayout::transposed, 0.5, 2, 1},
               // Inside a [7, 6, 8] tensor: lhs free group strides (1, 7) with extent 5, no chain.
               {two_free, OutLayout::offset, 0.5, 2, 1},
               {two_free, OutLayout::strided, 0.5, 2, 1},
               {two_free, OutLayout::strided, 0.0, 1, 1},  // beta == 0: out is never read
               // One axis per group: every out layout is a chain (transposed: a row-major C).
               {mm, OutLayout::transposed, 0.5, 0, 0},
               {mm, OutLayout::offset, 0.5, 0, 0},
               {mm, OutLayout::strided, 0.5, 0, 0}};
  std::uint64_t seed = 1200;
  for (const auto& k : cases) {
    SCOPED_TRACE(k.c.describe() + " out " + out_layout_name(k.out) + " beta " + std::to_string(k.beta));
    CountingBackend be(cpu_backend());
    std::mt19937_64 rng(seed++);
    const RefTensor l = random_ref(DType::F64, k.c.lhs, rng), r = random_ref(DType::F64, k.c.rhs, rng);
    const RefTensor out0 = random_ref(DType::F64, ref_dot_general_shape(k.c.lhs, k.c.rhs, k.c.cfg), rng);
    const TensorView lv = place(be, l, LayoutCase::compact), rv = place(be, r, LayoutCase::compact);
    const TensorView ov = place_out(be, out0, k.out);
    be.copies = be.allocations = 0;
    const Scalar alpha = Scalar::of(DType::F64, 1.0), beta = Scalar::of(DType::F64, k.beta);
    dot_general_into(be, lv, rv, k.c.cfg, false, false, alpha, beta, ov);
    EXPECT_EQ(be.copies, k.copies);
    EXPECT_EQ(be.allocations, k.allocations);
    EXPECT_EQ(be.gemms, 1);
    EXPECT_EQ(within_bound(ref_dot_general(l, r, k.c.cfg), read(be, ov), DType::F64, 1.0, k.beta, &out0), "");
  }
}

TEST(DotGeneralCanonicalTest, ChainedOutsAreWrittenInPlaceWhereTheBackendCan) {
  // Out views with every axis reversed: each axis its own stride chain. Up to kGemmFreeChains
  // chains per free group and kGemmBatchChains for the batch group, a backend whose
  // gemm_caps().chained_output is true (Vulkan) gets one gemm with a chained c and nothing else; the
  // CPU backend and groups of more chains go through one temp (two copies: beta reads out).
  DotCase three;  // free groups of 3 (lhs) and 2 (rhs) axes, batch group of 2 axes
  three.lhs = {3, 4, 5, 6, 2, 3};
  three.rhs = {6, 7, 2, 2, 3};
  three.cfg = {{4, 5}, {3, 4}, {3}, {0}};
  DotCase four = three;  // 4 lhs free axes: the most a free group may have
  four.lhs = {3, 2, 2, 5, 6, 2, 3};
  four.cfg = {{5, 6}, {3, 4}, {4}, {0}};
  DotCase five;  // 5 lhs free axes: one chain too many
  five.lhs = {2, 3, 2, 2, 2, 5};
  five.rhs = {5, 3};
  five.cfg = {{}, {}, {5}, {0}};
  DotCase batch3;  // 3 batch axes: one chain too many
  batch3.lhs = {3, 4, 2, 2, 3};
  batch3.rhs = {4, 5, 2, 2, 3};
  batch3.cfg = {{2, 3, 4}, {2, 3, 4}, {1}, {0}};
  DotCase small = three;  // M * N <= 256 with short K: the one-invocation-per-output kernel
  small.lhs = {2, 3, 2, 3, 2, 1};
  small.rhs = {3, 2, 2, 2, 1};
  DotCase long_k = three;  // few output tiles and K >= 512: split K, the reduction writes C
  long_k.lhs = {3, 4, 5, 600, 2, 3};
  long_k.rhs = {600, 7, 2, 2, 3};
  const struct {
    const DotCase& c;
    bool fits;
  } cases[] = {{three, true}, {four, true}, {five, false}, {batch3, false}, {small, true}, {long_k, true}};
  std::uint64_t seed = 1300;
  for (const bool hide : {false, true})
    for (const auto& tb0 : test_backends())
      for (const auto& k : cases) {
        SCOPED_TRACE(tb0.name + (hide ? " (chained outputs hidden) " : " ") + k.c.describe());
        if (!tb0.be->supports(OpId::dot_general, DType::F64)) {  // a declared gap (gaps_test)
          EXPECT_NE(declared_gap(tb0.name, OpId::dot_general, DType::F64), "");
          continue;
        }
        CountingBackend be(*tb0.be);
        be.hide_chained_output = hide;
        const TestBackend tb{tb0.name, &be};
        const bool chained = k.fits && be.gemm_caps().chained_output;
        std::mt19937_64 rng(seed++);
        const RefTensor l = random_ref(DType::F64, k.c.lhs, rng), r = random_ref(DType::F64, k.c.rhs, rng);
        const RefTensor out0 = random_ref(DType::F64, ref_dot_general_shape(k.c.lhs, k.c.rhs, k.c.cfg), rng);
        const TensorView lv = place(be, l, LayoutCase::compact), rv = place(be, r, LayoutCase::compact);
        const TensorView ov = place_out(be, out0, OutLayout::transposed);
        be.copies = be.allocations = be.gemms = be.chained_gemms = 0;
        dot_general_into(be, lv, rv, k.c.cfg, false, false, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -0.5),
                         ov);
        EXPECT_EQ(be.gemms, 1);
        EXPECT_EQ(be.chained_gemms, chained ? 1 : 0);
        EXPECT_EQ(be.copies, chained ? 0 : 2);
        EXPECT_EQ(be.allocations, chained ? 0 : 1);
        EXPECT_EQ(within_bound(ref_dot_general(l, r, k.c.cfg), read(be, ov), DType::F64, 1.5, -0.5, &out0), "");
        for (DType d : kDotDTypes) {
          DotCase c = k.c;
          c.lconj = c.rconj = is_complex(d);
          for (OutLayout ol : {OutLayout::transposed, OutLayout::strided, OutLayout::negative_stride}) {
            check_into(tb, d, c, {ol, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -0.5), false}, seed++);
            check_into(tb, d, c, {ol, Scalar::of(DType::F64, 1.0), Scalar::of(DType::F64, 0.0), true}, seed++);
          }
        }
      }
}

/// Lowers the size at which packed copies are made in pieces, for one scope.
class PackChunkBytes {
 public:
  explicit PackChunkBytes(std::uint64_t bytes) : prev_(detail::set_pack_chunk_bytes(bytes)) {}
  ~PackChunkBytes() { detail::set_pack_chunk_bytes(prev_); }
  PackChunkBytes(const PackChunkBytes&) = delete;
  PackChunkBytes& operator=(const PackChunkBytes&) = delete;

 private:
  std::uint64_t prev_;
};

TEST(DotGeneralCanonicalTest, LargePackedCopiesAreMadeInPieces) {
  // With the piece size at 1 byte every packed copy is "large": the product runs in two pieces
  // along the last batch axis (extent 3: indices {0, 1} and {2}), else along the packed
  // operand's last free axis (extent 7: {0..3} and {4..6}), once (no piece is cut again).
  // Counted on the CPU backend, checked on every backend.
  DotCase batch;  // lhs contracting axes {0, 2} not adjacent: lhs packed; batch 3, lhs free 3
  batch.lhs = {2, 3, 4, 3};
  batch.rhs = {2, 4, 5, 3};
  batch.cfg = {{3}, {3}, {0, 2}, {0, 1}};
  DotCase rhs_free;  // lhs in place, rhs contracting axes {0, 2} not adjacent: rhs packed
  rhs_free.lhs = {6, 2, 2};
  rhs_free.rhs = {2, 7, 2};
  rhs_free.cfg = {{}, {}, {1, 2}, {0, 2}};
  const PackChunkBytes tiny(1);
  const struct {
    const DotCase& c;
    int gemms;
  } counted[] = {{batch, 2}, {rhs_free, 2}};
  std::uint64_t seed = 1300;
  for (const auto& k : counted) {
    SCOPED_TRACE(k.c.describe());
    CountingBackend be(cpu_backend());
    std::mt19937_64 rng(seed++);
    const RefTensor l = random_ref(DType::F64, k.c.lhs, rng), r = random_ref(DType::F64, k.c.rhs, rng);
    const TensorView lv = place(be, l, LayoutCase::compact), rv = place(be, r, LayoutCase::compact);
    be.copies = be.gemms = 0;
    const Tensor out = dot_general(be, lv, rv, k.c.cfg);
    EXPECT_EQ(be.gemms, k.gemms);
    EXPECT_EQ(be.copies, k.gemms);  // one packed piece per product
    EXPECT_EQ(within_bound(ref_dot_general(l, r, k.c.cfg), read(be, out), DType::F64, 1.0, 0.0, nullptr), "");
  }
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (DotCase c : {batch, rhs_free}) {
        c.llc = LayoutCase::negative_stride;
        c.rconj = is_complex(d);
        check_case(tb, d, c, seed++);
        check_into(tb, d, c, {OutLayout::strided, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -0.5), false},
                   seed++);
      }
}

TEST(DotGeneralCanonicalTest, ChainedOutsNarrowTheirLastChainInPieces) {
  // A packed operand made in pieces (piece size 1 byte) with a chained out (every out axis
  // reversed, so each its own chain): each piece narrows the out group's chain holding the
  // sliced axis. free: lhs's free group (3, 4) is no chain in lhs (packed), the pieces slice
  // its axis of extent 4, the out's second m chain. batch: lhs's batch group (2, 3) is no
  // chain (packed), the pieces slice the batch axis of extent 3, the out's second batch chain.
  DotCase free;
  free.lhs = {3, 4, 5};
  free.rhs = {5, 6};
  free.cfg = {{}, {}, {2}, {0}};
  free.llc = LayoutCase::transposed;
  DotCase batch;
  batch.lhs = {3, 5, 2, 3};
  batch.rhs = {5, 4, 2, 3};
  batch.cfg = {{2, 3}, {2, 3}, {1}, {0}};
  batch.llc = LayoutCase::transposed;
  const PackChunkBytes tiny(1);
  std::uint64_t seed = 1500;
  for (const bool hide : {false, true})
    for (const auto& tb0 : test_backends()) {
      CountingBackend be(*tb0.be);
      be.hide_chained_output = hide;
      const TestBackend tb{tb0.name, &be};
      SCOPED_TRACE(hide ? "chained outputs hidden" : "chained outputs as the backend has them");
      for (DType d : kDotDTypes)
        for (const DotCase& c : {free, batch}) {
          check_into(tb, d, c,
                     {OutLayout::transposed, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -0.5), false}, seed++);
          check_into(tb, d, c, {OutLayout::transposed, Scalar::of(DType::F64, 1.0), Scalar::of(DType::F64, 0.0), true},
                     seed++);
        }
    }
}

TEST(DotGeneralCanonicalTest, LargeOutTempsAreMadeInPieces) {
  // An out view whose groups are not stride chains (every axis stepped by 2) goes through a
  // compact temp; with the piece size at 1 byte every temp is "large": the product runs in
  // pieces along one out axis of the larger operand (a batch axis counts for both), of at
  // least 4 indices, in ceil(extent / 4) indices each. rhs_free: rhs's free axis (extent 14:
  // 4 + 4 + 4 + 2); lhs_free: lhs's second free axis (extent 4, one index each); batch: the
  // batch axis (extent 4, lhs and rhs narrowed together). Counted on the CPU backend (one gemm
  // and one temp -> out copy per piece, plus out -> temp when beta reads out), checked on every
  // backend.
  DotCase rhs_free;
  rhs_free.lhs = {3, 4, 2};
  rhs_free.rhs = {2, 14};
  rhs_free.cfg = {{}, {}, {2}, {0}};
  DotCase lhs_free;
  lhs_free.lhs = {3, 4, 5};
  lhs_free.rhs = {5, 6};
  lhs_free.cfg = {{}, {}, {2}, {0}};
  DotCase batch;
  batch.lhs = {3, 2, 5, 4};
  batch.rhs = {5, 3, 4};
  batch.cfg = {{3}, {2}, {2}, {0}};
  const PackChunkBytes tiny(1);
  const struct {
    const DotCase& c;
    int gemms;
    double beta;
  } counted[] = {{rhs_free, 4, 0.0}, {lhs_free, 4, 0.5}, {batch, 4, 0.5}};
  std::uint64_t seed = 1400;
  for (const auto& k : counted) {
    SCOPED_TRACE(k.c.describe());
    CountingBackend be(cpu_backend());
    std::mt19937_64 rng(seed++);
    const RefTensor l = random_ref(DType::F64, k.c.lhs, rng), r = random_ref(DType::F64, k.c.rhs, rng);
    const RefTensor out0 = random_ref(DType::F64, ref_dot_general_shape(k.c.lhs, k.c.rhs, k.c.cfg), rng);
    const TensorView lv = place(be, l, LayoutCase::compact), rv = place(be, r, LayoutCase::compact);
    const TensorView ov = place_out(be, out0, OutLayout::strided);
    be.copies = be.gemms = 0;
    dot_general_into(be, lv, rv, k.c.cfg, false, false, Scalar::of(DType::F64, 1.0), Scalar::of(DType::F64, k.beta),
                     ov);
    EXPECT_EQ(be.gemms, k.gemms);
    EXPECT_EQ(be.copies, k.gemms * (k.beta != 0.0 ? 2 : 1));
    EXPECT_EQ(within_bound(ref_dot_general(l, r, k.c.cfg), read(be, ov), DType::F64, 1.0, k.beta, &out0), "");
  }
  for (const auto& tb : test_backends())
    for (DType d : kDotDTypes)
      for (DotCase c : {rhs_free, lhs_free, batch}) {
        c.lconj = is_complex(d);
        check_into(tb, d, c, {OutLayout::strided, Scalar::of(DType::F64, 1.5), Scalar::of(DType::F64, -0.5), false},
                   seed++);
        check_into(tb, d, c, {OutLayout::strided, Scalar::of(DType::F64, 1.0), Scalar::of(DType::F64, 0.0), true},
                   seed++);
      }
}

// ---- property test --------------------------------------------------------------------------

std::uint64_t property_seed() {
  if (const char* s = std::getenv("TENFERRO_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}

/// A random valid config: operands of rank <= 4 with axes assigned at random to batch,
/// contracting and free; extents from {0, 1, 2, 3, 5, 7} (0 rarely).
DotCase random_case(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto extent = [&]() -> std::int64_t {
    static constexpr std::int64_t kExt[] = {1, 2, 3, 5, 7};
    if (pick(0, 40) == 0) return 0;
    return kExt[pick(0, 4)];
  };
  const std::int64_t nb = pick(0, 2), nc = pick(0, 4 - nb);
  const std::int64_t nfl = pick(0, 4 - nb - nc), nfr = pick(0, 4 - nb - nc);
  DotCase c;
  c.lhs.assign(static_cast<std::size_t>(nb + nc + nfl), 0);
  c.rhs.assign(static_cast<std::size_t>(nb + nc + nfr), 0);
  Axes lpos(c.lhs.size()), rpos(c.rhs.size());
  for (std::size_t i = 0; i < lpos.size(); ++i) lpos[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = 0; i < rpos.size(); ++i) rpos[i] = static_cast<std::int64_t>(i);
  std::shuffle(lpos.begin(), lpos.end(), rng);
  std::shuffle(rpos.begin(), rpos.end(), rng);
  for (std::int64_t j = 0; j < nb + nc; ++j) {
    const auto u = static_cast<std::size_t>(j);
    const std::int64_t e = extent();
    c.lhs[static_cast<std::size_t>(lpos[u])] = e;
    c.rhs[static_cast<std::size_t>(rpos[u])] = e;
    (j < nb ? c.cfg.lhs_batching_dims : c.cfg.lhs_contracting_dims).push_back(lpos[u]);
    (j < nb ? c.cfg.rhs_batching_dims : c.cfg.rhs_contracting_dims).push_back(rpos[u]);
  }
  for (std::size_t j = static_cast<std::size_t>(nb + nc); j < lpos.size(); ++j)
    c.lhs[static_cast<std::size_t>(lpos[j])] = extent();
  for (std::size_t j = static_cast<std::size_t>(nb + nc); j < rpos.size(); ++j)
    c.rhs[static_cast<std::size_t>(rpos[j])] = extent();
  c.llc = kAllLayouts[pick(0, 4)];
  c.rlc = kAllLayouts[pick(0, 4)];
  c.lconj = pick(0, 1);
  c.rconj = pick(0, 1);
  return c;
}

TEST(DotGeneralPropertyTest, RandomConfigsMatchReference) {
  const std::uint64_t seed = property_seed();
  std::cout << "[ property ] dot_general seed " << seed << " (rerun with TENFERRO_TEST_SEED=" << seed << ")\n";
  SCOPED_TRACE("property seed " + std::to_string(seed) + " (TENFERRO_TEST_SEED reproduces it)");
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 300; ++iter) {
    const DotCase c = random_case(rng);
    const DType d = kDotDTypes[iter % 4];
    const std::uint64_t case_seed = rng();
    for (const auto& tb : test_backends()) {
      if (iter % 3 == 0) {
        const OutLayout ol = kOutLayouts[case_seed % 5];
        const bool zero_beta = (case_seed >> 8) % 2;
        check_into(tb, d, c,
                   {ol, Scalar::of(DType::F64, -1.5), Scalar::of(DType::F64, zero_beta ? 0.0 : 0.25), zero_beta},
                   case_seed);
      } else {
        check_case(tb, d, c, case_seed);
      }
    }
    if (::testing::Test::HasFailure()) break;  // the first failing config is the one to read
  }
}

}  // namespace
}  // namespace tenferro::test
