// Reductions on Vulkan: reduce_sum, reduce_prod (f32 f64 i32 i64 c32 c64), reduce_max,
// reduce_min (f32 f64 i32 i64) over sorted axes of any strided view into a compact output.
//
// Geometry (as the CPU kernel): negative strides flipped, extent-1 axes dropped (and, for
// max/min, stride-0 reduced axes), kept and reduced axes each sorted by x stride and merged
// where they walk memory as one. One kernel (shaders/reduce/reduce.comp) covers every case; a
// workgroup of 256 invocations holds COLS outputs x LANES lanes:
//   (a) inner (the fastest memory axis is reduced, or everything is): lanes of one output are
//       adjacent invocations reading consecutive elements; LANES ~ N/8, up to 256, so short
//       rows pack several outputs per workgroup;
//   (b) outer (the fastest memory axis is kept): adjacent invocations own adjacent outputs and
//       walk the reduced axis together (coalesced across outputs); LANES split the rows;
//   (c) several reduced axes that do not merge: the same mapping; chunks hold whole rows of the
//       fastest reduced axis, each row decoded once, lanes stride along it.
// When there are too few workgroups to fill the device, the reduced range is split into G
// chunks (split-K): pass 1 writes partials to a scratch tensor [O, G], and further passes
// reduce the partials (each pass shrinks the count by >= 64 x LANES) until G == 1.
// Numerics: integers wrap; float max/min propagate NaN; float sums fold per lane in sequence
// (<= N / (G * LANES) terms), then by pairwise trees: error well inside n eps sum|x|.
#include <algorithm>
#include <limits>
#include <vector>

#include "backend_common/reduce_layout.hpp"
#include "shaders/common/params.h"
#include "shaders/reduce/reduce.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

namespace {

using i64 = std::int64_t;
constexpr i64 kWorkgroup = TF_RED_WORKGROUP;
constexpr i64 kTargetGroups = 2048;  // enough workgroups to fill a large GPU (H200: 132 SMs)
constexpr i64 kMinPerLane = 64;      // split-K only while each lane keeps >= 64 elements

using Ax = detail::ReduceAxis;
using detail::sort_and_coalesce;
using detail::sort_key;

i64 product(const std::vector<Ax>& axes) {
  i64 p = 1;
  for (const Ax& a : axes) p *= a.n;
  return p;
}

i64 pow2_at_least(i64 v, i64 cap) {
  i64 p = 1;
  while (p < v && p < cap) p *= 2;
  return p;
}

/// One pass: the geometry plus the workgroup mapping and the chunking of the reduced range.
struct Pass {
  std::vector<Ax> kept, red;
  i64 x0 = 0, o0 = 0, gstride = 0;
  i64 O = 1, N = 1, cols = 1, lanes = 1, groups = 1, chunk = 1;
  bool lanes_fast = true;
};

/// Chooses the (a)/(b) mapping and the split count for p.kept / p.red.
void plan(Pass& p) {
  p.O = product(p.kept);
  p.N = product(p.red);
  p.lanes_fast = p.kept.empty() || sort_key(p.red[0].sx) <= sort_key(p.kept[0].sx);
  if (p.lanes_fast) {
    p.lanes = pow2_at_least((p.N + 7) / 8, kWorkgroup);  // ~8 elements per lane (H200: lanes = N/16 measured worse)
  } else {
    const i64 cols0 = pow2_at_least(p.kept[0].n, kWorkgroup);
    p.lanes = std::min(kWorkgroup / cols0, pow2_at_least(p.N, kWorkgroup));
  }
  if (p.red.size() > 1) p.lanes = std::min(p.lanes, pow2_at_least(p.red[0].n, kWorkgroup));  // lanes walk rows
  p.cols = kWorkgroup / p.lanes;
  const i64 tiles = (p.O + p.cols - 1) / p.cols;
  i64 g = 1;
  if (tiles < kTargetGroups) g = std::max<i64>(1, std::min((kTargetGroups + tiles - 1) / tiles, p.N / (p.lanes * kMinPerLane)));
  p.chunk = (p.N + g - 1) / g;
  if (p.red.size() > 1) p.chunk = (p.chunk + p.red[0].n - 1) / p.red[0].n * p.red[0].n;  // whole rows
  p.groups = (p.N + p.chunk - 1) / p.chunk;
}

/// Records one pass reading `x` (or, with `gen`, computing it from gen's inputs) and writing
/// `out` (views cover the byte ranges touched).
void record_pass(VulkanBackend& be, OpId op, const Pass& ps, const TensorView& x, const TensorView& out,
                 const GeneratedLoad* gen) {
  std::vector<i64> words(TF_RB_AXES + 3 * ps.kept.size() + 2 * ps.red.size());
  words[TF_RB_O] = ps.O;
  words[TF_RB_N] = ps.N;
  words[TF_RB_CHUNK] = ps.chunk;
  words[TF_RB_COLS] = ps.cols;
  words[TF_RB_LANES] = ps.lanes;
  words[TF_RB_LANES_FAST] = ps.lanes_fast ? 1 : 0;
  words[TF_RB_X0] = ps.x0;
  words[TF_RB_O0] = ps.o0;
  words[TF_RB_GSTRIDE] = ps.gstride;
  words[TF_RB_KR] = static_cast<i64>(ps.kept.size());
  words[TF_RB_RR] = static_cast<i64>(ps.red.size());
  std::size_t w = TF_RB_AXES;
  for (const Ax& a : ps.kept) {
    words[w++] = a.n;
    words[w++] = a.sx;
    words[w++] = a.so;
  }
  for (const Ax& a : ps.red) {
    words[w++] = a.n;
    words[w++] = a.sx;
  }

  // Index width: every offset, count and chunk bound below 2^31 (minus grid headroom).
  i64 reach = std::max({ps.O * ps.groups, ps.N + ps.chunk, ps.O + kWorkgroup});
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  KernelParams kp{};
  std::vector<const TensorView*> views{&out};
  if (gen != nullptr) {
    views.insert(views.end(), gen->inputs.begin(), gen->inputs.end());
    kp.value[0] = words.size();
    words.insert(words.end(), gen->addresses.begin(), gen->addresses.end());
    reach = std::max(reach, x.layout().max_offset() + 1);
  } else {
    views.push_back(&x);
  }
  for (std::size_t j = 0; j < views.size(); ++j) {
    const TensorView& v = *views[j];
    reach = std::max(reach, v.layout().max_offset() + 1);
    const ByteRange r = range_of(v);
    (j == 0 ? writes : reads).push_back(r);
    bytes += r.end - r.begin;
    if (j < 2) kp.addr[j] = VulkanBackend::storage_of(v).allocation().address;
  }
  const bool idx64 = needs_idx64(reach);
  const std::string variant = "reduce_" + arith_tag(be, x.dtype()) + (idx64 ? "_idx64" : "");
  kp.numel = ps.O;
  kp.tag = static_cast<std::uint32_t>(op) + 1;

  auto guard = be.lock();
  VkPipeline pipeline = gen != nullptr ? gen->pipeline(idx64)
                                       : be.pipelines().get(variant, static_cast<int>(op), static_cast<std::uint32_t>(kWorkgroup));
  kp.layout_addr = be.upload_params(words);
  kp.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(kp), &kp);
  const i64 tiles = (ps.O + ps.cols - 1) / ps.cols;
  const i64 gx = std::min<i64>(tiles, be.device().caps().max_group_count_x);
  vkCmdDispatch(cmd, static_cast<std::uint32_t>(gx), static_cast<std::uint32_t>(ps.groups), 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView* v : views) VulkanBackend::storage_of(*v).last_use = value;
  be.after_op();
}

}  // namespace

