// The recording pieces of record.hpp.
#include "vulkan/kernels/gemm/record.hpp"

#include <bit>

#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

static_assert(sizeof(GemmParams) <= sizeof(KernelParams),
              "the shared pipeline layout pushes sizeof(KernelParams) bytes");

void scalar_bits(const Scalar& s, DType d, std::uint64_t out[2]) {
  const c64 v = s.as<c64>();
  if (d == DType::F32 || d == DType::C32) {
    out[0] = std::bit_cast<std::uint32_t>(static_cast<float>(v.real()));
    out[1] = std::bit_cast<std::uint32_t>(static_cast<float>(v.imag()));
  } else {
    out[0] = std::bit_cast<std::uint64_t>(v.real());
    out[1] = std::bit_cast<std::uint64_t>(v.imag());
  }
}

bool is_zero_in(const Scalar& s, DType d) {
  const c64 v = s.as<c64>();
  if (d == DType::F32 || d == DType::C32)
    return static_cast<float>(v.real()) == 0.0f && (d == DType::F32 || static_cast<float>(v.imag()) == 0.0f);
  return v.real() == 0.0 && (d == DType::F64 || v.imag() == 0.0);
}

std::uint64_t address_of(const TensorView& v) {
  const Allocation& a = VulkanBackend::storage_of(v).allocation();
  return a.address + static_cast<std::uint64_t>(v.offset()) * dtype_size(v.dtype());
}

void add_range(const TensorView& v, std::vector<ByteRange>& out, std::uint64_t& bytes) {
  if (v.numel() == 0) return;
  const ByteRange r = range_of(v);
  out.push_back(r);
  bytes += r.end - r.begin;
}

void dispatch(VulkanBackend& be, const std::string& variant, std::uint32_t cfg, std::uint32_t threads,
              GemmParams& p, std::span<const std::int64_t> dims, const std::vector<ByteRange>& reads,
              const std::vector<ByteRange>& writes, std::uint64_t bytes, std::uint32_t gx, std::uint32_t gy,
              std::uint32_t gz, std::uint32_t sched, const TensorView* indirect) {
  VkPipeline pipeline = be.pipelines().get(variant, static_cast<int>(cfg), threads, sched);
  p.dims = be.upload_params(dims);
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes, false, indirect != nullptr);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  if (indirect) {
    const Allocation& a = VulkanBackend::storage_of(*indirect).allocation();
    vkCmdDispatchIndirect(cmd, a.buffer, a.offset + static_cast<VkDeviceSize>(indirect->offset()) * 4);
  } else {
    vkCmdDispatch(cmd, gx, gy, gz);
  }
}

}  // namespace tenferro::vk
