// The Ozaki-II products (ozaki.cpp, shaders/ozaki/): when they are taken, their time model,
// their bit budgets, and the test hooks. Internal: used by gemm.cpp, the tests and the bench.
#pragma once
#include <cstdint>
#include <optional>

#include "tenferro/backend/gemm_call.hpp"
#include "tenferro/options.hpp"
#include "tenferro/tensor.hpp"
#include "vulkan/kernels/gemm/policy.hpp"

namespace tenferro::vk {

class VulkanBackend;
struct DeviceCaps;

/// The Ozaki-II f64 product (Options::gemm_ozaki: 1 certified on 14 moduli, the default;
/// n = 8 to 20 the normwise opt-in; ozaki.cpp), and c64, f32 and c32 (7 moduli) products
/// where certified: products with K <= TFO_MAX_K (shaders/ozaki/ozaki_params.h) and scratch
/// (the byte planes of A and B, the residue bytes of the products; certified: the q planes and
/// their product) <= kOzakiMaxScratch and p.scratch_limit, never a chained C, on a device with
/// the tensor-core residue kernel (`tensor_cores`: DeviceCaps::nv_coopmat_u8) where ozaki_faster
/// says so (certified: also K >= kOzakiCertifiedMinK). Returns the number of moduli, 0 when not
/// taken. With `caps`, ozaki_faster compares against the FMA kernels' estimated time on that
/// device (gemm_fma_seconds) where K >= kOzakiCertifiedMinK; else against their 22.9 TFLOP/s.
inline constexpr std::uint64_t kOzakiMaxScratch = std::uint64_t{4} << 30;
/// Certified products' least K (the time model; tau = (K - 8) u leaves most of K u to the
/// scheme at any K).
inline constexpr std::int64_t kOzakiCertifiedMinK = 512;
/// `setting` is the backend's choice as an integer (ozaki_setting: 0 off, 1 certified, 8-20
/// uncertified moduli); kOzakiProcessDefault takes default_accuracy()'s.
inline constexpr int kOzakiProcessDefault = -1;
int ozaki_setting(const AccuracyOptions& a);
int gemm_ozaki_moduli(const GemmProblem& p, bool tensor_cores, const DeviceCaps* caps = nullptr,
                      int setting = kOzakiProcessDefault);
/// Time model (fitted to the H200's passes): f64 FMA kernels 22.9 TFLOP/s; residue
/// products 576 / (1 + 781 / K) TOPS (484-491, 526 measured at 4096^3, 8192^3); scan, scale and
/// split (11.4 + 0.33 n) ps per operand element; combine (3.7 + 0.96 n + 0.014 n^2) ps per output;
/// 40 us for the eight dispatches: true when n moduli are expected to beat the FMA kernels by
/// 5 %. It takes 4096^3 with up to 16 moduli (14 and 16 measured faster), 8192^3 up to 19,
/// 2048^3 up to 11 (11 measured faster; 12 measured 2 % faster, under the margin; 16 slower),
/// 1024 x 256^3 never.
/// `certified`: one more plane per operand and product (half a plane's product from K = 2048,
/// as for dense operands), and the certify pass (an estimate, not fitted).
/// The products count the extents padded to the residue kernel's 128 (TFO_TILE). The FMA
/// kernels' time is fma_seconds where that is longer than their 22.9 TFLOP/s (tiles that fill
/// the device badly, split K: the wave model's estimate, gemm_fma_seconds).
/// p.d f32 / c32 / c64 (certified; ozaki.cpp): complex products three plane sets per modulus
/// and two CRTs per output, f32 elements 8 ps a part in the element passes; against the FMA
/// kernels at 46 TFLOP/s (f32; 4096^3 measured 46.2-46.3), 48 (c32, counted as 8 MNK: 4096^3
/// 47.7-48.1) or 22.9 (c64: 2048^3 22.2-22.4).
bool ozaki_faster(int n, const GemmProblem& p, bool certified = false, double fma_seconds = 0);
/// Whether a product gemm_ozaki_moduli takes is certified (`setting` as there, or the override).
bool gemm_ozaki_certified(int setting = kOzakiProcessDefault);
/// Bits P per row of A / column of B with n moduli and this K: the largest P with
/// 2P + ceil(log2 K) + 2 <= floor(log2 prod m_l), at most 62.
int ozaki_bits(int n, std::int64_t K);
/// Certified products: A's rows are scaled by their sums of |a| to below 2^pa, B's columns by
/// their largest |b| to below 2^pb, pa + pb = floor(log2 prod m_l) - 2 (sum_k |A'||B'| <= sum |A'|
/// max |B'|), pb = (that - max(0, ceil(log2 K) - 2)) / 2 (a sum near K / 4 times the largest
/// balances the two roundings' errors), pa at most 62. n = 14, K = 4096: pa = 59, pb = 49.
void ozaki_bits_certified(int n, std::int64_t K, int& pa, int& pb);
/// Test hook: while set, replaces the backend's AccuracyOptions::ozaki: `moduli` (0 = off) for every f64 product
/// (and c64, f32 and c32 products where `certified`; f32 and c32 on 7 moduli) (any size and
/// device: the time model is not asked);
/// `portable` runs the residue products on ozaki_mm.comp also where the tensor-core kernel exists.
/// Not synchronized.
struct OzakiOverride {
  int moduli = 0;
  bool portable = false;
  bool certified = false;  // the certified product (with `moduli`)
  bool history = false;    // certified: also skip the scheme after a failure (the default's way)
};
void set_gemm_ozaki_override(std::optional<OzakiOverride> o);
/// Test hook: how many products the scheme has run on every device (not the ones that fell
/// back).
std::uint64_t gemm_ozaki_runs();
/// Test hook: the dispatch arguments (int32 x 4) of the last certified product `be` ran while
/// the override was set: (gx, gy, 1, 0) where its certificate failed, else zeros. Moved out.
std::optional<Tensor> gemm_ozaki_take_certificate(VulkanBackend& be);

// ---- for gemm.cpp ---------------------------------------------------------------------------

/// A certified Ozaki-II product's outcome on the GPU: the caller sets the FMA kernel's
/// workgroup counts gx, gy; gemm_ozaki sets `args` (int32 x 4), which holds (gx, gy, 1, 0) where
/// the certificate failed (the combine pass then wrote nothing) and zeros where it held.
struct OzakiCertificate {
  std::uint32_t gx = 0, gy = 0;
  Tensor args;
};

/// Runs the f64 or c64 product `call` ([M, N, B] C, not chained) by the Ozaki-II scheme on n
/// moduli (ozaki.cpp), certified where `cert` is given (the caller then records the FMA
/// kernel's dispatch indirectly through cert->args; c64 products are always certified); false
/// (nothing recorded) when its scratch does not fit the device memory.
bool gemm_ozaki(VulkanBackend& be, const GemmCall& call, int n, OzakiCertificate* cert = nullptr);

/// True when a certified product of this dtype and shape on `be` should skip the scheme: a failed
/// certificate of an earlier call was read (its arguments are host-visible; read once the GPU
/// is past that call), and for the 15 calls of the shape after it. Not under the test override
/// unless OzakiOverride::history.
bool gemm_ozaki_recently_failed(VulkanBackend& be, const GemmProblem& p);

}  // namespace tenferro::vk
