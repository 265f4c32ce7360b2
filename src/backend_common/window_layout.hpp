// Window geometry shared by the gather/scatter kernels of the CPU, Vulkan and WebGPU backends.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tenferro/layout.hpp"

namespace tenferro::detail {

inline bool contains_axis(const Axes& axes, std::int64_t a) {
  return std::find(axes.begin(), axes.end(), a) != axes.end();
}

/// One window axis: the operand dim and the axis of `big` (the gather output / scatter updates)
/// holding its offsets.
struct WindowDim {
  std::int64_t dim, big_axis;
};

/// The window axes of big (`window_axes` = offset_dims / update_window_dims) paired in order
/// with the operand dims not in `dropped` (collapsed / inserted and batching dims).
inline std::vector<WindowDim> window_dims(std::int64_t operand_rank, const Axes& window_axes, const Axes& dropped) {
  std::vector<WindowDim> w;
  std::size_t next = 0;
  for (std::int64_t d = 0; d < operand_rank; ++d)
    if (!contains_axis(dropped, d)) w.push_back({d, window_axes[next++]});
  return w;
}

/// The window axes (window_dims) jointly coalesced: [0] carries the operand strides, [1] big's
/// strides, same shape.
inline std::vector<Layout> window_layouts(const Layout& operand, const Layout& big, const Axes& window_axes,
                                          const Axes& dropped) {
  Layout wo, wb;
  for (const WindowDim& w : window_dims(operand.rank(), window_axes, dropped)) {
    const auto a = static_cast<std::size_t>(w.big_axis);
    wo.shape.push_back(big.shape[a]);
    wo.strides.push_back(operand.strides[static_cast<std::size_t>(w.dim)]);
    wb.shape.push_back(big.shape[a]);
    wb.strides.push_back(big.strides[a]);
  }
  return coalesce_jointly({wo, wb});
}

/// The per-axis words of a gather / scatter geometry (the GPU kernels' parameter blocks: Vulkan's
/// shaders/indexing/indexing_params.h, WebGPU's kernels.hpp), after `header` zero words the
/// caller fills: per batch axis of big 4 words (extent, big stride, indices stride, operand
/// stride of a batching dim, else 0); per window axis 5 words (extent, operand stride, big
/// stride, the index-vector slot of its dim or -1, the dim's extent): one per windowed operand
/// dim with `skip` (the per-element bounds check), else jointly coalesced (slot -1, extent 0);
/// per index-vector entry 3 words (the operand stride of its dim, the room dim - window extent, 1
/// when a window axis covers the dim). Mirrors make_plan of src/cpu/indexing.cpp. `window_axes`:
/// axes of big holding window offsets; `dropped`: operand dims without a window axis;
/// `extent[d]`: the window extent along d; `ivd`: the index vector's axis of the indices.
struct IndexGeometry {
  std::vector<std::int64_t> words;
  std::int64_t batch_axes = 0, window_axes = 0, window_numel = 1;
};
inline IndexGeometry index_geometry(std::size_t header, const Layout& ol, const Layout& il, const Layout& bl,
                                    const Axes& window_axes, const Axes& dropped, const Shape& extent,
                                    const Axes& start_map, std::int64_t ivd, const Axes& op_batching,
                                    const Axes& idx_batching, bool skip) {
  using I64 = std::int64_t;
  IndexGeometry g;
  std::vector<I64>& w = g.words;
  w.assign(header, 0);
  // Batch axes: big's axes that are not window axes, paired in order with the indices' axes
  // other than the index vector's.
  for (I64 a = 0; a < bl.rank(); ++a) {
    if (contains_axis(window_axes, a)) continue;
    const I64 ia = g.batch_axes < ivd ? g.batch_axes : g.batch_axes + 1;
    I64 op_stride = 0;
    for (std::size_t i = 0; i < op_batching.size(); ++i) {
      const I64 ib = idx_batching[i];
      if ((ib < ivd ? ib : ib - 1) == g.batch_axes) op_stride += ol.strides[static_cast<std::size_t>(op_batching[i])];
    }
    w.insert(w.end(), {bl.shape[static_cast<std::size_t>(a)], bl.strides[static_cast<std::size_t>(a)],
                       il.strides[static_cast<std::size_t>(ia)], op_stride});
    ++g.batch_axes;
  }
  auto slot_of = [&](I64 d) {
    for (std::size_t j = 0; j < start_map.size(); ++j)
      if (start_map[j] == d) return static_cast<I64>(j);
    return I64{-1};
  };
  if (skip) {
    for (const WindowDim& wd : window_dims(ol.rank(), window_axes, dropped)) {
      const auto a = static_cast<std::size_t>(wd.big_axis), k = static_cast<std::size_t>(wd.dim);
      w.insert(w.end(), {bl.shape[a], ol.strides[k], bl.strides[a], slot_of(wd.dim), ol.shape[k]});
      g.window_numel *= bl.shape[a];
      ++g.window_axes;
    }
  } else {
    const std::vector<Layout> co = window_layouts(ol, bl, window_axes, dropped);
    for (std::size_t a = 0; a < co[0].shape.size(); ++a) {
      w.insert(w.end(), {co[0].shape[a], co[0].strides[a], co[1].strides[a], -1, 0});
      g.window_numel *= co[0].shape[a];
      ++g.window_axes;
    }
  }
  for (I64 d : start_map) {
    const auto k = static_cast<std::size_t>(d);
    w.insert(w.end(), {ol.strides[k], ol.shape[k] - extent[k], contains_axis(dropped, d) ? 0 : 1});
  }
  return g;
}

}  // namespace tenferro::detail
