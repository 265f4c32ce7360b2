// Pieces of the gemm family shared by gemm.cpp and gemm_ozaki.cpp (internal).
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

/// A certified Ozaki-II product's outcome on the GPU: the caller sets the FMA kernel's
/// workgroup counts gx, gy; gemm_ozaki sets `args` (int32 x 4), which holds (gx, gy, 1, 0) where
/// the certificate failed (the combine pass then wrote nothing) and zeros where it held.
struct OzakiCertificate {
  std::uint32_t gx = 0, gy = 0;
  Tensor args;
};

/// Runs the f64 or c64 product `call` ([M, N, B] C, not chained) by the Ozaki-II scheme on n
/// moduli (gemm_ozaki.cpp), certified where `cert` is given (the caller then records the FMA
/// kernel's dispatch indirectly through cert->args; c64 products are always certified); false
/// (nothing recorded) when its scratch does not fit the device memory.
bool gemm_ozaki(VulkanBackend& be, const GemmCall& call, int n, OzakiCertificate* cert = nullptr);

/// True when a certified product of this dtype and shape on `be` should skip the scheme: a failed
/// certificate of an earlier call was read (its arguments are host-visible; read once the GPU
/// is past that call), and for the 15 calls of the shape after it. Not under the test override
/// unless OzakiOverride::history.
bool gemm_ozaki_recently_failed(VulkanBackend& be, DType d, std::int64_t M, std::int64_t N, std::int64_t K,
                                std::int64_t B);

}  // namespace tenferro::vk
