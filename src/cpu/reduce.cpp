// CPU reduction kernel: reduce_sum, reduce_prod, reduce_max, reduce_min over sorted, unique,
// non-empty axes of extent > 0 (validated by core), for any strided input view and any
// output view with x's shape minus the reduced axes.
//
// Numerics:
//   - integers accumulate in the unsigned type of the element: sums and products wrap;
//   - float max/min propagate NaN (a NaN anywhere in the reduced set gives NaN);
//   - float and complex sums accumulate in the element type (complex: per part) pairwise:
//     8 interleaved accumulators over leaves of <= 256 elements, halves combined recursively
//     (long contiguous rows: 4 parts read in lockstep, leaves combined by a binary cascade),
//     and rows/chunks combined by a binary cascade: error <= about (40 + log2 n) eps sum|x_i|
//     (f32: eps = 2^-23). Outer-axis tiles (b) add rows in blocks of 128 then sum the blocks:
//     error <= about (128 + n/128 + log2 n) eps sum|x_i|. Both stay inside n eps sum|x_i|.
//   - products multiply in the element type in sequence order per lane (relative error
//     <= ~n * eps for reals).
//
// Strategy (after canonicalizing: negative strides flipped, extent-1 axes dropped, kept and
// reduced axes each sorted by stride and coalesced):
//   (a) the fastest-varying memory axis is reduced ("inner"): every output element is a
//       reduction over contiguous-ish rows (vectorizable inner loop with 8 accumulators);
//   (b) the fastest memory axis is kept ("outer"): tiles of outputs along that axis
//       accumulate rows, acc[j] = acc[j] op x[r, j], contiguous in j;
//   (c) any other stride pattern goes through the same two paths with strided inner loops.
// Work is split across the pool's threads over outputs, and when there are too few outputs, over
// chunks of the reduced index space whose partial results are combined afterwards.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend_common/reduce_layout.hpp"
#include "cpu_backend.hpp"
#include "minmax.hpp"
#include "strided.hpp"

