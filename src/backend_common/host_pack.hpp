// Packing a strided host view into compact bytes: the upload path of the GPU providers (Vulkan,
// WebGPU), which stage host data compact before it crosses to the device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tenferro/layout.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro::detail {

// Visits the elements of `layout` in colex order, in runs: f(element offset, colex index,
// count, stride), unit stride when the innermost axis is contiguous.
template <class F> void for_each_run(const Layout& layout, F&& f) {
  const Layout l = coalesce(layout);
  const std::int64_t n = l.numel();
  if (n == 0) return;
  if (l.rank() == 0) return f(l.offset, std::int64_t{0}, std::int64_t{1}, std::int64_t{1});
  const std::int64_t inner = l.shape[0], inner_stride = l.strides[0];
  std::vector<std::int64_t> idx(l.shape.size(), 0);
  std::int64_t off = l.offset;
  for (std::int64_t i = 0; i < n; i += inner) {
    f(off, i, inner, inner_stride);
    for (std::size_t a = 1; a < l.shape.size(); ++a) {  // odometer over the outer axes
      off += l.strides[a];
      if (++idx[a] < l.shape[a]) break;
      off -= l.strides[a] * l.shape[a];
      idx[a] = 0;
    }
  }
}

// Strided host view -> compact bytes at dst (numel * dtype size of them).
inline void pack(const TensorView& v, std::byte* dst) {
  const std::size_t es = dtype_size(v.dtype());
  const std::byte* base = v.storage()->host_data();
  for_each_run(v.layout(), [&](std::int64_t off, std::int64_t i, std::int64_t count, std::int64_t stride) {
    std::byte* out = dst + static_cast<std::size_t>(i) * es;
    if (stride == 1) {
      std::memcpy(out, base + static_cast<std::size_t>(off) * es, static_cast<std::size_t>(count) * es);
      return;
    }
    for (std::int64_t k = 0; k < count; ++k)
      std::memcpy(out + static_cast<std::size_t>(k) * es, base + static_cast<std::size_t>(off + k * stride) * es, es);
  });
}

}  // namespace tenferro::detail
