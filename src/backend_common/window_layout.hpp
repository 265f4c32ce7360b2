// Window geometry shared by the CPU and Vulkan gather/scatter kernels.
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

}  // namespace tenferro::detail