namespace tenferro::cpu {

namespace {

using i64 = std::int64_t;

// ---- accumulation policies: A accumulator, init(), load(T), merge(A, A), finish(A) --------
template <class T, bool = std::is_integral_v<T>> struct AccOf { using type = T; };
template <class T> struct AccOf<T, true> { using type = std::make_unsigned_t<T>; };

template <class T> struct SumOp {
  using A = typename AccOf<T>::type;
  static constexpr bool kPairwise = !std::is_integral_v<T>;
  static constexpr bool kIdempotent = false;
  static A init() { return A(0); }
  static A load(T x) { return static_cast<A>(x); }
  static A merge(A a, A b) { return a + b; }
  static T finish(A a) { return static_cast<T>(a); }
};

template <class T> struct ProdOp {
  using A = typename AccOf<T>::type;
  static constexpr bool kPairwise = false;
  static constexpr bool kIdempotent = false;
  static A init() { return A(1); }
  static A load(T x) { return static_cast<A>(x); }
  static A merge(A a, A b) { return a * b; }
  static T finish(A a) { return static_cast<T>(a); }
};

template <class T> struct MaxOp {
  using A = T;
  static constexpr bool kPairwise = false;
  static constexpr bool kIdempotent = true;
  static A init() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  static A load(T x) { return x; }
  static A merge(A a, A b) { return ieee_max(a, b); }  // NaN wins, -0 < +0 (minmax.hpp)
  static T finish(A a) { return a; }
};

template <class T> struct MinOp {
  using A = T;
  static constexpr bool kPairwise = false;
  static constexpr bool kIdempotent = true;
  static A init() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  static A load(T x) { return x; }
  static A merge(A a, A b) { return ieee_min(a, b); }
  static T finish(A a) { return a; }
};

// ---- row reduction ----------------------------------------------------------------------
constexpr int kLanes = 8;
constexpr i64 kLeaf = 256;             // elements per pairwise leaf
constexpr i64 kPrefetchBytes = 1024;   // software prefetch distance for contiguous rows (+10%
                                       // read bandwidth measured on the 2-core EPYC VM)

template <class Op, bool Contig, class T>
typename Op::A row_leaf(const T* p, i64 n, i64 s) {
  using A = typename Op::A;
  A acc[kLanes];
  for (int k = 0; k < kLanes; ++k) acc[k] = Op::init();
  i64 i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    if constexpr (Contig) {
      // Prefetching past the end is harmless: prefetches never fault.
      const char* ahead = reinterpret_cast<const char*>(p + i) + kPrefetchBytes;
      for (std::size_t b = 0; b < kLanes * sizeof(T); b += 64) __builtin_prefetch(ahead + b, 0, 0);
    }
    for (int k = 0; k < kLanes; ++k)
      acc[k] = Op::merge(acc[k], Op::load(Contig ? p[i + k] : p[(i + k) * s]));
  }
  for (; i < n; ++i) acc[i % kLanes] = Op::merge(acc[i % kLanes], Op::load(Contig ? p[i] : p[i * s]));
  for (int w = kLanes / 2; w > 0; w /= 2)
    for (int k = 0; k < w; ++k) acc[k] = Op::merge(acc[k], acc[k + w]);
  return acc[0];
}

/// Reduction of p[0], p[s], ..., p[(n-1)s]; pairwise halves for float sums.
template <class Op, bool Contig, class T>
typename Op::A row_reduce(const T* p, i64 n, i64 s) {
  if (!Op::kPairwise || n <= kLeaf) return row_leaf<Op, Contig>(p, n, s);
  const i64 h = (n / 2 + kLanes - 1) / kLanes * kLanes;
  return Op::merge(row_reduce<Op, Contig>(p, h, s), row_reduce<Op, Contig>(p + h * s, n - h, s));
}

/// Combines a stream of partial results pairwise (binary counter) when Op is pairwise,
/// sequentially otherwise.
template <class Op> struct Cascade {
  using A = typename Op::A;
  A level[64];
  std::uint64_t count = 0;
  A seq = Op::init();
  void push(A v) {
    if constexpr (!Op::kPairwise) {
      seq = Op::merge(seq, v);
    } else {
      std::uint64_t c = count;
      int k = 0;
      for (; c & 1; c >>= 1, ++k) v = Op::merge(level[k], v);
      level[k] = v;
      ++count;
    }
  }
  A total() const {
    if constexpr (!Op::kPairwise) {
      return seq;
    } else {
      A t = Op::init();
      for (int k = 0; k < 64; ++k)
        if ((count >> k) & 1) t = Op::merge(level[k], t);
      return t;
    }
  }
};

constexpr int kStreams = 4;           // concurrent sequential streams in long contiguous rows
constexpr i64 kStreamMin = 1 << 16;   // rows shorter than this use one stream

/// Long contiguous rows: kStreams equal parts read in lockstep (more memory-level parallelism
/// than one stream: +25% read bandwidth on the 2-core EPYC VM); each part is still summed
/// pairwise (leaves of kLeaf, combined by a cascade).
template <class Op, class T> typename Op::A row_streams(const T* p, i64 n) {
  using A = typename Op::A;
  constexpr int kL = 4;  // lanes per stream: kStreams * kL accumulators fit the 16 SSE registers
  const i64 part = n / kStreams / kLeaf * kLeaf;
  Cascade<Op> cas[kStreams];
  for (i64 off = 0; off < part; off += kLeaf) {
    A acc[kStreams][kL];
    for (auto& st : acc)
      for (A& a : st) a = Op::init();
    for (i64 i = off; i < off + kLeaf; i += kL)
      for (int st = 0; st < kStreams; ++st)
        for (int k = 0; k < kL; ++k) acc[st][k] = Op::merge(acc[st][k], Op::load(p[st * part + i + k]));
    for (int st = 0; st < kStreams; ++st)
      cas[st].push(Op::merge(Op::merge(acc[st][0], acc[st][2]), Op::merge(acc[st][1], acc[st][3])));
  }
  A t = row_reduce<Op, true>(p + kStreams * part, n - kStreams * part, 1);
  for (int st = 0; st < kStreams; ++st) t = Op::merge(cas[st].total(), t);
  return t;
}

template <class Op, class T> typename Op::A row_any(const T* p, i64 n, i64 s) {
  if (s == 1) return n >= kStreamMin ? row_streams<Op>(p, n) : row_reduce<Op, true>(p, n, 1);
  return row_reduce<Op, false>(p, n, s);
}

// ---- canonical geometry -------------------------------------------------------------------
using Ax = detail::ReduceAxis;

/// An odometer over axes; tracks input and output offsets.
struct Odo {
  const std::vector<Ax>* axes = nullptr;
  std::size_t first = 0;  // axes[first..] are walked
  std::vector<i64> idx;
  i64 xoff = 0, ooff = 0;

