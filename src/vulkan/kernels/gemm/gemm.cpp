// gemm_kernel (vulkan/backend.hpp): batched C = alpha * op(A) op(B) + beta * C on one tiled
// shader per dtype (shaders/gemm/gemm.comp, variants gemm_f32 gemm_f64 gemm_c32 gemm_c64).
//
// Products whose tiles would be mostly empty (small M x N, short K: Hadamard and outer products,
// batches of tiny matrices) run on shaders/gemm/gemm_small.comp instead, one invocation per
// output element (`gemm_small_product`), and so do many short columns with short K, four outputs
// per invocation (`gemm_short_columns`), unless a configuration is forced (policy.hpp).
//
// A call is one dispatch over all batches, reading every operand in place through its strides
// (any sign, 0 included); with split K (few output tiles, long K) it is two: the K ranges write
// partial tiles into a scratch tensor, then a reduction pass applies alpha and beta. The
// configuration (tile, options, splits: config.hpp) comes from policy.cpp or from the tuning
// override; the operands' load modes (load axis, 16-byte loads) follow from strides and
// alignment. Both are packed into specialization constant 1 (TFG_* in shaders/gemm/gemm_params.h):
// at most 16 pipelines per dtype and configuration. Conjugation, whether C is read (beta != 0)
// and 16-byte stores of C are runtime flags in the push constants. Complex products may take the
// 3-multiply form (gemm3m.cpp), f64 and certified c64 / f32 / c32 ones the Ozaki-II scheme
// (ozaki.cpp).
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/kernels/gemm/config.hpp"
#include "vulkan/kernels/gemm/gemm3m.hpp"
#include "vulkan/kernels/gemm/ozaki.hpp"
#include "vulkan/kernels/gemm/policy.hpp"
#include "vulkan/kernels/gemm/record.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vk {

namespace {

using I = std::int64_t;

constexpr I kSmallIdx32Limit = (I{1} << 31) - (I{1} << 26);  // headroom for the grid stride
constexpr I kSmallRows = 4;  // gemm_small.comp's outputs per invocation along m (RM), gemm_short_columns

std::uint32_t log2u(int x) { return static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(x))); }

std::uint32_t tile_bits(const GemmConfig& c) {
  return log2u(c.bm) << TFG_SHIFT_BM | log2u(c.bn) << TFG_SHIFT_BN | log2u(c.bk) << TFG_SHIFT_BK |
         log2u(c.tm) << TFG_SHIFT_TM | log2u(c.tn) << TFG_SHIFT_TN;
}

bool aligned16(I stride, I extent, std::size_t es) { return gemm_aligned_to(16, stride, extent, es); }

std::uint64_t staged_dispatches = 0;  // gemm_staged_dispatches

}  // namespace

