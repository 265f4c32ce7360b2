#include "vulkan/kernels/dispatch.hpp"

#include <algorithm>

#include "shaders/common/params.h"

namespace tenferro::vk {

std::string type_tag(DType d) { return std::string(dtype_name(d)); }

// (Appending avoids a GCC 12 -Wrestrict false positive on "b" + std::string.)
std::string bits_tag(DType d) {
  std::string tag = "b";
  tag += std::to_string(dtype_size(d));
  return tag;
}

namespace {
constexpr std::int64_t kIdx32Limit = (std::int64_t{1} << 31) - (std::int64_t{1} << 26);  // headroom for the grid stride
}

void record_dispatch(VulkanBackend& be, const Dispatch& d) {
  const std::size_t nops = d.operands.size();
  TENFERRO_ASSERT(nops >= 1 && nops <= TF_MAX_OPERANDS);
  const std::int64_t numel = d.operands[0].numel();
  if (numel == 0) return;

  std::vector<Layout> ls;
  for (const TensorView& v : d.operands) ls.push_back(v.layout());
  ls = coalesce_jointly(ls);
  const std::size_t rank = ls[0].shape.size();

  // Layout block: shape, then (offset, strides) per operand. Track the largest reach.
  std::vector<std::int64_t> words(rank + nops * (rank + 1));
  std::int64_t reach = numel;
  for (std::size_t k = 0; k < rank; ++k) words[k] = ls[0].shape[k];
  for (std::size_t j = 0; j < nops; ++j) {
    std::int64_t* w = words.data() + rank + j * (rank + 1);
    w[0] = ls[j].offset;
    std::int64_t span = ls[j].offset;
    for (std::size_t k = 0; k < rank; ++k) {
      w[1 + k] = ls[j].strides[k];
      span += (ls[j].shape[k] - 1) * (ls[j].strides[k] < 0 ? -ls[j].strides[k] : ls[j].strides[k]);
    }
    reach = std::max(reach, span);
  }
  const bool idx64 = reach >= kIdx32Limit;
  const std::string variant = d.kernel + "_" + d.type + (idx64 ? "_idx64" : "");

  // Byte ranges of the dispatch for the hazard tracker.
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  KernelParams p{};
  for (std::size_t j = 0; j < nops; ++j) {
    const TensorView& v = d.operands[j];
    const Allocation& a = VulkanBackend::storage_of(v).allocation();
    const std::uint64_t es = dtype_size(v.dtype());
    const ByteRange r{a.address + static_cast<std::uint64_t>(v.layout().min_offset()) * es,
                      a.address + static_cast<std::uint64_t>(v.layout().max_offset() + 1) * es};
    (j == 0 ? writes : reads).push_back(r);
    bytes += r.end - r.begin;
    p.addr[j] = a.address;
  }
  p.numel = numel;
  p.value[0] = d.value[0];
  p.value[1] = d.value[1];
  p.rank = static_cast<std::uint32_t>(rank);
  p.tag = d.tag;

  auto guard = be.lock();
  const std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
  VkPipeline pipeline = be.pipelines().get(variant, d.op, local);
  p.layout_addr = be.upload_params(words);
  p.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  const std::int64_t groups = std::min<std::int64_t>((numel + local - 1) / local, be.device().caps().max_group_count_x);
  vkCmdDispatch(cmd, static_cast<std::uint32_t>(groups), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView& v : d.operands) VulkanBackend::storage_of(v).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
