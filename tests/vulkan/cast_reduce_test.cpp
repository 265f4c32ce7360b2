// cast, reductions and tril/triu on the GPU against naive host loops: the paths the conformance
// shapes do not reach (multi-pass split-K over long rows and columns, NaN late in a long
// reduction, wrapping integer sums across passes, general strided reduced axes, synchronous
// float-to-integer range errors inside a session, batched strided tril/triu of every size).
#include <cmath>
#include <limits>
#include <random>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"

namespace tenferro::vktest {
namespace {

using c128 = std::complex<double>;

class CastReduceTest : public VulkanTest {};

/// Random host tensor: integers in [-50, 50], floats in [-1, 1), complex both parts.
Tensor random_host(DType d, const Shape& shape, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> k(-50, 50);
  std::vector<Val> vals(static_cast<std::size_t>(shape_numel(shape, "test")));
  for (Val& v : vals) {
    if (is_integer(d)) {
      v.i = k(rng);
    } else {
      v.c = is_complex(d) ? c128(u(rng), u(rng)) : c128(u(rng));
    }
  }
  return host_of(d, shape, vals);
}

/// Naive reduction over `axes` of a host view: out index = colex over the kept axes.
/// Returns values (floats in double / complex<double>, integers wrapped to d) and sum|x|.
struct RefOut {
  std::vector<Val> v;
  std::vector<double> mag;
  std::vector<std::int64_t> count;
};
RefOut ref_reduce(OpId op, const TensorView& x, const Axes& axes) {
  const DType d = x.dtype();
  std::int64_t nout = 1;
  std::vector<std::int64_t> ostride(static_cast<std::size_t>(x.rank()), 0);
  for (std::int64_t a = 0; a < x.rank(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) {
      ostride[static_cast<std::size_t>(a)] = nout;
      nout *= x.dim(a);
    }
  RefOut r;
  r.v.resize(static_cast<std::size_t>(nout));
  r.mag.assign(static_cast<std::size_t>(nout), 0.0);
  r.count.assign(static_cast<std::size_t>(nout), 0);
  for (Val& v : r.v) {
    v.c = op == OpId::reduce_prod ? 1.0 : 0.0;
    v.i = op == OpId::reduce_prod ? 1 : 0;
  }
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    std::int64_t rest = i, o = 0;
    for (std::int64_t a = 0; a < x.rank(); ++a) {
      o += (rest % x.dim(a)) * ostride[static_cast<std::size_t>(a)];
      rest /= x.dim(a);
    }
    const Val e = host_at(x, i);
    Val& acc = r.v[static_cast<std::size_t>(o)];
    const bool first = r.count[static_cast<std::size_t>(o)]++ == 0;
    r.mag[static_cast<std::size_t>(o)] += std::abs(e.c);
    if (is_integer(d)) {
      std::uint64_t a = std::uint64_t(acc.i), b = std::uint64_t(e.i);
      std::uint64_t res = op == OpId::reduce_sum ? a + b : op == OpId::reduce_prod ? a * b
                         : op == OpId::reduce_max ? (first || e.i > acc.i ? b : a)
                                                  : (first || e.i < acc.i ? b : a);
      acc.i = d == DType::I32 ? std::int64_t(std::int32_t(std::uint32_t(res))) : std::int64_t(res);
    } else if (op == OpId::reduce_sum) {
      acc.c += e.c;
    } else if (op == OpId::reduce_prod) {
      acc.c *= e.c;
    } else {
      const double a = acc.c.real(), b = e.c.real();
      const bool take = first || std::isnan(b) || (!std::isnan(a) && (op == OpId::reduce_max ? b > a : b < a));
      if (take) acc.c = b;
    }
  }
  return r;
}

double eps_of(DType d) { return d == DType::F32 || d == DType::C32 ? 0x1p-23 : 0x1p-52; }

/// GPU reduce of a view of `dev` against the naive loop; floats within 2 n eps sum|x|.
void check_reduce(Backend& be, OpId op, const TensorView& dev_view, const TensorView& host_view, const Axes& axes) {
  const Tensor got = download(be, reduce(be, op, dev_view, axes));
  const RefOut want = ref_reduce(op, host_view, axes);
  ASSERT_EQ(got.numel(), static_cast<std::int64_t>(want.v.size()));
  const DType d = dev_view.dtype();
  for (std::int64_t o = 0; o < got.numel(); ++o) {
    const Val g = host_at(got, o);
    const Val& w = want.v[static_cast<std::size_t>(o)];
    if (is_integer(d)) {
      ASSERT_EQ(g.i, w.i) << "output " << o;
    } else if (op == OpId::reduce_max || op == OpId::reduce_min) {
      if (std::isnan(w.c.real())) ASSERT_TRUE(std::isnan(g.c.real())) << "output " << o;
      else ASSERT_EQ(g.c.real(), w.c.real()) << "output " << o;
    } else {
      const double n = double(want.count[static_cast<std::size_t>(o)]);
      const double tol = op == OpId::reduce_sum ? 2 * n * eps_of(d) * want.mag[static_cast<std::size_t>(o)]
                                                : 2 * n * eps_of(d) * std::abs(w.c);
      ASSERT_LE(std::abs(g.c - w.c), tol) << "output " << o << " got " << g.c << " want " << w.c;
    }
  }
}

TEST_F(CastReduceTest, MultiPassSplitKReductionsMatchNaiveLoops) {
  std::mt19937_64 rng(7);
  struct Case {
    Shape shape;
    Axes axes;
  };
  // Reduce-all and long rows (inner, 2-3 passes); long columns with few outputs (outer, split-K);
  // many short rows (several outputs per workgroup); reduced axes that do not merge (general).
  const std::vector<Case> cases = {{{3000001}, {0}},      {{3, 400000}, {1}},  {{400000, 3}, {0}},
                                   {{1000, 700}, {0}},    {{1000, 700}, {1}},  {{5, 6, 7, 8}, {0, 2}},
                                   {{64, 3, 64, 5}, {0, 2}}, {{2, 300000}, {0, 1}}};
  for (DType d : {DType::F32, DType::F64, DType::I32, DType::C32}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " shape " + std::to_string(c.shape[0]));
      const Tensor h = random_host(d, c.shape, rng);
      const Tensor dv = upload(be(), h);
      for (OpId op : {OpId::reduce_sum, OpId::reduce_max}) {
        if (op == OpId::reduce_max && is_complex(d)) continue;
        check_reduce(be(), op, dv, h, c.axes);
      }
    }
  }
}

