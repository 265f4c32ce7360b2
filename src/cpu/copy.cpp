// CPU data-movement kernels: fill, strided copy (the primitive every structural op lowers
// to) and the triangular mask. None of them cares about element semantics, so they dispatch on
// the element size (1, 4, 8 or 16 bytes) rather than the dtype: 4 instantiations, not 7.
//
// copy_kernel strategy:
//   1. canonicalize: drop extent-1 axes, flip axes whose dst stride is negative (in both views,
//      which keeps the element mapping), sort axes by dst stride and merge axes that are
//      contiguous in both views.
//   2. if the src-fastest axis is the dst-fastest axis (or src is broadcast there) the copy
//      is a set of rows: for_each_row, memcpy when both rows are unit-stride.
//   3. otherwise (a transpose) the copy is cache-blocked: a tile is the product of a few
//      dst-fastest axes (group A) and a few src-fastest axes (group B), ~64 x 64 elements;
//      large axes are split into blocks; all other axes are walked by an odometer and tiles are
//      spread over the pool's threads. Small extents (rank-24 permutations of 2s) are grouped so
//      a tile still holds thousands of elements.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "cpu_backend.hpp"
#include "strided.hpp"

namespace tenferro::cpu {

namespace {

struct Word16 {
  std::uint64_t lo, hi;
};

/// Calls f(type_tag<W>{}) with W an unsigned word of `bytes` bytes.
template <class F> void dispatch_size(std::size_t bytes, F&& f) {
  switch (bytes) {
    case 1: f(type_tag<std::uint8_t>{}); return;
    case 4: f(type_tag<std::uint32_t>{}); return;
    case 8: f(type_tag<std::uint64_t>{}); return;
    case 16: f(type_tag<Word16>{}); return;
    default: TENFERRO_ASSERT(false && "unexpected element size");
  }
}

// ---- fill --------------------------------------------------------------------------------

template <class W> void fill_words(const TensorView& out, W w) {
  W* base = base_ptr<W>(out);
  for_each_row<1>({&out.layout()}, [&](std::int64_t count, const std::array<std::int64_t, 1>& offs,
                                       const std::array<std::int64_t, 1>& inner) {
    W* p = base + offs[0];
    if (inner[0] == 1) {
      std::fill_n(p, count, w);
    } else {
      for (std::int64_t i = 0; i < count; ++i) p[i * inner[0]] = w;
    }
  });
}

// ---- copy --------------------------------------------------------------------------------

/// One axis of a copy: extent, src stride, dst stride (elements).
struct Ax {
  std::int64_t n, s, d;
};

std::int64_t iabs(std::int64_t v) { return v < 0 ? -v : v; }

/// Axes of the jointly canonicalized (src, dst) pair; adjusts the offsets for flipped axes.
std::vector<Ax> canonical_axes(const TensorView& src, const TensorView& dst, std::int64_t& so,
                               std::int64_t& dso) {
  std::vector<Ax> axes;
  so = src.offset();
  dso = dst.offset();
  for (std::size_t i = 0; i < dst.shape().size(); ++i) {
    Ax a{dst.shape()[i], src.strides()[i], dst.strides()[i]};
    if (a.n == 1) continue;
    if (a.d < 0) {  // walk the dst axis forward; the same flip on src keeps the mapping
      so += (a.n - 1) * a.s;
      dso += (a.n - 1) * a.d;
      a.s = -a.s;
      a.d = -a.d;
    }
    axes.push_back(a);
  }
  std::stable_sort(axes.begin(), axes.end(), [](const Ax& x, const Ax& y) {
    return x.d != y.d ? x.d < y.d : iabs(x.s) < iabs(y.s);
  });
  std::vector<Ax> merged;
  for (const Ax& a : axes) {
    if (!merged.empty() && merged.back().d * merged.back().n == a.d &&
        merged.back().s * merged.back().n == a.s) {
      merged.back().n *= a.n;
    } else {
      merged.push_back(a);
    }
  }
  return merged;
}

/// Offsets (src, dst) of every colex index of the axes `ids`.
void offset_table(const std::vector<Ax>& axes, const std::vector<std::size_t>& ids,
                  std::vector<std::int64_t>& os, std::vector<std::int64_t>& od) {
  os.assign(1, 0);
  od.assign(1, 0);
  for (std::size_t id : ids) {
    const Ax& a = axes[id];
    const std::size_t prev = os.size();
    for (std::int64_t k = 1; k < a.n; ++k)
      for (std::size_t j = 0; j < prev; ++j) {
        os.push_back(os[j] + k * a.s);
        od.push_back(od[j] + k * a.d);
      }
  }
}

/// Target element count per tile side: a 64 x 64 tile of 8-byte words is 32 KiB.
std::int64_t tile_side(std::size_t bytes) { return bytes >= 16 ? 32 : 64; }

template <class W>
void copy_tiled(const W* src, W* dst, std::vector<Ax> axes, std::size_t b, bool parallel) {
  const std::int64_t tb = tile_side(sizeof(W));
  // Split a blocked axis whose extent is not a multiple of the tile side: the bulk and the
  // remainder are copied separately so every tile below is full.
  for (std::size_t i : {std::size_t{0}, b}) {
    const Ax a = axes[i];
    if (a.n > tb && a.n % tb != 0) {
      std::vector<Ax> bulk = axes, rest = axes;
      bulk[i].n = (a.n / tb) * tb;
      rest[i].n = a.n % tb;
      copy_tiled(src, dst, bulk, b, parallel);
      copy_tiled(src + bulk[i].n * a.s, dst + bulk[i].n * a.d, rest, b, parallel);
      return;
    }
  }
  // Tile groups. A: dst-fastest axes; B: src-fastest axes; outer: everything else.
  std::vector<Ax> all = axes;
  std::vector<std::size_t> ga, gb, outer;
  std::vector<bool> used(axes.size(), false);
  auto take = [&](std::size_t i, std::vector<std::size_t>& g, std::int64_t& prod) {
    used[i] = true;
    if (axes[i].n > tb) {  // blocked: inner part in the tile, block index outer
      all[i].n = tb;
      all.push_back(Ax{axes[i].n / tb, axes[i].s * tb, axes[i].d * tb});
      outer.push_back(all.size() - 1);
      prod = tb;
    } else {
      prod = axes[i].n;
    }
    g.push_back(i);
  };
  std::int64_t pa = 1, pb = 1;
  take(0, ga, pa);
  take(b, gb, pb);
  for (std::size_t i = 1; i < axes.size(); ++i) {  // more dst-fastest axes into A
    if (used[i]) continue;
    if (pa * axes[i].n > tb) break;
    used[i] = true;
    ga.push_back(i);
    pa *= axes[i].n;
  }
  std::vector<std::size_t> by_src;
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!used[i]) by_src.push_back(i);
  std::stable_sort(by_src.begin(), by_src.end(),
                   [&](std::size_t x, std::size_t y) { return iabs(axes[x].s) < iabs(axes[y].s); });
  for (std::size_t i : by_src) {  // more src-fastest axes into B
    if (pb * axes[i].n > tb) break;
    used[i] = true;
    gb.push_back(i);
    pb *= axes[i].n;
  }
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!used[i]) outer.push_back(i);

