// fill and strided copy: raw-bit kernels selected by element size (b1 b4 b8 b16), so every
// dtype shares four variants and f64 copies need no shaderFloat64. Which copy kernel runs is
// decided by record_dispatch (dispatch.hpp): contiguous, tiled permutation, or generic.
#include <cstring>

#include "backend_common/element_bytes.hpp"
#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

void fill_kernel(VulkanBackend& be, const TensorView& out, const Scalar& value) {
  Dispatch d("fill", bits_tag(out.dtype()), {&out});
  const auto raw = detail::element_bytes(value, out.dtype());
  std::memcpy(d.value.data(), raw.data(), raw.size());
  record_dispatch(be, d);
}

void copy_kernel(VulkanBackend& be, const TensorView& src, const TensorView& dst) {
  // Contiguous after coalescing: copy_<b>_contig (16-byte accesses when aligned); rank >= 2
  // with 32-bit reach: permute_<b> (tiled); else copy_<b>[_idx64] (record_dispatch).
  record_dispatch(be, Dispatch("copy", bits_tag(dst.dtype()), {&dst, &src}));
}

}  // namespace tenferro::vk