TEST_F(CastReduceTest, StridedViewsAndNaNLateInLongReductions) {
  std::mt19937_64 rng(11);
  const Tensor h = random_host(DType::F64, {40, 30, 50}, rng);
  const Tensor dv = upload(be(), h);
  // Permuted + reversed + stepped views: reduced axes of any stride order.
  const TensorView hv = h.transpose({2, 0, 1}).reverse({1}).slice({1, 0, 2}, {50, 40, 30}, {2, 1, 3});
  const TensorView dvv = dv.transpose({2, 0, 1}).reverse({1}).slice({1, 0, 2}, {50, 40, 30}, {2, 1, 3});
  for (OpId op : {OpId::reduce_sum, OpId::reduce_prod, OpId::reduce_max, OpId::reduce_min})
    for (const Axes& axes : {Axes{0}, Axes{1}, Axes{2}, Axes{0, 2}, Axes{0, 1, 2}}) check_reduce(be(), op, dvv, hv, axes);

  // A NaN near the end of 2^21 elements: max and min over all (multi-pass) give NaN.
  std::vector<Val> vals(std::size_t{1} << 21);
  for (std::size_t i = 0; i < vals.size(); ++i) vals[i].c = double(i % 1000);
  vals[vals.size() - 3].c = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::F32, DType::F64}) {
    const Tensor big = host_of(d, {std::int64_t(vals.size())}, vals);
    const Tensor dbig = upload(be(), big);
    for (OpId op : {OpId::reduce_max, OpId::reduce_min}) check_reduce(be(), op, dbig, big, {0});
    const Tensor cols = host_of(d, {4, std::int64_t(vals.size()) / 4}, vals);
    check_reduce(be(), OpId::reduce_max, upload(be(), cols), cols, {1});
  }
}

