// gather / scatter on Vulkan (StableHLO semantics, validated by core/ops/indexing.cpp; the CPU
// kernels in src/cpu/indexing.cpp are the behavioural model).
//
// One thread per element of "big" (gather's output, scatter's updates). The geometry goes into
// a parameter block (shaders/indexing/indexing_params.h): batch axes of big (with their strides
// in the indices tensor and, for batching dims, in the operand), jointly coalesced window axes,
// and per index-vector component the operand stride and room (dim - window extent).
//
// gather: raw-bit variants by element size, every dtype (Bool needs 8-bit storage).
// scatter: typed variants, combiner = specialization constant. Duplicate targets combine with
// 32-bit atomics only (the device is created without shaderBufferInt64Atomics): see the
// contract of shaders/indexing/scatter.comp. F64/C64 need shaderFloat64; 64-bit combines that
// cannot be done with 32-bit atomics use a zeroed table of spin locks allocated per call.
#include <algorithm>

#include "backend_common/window_layout.hpp"
#include "shaders/common/params.h"
#include "shaders/indexing/indexing_params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

namespace {

using I64 = std::int64_t;

constexpr I64 kMaxLocks = I64{1} << 18;                        // 1 MiB of lock words at most

using detail::contains_axis;

/// The parameter block of one call and the largest element offset / count it reaches.
struct Geometry {
  std::vector<I64> words;
  I64 reach = 0;
};

/// The header of shaders/indexing/indexing_params.h, then detail::index_geometry's words
/// (backend_common/window_layout.hpp, whose arguments these are).
Geometry make_geometry(const TensorView& operand, const TensorView& indices, const TensorView& big,
                       const Axes& window_axes, const Axes& dropped, const Shape& extent, const Axes& start_map,
                       I64 ivd, const Axes& op_batching, const Axes& idx_batching, bool skip) {
  const Layout& ol = operand.layout();
  const Layout& il = indices.layout();
  const Layout& bl = big.layout();
  Geometry g;
  detail::IndexGeometry ig = detail::index_geometry(TF_IX_HEADER, ol, il, bl, window_axes, dropped, extent,
                                                    start_map, ivd, op_batching, idx_batching, skip);
  g.words = std::move(ig.words);
  std::vector<I64>& w = g.words;
  w[TF_IX_N_BATCH] = ig.batch_axes;
  w[TF_IX_N_WIN] = ig.window_axes;
  w[TF_IX_IVEC_LEN] = static_cast<I64>(start_map.size());
  w[TF_IX_IVEC_STRIDE] = ivd < indices.rank() ? il.strides[static_cast<std::size_t>(ivd)] : 0;
  w[TF_IX_BIG_OFFSET] = bl.offset;
  w[TF_IX_IDX_OFFSET] = il.offset;
  w[TF_IX_OP_OFFSET] = ol.offset;
  w[TF_IX_FLAGS] = (skip ? TF_IX_SKIP : 0) | (indices.dtype() == DType::I64 ? TF_IX_INDEX_I64 : 0);
  w[TF_IX_WIN_NUMEL] = ig.window_numel;

  g.reach = std::max({big.numel(), bl.max_offset() + 1, ol.max_offset() + 1});
  if (indices.numel() > 0) g.reach = std::max(g.reach, il.max_offset() + 1);
  return g;
}


std::uint64_t address_of(const TensorView& v) {
  return v.numel() == 0 ? 0 : VulkanBackend::storage_of(v).allocation().address;
}

/// One dispatch over big's elements. operands[0] (the output) and operands[3] (scatter's lock
/// table) are written, the others read. Operands with no elements take address 0 and no range.
/// At most `max_groups` workgroups when > 0.
void record_indexing(VulkanBackend& be, const std::string& variant, int op, OpId tag, const TensorView& big,
                     const std::vector<TensorView>& operands, const std::vector<I64>& words, I64 max_groups = 0) {
  const I64 numel = big.numel();
  if (numel == 0) return;
  TENFERRO_ASSERT(operands.size() <= TF_MAX_OPERANDS);
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  KernelParams p{};
  for (std::size_t j = 0; j < operands.size(); ++j) {
    const ByteRange r = range_of(operands[j]);
    p.addr[j] = address_of(operands[j]);
    if (r.begin == r.end) continue;
    (j == 0 || j == 3 ? writes : reads).push_back(r);
    bytes += r.end - r.begin;
  }
  p.numel = numel;
  p.tag = static_cast<std::uint32_t>(tag) + 1;

  auto guard = be.lock();
  const std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
  VkPipeline pipeline = be.pipelines().get(variant, op, local);
  p.layout_addr = be.upload_params(words);
  p.error_addr = be.error_address();
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  I64 groups = grid_stride_groups(be, numel, local);
  if (max_groups > 0) groups = std::min(groups, max_groups);
  vkCmdDispatch(cmd, static_cast<std::uint32_t>(groups), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  for (const TensorView& v : operands)
    if (v.numel() > 0) VulkanBackend::storage_of(v).last_use = value;
  be.after_op();
}

int combiner_code(ScatterCombiner c) {
  switch (c) {
    case ScatterCombiner::add: return TF_SC_ADD;
    case ScatterCombiner::replace: return TF_SC_REPLACE;
    case ScatterCombiner::mul: return TF_SC_MUL;
    case ScatterCombiner::max: return TF_SC_MAX;
    case ScatterCombiner::min: return TF_SC_MIN;
  }
  return TF_SC_ADD;
}

/// Whether scatter.comp combines (dtype, combiner) under the spin-lock table when targets may
/// repeat (see its contract).
bool needs_locks(DType d, ScatterCombiner c) {
  switch (d) {
    case DType::F64:
    case DType::C64: return true;
    case DType::C32:
    case DType::I64: return c != ScatterCombiner::add;  // replace too: 8-byte stores may tear
    default: return false;
  }
}

}  // namespace

bool supports_gather(const DeviceCaps& caps, DType d) { return d != DType::Bool || caps.bool_ok(); }

bool supports_scatter(const DeviceCaps& caps, DType d) {
  switch (d) {
    case DType::Bool: return caps.bool_ok();
    case DType::F64:
    case DType::C64: return caps.f64;
    default: return true;
  }
}

void gather_kernel(VulkanBackend& be, const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                   const TensorView& out) {
  TENFERRO_ASSERT(indices.dtype() == DType::I32 || indices.dtype() == DType::I64);
  if (out.numel() == 0) return;
  Axes dropped = cfg.collapsed_slice_dims;
  dropped.insert(dropped.end(), cfg.operand_batching_dims.begin(), cfg.operand_batching_dims.end());
  const Geometry g = make_geometry(operand, indices, out, cfg.offset_dims, dropped, cfg.slice_sizes,
                                   cfg.start_index_map, cfg.index_vector_dim, cfg.operand_batching_dims,
                                   cfg.start_indices_batching_dims, /*skip=*/false);
  const std::string variant = "gather_" + bits_tag(out.dtype()) + (needs_idx64(g.reach) ? "_idx64" : "");
  record_indexing(be, variant, 0, OpId::gather, out, {out, operand, indices}, g.words);
}

void scatter_kernel(VulkanBackend& be, const TensorView& out, const TensorView& indices, const TensorView& updates,
                    const ScatterConfig& cfg) {
  TENFERRO_ASSERT(indices.dtype() == DType::I32 || indices.dtype() == DType::I64);
  TENFERRO_ASSERT(out.dtype() == updates.dtype());
  TENFERRO_ASSERT(out.dtype() != DType::Bool || cfg.combiner == ScatterCombiner::replace);
  if (updates.numel() == 0 || out.numel() == 0) return;
  Axes dropped = cfg.inserted_window_dims;
  dropped.insert(dropped.end(), cfg.input_batching_dims.begin(), cfg.input_batching_dims.end());
  // Window extent per operand dim: the updates extent on window dims, 1 elsewhere.
  Shape extent(static_cast<std::size_t>(out.rank()), 1);
  std::size_t next = 0;
  for (I64 d = 0; d < out.rank(); ++d)
    if (!contains_axis(dropped, d)) extent[static_cast<std::size_t>(d)] = updates.dim(cfg.update_window_dims[next++]);
  Geometry g = make_geometry(out, indices, updates, cfg.update_window_dims, dropped, extent,
                             cfg.scatter_dims_to_operand_dims, cfg.index_vector_dim, cfg.input_batching_dims,
                             cfg.scatter_indices_batching_dims, cfg.out_of_bounds == OutOfBounds::skip);

  // Lock table: a power of two of zeroed words covering out's offsets (hashed beyond kMaxLocks).
  // Every lock is released by the kernel; the table is freed once the dispatch completes.
  Tensor locks;
  int op = combiner_code(cfg.combiner);
  std::vector<TensorView> operands{out, updates, indices};
  // One window (dynamic_update_slice among others) never targets an element twice when out's
  // layout is injective (its offsets span exactly numel elements).
  const Layout& ol = out.layout();
  const bool unique = updates.numel() == g.words[TF_IX_WIN_NUMEL] && ol.max_offset() - ol.min_offset() + 1 == out.numel();
  I64 max_groups = 0;  // no cap
  if (unique) {
    op |= TF_SC_UNIQUE;
  } else if (needs_locks(out.dtype(), cfg.combiner)) {
    I64 n = 1;
    while (n < std::min(out.layout().max_offset() + 1, kMaxLocks)) n *= 2;
    locks = be.allocate(DType::I32, {n});
    fill_kernel(be, locks, Scalar::of_int(DType::I32, 0));
    g.words[TF_IX_LOCK_MASK] = n - 1;
    // A GPU gets fences around the locked read-modify-write, ordering the element's atomics
    // with the lock. CPU implementations (lavapipe/llvmpipe) get neither fences (a memory
    // barrier inside the divergent lock loop loses updates there, and so do acquire/release
    // semantics on the lock's atomics) nor more than one workgroup: Mesa 22.3 lavapipe also
    // loses locked updates when workgroups run on different CPU threads
    // (tests/vulkan/indexing_gpu_test.cpp, ScatterWithHeavyDuplicates: f64/c64 add failed in
    // about 1 of 8 runs with two test processes on two cores), while the lanes of one
    // workgroup take their atomics one after the other (the grid-stride loop covers every
    // update).
    if (be.device().caps().device_type != VK_PHYSICAL_DEVICE_TYPE_CPU) op |= TF_SC_FENCES;
    else max_groups = 1;
    operands.push_back(locks);
  }
  const std::string variant = "scatter_" + arith_tag(be, out.dtype()) + (needs_idx64(g.reach) ? "_idx64" : "");
  record_indexing(be, variant, op, OpId::scatter, updates, operands, g.words, max_groups);
}

}  // namespace tenferro::vk
