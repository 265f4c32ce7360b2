// The gemm family: batched C = alpha * op(A) op(B) + beta * C on one tiled shader per dtype
// (shaders/gemm/gemm.comp, variants gemm_f32 gemm_f64 gemm_c32 gemm_c64).
//
// Products whose tiles would be mostly empty (small M x N, short K: Hadamard and outer products,
// batches of tiny matrices) run on shaders/gemm/gemm_small.comp instead, one invocation per
// output element (`small_product`).
//
// A call is one dispatch over all batches, reading every operand in place through its strides
// (any sign, 0 included). The tile configuration (BM x BN workgroup tile, BK slice, TM x TN
// outputs per thread) comes from the problem shape and DeviceCaps (shared-memory limit,
// workgroup-size limit); the operands' load modes (load axis, 16-byte loads) follow from strides
// and alignment. Both are packed into specialization constant 1 (TFG_* in
// shaders/gemm/gemm_params.h): at most 16 pipelines per dtype and tile. Conjugation, whether C
// is read (beta != 0) and 16-byte stores of C are runtime flags in the push constants.
//
// Tuning hook: TENFERRO_VK_GEMM_TILE="bm,bn,bk,tm,tn" (powers of two) overrides the tile for
// every call when the configuration is valid for the dtype and device (bench/vk_gemm_bench.cpp).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "shaders/common/params.h"
#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

static_assert(sizeof(GemmParams) <= sizeof(KernelParams),
              "the shared pipeline layout pushes sizeof(KernelParams) bytes");