std::uint64_t gemm_staged_dispatches() { return staged_dispatches; }

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
  // C: [M, N, B], or chained (GemmCall::c): [M0..M3, N0..N3, B0, B1].
  const bool chained = call.chained();
  TENFERRO_ASSERT(a.rank() == 3 && b.rank() == 3 && (c.rank() == 3 || chained));
  auto group = [&](int first, int n) {
    I e = 1;
    for (int j = first; j < first + n; ++j) e *= c.dim(j);
    return e;
  };
  const I M = chained ? group(0, kGemmFreeChains) : c.dim(0);
  const I N = chained ? group(kGemmFreeChains, kGemmFreeChains) : c.dim(1);
  const I B = chained ? group(2 * kGemmFreeChains, kGemmBatchChains) : c.dim(2), K = a.dim(1);
  if (M == 0 || N == 0 || B == 0) return;
  const GemmProblem prob{d, M, N, K, B, chained, call.scratch_limit};
  const AccuracyOptions acc = be.accuracy();
  if (gemm_takes_3m(prob, static_cast<int>(acc.gemm_3m)) && gemm_3m(be, call)) return;
  const DeviceCaps& caps = be.device().caps();
  // Ozaki-II: the normwise opt-in returns here; a certified product is recorded below, before
  // the FMA kernel's dispatch that recomputes C where its certificate fails.
  // A shape whose certificate failed lately runs on the FMA kernels alone for a while.
  const int setting = ozaki_setting(acc);
  const int ozaki = gemm_ozaki_moduli(prob, caps.nv_coopmat_u8, &caps, setting);
  const bool certified_mode = ozaki > 0 && gemm_ozaki_certified(setting);
  if (ozaki > 0 && !certified_mode && gemm_ozaki(be, call, ozaki)) return;
  const bool certified = certified_mode && !gemm_ozaki_recently_failed(be, prob);
  const std::size_t es = dtype_size(d);
  bool forced = false;
  GemmConfig t = gemm_choose_config(prob, caps, forced);
  const int vw = gemm_words_of(d);
  const bool wide_rows = forced ? t.small : gemm_short_columns(M, N, K, B);  // gemm_small with four rows
  const bool small = wide_rows || (!forced && gemm_small_product(M, N, K));
  // (A certified Ozaki product's FMA recomputation runs unsplit: one indirect dispatch.)
  const I splits = small || certified ? 1 : gemm_splits(t, prob);
  // The chained epilogue runs in the unsplit tile (split K: only in the reduction pass).
  if (chained && !small && splits <= 1) t = gemm_chained_config(t, d, caps);

  const I sam = a.strides()[0], sak = a.strides()[1], sab = a.strides()[2];
  const I sbk = b.strides()[0], sbn = b.strides()[1], sbb = b.strides()[2];
  const I scm = c.strides()[0], scn = c.strides()[chained ? kGemmFreeChains : 1];
  const I scb = c.strides()[chained ? 2 * kGemmFreeChains : 2];
  // Words 16-29 of the dims block: a chained C's extents and strides (gemm_params.h).
  std::int64_t cw[14] = {};
  if (chained) {
    const Shape& e = c.shape();
    const Strides& st = c.strides();
    for (int g = 0; g < 2; ++g)
      for (int j = 0; j < 3; ++j) {
        cw[6 * g + j] = e[static_cast<std::size_t>(4 * g + j)];
        cw[6 * g + 3 + j] = st[static_cast<std::size_t>(4 * g + j + 1)];
      }
    cw[12] = e[8];
    cw[13] = st[9];
  }
  // A chained C's index arithmetic is 32-bit unless a group reaches 2^31 elements (the shaders'
  // CHAINS_WIDE; TestHooks::gemm_chains_wide forces it).
  const bool wide_chains = chained && (std::max({M, N, B}) > I{0x7fffffff} || test_hooks().gemm_chains_wide);
  const std::uint32_t chain_sched = chained ? TFG_SCHED_CHAINS | (wide_chains ? TFG_SCHED_CHAINS_WIDE : 0u) : 0u;
  const bool read_c = !is_zero_in(call.beta, d);
  const bool have_ab = K > 0;

  std::uint32_t cfg = tile_bits(t) | t.opts;
  // Specialization constant 2 (SCHED in gemm.comp): the roll code (0 = unrolled slice, else
  // log2(roll) + 1), TFG_SCHED_INTERIOR, TFG_SCHED_LEAN and TFG_SCHED_PAIR; TFG_SCHED_STAGE(_N)
  // below, with C's address.
  std::uint32_t sched = (t.roll == 0 ? 0u : log2u(t.roll) + 1u) | (t.interior_loop ? TFG_SCHED_INTERIOR : 0u) |
                        (t.lean ? TFG_SCHED_LEAN : 0u) | (t.pair ? TFG_SCHED_PAIR : 0u);
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
  if (call.conj_a && is_complex(d)) p.flags |= TFG_CONJ_A;
  if (call.conj_b && is_complex(d)) p.flags |= TFG_CONJ_B;

  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  if (have_ab) {
    add_range(a, reads, bytes);
    add_range(b, reads, bytes);
  }
  const I tiles = small ? 1 : ((M + t.bm - 1) / t.bm) * ((N + t.bn - 1) / t.bn);
  const auto gx = static_cast<std::uint32_t>(std::min<I>(tiles, caps.max_group_count_x));
  const auto gy = static_cast<std::uint32_t>(std::min<I>(B, 65535));
  const std::string variant = "gemm_" + std::string(dtype_name(d));
  const auto threads = static_cast<std::uint32_t>(t.threads());

  // A certified Ozaki product where the FMA kernel is one dispatch of tiles (else the FMA kernels
  // alone): that dispatch then reads its workgroup counts from the certificate. The combine pass
  // is recorded as writing C, so the hazard tracker always puts a barrier before this dispatch,
  // and with `indirect` that barrier makes the certify pass's writes visible to the indirect
  // read too.
  std::optional<OzakiCertificate> cert;
  if (certified && !small && splits <= 1) {
    cert.emplace();
    cert->gx = gx;
    cert->gy = gy;
    if (!gemm_ozaki(be, call, ozaki, &*cert)) cert.reset();
    else add_range(cert->args, reads, bytes);
  }

  if (splits <= 1) {
    p.c = address_of(c);
    const bool c_vec = !chained && vw > 1 && scm == 1 && p.c % 16 == 0 && aligned16(scn, N, es) && aligned16(scb, B, es);
    if (c_vec) p.flags |= TFG_C_VEC;
    if (!small && gemm_stages_c(t, prob, caps, c_vec || vw == 1, p.c, scm, scn, scb)) {
      sched |= TFG_SCHED_STAGE | (std::abs(scn) < std::abs(scm) ? TFG_SCHED_STAGE_N : 0u);
      ++staged_dispatches;
    }
    if (read_c) p.flags |= TFG_READ_C;
    scalar_bits(call.alpha, d, p.alpha);
    scalar_bits(call.beta, d, p.beta);
    const std::int64_t dims[TFG_DIMS_WORDS] = {M,      N,      K,      B,      sam,    sak,    sab,    sbk,
                                               sbn,    sbb,    scm,    scn,    scb,    K,      0,      1,
                                               cw[0],  cw[1],  cw[2],  cw[3],  cw[4],  cw[5],  cw[6],  cw[7],
                                               cw[8],  cw[9],  cw[10], cw[11], cw[12], cw[13]};
    if (read_c) add_range(c, reads, bytes);
    add_range(c, writes, bytes);
    auto guard = be.lock();
    if (small) {
      // gemm_small.comp: one invocation per output, or per kSmallRows consecutive outputs along
      // m (gemm_short_columns, forced); 64-bit index arithmetic only when the invocation count needs it.
      const I rows = wide_rows && M >= kSmallRows ? kSmallRows : 1;
      const I total = (M + rows - 1) / rows * N * B;
      constexpr std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
      const std::uint32_t gxs = grid_stride_groups(be, total, local);
      const std::uint32_t spec =
          (total >= kSmallIdx32Limit ? 1u : 0u) | (rows > 1 ? 2u : 0u) | (chained ? TFG_SMALL_CHAINS : 0u) |
          (wide_chains ? TFG_SMALL_CHAINS_WIDE : 0u);
      dispatch(be, "gemm_small_" + std::string(dtype_name(d)), spec, local, p, dims, reads, writes, bytes, gxs, 1, 1);
    } else {
      dispatch(be, variant, cfg, threads, p, dims, reads, writes, bytes, gx, gy, 1,
               sched | chain_sched, cert ? &cert->args : nullptr);
    }
    const std::uint64_t value = be.recorder().open_value();
    if (cert) VulkanBackend::storage_of(cert->args).last_use = value;
    if (have_ab) {
      VulkanBackend::storage_of(a).last_use = value;
      VulkanBackend::storage_of(b).last_use = value;
    }
    VulkanBackend::storage_of(c).last_use = value;
    be.after_op();
    return;
  }

  // Split K: pass 1 writes `splits` partial products (alpha 1, beta 0) into compact [M, N, B]
  // blocks of a scratch tensor; pass 2 (TFG_OPT_REDUCE) sums them into C with alpha and beta.
  const I kc = gemm_split_k(K, splits, t.bk);
  const I zstride = M * N * B;
  const Tensor scratch = be.allocate(d, {zstride * splits});
  p.c = address_of(scratch);
  if (vw > 1 && p.c % 16 == 0 && aligned16(M, N, es) && aligned16(M * N, B, es)) p.flags |= TFG_C_VEC;
  scalar_bits(Scalar::of(DType::F64, 1.0), d, p.alpha);
  const std::int64_t dims1[TFG_DIMS_WORDS] = {M, N, K, B, sam, sak, sab, sbk, sbn, sbb, 1, M, M * N, kc, zstride, splits};
  // (The partials are compact: words 16-29 unused.)
  std::vector<ByteRange> scratch_range;
  std::uint64_t scratch_bytes = 0;
  add_range(scratch, scratch_range, scratch_bytes);

  GemmParams q{};
  q.a = p.c;
  q.c = address_of(c);
  if (read_c) q.flags |= TFG_READ_C;
  scalar_bits(call.alpha, d, q.alpha);
  scalar_bits(call.beta, d, q.beta);
  const std::int64_t dims2[TFG_DIMS_WORDS] = {M,     N,      K,      B,      0,      0,      0,      0,
                                               0,     0,      scm,    scn,    scb,    kc,     zstride, splits,
                                               cw[0], cw[1],  cw[2],  cw[3],  cw[4],  cw[5],  cw[6],  cw[7],
                                               cw[8], cw[9],  cw[10], cw[11], cw[12], cw[13]};
  std::vector<ByteRange> reads2 = scratch_range, writes2;
  std::uint64_t bytes2 = scratch_bytes;
  if (read_c) add_range(c, reads2, bytes2);
  add_range(c, writes2, bytes2);
  const GemmConfig rt{vw, vw, vw, vw, vw, 0, 0};  // keeps the reduce pipeline's shared arrays tiny
  constexpr std::uint32_t kReduceThreads = 256;
  const std::uint32_t gx2 = grid_stride_groups(be, zstride, kReduceThreads);

  auto guard = be.lock();
  dispatch(be, variant, cfg, threads, p, dims1, reads, scratch_range, bytes + scratch_bytes, gx, gy,
           static_cast<std::uint32_t>(splits), sched);
  dispatch(be, variant, tile_bits(rt) | TFG_OPT_REDUCE, kReduceThreads, q, dims2, reads2, writes2, bytes2, gx2, 1, 1,
           chain_sched);
  const std::uint64_t value = be.recorder().open_value();
  VulkanBackend::storage_of(a).last_use = value;
  VulkanBackend::storage_of(b).last_use = value;
  VulkanBackend::storage_of(c).last_use = value;
  VulkanBackend::storage_of(scratch).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