  std::vector<std::int64_t> as, ad, bs, bd;
  offset_table(all, ga, as, ad);
  offset_table(all, gb, bs, bd);
  std::int64_t n_outer = 1;
  for (std::size_t i : outer) n_outer *= all[i].n;
  const bool single_a = ga.size() == 1;
  const std::int64_t sa = all[ga[0]].s, da = all[ga[0]].d;
  const std::size_t ro = outer.size();
  // Micro-block side: 4 cache lines of elements (measured on a 16-core x86 host: one line
  // per block costs ~25% against 4; the tile itself is 64 x 64 or 32 x 32).
  constexpr std::int64_t kLine = static_cast<std::int64_t>(256 / sizeof(W));
  const bool par = parallel && n_outer > 1;
  const int nt = par ? max_threads() : 1;
  std::vector<std::int64_t> idx_store(static_cast<std::size_t>(nt) * (ro + 1), 0);

  parallel_chunks(n_outer, nt, [&](std::int64_t begin, std::int64_t end, int t) {
    std::int64_t* idx = idx_store.data() + static_cast<std::size_t>(t) * (ro + 1);
    std::int64_t os = 0, od = 0, rest = begin;
    for (std::size_t k = 0; k < ro; ++k) {
      const Ax& a = all[outer[k]];
      idx[k] = rest % a.n;
      rest /= a.n;
      os += idx[k] * a.s;
      od += idx[k] * a.d;
    }
    for (std::int64_t q = begin; q < end; ++q) {
      // Micro-blocks of a few cache lines per side: the lines fetched (src rows along B, dst
      // rows along A) are used up before the next block, so large power-of-two strides cannot
      // thrash a cache set between uses.
      for (std::int64_t jb0 = 0; jb0 < pb; jb0 += kLine) {
        const std::int64_t jb1 = std::min(pb, jb0 + kLine);
        for (std::int64_t ia0 = 0; ia0 < pa; ia0 += kLine) {
          const std::int64_t ia1 = std::min(pa, ia0 + kLine);
          for (std::int64_t jb = jb0; jb < jb1; ++jb) {
            const W* sp = src + os + bs[static_cast<std::size_t>(jb)];
            W* dp = dst + od + bd[static_cast<std::size_t>(jb)];
            if (single_a && da == 1) {  // the common case: dst rows are contiguous
              for (std::int64_t ia = ia0; ia < ia1; ++ia) dp[ia] = sp[ia * sa];
            } else if (single_a) {
              for (std::int64_t ia = ia0; ia < ia1; ++ia) dp[ia * da] = sp[ia * sa];
            } else {
              for (std::int64_t ia = ia0; ia < ia1; ++ia)
                dp[ad[static_cast<std::size_t>(ia)]] = sp[as[static_cast<std::size_t>(ia)]];
            }
          }
        }
      }
      for (std::size_t k = 0; k < ro; ++k) {  // advance the outer odometer
        const Ax& a = all[outer[k]];
        os += a.s;
        od += a.d;
        if (++idx[k] < a.n) break;
        os -= a.n * a.s;
        od -= a.n * a.d;
        idx[k] = 0;
      }
    }
  });
}

