// fill and strided copy: raw-bit kernels selected by element size (b1 b4 b8 b16), so every
// dtype shares four variants and f64 copies need no shaderFloat64. Which copy kernel runs is
// decided by record_dispatch (dispatch.hpp): contiguous, tiled permutation, or generic.
#include <cstring>

#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

void fill_kernel(VulkanBackend& be, const TensorView& out, const Scalar& value) {
  Dispatch d("fill", bits_tag(out.dtype()), {&out});
  unsigned char raw[16] = {};
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.as<T>();
    if constexpr (std::is_same_v<T, bool>) {
      raw[0] = v ? 1 : 0;  // Bool is one byte 0/1
    } else {
      std::memcpy(raw, &v, sizeof(T));
    }
  });
  std::memcpy(d.value.data(), raw, sizeof(raw));
  record_dispatch(be, d);
}

void copy_kernel(VulkanBackend& be, const TensorView& src, const TensorView& dst) {
  // Contiguous after coalescing: copy_<b>_contig (16-byte accesses when aligned); rank >= 2
  // with 32-bit reach: permute_<b> (tiled); else copy_<b>[_idx64] (record_dispatch).
  record_dispatch(be, Dispatch("copy", bits_tag(dst.dtype()), {&dst, &src}));
}

}  // namespace tenferro::vk
