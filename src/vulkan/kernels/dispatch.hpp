// One elementwise-style dispatch: jointly coalesced strided operands, a shader variant picked
// by kernel, type tag and index width, the op code as specialization constant.
#pragma once
#include <algorithm>
#include <array>
#include <functional>
#include <cstdint>
#include <string>
#include <vector>

#include "shaders/common/params.h"
#include "tenferro/op_info.hpp"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

struct Dispatch {
  std::string kernel;                 // shader family: "fill", "copy", "binary", ...
  std::string type;                   // variant dtype tag: "f32", "c64", "bool", "b4", ...
  int op = 0;                         // specialization constant 1 (TF_OP_* / TF_CMP_*)
  std::uint32_t tag = 0;              // OpId + 1, reported with kernel-detected errors
  /// [0] = output (written), [1..3] = inputs (read). Pointers, not copies: the views outlive
  /// record_dispatch (they are the kernel entry's arguments).
  std::array<const TensorView*, TF_MAX_OPERANDS> operands{};
  std::size_t nops = 0;
  std::array<std::uint64_t, 2> value{};  // raw fill value

  Dispatch() = default;
  Dispatch(std::string k, std::string t, std::initializer_list<const TensorView*> ops) : kernel(std::move(k)), type(std::move(t)) {
    for (const TensorView* v : ops) add(*v);
  }
  void add(const TensorView& v) { operands[nops++] = &v; }
};

/// Index arithmetic reaching this many elements (an element count, offset or span) runs in 64
/// bits, the `_idx64` variants (STYLE.md B6.7): 2^31 less headroom for the grid stride.
constexpr std::int64_t kIdx32Limit = (std::int64_t{1} << 31) - (std::int64_t{1} << 26);
/// reach >= kIdx32Limit, or TestHooks::force_idx64.
bool needs_idx64(std::int64_t reach);

/// Records `d` (nothing for an empty output) and lets the backend submit per its policy.
/// @pre every operand has the output's shape and lives in `be`'s domain; nops <= 4.
/// Picks the `_idx64` variant when an element count or offset reaches 2^31 (STYLE.md B6.7).
/// Fast path: when every operand is compact (or, for inputs, a broadcast scalar: all strides
/// 0), or, after joint coalescing, rank <= 1 with stride 1 (inputs may have stride 0), and
/// numel < 2^31 - 2^26, fill/copy/unary/unary_abs/binary/compare/select/clamp use the
/// `<kernel>_<type>_contig` variant (offsets folded into the addresses, 4 elements per
/// invocation, 16-byte accesses when every stride-1 operand is aligned); compact operands skip
/// the coalescing and the layout block entirely (the small-op path).
/// Copies that are not contiguous after coalescing (rank >= 2) and fit 32-bit indexing use the
/// tiled `permute_<bits>` kernel (record_permute below).
void record_dispatch(VulkanBackend& be, const Dispatch& d);

/// Strided copy dst <- src of jointly coalesced layouts `ls` = {dst, src} (rank >= 2, 32-bit
/// reach) through `permute_<bits>`: 1024-element tiles (32 x 32, or e.g. 256 x 4 when a group
/// has only 3 indices) over two axis groups, A (dst's fastest axes) and B (src's fastest axes),
/// staged through shared memory so that both the reads and the writes of a warp are coalesced;
/// when both fastest axes coincide, a direct tile copy (no staging). The remaining axes
/// enumerate tiles; index decomposition once per tile (tables in shared memory), 32-bit.
/// Returns false (nothing recorded) when the kernel does not apply (shared memory too small
/// for 16-byte elements).
bool record_permute(VulkanBackend& be, const TensorView& dst, const TensorView& src, const std::vector<Layout>& ls);

/// Everything one dispatch needs besides its pipeline; ranges in fixed arrays (no allocation).
/// Operand 0 is written, the others read (the hazard tracker's ranges).
struct Launch {
  static constexpr std::size_t kMaxOperands = 16;
  KernelParams p{};
  std::array<ByteRange, kMaxOperands> reads{}, writes{};
  std::size_t nreads = 0, nwrites = 0;
  std::uint64_t bytes = 0;
  std::int64_t groups = 1;
  std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
  std::uint32_t aux = 0;  // specialization constant 2 (index.glsl TF_TAB_ON, permute.comp TF_PERMUTE_DIRECT)