namespace {

using I = std::int64_t;

struct Tile {
  int bm = 0, bn = 0, bk = 0, tm = 0, tn = 0;
  int threads() const { return (bm / tm) * (bn / tn); }
};

/// Elements per 16-byte word of the shared tiles (VW in the shader).
int words_of(DType d) {
  switch (d) {
    case DType::F32: return 4;
    case DType::F64: case DType::C32: return 2;
    default: return 1;  // C64
  }
}

std::uint64_t shared_bytes(const Tile& t, int vw) {
  return 2ull * 16ull * static_cast<std::uint64_t>(t.bk * (t.bm / vw + 1) + t.bk * (t.bn / vw + 1));
}

bool pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/// The shader's layout rules plus the device's limits.
bool valid(const Tile& t, int vw, const DeviceCaps& caps) {
  if (!pow2(t.bm) || !pow2(t.bn) || !pow2(t.bk) || !pow2(t.tm) || !pow2(t.tn)) return false;
  if (t.bm > 1 << 15 || t.bn > 1 << 15 || t.bk > 1 << 15) return false;
  if (t.tm % vw || t.tn % vw || t.bk % vw || t.bm % t.tm || t.bn % t.tn) return false;
  const auto nt = static_cast<std::uint32_t>(t.threads());
  return nt <= 1024 && nt <= caps.max_group_size_x && shared_bytes(t, vw) <= caps.max_shared_memory;
}

/// TENFERRO_VK_GEMM_TILE, parsed once.
std::optional<Tile> tile_override() {
  static const std::optional<Tile> t = []() -> std::optional<Tile> {
    const char* s = std::getenv("TENFERRO_VK_GEMM_TILE");
    Tile r;
    if (!s || std::sscanf(s, "%d,%d,%d,%d,%d", &r.bm, &r.bn, &r.bk, &r.tm, &r.tn) != 5) return std::nullopt;
    return r;
  }();
  return t;
}

/// Tile for an M x N product of dtype d. Large: both extents >= 512; small: both <= 32 (one
/// workgroup per small matrix, batches across the grid); else medium (64 x 64). Shrinks BK,
/// then the tile, until the device's shared memory and workgroup limits hold.
Tile pick_tile(DType d, I M, I N, const DeviceCaps& caps) {
  const int vw = words_of(d);
  if (auto o = tile_override(); o && valid(*o, vw, caps)) return *o;
  Tile t;
  if (M >= 512 && N >= 512) {
    switch (d) {
      // Best of the configurations measured on an H200 (docs/gemm.md).
      case DType::F32: t = {64, 128, 16, 8, 8}; break;
      case DType::F64: t = {128, 64, 8, 8, 4}; break;
      case DType::C32: t = {128, 64, 8, 8, 4}; break;
      default: t = {64, 64, 4, 4, 4}; break;
    }
  } else if (M <= 32 && N <= 32) {
    t = {32, 32, 16, 4, 4};
  } else {
    t = d == DType::C64 ? Tile{64, 64, 4, 4, 4} : Tile{64, 64, 16, 4, 4};  // measured best for c64 / f64
  }
  while (!valid(t, vw, caps) && t.bk > vw) t.bk /= 2;
  while (!valid(t, vw, caps) && t.bm > t.tm) {
    t.bm /= 2;
    t.bn /= 2;
  }
  TENFERRO_CHECK(valid(t, vw, caps), unsupported, "dot_general", "", "[vulkan] no gemm tile fits this device");
  return t;
}

/// True when stepping `stride` elements of `es` bytes keeps 16-byte alignment (or the axis
/// has one element).
bool aligned16(I stride, I extent, std::size_t es) {
  return extent <= 1 || (stride * static_cast<I>(es)) % 16 == 0;
}

/// Raw push-constant bits of a scalar in dtype d: float bits for f32/c32, double bits else.
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

/// Byte range a view reaches (empty views add nothing).
void add_range(const TensorView& v, std::vector<ByteRange>& out, std::uint64_t& bytes) {
  if (v.numel() == 0) return;
  const Allocation& a = VulkanBackend::storage_of(v).allocation();
  const std::uint64_t es = dtype_size(v.dtype());
  const ByteRange r{a.address + static_cast<std::uint64_t>(v.layout().min_offset()) * es,
                    a.address + static_cast<std::uint64_t>(v.layout().max_offset() + 1) * es};
  out.push_back(r);
  bytes += r.end - r.begin;
}

/// True for products whose tiles would be mostly empty (few outputs per matrix, short K): they
/// run on gemm_small.comp, one invocation per output element. Long K stays on the tiled kernel,
/// whose shared-memory staging pays off there.
bool small_product(I M, I N, I K) { return (M * N <= 256 || std::min(M, N) <= 8) && K <= 256; }

constexpr I kSmallIdx32Limit = (I{1} << 31) - (I{1} << 26);  // headroom for the grid stride

}  // namespace

bool supports_gemm(const DeviceCaps& caps, DType d) {
  switch (d) {
    case DType::F32: case DType::C32: return true;
    case DType::F64: case DType::C64: return caps.f64;
    default: return false;
  }
}

