// The opt-in 3-multiply form of complex products (AccuracyOptions::gemm_3m; gemm3m.cpp,
// shaders/gemm/gemm3m.comp). Internal: used by gemm.cpp and the tests.
#pragma once
#include <cstdint>
#include <optional>

#include "tenferro/backend/gemm_call.hpp"
#include "vulkan/kernels/gemm/policy.hpp"

namespace tenferro::vk {

class VulkanBackend;

/// With mode 1 (Gemm3M::large) the form takes products with M, N, K >= kGemm3MMinExtent, with
/// mode 2 every complex product with K > 0; never a chained C, and never when the real planes
/// (3 (MK + KN + MN) B real elements) would exceed kGemm3MMaxScratch bytes or p.scratch_limit.
/// (H200, 3M / 4M TFLOP/s: c32 1024^3 25.0-25.2 / 32.5-33.0, 2048^3 53.5-54.5 / 43.9-44.5;
/// c64 1024^3 20.2-20.9 / 20.2-20.6, 2048^3 27.7-27.8 / 21.3-22.1.)
inline constexpr std::int64_t kGemm3MMinExtent = 2048;
inline constexpr std::uint64_t kGemm3MMaxScratch = std::uint64_t{4} << 30;
/// `mode`: the backend's AccuracyOptions::gemm_3m as 0, 1, 2; -1 takes default_accuracy()'s.
bool gemm_takes_3m(const GemmProblem& p, int mode = -1);
/// Test hook: while set, replaces the backend's mode (0, 1, 2). Not synchronized.
void set_gemm_3m_override(std::optional<int> mode);

/// Runs `call` ([M, N, B] complex C) in the 3-multiply form on the real kernels; false (nothing
/// recorded) when its planes do not fit the device memory, so that the caller runs the
/// 4-multiply form instead of failing.
bool gemm_3m(VulkanBackend& be, const GemmCall& call);

}  // namespace tenferro::vk