template <class W>
void copy_words(const W* src, W* dst, const std::vector<Ax>& axes, std::int64_t numel) {
  if (axes.empty()) {
    *dst = *src;
    return;
  }
  const bool parallel = numel >= kParallelThreshold;
  // The src-fastest axis (ignoring broadcast axes, whose reads stay in cache anyway).
  std::size_t b = 0;
  for (std::size_t i = 1; i < axes.size(); ++i)
    if (axes[i].s != 0 && (axes[b].s == 0 || iabs(axes[i].s) < iabs(axes[b].s))) b = i;
  if (b != 0 && axes[0].s != 0 && axes[0].n > 1) {
    copy_tiled(src, dst, axes, b, parallel);
    return;
  }
  Layout ls, ld;
  for (const Ax& a : axes) {
    ls.shape.push_back(a.n);
    ls.strides.push_back(a.s);
    ld.strides.push_back(a.d);
  }
  ld.shape = ls.shape;
  for_each_row<2>({&ld, &ls}, [&](std::int64_t count, const std::array<std::int64_t, 2>& offs,
                                  const std::array<std::int64_t, 2>& inner) {
    W* dp = dst + offs[0];
    const W* sp = src + offs[1];
    if (inner[0] == 1 && inner[1] == 1) {
      std::memcpy(static_cast<void*>(dp), static_cast<const void*>(sp),
                  static_cast<std::size_t>(count) * sizeof(W));
    } else if (inner[1] == 0) {
      // Broadcast source: one value per row.
      const W v = *sp;
      for (std::int64_t i = 0; i < count; ++i) dp[i * inner[0]] = v;
    } else {
      for (std::int64_t i = 0; i < count; ++i) dp[i * inner[0]] = sp[i * inner[1]];
    }
  });
}

// ---- triangular --------------------------------------------------------------------------

template <class W>
void triangular_words(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) {
  const Shape& shape = x.shape();
  const std::int64_t m = shape[0], n = shape[1];
  // Beyond these bounds the mask is all-keep or all-zero; clamping keeps j - k from overflowing.
  k = std::clamp<std::int64_t>(k, -m, n);
  const std::int64_t columns = x.numel() / m;  // n * batch
  const W* xs = base_ptr<W>(x);
  W* os = base_ptr<W>(out);
  const std::int64_t xr = x.strides()[0], orow = out.strides()[0];
  const bool parallel = x.numel() >= kParallelThreshold;
  parallel_chunks(columns, parallel ? max_threads() : 1, [&](std::int64_t begin, std::int64_t end, int) {
    for (std::int64_t c = begin; c < end; ++c) {
      // Column c = j + n * batch: decompose over axes 1.. for both views.
      std::int64_t xo = x.offset(), oo = out.offset(), rest = c;
      for (std::size_t a = 1; a < shape.size(); ++a) {
        const std::int64_t i = rest % shape[a];
        rest /= shape[a];
        xo += i * x.strides()[a];
        oo += i * out.strides()[a];
      }
      const std::int64_t j = c % n;
      // tril keeps row >= j - k; triu keeps row <= j - k.
      const std::int64_t lo = lower ? std::max<std::int64_t>(0, j - k) : 0;
      const std::int64_t hi = lower ? m : std::min<std::int64_t>(m, j - k + 1);
      for (std::int64_t i = 0; i < m; ++i) os[oo + i * orow] = (i >= lo && i < hi) ? xs[xo + i * xr] : W{};
    }
  });
}

}  // namespace

void fill_kernel(const TensorView& out, const Scalar& value) {
  if (out.numel() == 0) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.as<T>();
    dispatch_size(sizeof(T), [&](auto wtag) {
      using W = typename decltype(wtag)::type;
      if constexpr (sizeof(W) == sizeof(T)) {
        W w;
        std::memcpy(static_cast<void*>(&w), static_cast<const void*>(&v), sizeof(W));
        fill_words<W>(out, w);
      }
    });
  });
}

void copy_kernel(const TensorView& src, const TensorView& dst) {
  TENFERRO_ASSERT(src.dtype() == dst.dtype() && src.shape() == dst.shape());
  const std::int64_t numel = dst.numel();
  if (numel == 0) return;
  std::int64_t so = 0, dso = 0;
  const std::vector<Ax> axes = canonical_axes(src, dst, so, dso);
  dispatch_size(dtype_size(dst.dtype()), [&](auto wtag) {
    using W = typename decltype(wtag)::type;
    copy_words<W>(base_ptr<const W>(src) + so, base_ptr<W>(dst) + dso, axes, numel);
  });
}

void triangular_kernel(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) {
  TENFERRO_ASSERT(x.rank() >= 2 && x.shape() == out.shape() && x.dtype() == out.dtype());
  if (x.numel() == 0) return;
  dispatch_size(dtype_size(x.dtype()), [&](auto wtag) {
    using W = typename decltype(wtag)::type;
    triangular_words<W>(x, k, lower, out);
  });
}

}  // namespace tenferro::cpu
