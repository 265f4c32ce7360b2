// Recording pieces shared by the gemm family's passes (gemm.cpp, gemm3m.cpp, ozaki.cpp; record.cpp).
// Internal.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

/// Raw push-constant bits of a scalar in dtype d: float bits for f32/c32, double bits else.
void scalar_bits(const Scalar& s, DType d, std::uint64_t out[2]);
/// True when s is zero once rounded to d.
bool is_zero_in(const Scalar& s, DType d);
/// Device address of a view's element at its offset.
std::uint64_t address_of(const TensorView& v);
/// Appends the byte range a view reaches (empty views add nothing) and its size.
void add_range(const TensorView& v, std::vector<ByteRange>& out, std::uint64_t& bytes);
/// One dispatch of `variant` (under the device lock): specialization constants 0 = threads,
/// 1 = cfg, 2 = sched; `dims` uploaded to p.dims; the ranges go to the hazard tracker.
/// `indirect`: the workgroup counts come from its first three int32 words instead of gx, gy,
/// gz (vkCmdDispatchIndirect; its range must be in `reads`).
void dispatch(VulkanBackend& be, const std::string& variant, std::uint32_t cfg, std::uint32_t threads,
              GemmParams& p, std::span<const std::int64_t> dims, const std::vector<ByteRange>& reads,
              const std::vector<ByteRange>& writes, std::uint64_t bytes, std::uint32_t gx, std::uint32_t gy,
              std::uint32_t gz, std::uint32_t sched = 0, const TensorView* indirect = nullptr);

}  // namespace tenferro::vk