bool supports_reduce(const DeviceCaps& caps, OpId op, DType d) {
  if (d == DType::Bool) return false;
  if (is_complex(d) && (op == OpId::reduce_max || op == OpId::reduce_min)) return false;
  if (d == DType::F64 || d == DType::C64) return caps.f64;
  if (d == DType::I64) return caps.i64;
  return true;
}

namespace {
/// @pre axes sorted, unique, non-empty, every reduced extent > 0; out compact, of x's dtype and
/// x's shape without `axes`, numel > 0; (op, dtype) supported.
void reduce_passes(VulkanBackend& be, OpId op, const TensorView& x, const Axes& axes, const TensorView& out,
                   const GeneratedLoad* first) {
  if (out.numel() == 0) return;
  const bool idempotent = op == OpId::reduce_max || op == OpId::reduce_min;
  Pass ps;
  {
    detail::ReduceLayout L = detail::make_reduce_layout(x, axes, out, idempotent);
    ps.kept = std::move(L.kept);
    ps.red = std::move(L.red);
    ps.x0 = L.x0;
    ps.o0 = L.o0;
  }

  // Split-K passes write partials into scratch tensors [O, G] (kept in the sorted kept order);
  // the scratch lives until recording ends, and its memory is freed once the GPU is done.
  std::vector<Tensor> scratch;
  TensorView src = x;
  const std::vector<Ax> final_kept = ps.kept;
  const i64 final_o0 = ps.o0;
  for (;;) {
    plan(ps);
    const GeneratedLoad* gen = scratch.empty() ? first : nullptr;
    if (ps.groups == 1) {
      record_pass(be, op, ps, src, out, gen);
      return;
    }
    Tensor part = be.allocate(x.dtype(), Shape{ps.O * ps.groups});
    i64 stride = 1;
    for (Ax& a : ps.kept) {  // partial of output o (colex over kept) and chunk g at o + g * O
      a.so = stride;
      stride *= a.n;
    }
    ps.o0 = 0;
    ps.gstride = ps.O;
    record_pass(be, op, ps, src, part, gen);
    // Next pass: reduce the G partials of each output into the real output (or more partials).
    std::vector<Ax> kept = final_kept;
    stride = 1;
    for (Ax& a : kept) {
      a.sx = stride;
      stride *= a.n;
    }
    const i64 O = ps.O, G = ps.groups;
    ps = Pass{};
    ps.kept = std::move(kept);
    ps.red = {Ax{G, O, 0}};
    ps.o0 = final_o0;
    src = part;
    scratch.push_back(std::move(part));
  }
}

}  // namespace

void reduce_kernel(VulkanBackend& be, OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  reduce_passes(be, op, x, axes, out, nullptr);
}

void reduce_kernel_generated(VulkanBackend& be, OpId op, const TensorView& x, const Axes& axes, const TensorView& out,
                             const GeneratedLoad& first) {
  reduce_passes(be, op, x, axes, out, &first);
}

}  // namespace tenferro::vk
