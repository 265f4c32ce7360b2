// tril / triu on Vulkan: one dispatch of shaders/copy/triangular.comp over the output's colex
// index space, raw bits by element size (variants triangular_b{1,4,8,16}[_idx64]), so every
// dtype shares four variants and f64 needs no shaderFloat64. Axes 0 (rows) and 1 (cols) stay
// separate in the layout block (the shader derives row and col from them); the batch axes are
// coalesced jointly over x and out.
#include <algorithm>

#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

/// Raw-bit kernel: every dtype whose tensors exist on the device (Bool needs 8-bit storage).
bool supports_triangular(const DeviceCaps& caps, DType d) { return d != DType::Bool || caps.bool_ok(); }

/// @pre x.rank() >= 2, out compact of x's shape and dtype, k in [-rows, cols] (core clamps it).
void triangular_kernel(VulkanBackend& be, const TensorView& x, std::int64_t k, bool lower, const TensorView& out) {
  const std::int64_t numel = out.numel();
  if (numel == 0) return;
  const std::size_t rank = static_cast<std::size_t>(x.rank());
  TENFERRO_ASSERT(rank >= 2);
  const TensorView* views[2] = {&out, &x};

  // Batch axes (2..) coalesced jointly; rows and cols kept as axes 0 and 1.
  std::vector<Layout> batch;
  for (const TensorView* v : views) {
    Layout b;
    for (std::size_t a = 2; a < rank; ++a) {
      b.shape.push_back(v->shape()[a]);
      b.strides.push_back(v->strides()[a]);
    }
    batch.push_back(b);
  }
  batch = coalesce_jointly(batch);
  const std::size_t br = batch[0].shape.size();
  const std::size_t r = 2 + br;

  // Layout block: shape, then (offset, strides) of out and x (common/index.glsl).
  std::vector<std::int64_t> words;
  words.push_back(x.dim(0));
  words.push_back(x.dim(1));
  for (std::size_t a = 0; a < br; ++a) words.push_back(batch[0].shape[a]);
  std::int64_t reach = numel;
  KernelParams p{};
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  for (std::size_t j = 0; j < 2; ++j) {
    const TensorView& v = *views[j];
    words.push_back(v.offset());
    words.push_back(v.strides()[0]);
    words.push_back(v.strides()[1]);
    for (std::size_t a = 0; a < br; ++a) words.push_back(batch[j].strides[a]);
    reach = std::max(reach, v.layout().max_offset() + 1);
    const ByteRange br_ = range_of(v);
    (j == 0 ? writes : reads).push_back(br_);
    bytes += br_.end - br_.begin;
    p.addr[j] = VulkanBackend::storage_of(v).allocation().address;
  }
  const bool idx64 = needs_idx64(reach);
  const std::string variant = "triangular_" + bits_tag(out.dtype()) + (idx64 ? "_idx64" : "");
  p.numel = numel;
  p.value[0] = static_cast<std::uint64_t>(k);
  p.rank = static_cast<std::uint32_t>(r);
  p.tag = static_cast<std::uint32_t>(lower ? OpId::tril : OpId::triu) + 1;

  auto guard = be.lock();
  const std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
  VkPipeline pipeline = be.pipelines().get(variant, lower ? 1 : 0, local);
  p.layout_addr = be.upload_params(words);
  p.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  vkCmdDispatch(cmd, grid_stride_groups(be, numel, local), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView* v : views) VulkanBackend::storage_of(*v).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