TEST_F(CastReduceTest, IntegerSumsWrapAcrossPasses) {
  std::vector<Val> vals(1 << 20);
  for (std::size_t i = 0; i < vals.size(); ++i) vals[i].i = (i % 2 ? 1 : -1) * std::int64_t(2147483000 + i % 600);
  for (DType d : {DType::I32, DType::I64}) {
    const Tensor h = host_of(d, {std::int64_t(vals.size())}, vals);
    check_reduce(be(), OpId::reduce_sum, upload(be(), h), h, {0});
    check_reduce(be(), OpId::reduce_prod, upload(be(), h), h, {0});
    const Tensor h2 = host_of(d, {512, 2048}, vals);
    check_reduce(be(), OpId::reduce_sum, upload(be(), h2), h2, {1});
  }
}

TEST_F(CastReduceTest, FloatToIntegerErrorsAreSynchronousEvenInASession) {
  const Tensor h = host_of(DType::F32, {3}, {Val{0, 1.5}, Val{0, 3e9}, Val{0, -2.0}});
  const Tensor dv = upload(be(), h);
  with_session(be(), [&] {
    try {
      (void)cast(be(), dv, DType::I32);
      ADD_FAILURE() << "expected invalid_argument";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
      EXPECT_EQ(e.op(), "cast") << e.what();
    }
    // The backend stays usable: the same values cast to i64 truncate toward zero.
    const Tensor got = download(be(), cast(be(), dv, DType::I64));
    EXPECT_EQ(host_at(got, 0).i, 1);
    EXPECT_EQ(host_at(got, 1).i, 3000000000);
    EXPECT_EQ(host_at(got, 2).i, -2);
  });
  // i64 -> f32 rounds to nearest; i64 -> i32 keeps the low bits; c64 -> bool looks at both parts.
  const Tensor big = host_of(DType::I64, {2}, {Val{(std::int64_t{1} << 40) + 3, 0}, Val{(std::int64_t{1} << 33) + 5, 0}});
  const Tensor f = download(be(), cast(be(), upload(be(), big), DType::F32));
  EXPECT_EQ(host_at(f, 0).c.real(), double(float((std::int64_t{1} << 40) + 3)));
  const Tensor i = download(be(), cast(be(), upload(be(), big), DType::I32));
  EXPECT_EQ(host_at(i, 1).i, 5);
  const Tensor z = host_of(DType::C64, {3}, {Val{0, c128(0, 0)}, Val{0, c128(0, -2)}, Val{0, c128(std::nan(""), 0)}});
  const Tensor b = download(be(), cast(be(), upload(be(), z), DType::Bool));
  EXPECT_EQ(host_at(b, 0).i, 0);
  EXPECT_EQ(host_at(b, 1).i, 1);
  EXPECT_EQ(host_at(b, 2).i, 1);
}

TEST_F(CastReduceTest, TrilTriuBatchedStridedEveryElementSize) {
  std::mt19937_64 rng(3);
  for (DType d : {DType::Bool, DType::F32, DType::I64, DType::C64}) {
    const Tensor h = d == DType::Bool ? host_of(d, {7, 5, 3, 2}, std::vector<Val>(210, Val{1, 1.0}))
                                      : random_host(d, {7, 5, 3, 2}, rng);
    const Tensor dv = upload(be(), h);
    const TensorView hv = h.transpose({1, 0, 3, 2}).reverse({2});  // [5, 7, 2, 3]
    const TensorView dvv = dv.transpose({1, 0, 3, 2}).reverse({2});
    for (std::int64_t k : {-9, -2, 0, 1, 3, 9}) {
      for (bool lower : {true, false}) {
        const Tensor got = download(be(), lower ? tril(be(), dvv, k) : triu(be(), dvv, k));
        for (std::int64_t i = 0; i < got.numel(); ++i) {
          const std::int64_t row = i % 5, col = (i / 5) % 7;
          const bool keep = lower ? row >= col - k : row <= col - k;
          const Val w = keep ? host_at(hv, i) : Val{};
          const Val g = host_at(got, i);
          ASSERT_EQ(g.i, w.i) << dtype_name(d) << " k " << k << " element " << i;
          ASSERT_EQ(g.c, w.c) << dtype_name(d) << " k " << k << " element " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::vktest
