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

// Contiguous fast path flags in KernelParams::rank (mirrors shaders/common/index.glsl).
constexpr std::uint32_t kContigBcast = 1;  // << j: operand j has stride 0
constexpr std::uint32_t kContigVec = 16;   // every stride-1 operand is aligned for 4-element accesses
constexpr std::int64_t kContigElems = 4;   // elements per invocation per grid-stride step

// Kernels with a `<kernel>_<type>_contig` variant for every type of their generic variants.
bool has_contig_variant(const std::string& kernel) {
  return kernel == "fill" || kernel == "copy" || kernel == "select" || kernel == "unary" ||
         kernel == "unary_abs" || kernel == "binary" || kernel == "compare" || kernel == "clamp";
}

// Fast-path eligibility of the jointly coalesced layouts: rank <= 1 and stride 1 everywhere,
// except stride 0 (a broadcast scalar) on inputs. Sets the stride-0 bits of `flags`.
bool contig_layouts(const std::vector<Layout>& ls, std::uint32_t& flags) {
  flags = 0;
  if (ls[0].shape.size() > 1) return false;
  if (ls[0].shape.empty()) return true;  // numel 1: only element 0 is touched
  for (std::size_t j = 0; j < ls.size(); ++j) {
    const std::int64_t s = ls[j].strides[0];
    if (s == 0 && j > 0) {
      flags |= kContigBcast << j;
    } else if (s != 1) {
      return false;
    }
  }
  return true;
}
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
  std::uint32_t contig_flags = 0;
  const bool contig = numel < kIdx32Limit && has_contig_variant(d.kernel) && contig_layouts(ls, contig_flags);
  const std::string variant = d.kernel + "_" + d.type + (contig ? "_contig" : idx64 ? "_idx64" : "");

  // Byte ranges of the dispatch for the hazard tracker.
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  bool vec_ok = true;
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
    if (contig) {
      // Operand j's element 0 (the coalesced offset folded in); vector accesses need
      // min(16, 4 * element size) byte alignment of every stride-1 operand.
      p.addr[j] += static_cast<std::uint64_t>(ls[j].offset) * es;
      const std::uint64_t align = std::min<std::uint64_t>(16, 4 * es);
      if ((contig_flags & (kContigBcast << j)) == 0 && p.addr[j] % align != 0) vec_ok = false;
    }
  }
  p.numel = numel;
  p.value[0] = d.value[0];
  p.value[1] = d.value[1];
  p.rank = contig ? contig_flags | (vec_ok ? kContigVec : 0u) : static_cast<std::uint32_t>(rank);
  p.tag = d.tag;

  auto guard = be.lock();
  const std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
  VkPipeline pipeline = be.pipelines().get(variant, d.op, local);
  if (!contig) p.layout_addr = be.upload_params(words);  // the contig variants read no layout block
  p.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  // One invocation per element (generic) or per 4 elements (contig); beyond the group-count cap
  // the shaders' grid-stride loops cover the rest.
  const std::int64_t per_group = contig ? std::int64_t{local} * kContigElems : std::int64_t{local};
  const std::int64_t groups =
      std::min<std::int64_t>((numel + per_group - 1) / per_group, be.device().caps().max_group_count_x);
  vkCmdDispatch(cmd, static_cast<std::uint32_t>(groups), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView& v : d.operands) VulkanBackend::storage_of(v).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
