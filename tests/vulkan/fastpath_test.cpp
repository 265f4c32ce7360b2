// The contiguous fast path of record_dispatch (`*_contig` variants, 4 elements per invocation,
// wide accesses when aligned): odd sizes (tails), unaligned offsets (scalar fallback), broadcast
// scalars (stride 0) and kernel-detected errors, for copy, fill, unary, binary, compare, select
// and clamp over every dtype, against host loops.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "vk_test_util.hpp"

namespace tenferro::vktest {
namespace {

constexpr std::int64_t kSizes[] = {1, 3, 5, 1023, 4097};
constexpr std::int64_t kOffsets[] = {0, 1, 3};

// Small exact values: element k of operand `role`.
Val value(DType d, std::int64_t k, int role) {
  Val v;
  v.i = d == DType::Bool ? (k + role) % 2 : (k * (role + 2)) % 7 - 3;
  v.c = is_complex(d) ? std::complex<double>(double(v.i), double((k + role) % 3 - 1)) : std::complex<double>(double(v.i));
  return v;
}

// A rank-1 view of numel elements at `offset` (stride 1, or 0 for a broadcast scalar) over a
// device copy of host values value(d, k, role) laid out from element 0 of the storage.
struct Operand {
  Tensor host;  // storage contents, compact [offset + n]
  Tensor dev;
  TensorView view;
  Val at(std::int64_t i) const {
    const Layout& l = view.layout();
    return read_elem(host.storage()->host_data() + (l.offset + i * l.strides[0]) * std::int64_t(dtype_size(host.dtype())),
                     host.dtype());
  }
};

Operand make(Backend& be, DType d, std::int64_t n, std::int64_t offset, int role, bool bcast = false) {
  const std::int64_t total = offset + (bcast ? 1 : n);
  std::vector<Val> vals;
  for (std::int64_t k = 0; k < total; ++k) vals.push_back(value(d, k, role));
  Operand o;
  o.host = host_of(d, {total}, vals);
  o.dev = be.upload(o.host);
  o.view = TensorView(o.dev.storage(), d, Layout{{n}, {bcast ? 0 : 1}, offset});
  return o;
}

// A fresh output view [n] at `offset` inside a larger device tensor.
TensorView out_view(Backend& be, DType d, std::int64_t n, std::int64_t offset, Tensor& base) {
  base = be.allocate(d, {offset + n + 2});
  return TensorView(base.storage(), d, Layout{{n}, {1}, offset});
}

Val got_at(const Tensor& host_base, const TensorView& v, std::int64_t i) {
  return read_elem(host_base.storage()->host_data() + (v.layout().offset + i) * std::int64_t(dtype_size(v.dtype())),
                   v.dtype());
}

bool same(DType d, const Val& a, const Val& b) {
  if (is_integer(d) || d == DType::Bool) return a.i == b.i;
  return a.c == b.c;
}

std::string where(DType d, std::int64_t n, std::int64_t off, std::int64_t i) {
  return std::string(dtype_name(d)) + " n=" + std::to_string(n) + " off=" + std::to_string(off) + " i=" + std::to_string(i);
}

class FastPathTest : public VulkanTest {};

TEST_F(FastPathTest, CopyAndFillOddSizesAndOffsets) {
  for (DType d : kAllDTypes)
    for (std::int64_t n : kSizes)
      for (std::int64_t so : kOffsets)
        for (std::int64_t dof : {std::int64_t{0}, std::int64_t{2}}) {
          const Operand src = make(be(), d, n, so, 0);
          Tensor base;
          const TensorView dst = out_view(be(), d, n, dof, base);
          be().copy(src.view, dst);
          const Tensor got = be().download(base);
          for (std::int64_t i = 0; i < n; ++i)
            ASSERT_TRUE(same(d, got_at(got, dst, i), src.at(i))) << "copy " << where(d, n, so, i);

          const Scalar s = is_integer(d) || d == DType::Bool ? Scalar::of_int(d, 1) : Scalar::of_complex(d, {2.5, -1.5});
          be().fill(dst, s);
          const Tensor filled = be().download(base);
          Val want;
          want.i = 1;
          want.c = is_integer(d) || d == DType::Bool ? std::complex<double>(1) : (is_complex(d) ? std::complex<double>(2.5, -1.5) : 2.5);
          for (std::int64_t i = 0; i < n; ++i)
            ASSERT_TRUE(same(d, got_at(filled, dst, i), want)) << "fill " << where(d, n, dof, i);
        }
}

TEST_F(FastPathTest, ElementwiseFamiliesOddSizesOffsetsAndBroadcast) {
  for (DType d : kAllDTypes)
    for (std::int64_t n : kSizes)
      for (std::int64_t off : kOffsets)
        for (bool bcast : {false, true}) {
          const Operand a = make(be(), d, n, off, 0);
          const Operand b = make(be(), d, n, off == 0 ? 0 : off + 1, 1, bcast);
          const Operand c = make(be(), d, n, off == 0 ? 0 : 1, 2);
          const Operand pred = make(be(), DType::Bool, n, off, 3, bcast);
          const std::string tag = std::string(bcast ? " bcast " : " ") + where(d, n, off, 0);
          if (d != DType::Bool && be().supports(OpId::add, d)) {  // binary: add
            Tensor base;
            const TensorView out = out_view(be(), d, n, off, base);
            const TensorView in[2] = {a.view, b.view};
            be().elementwise(OpId::add, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i) {
              Val want;
              want.i = a.at(i).i + b.at(i).i;
              want.c = a.at(i).c + b.at(i).c;
              ASSERT_TRUE(same(d, got_at(got, out, i), want)) << "add" << tag << " i=" << i;
            }
          }
          if (d != DType::Bool && be().supports(OpId::neg, d)) {  // unary: neg
            Tensor base;
            const TensorView out = out_view(be(), d, n, off + 1, base);
            const TensorView in[1] = {a.view};
            be().elementwise(OpId::neg, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i) {
              Val want;
              want.i = -a.at(i).i;
              want.c = -a.at(i).c;
              ASSERT_TRUE(same(d, got_at(got, out, i), want)) << "neg" << tag << " i=" << i;
            }
          }
          if (is_complex(d) && be().supports(OpId::abs, d)) {  // unary_abs: real output
            Tensor base;
            const DType rd = real_dtype(d);
            const TensorView out = out_view(be(), rd, n, off, base);
            const TensorView in[1] = {a.view};
            be().elementwise(OpId::abs, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i) {
              const double want = std::abs(a.at(i).c);
              const double g = got_at(got, out, i).c.real();
              ASSERT_NEAR(g, want, 1e-6 * std::max(1.0, want)) << "abs" << tag << " i=" << i;
            }
          }
          if (be().supports(OpId::compare, d)) {  // compare: EQ (every dtype), output Bool
            Tensor base;
            const TensorView out = out_view(be(), DType::Bool, n, off, base);
            const TensorView in[2] = {a.view, b.view};
            be().elementwise(OpId::compare, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i) {
              const std::int64_t want = is_integer(d) || d == DType::Bool ? a.at(i).i == b.at(i).i : a.at(i).c == b.at(i).c;
              ASSERT_EQ(got_at(got, out, i).i, want) << "compare" << tag << " i=" << i;
            }
          }
          if (be().supports(OpId::select, d)) {  // select
            Tensor base;
            const TensorView out = out_view(be(), d, n, off, base);
            const TensorView in[3] = {pred.view, a.view, c.view};
            be().elementwise(OpId::select, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i)
              ASSERT_TRUE(same(d, got_at(got, out, i), pred.at(i).i ? a.at(i) : c.at(i))) << "select" << tag << " i=" << i;
          }
          if (!is_complex(d) && d != DType::Bool && be().supports(OpId::clamp, d)) {  // clamp
            Tensor base;
            const TensorView out = out_view(be(), d, n, off, base);
            const TensorView in[3] = {a.view, b.view, c.view};
            be().elementwise(OpId::clamp, in, out, CompareDir::EQ);
            const Tensor got = be().download(base);
            for (std::int64_t i = 0; i < n; ++i) {
              const double want = std::min(std::max(a.at(i).c.real(), b.at(i).c.real()), c.at(i).c.real());
              ASSERT_EQ(got_at(got, out, i).c.real(), want) << "clamp" << tag << " i=" << i;
            }
          }
        }
}

TEST_F(FastPathTest, DivisionByZeroIsReportedFromTheVectorAndTailPaths) {
  for (std::int64_t zero_at : {std::int64_t{5}, std::int64_t{1022}}) {  // vector body, tail
    std::vector<Val> num, den;
    for (std::int64_t k = 0; k < 1023; ++k) {
      Val x, y;
      x.i = k;
      y.i = k == zero_at ? 0 : 1;
      num.push_back(x);
      den.push_back(y);
    }
    const Tensor a = be().upload(host_of(DType::I32, {1023}, num));
    const Tensor z = be().upload(host_of(DType::I32, {1023}, den));
    Tensor q = be().allocate(DType::I32, {1023});
    const TensorView in[2] = {a, z};
    be().elementwise(OpId::div, in, q, CompareDir::EQ);
    try {
      be().synchronize();
      ADD_FAILURE() << "division by zero at " << zero_at << " not reported";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::numerical_failure);
      EXPECT_EQ(e.op(), "div");
    }
    be().synchronize();
  }
}

// Not the fast path: the strided path on a large rank-2 output (an outer product of broadcast
// operands and a transposed sum), where each invocation handles several elements.
TEST_F(FastPathTest, LargeRank2StridedOutputs) {
  const std::int64_t m = 2048, n = 2051;
  std::vector<Val> av, bv, tv;
  for (std::int64_t k = 0; k < m + 1; ++k) av.push_back(value(DType::F32, k, 0));
  for (std::int64_t k = 0; k < n + 2; ++k) bv.push_back(value(DType::F32, k, 1));
  for (std::int64_t k = 0; k < m * n; ++k) tv.push_back(value(DType::F32, k, 2));
  const Tensor ha = host_of(DType::F32, {m + 1}, av), hb = host_of(DType::F32, {n + 2}, bv);
  const Tensor ht = host_of(DType::F32, {n, m}, tv);
  const Tensor da = be().upload(ha), db = be().upload(hb), dt = be().upload(ht);
  const TensorView a(da.storage(), DType::F32, Layout{{m, n}, {1, 0}, 1});   // a[i] along rows
  const TensorView b(db.storage(), DType::F32, Layout{{m, n}, {0, 1}, 2});   // b[j] along columns
  const TensorView t(dt.storage(), DType::F32, Layout{{m, n}, {n, 1}, 0});   // transposed
  auto at = [](const Tensor& h, std::int64_t e) { return read_elem(h.storage()->host_data() + e * 4, DType::F32); };
  for (OpId op : {OpId::mul, OpId::add}) {
    Tensor out = be().allocate(DType::F32, {m, n});
    const TensorView in[2] = {a, op == OpId::mul ? b : t};
    be().elementwise(op, in, out, CompareDir::EQ);
    const Tensor got = be().download(out);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        const double x = at(ha, 1 + i).c.real();
        const double y = op == OpId::mul ? at(hb, 2 + j).c.real() : at(ht, i * n + j).c.real();
        const double want = op == OpId::mul ? x * y : x + y;
        ASSERT_EQ(at(got, i + j * m).c.real(), want) << op_name(op) << " i=" << i << " j=" << j;
      }
  }
}

