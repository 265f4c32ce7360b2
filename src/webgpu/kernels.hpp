// The WebGPU backend's WGSL kernels, generated from the op table: one generator per kernel
// family (copy incl. tril / triu, fill, elementwise incl. select, cast, gather, scatter, reduce,
// gemm), never a copy of the source per op. Every kernel reads its layouts from a parameter
// buffer at binding 0 (layout_params), the data at bindings 1..n, and runs one invocation per
// element of its layout words' shape (the output's; reduce: the output's times its chunks;
// gather / scatter: big's) over a 2-D grid of 64-wide workgroups (grid()), with u32 element
// indices: tensors of at most 2^32 - 1 elements and buffers of at most 2^31 - 1 elements (the
// backend refuses larger ones before any work). No invocation loops more than about 20,000
// times: lavapipe (the CPU Vulkan driver the tests run wgpu-native on) ends an invocation's
// loops after about 65,535 iterations in all (silently: a sum of 100,000 ones gives 65,532), so
// long reductions, long K and serial scatters run in passes.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tenferro/config.hpp"
#include "tenferro/layout.hpp"
#include "tenferro/op_info.hpp"

namespace tenferro::webgpu {

/// How a dtype's bits move: one byte (Bool), one, two or four 32-bit words.
enum class Bits : std::uint8_t { byte, u32, u32x2, u32x4 };
Bits bits_of(DType d);

/// The parameter words of a kernel over `shape`: [rank, numel, operands, shape..., then per
/// operand its offset and strides] (elements), then `extra` words. Operand 0 is the output.
std::vector<std::int32_t> layout_params(const Shape& shape, std::span<const Layout> operands,
                                        std::span<const std::int32_t> extra = {});

/// Workgroups (x, y) covering n invocations of 64 within the per-dimension limit.
struct Grid {
  std::uint32_t x = 0, y = 0;
};
Grid grid(std::uint64_t n, std::uint32_t max_per_dim);

/// dst (binding 2) = src (binding 1), element by element along both layouts. triangular: tril /
/// triu over axes 0 (rows) and 1 (cols) of the layout words' shape, the extra words [k, lower]:
/// elements with row >= col - k (lower) or row <= col - k (upper) are copied, the others zero.
std::string copy_wgsl(Bits b, bool triangular = false);
/// dst (binding 1) = the value in the parameter words after the layout (1, 2 or 4 words; a byte
/// in the low bits of one word).
std::string fill_wgsl(Bits b);

/// True when elementwise_wgsl has a kernel for op on operand dtype d (for select, that of
/// on_true): the unary, analytic and binary arithmetic ops, abs, sign and clamp on F32, I32 and
/// C32 where the contract allows them (the analytic ops on the kernels' own math library, real
/// f32 within 2 ulp everywhere: WGSL's builtins are loose); compare (Bool out) on F32, I32, C32 and Bool; select (a Bool predicate) on
/// every dtype, moving bits.
bool elementwise_supported(OpId op, DType d);
/// True when an element of op on d can be undefined: integer div and rem by zero, pow with a
/// negative integer exponent (I32). Such a kernel ORs 1 into the error word at binding
/// 2 + arity and writes 0 for the element.
bool elementwise_can_fail(OpId op, DType d);
/// out (binding 1 + arity) = op(inputs at bindings 1..arity): same dtype throughout but for
/// compare (Bool out, written a byte at a time), select (a Bool predicate first) and abs of C32
/// (F32 out). dir is compare's direction. Bool operands are read a byte at a time. f32 rem is
/// exact (fmod); f32 pow follows C99 Annex F, computing 2^(y log2 |x|) in double-f32 pairs
/// (within 1 ulp); c32 pow is exp(b log a) with b log a in pairs (NumPy's rules at zeros);
/// integer div / rem truncate (MIN / -1 = MIN, MIN % -1 = 0), integer pow wraps.
std::string elementwise_wgsl(OpId op, DType d, CompareDir dir = CompareDir::EQ);

/// True when cast_wgsl casts from or to dtype d: F32, I32, C32 and Bool.
bool cast_supported(DType d);
/// True when cast_wgsl has a kernel from `from` to `to` (different dtypes): between F32, I32,
/// C32 and Bool, and F32 or F64 to I64 (on integer words: core's cast of float index tensors).
bool cast_has_kernel(DType from, DType to);
/// True when a cast from `from` to `to` can meet an invalid value (a float to an integer).
bool cast_can_fail(DType from, DType to);
/// dst (binding 2) = cast of src (binding 1) per SEMANTICS.md: to Bool x != 0 (complex: either
/// part; NaN nonzero), Bool to 1 / 0, real to complex (x, 0), complex to real or integer the
/// real part, I32 to F32 rounded, float to an integer truncated toward zero. When cast_can_fail: a
/// NaN, infinite or out-of-range value (with extra word 0 != 0, also a non-integral one) ORs 1
/// into the error word at binding 3 and writes 0.
std::string cast_wgsl(DType from, DType to);

/// gather / scatter (StableHLO, as src/cpu/indexing.cpp): one invocation per element of "big"
/// (gather's output, scatter's updates). The layout words are those of the shape [numel(big)]
/// and no operand; the extra words (all in elements) are a header of kIndexHeader words
///   0 batch axes, 1 window axes, 2 index-vector length, 3 the index vector's stride in the
///   indices, 4 big's offset, 5 the indices' offset, 6 the operand's offset, 7 flags (1 skip:
///   scatter drops out-of-bounds elements, else windows are clamped; 2 I64 indices, read as
///   two words, saturating to i32), 8 window elements (> 0), 9 scatter's mode (0: duplicate
///   targets combine with atomics, 1: plain read-modify-write, as for one window over an
///   injective out, 2: serial, invocation 0 takes big's elements [word 10, word 10 + word 11)
///   in order), 10 and 11 the serial range,
/// then per batch axis of big 4 words (extent, big stride, indices stride, operand stride of a
/// batching dim, else 0), per window axis 5 words (extent, operand stride, big stride, the
/// index-vector slot of its dim or -1, the dim's extent), per index-vector entry 3 words (the
/// operand stride of its dim, the room dim - window extent, 1 when a window axis covers the dim).
inline constexpr int kIndexHeader = 12;
/// True when gather_wgsl takes dtype d: every dtype (bits).
bool gather_supported(DType d);
/// True when scatter_wgsl takes dtype d with every combiner: F32, I32, C32 and Bool (replace
/// only, as the contract allows). The replace kernel moves the bits of any dtype.
bool scatter_supported(DType d);
/// out (binding 1)[big element i] = operand (binding 2)[its window start clamped + offset],
/// indices (I32 or I64) at binding 3.
std::string gather_wgsl(Bits b);
/// out (binding 1) combined with updates (binding 2) at their targets, indices at binding 3.
/// Mode 0 combines with atomics: i32 atomicAdd / Max / Min and mul by compare-and-swap, f32 by
/// compare-and-swap on the bits (C32 add: each part), one-word replace and Bool by atomic stores;
/// other (dtype, combiner) pairs (C32 mul and replace, 64-bit replace) run only modes 1 and 2.
std::string scatter_wgsl(DType d, ScatterCombiner c);
/// The loop iterations one serial scatter pass takes at most (lavapipe's loop limit): an update
/// costs one plus one per batch, window and index-vector axis.
inline constexpr std::int64_t kScatterSerialChunk = 16384;
/// True when scatter_wgsl(d, c) combines duplicate targets concurrently (mode 0).
bool scatter_concurrent(DType d, ScatterCombiner c);

/// True when reduce_wgsl has a kernel for op on dtype d: reduce_sum and reduce_prod on F32, I32
/// and C32, reduce_max and reduce_min on F32 and I32.
bool reduce_supported(OpId op, DType d);
/// The reduced elements one invocation of reduce_wgsl takes at most (lavapipe's loop limit,
/// above): longer reductions run in passes over chunks.
inline constexpr std::int64_t kReduceChunk = 2048;
/// out (binding 2) = op over the reduced axes of x (binding 1), one invocation per output element
/// and chunk of the reduced index space. The layout words run over the kept axes then a chunk
/// axis (operand 0 out, 1 x, whose chunk stride is 0); the extra words are [chunks, chunk length,
/// number of reduced axes r, then r pairs (extent > 0, x stride)], the first reduced axis
/// fastest. Float sums add leaves of 64 elements and combine the leaves pairwise; integer sums
/// and products wrap; f32 max / min propagate NaN (IEEE maximum / minimum).
std::string reduce_wgsl(OpId op, DType d);

/// The K one dispatch of gemm_wgsl takes at most (lavapipe's loop limit, above): a longer K runs
/// in passes, each adding alpha times its part of the sum to c.
inline constexpr std::int64_t kGemmChunk = 16384;
/// True when gemm_wgsl has a kernel for dtype d (F32 and C32).
bool gemm_supported(DType d);
/// c (binding 3) = alpha * sum_k op(a)[m,k,b] op(b)[k,n,b] + beta * c, a at binding 1, b at
/// binding 2, one invocation per element of c with a sequential K loop. The layout words run
/// over c's [M,N,B] (operand 0 c); the extra words are [K, a's offset and 3 strides, b's offset
/// and 3 strides, alpha (2 words: real, imaginary), beta (2 words), flags (1 conj a, 2 conj b,
/// 4 beta == 0: c is not read)]. K == 0 gives beta * c.
std::string gemm_wgsl(DType d);

/// The rows (M) and columns (N) of c one workgroup of gemm_tiled_wgsl(d) computes: 128 x 128 for
/// F32, 64 x 64 for C32 (32 vec4 of the element per tile row).
std::uint32_t gemm_tile(DType d);
/// The same product as gemm_wgsl with the same parameter words (and one more: extra word 14, the
/// batch of the dispatch's z = 0), blocked for reuse: a workgroup of 256 invocations computes a
/// gemm_tile(d)-square tile of c for batch wg.z, staging slabs of 8 K-steps of a and b in
/// workgroup memory (the next slab loaded into registers while the current one is consumed),
/// each invocation accumulating an 8 x 8 (F32) or 4 x 4 (C32) block in registers. Dispatch
/// (ceil(M / tile), ceil(N / tile), batches). Flags beyond gemm_wgsl's: 8 a's slab is loaded K
/// fastest, 16 b's is (the operand's unit-stride axis, for coalesced reads). K must be > 0.
std::string gemm_tiled_wgsl(DType d);

}  // namespace tenferro::webgpu