void gemm_kernel(VulkanBackend& be, const GemmCall& call) {
  const TensorView &a = call.a, &b = call.b, &c = call.c;
  const DType d = c.dtype();
  TENFERRO_ASSERT(a.rank() == 3 && b.rank() == 3 && c.rank() == 3);
  const I M = c.dim(0), N = c.dim(1), B = c.dim(2), K = a.dim(1);
  if (M == 0 || N == 0 || B == 0) return;
  const std::size_t es = dtype_size(d);
  const DeviceCaps& caps = be.device().caps();
  const Tile t = pick_tile(d, M, N, caps);
  const int vw = words_of(d);

  const I sam = a.strides()[0], sak = a.strides()[1], sab = a.strides()[2];
  const I sbk = b.strides()[0], sbn = b.strides()[1], sbb = b.strides()[2];
  const I scm = c.strides()[0], scn = c.strides()[1], scb = c.strides()[2];
  const bool read_c = !is_zero_in(call.beta, d);
  const bool have_ab = K > 0;

  std::uint32_t cfg = static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(t.bm))) << TFG_SHIFT_BM |
                      static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(t.bn))) << TFG_SHIFT_BN |
                      static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(t.bk))) << TFG_SHIFT_BK |
                      static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(t.tm))) << TFG_SHIFT_TM |
                      static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(t.tn))) << TFG_SHIFT_TN;
  GemmParams p{};
  if (have_ab) {
    p.a = address_of(a);
    p.b = address_of(b);
    // A: along k when k is the unit-stride axis and m is not; 16-byte words along the load axis
    // need a 16-byte aligned start and strides of the other axes that keep it.
    const bool a_k = (sak == 1 || K == 1) && sam != 1;
    if (a_k) cfg |= TFG_A_ALONG_K;
    const bool a_vec = vw > 1 && (a_k ? sak == 1 : sam == 1) && p.a % 16 == 0 &&
                       aligned16(a_k ? sam : sak, a_k ? M : K, es) && aligned16(sab, B, es);
    if (a_vec) cfg |= TFG_A_VEC;
    // B: along n when n is the unit-stride axis and k is not.
    const bool b_n = (sbn == 1 || N == 1) && sbk != 1;
    if (b_n) cfg |= TFG_B_ALONG_N;
    const bool b_vec = vw > 1 && (b_n ? sbn == 1 : sbk == 1) && p.b % 16 == 0 &&
                       aligned16(b_n ? sbk : sbn, b_n ? K : N, es) && aligned16(sbb, B, es);
    if (b_vec) cfg |= TFG_B_VEC;
  }
  p.c = address_of(c);
  if (vw > 1 && scm == 1 && p.c % 16 == 0 && aligned16(scn, N, es) && aligned16(scb, B, es)) p.flags |= TFG_C_VEC;
  if (call.conj_a && is_complex(d)) p.flags |= TFG_CONJ_A;
  if (call.conj_b && is_complex(d)) p.flags |= TFG_CONJ_B;
  if (read_c) p.flags |= TFG_READ_C;
  scalar_bits(call.alpha, d, p.alpha);
  scalar_bits(call.beta, d, p.beta);

  const std::int64_t dims[TFG_DIMS_WORDS] = {M, N, K, B, sam, sak, sab, sbk, sbn, sbb, scm, scn, scb};
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  if (have_ab) {
    add_range(a, reads, bytes);
    add_range(b, reads, bytes);
  }
  if (read_c) add_range(c, reads, bytes);
  add_range(c, writes, bytes);

  std::uint32_t gx = 0, gy = 1, local = static_cast<std::uint32_t>(t.threads());
  int spec = static_cast<int>(cfg);
  std::string variant;
  if (small_product(M, N, K)) {
    // One invocation per output; 64-bit index arithmetic only when M*N*B needs it.
    const I total = M * N * B;
    local = Pipelines::kDefaultWorkgroupSize;
    spec = total >= kSmallIdx32Limit ? 1 : 0;
    gx = static_cast<std::uint32_t>(std::min<I>((total + local - 1) / local, caps.max_group_count_x));
    variant = "gemm_small_" + std::string(dtype_name(d));
  } else {
    const I tiles = ((M + t.bm - 1) / t.bm) * ((N + t.bn - 1) / t.bn);
    gx = static_cast<std::uint32_t>(std::min<I>(tiles, caps.max_group_count_x));
    gy = static_cast<std::uint32_t>(std::min<I>(B, 65535));
    variant = "gemm_" + std::string(dtype_name(d));
  }

  auto guard = be.lock();
  VkPipeline pipeline = be.pipelines().get(variant, spec, local);
  p.dims = be.upload_params(dims);
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  vkCmdDispatch(cmd, gx, gy, 1);
  const std::uint64_t value = be.recorder().open_value();
  if (have_ab) {
    VulkanBackend::storage_of(a).last_use = value;
    VulkanBackend::storage_of(b).last_use = value;
  }
  VulkanBackend::storage_of(c).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