  void init(const std::vector<Ax>& a, std::size_t from) {
    axes = &a;
    first = from;
    idx.assign(a.size(), 0);
  }
  void seek(i64 lin, i64 x0, i64 o0) {
    xoff = x0;
    ooff = o0;
    for (std::size_t k = first; k < axes->size(); ++k) {
      const Ax& ax = (*axes)[k];
      idx[k] = lin % ax.n;
      lin /= ax.n;
      xoff += idx[k] * ax.sx;
      ooff += idx[k] * ax.so;
    }
  }
  void next() {
    for (std::size_t k = first; k < axes->size(); ++k) {
      const Ax& ax = (*axes)[k];
      xoff += ax.sx;
      ooff += ax.so;
      if (++idx[k] < ax.n) return;
      xoff -= ax.n * ax.sx;
      ooff -= ax.n * ax.so;
      idx[k] = 0;
    }
  }
};

using detail::sort_key;

/// Sorts by input stride (stride 0 last) and merges axes that walk memory as one.
i64 product(const std::vector<Ax>& axes, std::size_t from = 0) {
  i64 p = 1;
  for (std::size_t k = from; k < axes.size(); ++k) p *= axes[k].n;
  return p;
}

using Plan = detail::ReduceLayout;

template <class Op>
Plan make_plan(const TensorView& x, const Axes& axes, const TensorView& out) {
  return detail::make_reduce_layout(x, axes, out, Op::kIdempotent);
}

// ---- (a) inner: the fastest memory axis is reduced ----------------------------------------
/// Reduction of the reduced-space linear range [b, e) of the output at input offset xoff.
template <class Op, class T>
typename Op::A reduce_range(const T* px, const std::vector<Ax>& red, Odo& ro, i64 xoff, i64 b, i64 e) {
  const Ax& r0 = red[0];
  if (red.size() == 1) return row_any<Op>(px + xoff + b * r0.sx, e - b, r0.sx);
  Cascade<Op> cas;
  i64 i0 = b % r0.n;
  ro.seek(b / r0.n, xoff, 0);
  while (b < e) {
    const i64 cnt = std::min(r0.n - i0, e - b);
    cas.push(row_any<Op>(px + ro.xoff + i0 * r0.sx, cnt, r0.sx));
    b += cnt;
    i0 = 0;
    ro.next();
  }
  return cas.total();
}

template <class Op, class T> void run_inner(const Plan& pl, const T* px, T* po) {
  using A = typename Op::A;
  const i64 O = product(pl.kept), N = product(pl.red);
  const int nt = max_threads();
  const bool parallel = O * N >= kParallelThreshold && nt > 1;
  // Too few outputs to keep every thread busy: split each reduction into C chunks.
  i64 C = 1;
  if (parallel && O < 2 * nt) C = std::max<i64>(1, std::min<i64>((2 * nt + O - 1) / O, N / 4096));
  if (C == 1) {
    auto body = [&](i64 ob, i64 oe) {
      Odo ko, ro;
      ko.init(pl.kept, 0);
      ro.init(pl.red, 1);
      ko.seek(ob, pl.x0, pl.o0);
      for (i64 o = ob; o < oe; ++o, ko.next())
        po[ko.ooff] = Op::finish(reduce_range<Op>(px, pl.red, ro, ko.xoff, 0, N));
    };
    parallel_chunks(O, parallel ? nt : 1, [&](i64 b, i64 e, int) { body(b, e); });
    return;
  }
  std::vector<A> part(static_cast<std::size_t>(O * C));
  parallel_chunks(O * C, nt, [&](i64 b, i64 e, int) {
    for (i64 t = b; t < e; ++t) {
      Odo ko, ro;
      ko.init(pl.kept, 0);
      ro.init(pl.red, 1);
      const i64 o = t / C, c = t % C;
      ko.seek(o, pl.x0, pl.o0);
      part[static_cast<std::size_t>(t)] = reduce_range<Op>(px, pl.red, ro, ko.xoff, c * N / C, (c + 1) * N / C);
    }
  });
  Odo ko;
  ko.init(pl.kept, 0);
  ko.seek(0, pl.x0, pl.o0);
  for (i64 o = 0; o < O; ++o, ko.next()) {
    Cascade<Op> cas;
    for (i64 c = 0; c < C; ++c) cas.push(part[static_cast<std::size_t>(o * C + c)]);
    po[ko.ooff] = Op::finish(cas.total());
  }
}

// ---- (b) outer: the fastest memory axis is kept --------------------------------------------
constexpr i64 kMaxTile = 2048;  // outputs per tile (two accumulator buffers stay in L1/L2)
constexpr i64 kRowBlock = 128;  // rows per block before folding into the total (float sums)

/// acc[j] = reduction over reduced-space range [b, e) of x[xoff + r + j*s0], j < w.
template <class Op, bool Contig, class T>
void tile_range(const T* px, const std::vector<Ax>& red, Odo& ro, i64 xoff, i64 w, i64 s0, i64 b, i64 e,
                typename Op::A* tot, typename Op::A* blk) {
  const Ax& r0 = red[0];
  for (i64 j = 0; j < w; ++j) tot[j] = Op::init();
  typename Op::A* acc = Op::kPairwise ? blk : tot;
  if (Op::kPairwise)
    for (i64 j = 0; j < w; ++j) blk[j] = Op::init();
  i64 rows_in_block = 0;
  i64 i0 = b % r0.n;
  ro.seek(b / r0.n, xoff, 0);
  while (b < e) {
    const i64 cnt = std::min(r0.n - i0, e - b);
    for (i64 i = i0; i < i0 + cnt; ++i) {
      const T* p = px + ro.xoff + i * r0.sx;
      for (i64 j = 0; j < w; ++j) acc[j] = Op::merge(acc[j], Op::load(Contig ? p[j] : p[j * s0]));
      if (Op::kPairwise && ++rows_in_block == kRowBlock) {
        for (i64 j = 0; j < w; ++j) {
          tot[j] = Op::merge(tot[j], blk[j]);
          blk[j] = Op::init();
        }
        rows_in_block = 0;
      }
    }
    b += cnt;
    i0 = 0;
    ro.next();
  }
  if (Op::kPairwise)
    for (i64 j = 0; j < w; ++j) tot[j] = Op::merge(tot[j], blk[j]);
}

template <class Op, class T> void run_outer(const Plan& pl, const T* px, T* po) {
  using A = typename Op::A;
  const Ax k0 = pl.kept[0];
  const i64 N = product(pl.red), O1 = product(pl.kept, 1);
  const i64 W = std::min(k0.n, kMaxTile), tiles = (k0.n + W - 1) / W, tasks = tiles * O1;
  const int nt = max_threads();
  const bool parallel = k0.n * O1 * N >= kParallelThreshold && nt > 1;
  i64 C = 1;
  if (parallel && tasks < 2 * nt)
    C = std::max<i64>(1, std::min<i64>((2 * nt + tasks - 1) / tasks, N * W / 4096));
  std::vector<A> part(C > 1 ? static_cast<std::size_t>(tasks * C * W) : 0);
  auto body = [&](i64 tb, i64 te) {
    std::vector<A> tot(static_cast<std::size_t>(W)), blk(static_cast<std::size_t>(W));
    Odo ko, ro;
    ko.init(pl.kept, 1);
    ro.init(pl.red, 1);
    for (i64 tc = tb; tc < te; ++tc) {
      const i64 t = tc / C, c = tc % C, tile = t % tiles;
      ko.seek(t / tiles, pl.x0 + tile * W * k0.sx, pl.o0 + tile * W * k0.so);
      const i64 w = std::min(W, k0.n - tile * W), rb = c * N / C, re = (c + 1) * N / C;
      if (k0.sx == 1)
        tile_range<Op, true>(px, pl.red, ro, ko.xoff, w, 1, rb, re, tot.data(), blk.data());
      else
        tile_range<Op, false>(px, pl.red, ro, ko.xoff, w, k0.sx, rb, re, tot.data(), blk.data());
      if (C == 1) {
        for (i64 j = 0; j < w; ++j) po[ko.ooff + j * k0.so] = Op::finish(tot[static_cast<std::size_t>(j)]);
      } else {
        std::copy(tot.begin(), tot.begin() + w, part.begin() + (t * C + c) * W);
      }
    }
  };
  parallel_chunks(tasks * C, parallel ? nt : 1, [&](i64 b, i64 e, int) { body(b, e); });
  if (C == 1) return;
  Odo ko;
  ko.init(pl.kept, 1);
  for (i64 t = 0; t < tasks; ++t) {
    const i64 tile = t % tiles, w = std::min(W, k0.n - tile * W);
    ko.seek(t / tiles, 0, pl.o0 + tile * W * k0.so);
    for (i64 j = 0; j < w; ++j) {
      Cascade<Op> cas;
      for (i64 c = 0; c < C; ++c) cas.push(part[static_cast<std::size_t>((t * C + c) * W + j)]);
      po[ko.ooff + j * k0.so] = Op::finish(cas.total());
    }
  }
}

template <class Op, class T> void run(const TensorView& x, const Axes& axes, const TensorView& out) {
  const Plan pl = make_plan<Op>(x, axes, out);
  const T* px = base_ptr<const T>(x);
  T* po = base_ptr<T>(out);
  const bool inner = pl.kept.empty() || sort_key(pl.red[0].sx) <= sort_key(pl.kept[0].sx);
  if (inner) run_inner<Op>(pl, px, po);
  else run_outer<Op>(pl, px, po);
}

template <class T> void dispatch(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  switch (op) {
    case OpId::reduce_sum: return run<SumOp<T>, T>(x, axes, out);
    case OpId::reduce_prod: return run<ProdOp<T>, T>(x, axes, out);
    case OpId::reduce_max:
      if constexpr (std::is_arithmetic_v<T>) return run<MaxOp<T>, T>(x, axes, out);
      break;
    case OpId::reduce_min:
      if constexpr (std::is_arithmetic_v<T>) return run<MinOp<T>, T>(x, axes, out);
      break;
      // Every other op: no default, so a new reduction without its case fails to compile.
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_OP_CASE_UNLESS_R_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
      break;
  }
  TENFERRO_FAIL(internal, "reduce_kernel", "op", "op ", op_name(op), " with dtype ",
                dtype_name(x.dtype()), " reached the CPU reduction kernel");
}

}  // namespace

void reduce_kernel(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  TENFERRO_ASSERT(!axes.empty() && out.numel() > 0 && x.dtype() == out.dtype());
  switch (x.dtype()) {
    case DType::F32: return dispatch<float>(op, x, axes, out);
    case DType::F64: return dispatch<double>(op, x, axes, out);
    case DType::I32: return dispatch<std::int32_t>(op, x, axes, out);
    case DType::I64: return dispatch<std::int64_t>(op, x, axes, out);
    case DType::C32: return dispatch<c32>(op, x, axes, out);
    case DType::C64: return dispatch<c64>(op, x, axes, out);
    case DType::Bool: break;
  }
  TENFERRO_FAIL(internal, "reduce_kernel", "x", "dtype ", dtype_name(x.dtype()),
                " reached the CPU reduction kernel");
}

}  // namespace tenferro::cpu