// Not the fast path: rank > 2 strided layouts whose first axes make a block of 256..1024
// elements run on the inner-block table of shaders/common/index.glsl (blocks of 512, 315 with a
// partial last round of the workgroup, and 729 with two outer axes). Permuted, broadcast,
// offset and negative-stride views, for binary ops, select (four operands), compare (bool out),
// unary and fill, against host loops through Layout::offset_of.
TEST_F(FastPathTest, HighRankStridedTable) {
  const Shape shapes[] = {{8, 8, 8, 8}, {5, 7, 9, 11}, {3, 3, 3, 3, 3, 3, 3, 3}};
  int role = 0;
  for (const Shape& shape : shapes) {
    const auto r = static_cast<std::int64_t>(shape.size());
    // A view of `shape` over a device tensor of the same elements stored in reversed axis order
    // (all strides permuted), with an offset; `bcast_axis` >= 0 gets stride 0 there instead.
    struct Input {
      Tensor host, dev;
      TensorView view, host_view;
    };
    auto input = [&](DType d, std::int64_t bcast_axis, bool negate_last) {
      Shape stored(shape.rbegin(), shape.rend());
      const std::int64_t n = shape_numel(stored, "test") + 3;
      std::vector<Val> vals;
      for (std::int64_t k = 0; k < n; ++k) vals.push_back(value(d, k, role));
      ++role;
      Input in;
      in.host = host_of(d, {n}, vals);
      in.dev = be().upload(in.host);
      Layout l{shape, Strides(shape.size()), 3};
      std::int64_t st = 1;
      for (std::int64_t a = r - 1; a >= 0; --a) {
        l.strides[static_cast<std::size_t>(a)] = st;
        st *= shape[static_cast<std::size_t>(a)];
      }
      if (negate_last) {  // axis r-1 walked backwards: start at its last element
        l.offset += (shape.back() - 1) * l.strides.back();
        l.strides.back() = -l.strides.back();
      }
      if (bcast_axis >= 0) l.strides[static_cast<std::size_t>(bcast_axis)] = 0;
      in.view = TensorView(in.dev.storage(), d, l);
      in.host_view = TensorView(in.host.storage(), d, l);
      return in;
    };
    const std::int64_t numel = shape_numel(shape, "test");
    auto check = [&](const Tensor& out, const std::string& what, auto&& want) {
      const Tensor got = be().download(out);
      for (std::int64_t i = 0; i < numel; ++i) {
        const Val g = host_at(got, i), w = want(i);
        ASSERT_TRUE(same(out.dtype(), g, w)) << what << " shape rank " << r << " i=" << i;
      }
    };
    for (DType d : {DType::F32, DType::F64, DType::I64, DType::C64}) {
      const Input a = input(d, -1, true), b = input(d, 1, false);
      Tensor sum = be().allocate(d, shape);
      const TensorView ab[2] = {a.view, b.view};
      be().elementwise(OpId::add, ab, sum, CompareDir::EQ);
      check(sum, std::string("add ") + std::string(dtype_name(d)), [&](std::int64_t i) {
        Val x = host_at(a.host_view, i), y = host_at(b.host_view, i), z;
        z.i = x.i + y.i;
        z.c = x.c + y.c;
        return z;
      });
      Tensor cmp = be().allocate(DType::Bool, shape);
      be().elementwise(OpId::compare, ab, cmp, CompareDir::NE);
      check(cmp, std::string("compare ") + std::string(dtype_name(d)), [&](std::int64_t i) {
        Val z;
        z.i = is_integer(d) ? host_at(a.host_view, i).i != host_at(b.host_view, i).i
                            : host_at(a.host_view, i).c != host_at(b.host_view, i).c;
        z.c = double(z.i);
        return z;
      });
      const Input pred = input(DType::Bool, 0, false), f = input(d, 2, true);
      Tensor sel = be().allocate(d, shape);
      const TensorView pf[3] = {pred.view, a.view, f.view};
      be().elementwise(OpId::select, pf, sel, CompareDir::EQ);
      check(sel, std::string("select ") + std::string(dtype_name(d)), [&](std::int64_t i) {
        return host_at(pred.host_view, i).i != 0 ? host_at(a.host_view, i) : host_at(f.host_view, i);
      });
      Tensor neg = be().allocate(d, shape);
      const TensorView na[1] = {a.view};
      be().elementwise(OpId::neg, na, neg, CompareDir::EQ);
      check(neg, std::string("neg ") + std::string(dtype_name(d)), [&](std::int64_t i) {
        Val x = host_at(a.host_view, i);
        x.i = -x.i;
        x.c = -x.c;
        return x;
      });
      // fill into a permuted, offset view of a larger tensor: every element of the view set.
      Tensor base = be().allocate(d, {numel + 5});
      Layout fl{shape, Strides(shape.size()), 5};
      std::int64_t st = 1;
      for (std::int64_t k = r - 1; k >= 0; --k) {
        fl.strides[static_cast<std::size_t>(k)] = st;
        st *= shape[static_cast<std::size_t>(k)];
      }
      be().fill(TensorView(base.storage(), d, fl), Scalar::of(DType::F64, 2.0));
      const Tensor filled = be().download(base);
      for (std::int64_t i = 0; i < numel; ++i) {
        const Val g = read_elem(filled.storage()->host_data() + fl.offset_of(i) * std::int64_t(dtype_size(d)), d);
        ASSERT_TRUE(g.c == std::complex<double>(2.0) && (!is_integer(d) || g.i == 2)) << "fill " << dtype_name(d) << " i=" << i;
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::vktest
