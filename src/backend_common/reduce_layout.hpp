// Canonical layout of a reduction, shared by the CPU and Vulkan reduce kernels: the input's
// axes split into kept and reduced ones, negative strides flipped (walking memory forward,
// the output axis flipped with it), extent-1 axes dropped, stride-0 reduced axes dropped for
// idempotent ops (max/min of repeats), each group sorted by input stride and coalesced.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tenferro/tensor.hpp"

namespace tenferro::detail {

struct ReduceAxis {
  std::int64_t n, sx, so;  // extent, input stride, output stride (reduced axes: 0)
};

struct ReduceLayout {
  std::vector<ReduceAxis> kept, red;  // red is never empty (a single {1, 0, 0} axis at least)
  std::int64_t x0 = 0, o0 = 0;        // element offsets of the first input / output element
};

/// Sort key of an input stride: ascending, stride 0 (broadcast) last.
inline std::int64_t sort_key(std::int64_t s) { return s == 0 ? std::numeric_limits<std::int64_t>::max() : s; }

/// Sorts by input stride (stride 0 last) and merges axes that continue each other in both the
/// input and the output.
inline void sort_and_coalesce(std::vector<ReduceAxis>& axes) {
  auto key = sort_key;
  std::stable_sort(axes.begin(), axes.end(),
                   [&](const ReduceAxis& a, const ReduceAxis& b) { return key(a.sx) < key(b.sx); });
  std::vector<ReduceAxis> out;
  for (const ReduceAxis& a : axes) {
    if (!out.empty() && a.sx == out.back().sx * out.back().n && a.so == out.back().so * out.back().n) {
      out.back().n *= a.n;
      continue;
    }
    out.push_back(a);
  }
  axes = std::move(out);
}

/// @pre axes sorted and unique; out has x's shape without `axes`.
inline ReduceLayout make_reduce_layout(const TensorView& x, const Axes& axes, const TensorView& out,
                                       bool idempotent) {
  ReduceLayout L;
  L.x0 = x.offset();
  L.o0 = out.offset();
  std::size_t j = 0;  // next output axis
  for (std::int64_t a = 0; a < x.rank(); ++a) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), a);
    ReduceAxis ax{x.dim(a), x.strides()[static_cast<std::size_t>(a)], 0};
    if (!reduced) ax.so = out.strides()[j++];
    if (ax.n == 1) continue;
    if (ax.sx < 0) {
      L.x0 += (ax.n - 1) * ax.sx;
      L.o0 += (ax.n - 1) * ax.so;
      ax.sx = -ax.sx;
      ax.so = -ax.so;
    }
    if (reduced && idempotent && ax.sx == 0) continue;
    (reduced ? L.red : L.kept).push_back(ax);
  }
  sort_and_coalesce(L.kept);
  sort_and_coalesce(L.red);
  if (L.red.empty()) L.red.push_back(ReduceAxis{1, 0, 0});
  return L;
}

}  // namespace tenferro::detail