  void range(std::size_t j, const ByteRange& r) {
    (j == 0 ? writes[nwrites++] : reads[nreads++]) = r;
    bytes += r.end - r.begin;
  }
};

/// Records L under the backend's lock: binds get_pipeline() (called under the lock), pushes
/// L.p (uploading `words` as its layout block when non-empty), dispatches L.groups (clamped to
/// the device's limit) and marks the operands used by the open batch; then after_op().
template <class GetPipeline>
void launch_with(VulkanBackend& be, GetPipeline&& get_pipeline, Launch& L, std::span<const std::int64_t> words,
                 std::span<const TensorView* const> operands) {
  auto guard = be.lock();
  VkPipeline pipeline = get_pipeline();
  if (!words.empty()) L.p.layout_addr = be.upload_params(words);
  L.p.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record({L.reads.data(), L.nreads}, {L.writes.data(), L.nwrites}, L.bytes);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(L.p), &L.p);
  const std::int64_t groups = std::clamp<std::int64_t>(L.groups, 1, be.device().caps().max_group_count_x);
  vkCmdDispatch(cmd, static_cast<std::uint32_t>(groups), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView* v : operands) VulkanBackend::storage_of(*v).last_use = value;
  be.after_op();
}

/// Fast-path eligibility of jointly coalesced layouts (operand 0 first): rank <= 1 and stride 1
/// everywhere, except stride 0 (a broadcast scalar) on inputs; sets bit j of `flags` for each
/// operand j of stride 0.
bool contig_layouts(const std::vector<Layout>& ls, std::uint32_t& flags);

/// The layout block of jointly coalesced layouts `ls` (operand 0 first; params.h: the shape,
/// then each operand's offset and strides) and, in `reach`, the largest element count or
/// offset any operand reaches (numel at least; for needs_idx64).
std::vector<std::int64_t> layout_block(const std::vector<Layout>& ls, std::int64_t numel, std::int64_t& reach);

/// The first pass of a fused reduction (kernels/fused.cpp): a generated kernel that computes x's
/// elements from `inputs` instead of reading x. `pipeline(idx64)` gives its pipeline for the
/// reduce op (under the backend's lock); `addresses` (the address table, appended to the
/// pass's block, its offset in p.value[0]); `inputs` are read (hazards).
struct GeneratedLoad {
  std::function<VkPipeline(bool idx64)> pipeline;
  std::vector<const TensorView*> inputs;
  std::vector<std::int64_t> addresses;
};
/// reduce_kernel (kernels/reduce.cpp) whose first pass is `first`: x only gives the geometry
/// (a compact view of the chain's dtype and shape; its storage is never read).
void reduce_kernel_generated(VulkanBackend& be, OpId op, const TensorView& x, const Axes& axes, const TensorView& out,
                             const GeneratedLoad& first);

/// Byte range of a view's elements in its allocation, [min, max] element (empty for an empty
/// view): what a dispatch reads or writes, for the hazard tracker.
ByteRange range_of(const TensorView& v);

/// Workgroups of `threads` invocations for a grid-stride kernel over `n` elements: ceil(n /
/// threads), capped at the device's maxComputeWorkGroupCount[0] (the kernel loops over the rest).
std::uint32_t grid_stride_groups(const VulkanBackend& be, std::int64_t n, std::uint32_t threads);

/// Variant tag of a dtype: f32 f64 i32 i64 bool c32 c64.
std::string type_tag(DType d);
/// Variant tag of the families with "w" variants (unary, unary_abs, binary, clamp, analytic, pow,
/// reduce, scatter): type_tag, or "f32w" / "c32w" for F32 / C32 where they are computed in
/// f64 / c64 (Options::f32_via_f64: F32 by default where the device flushes f32 subnormals,
/// C32 only when forced).
std::string arith_tag(const VulkanBackend& be, DType d);
/// Raw-bit tag of a dtype's element size: b1 b4 b8 b16.
std::string bits_tag(DType d);

}  // namespace tenferro::vk
