// The 3-multiply form of complex products (Options::gemm_3m, opt-in): P1 = Ar Br, P2 = Ai Bi,
// P3 = (Ar + Ai)(Br + Bi) as three real products of the call's shape, then Re C = P1 - P2,
// Im C = P3 - P1 - P2: 3/4 of the 4-multiply form's flops, plus a split pass per operand (three
// real planes: re, im, re + im) and a combine pass (shaders/gemm/gemm3m.comp).
// Error (Higham, "Stability of a method for multiplying complex matrices with three real matrix
// multiplications", 1992): the real part's bound is the 4-multiply form's; the imaginary part's
// is c K eps sum (|Re a| + |Im a|)(|Re b| + |Im b|) (up to twice sum |a||b|), and an imaginary
// part that is zero in exact arithmetic need not come out zero.
#include "vulkan/kernels/gemm/gemm3m.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/kernels/gemm/record.hpp"
#include "tenferro/options.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vk {

namespace {

using I = std::int64_t;

std::optional<int>& three_m_override() {
  static std::optional<int> o;
  return o;
}



/// Plane order of a [X0, X1, B] view: axis 0 fastest, unless axis 1 has the unit stride and
/// axis 0 has not (the planes then follow the view's own order, so the pass reads or writes it
/// along its unit stride).
bool planes_swapped(const TensorView& v) { return std::abs(v.strides()[1]) == 1 && std::abs(v.strides()[0]) != 1; }

/// Plane `k` (0, 1, 2) of `planes` as a real [X0, X1, B] view in the plane order of `like`.
TensorView plane_view(const Tensor& planes, const TensorView& like, int k) {
  const I x0 = like.dim(0), x1 = like.dim(1), nb = like.dim(2);
  const bool sw = planes_swapped(like);
  const Layout l{{x0, x1, nb}, {sw ? x1 : 1, sw ? 1 : x0, x0 * x1}, k * x0 * x1 * nb};
  return TensorView(planes.storage(), planes.dtype(), l);
}

/// One pass of gemm3m.comp over the complex [X0, X1, B] view x: mode 0 splits x into `planes`
/// (conj: Im x negated), mode 1 writes x = alpha * combine(planes) + beta * x.
void plane_pass(VulkanBackend& be, std::uint32_t mode, const TensorView& x, const Tensor& planes, bool conj,
                const Scalar& alpha, const Scalar& beta) {
  const DType d = x.dtype();
  const bool sw = planes_swapped(x);
  const I x0 = x.dim(0), x1 = x.dim(1), nb = x.dim(2), total = x0 * x1 * nb;
  GemmParams p{};
  const std::uint64_t xa = address_of(x), pa = address_of(planes);
  p.a = mode == 0 ? xa : pa;
  p.c = mode == 0 ? pa : xa;
  if (conj) p.flags |= TFG_CONJ_A;
  const bool read_c = mode == 1 && !is_zero_in(beta, d);
  if (read_c) p.flags |= TFG_READ_C;
  scalar_bits(alpha, d, p.alpha);
  scalar_bits(beta, d, p.beta);
  std::int64_t dims[TFG_DIMS_WORDS] = {sw ? x1 : x0, sw ? x0 : x1, nb, x.strides()[sw ? 1 : 0],
                                       x.strides()[sw ? 0 : 1], x.strides()[2], total};
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  add_range(mode == 0 ? x : planes, reads, bytes);
  if (read_c) add_range(x, reads, bytes);
  add_range(mode == 0 ? static_cast<const TensorView&>(planes) : x, writes, bytes);
  constexpr std::uint32_t kThreads = 256;
  dispatch(be, "gemm3m_" + std::string(dtype_name(d)), mode, kThreads, p, dims, reads, writes, bytes,
           grid_stride_groups(be, total, kThreads), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  VulkanBackend::storage_of(x).last_use = value;
  VulkanBackend::storage_of(planes).last_use = value;
}

}  // namespace

bool gemm_3m(VulkanBackend& be, const GemmCall& call) {
  const DType d = call.c.dtype(), r = d == DType::C32 ? DType::F32 : DType::F64;
  const I M = call.c.dim(0), N = call.c.dim(1), K = call.a.dim(1), B = call.c.dim(2);
  const Scalar one = Scalar::of(d, 1.0), zero = Scalar::of(d, 0.0);
  Tensor ap, bp, pp;
  try {
    ap = be.allocate(r, {3 * M * K * B});
    bp = be.allocate(r, {3 * K * N * B});
    pp = be.allocate(r, {3 * M * N * B});
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::out_of_memory) throw;
    return false;
  }
  auto guard = be.lock();
  plane_pass(be, 0, call.a, ap, call.conj_a, one, zero);
  plane_pass(be, 0, call.b, bp, call.conj_b, one, zero);
  for (int k = 0; k < 3; ++k) {
    GemmCall part;
    part.a = plane_view(ap, call.a, k);
    part.b = plane_view(bp, call.b, k);
    part.c = plane_view(pp, call.c, k);
    part.alpha = Scalar::of(r, 1.0);
    part.beta = Scalar::of(r, 0.0);
    part.scratch_limit = call.scratch_limit;
    gemm_kernel(be, part);
  }
  plane_pass(be, 1, call.c, pp, false, call.alpha, call.beta);
  be.after_op();
  return true;
}

void set_gemm_3m_override(std::optional<int> mode) { three_m_override() = mode; }

bool gemm_takes_3m(const GemmProblem& p, int mode_setting) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const int mode = three_m_override().value_or(mode_setting >= 0 ? mode_setting : static_cast<int>(default_accuracy().gemm_3m));
  if (mode == 0 || !is_complex(d) || p.chained || std::min({M, N, K, B}) <= 0) return false;
  if (mode == 1 && std::min({M, N, K}) < kGemm3MMinExtent) return false;
  const double planes = 3.0 * (double(M) * double(K) + double(K) * double(N) + double(M) * double(N)) * double(B);
  const std::uint64_t limit = std::min(kGemm3MMaxScratch, p.scratch_limit);
  return planes * double(dtype_size(d) / 2) <= double(limit);  // (in double: no overflow)
}

}  // namespace tenferro::vk
