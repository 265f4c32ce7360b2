// The program einsum runs: what lowering (lower.hpp) makes of a path for given operand layouts,
// dtype and backend capability. It holds every decision; the runner (run.cpp) reads nothing else
// and decides nothing: each instruction says what to call, on which views, how a product stores
// its result and how much optional scratch it may hold, in the order to run them, with the last
// use of every value.
#pragma once
#include <cstdint>
#include <vector>

#include "tenferro/backend/gemm_call.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/layout.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::einsum_detail {

/// One backend-level step. a, b, dst are value slots: slots 0..n-1 hold the operands, every
/// other slot is written by exactly one instruction (a view shares its source's storage).
struct Instr {
  enum class Kind : std::uint8_t { view, reduce_sum, dot, mul, transpose };
  /// How a dot stores its result, a compact tensor of `shape`.
  enum class Store : std::uint8_t {
    /// dot_general's own result: `shape` is its order [lhs free][rhs free][batch].
    compact,
    /// dot_general_into writes `layout`, a permuted view of the stored tensor: in place where
    /// the GEMM can (one stride chain per group; a few on a backend with
    /// GemmCaps::chained_output), else through its temp, made in pieces when large.
    out_view,
    /// Computed compact in GEMM order, then copied once into `layout` (a result under
    /// detail::pack_chunk_bytes() in an order the backend's GEMM does not write); operands at
    /// their last use are handed over, so freed as they are packed.
    copy_after,
  };
  Kind kind = Kind::view;
  int a = -1, b = -1, dst = -1;
  // view: the new view's layout, its offset relative to a's (so a program serves operands at
  // any offset). dot: the out view of the stored tensor (unused when Store::compact). mul: a's
  // view, its offset relative to a's.
  Layout layout;
  Layout layout_b;  // mul: b's view (stride 0 along a's labels), its offset relative to b's
  Shape shape;      // dot, mul: the stored tensor's shape (compact)
  Axes axes;        // reduce_sum: summed axes; transpose: the permutation
  DotGeneralConfig cfg;
  Store store = Store::compact;  // dot
  // dot: the optional scratch its products may hold (GemmCall::scratch_limit): the program's
  // memory bound less the bytes held when it runs (schedule.hpp).
  std::uint64_t scratch_limit = kNoScratchLimit;
  std::vector<int> release;  // slots whose last use is this instruction
};

struct Program {
  int num_slots = 0;
  std::vector<Instr> instrs;  // in the order to run them
  int result = -1;
  bool result_is_view = false;  // the result slot holds compact data in output order: rewrap it
  Shape result_shape;
  EinsumStats stats;  // the step report (label strings only when lowered for a report)
};

}  // namespace tenferro::einsum_detail
