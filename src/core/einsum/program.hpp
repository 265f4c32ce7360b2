// The program einsum runs: what lowering (lower.hpp) makes of a path for given operand layouts,
// dtype and backend capability: views, sums, pairwise products, at most one final transpose, in
// the order to run them, with the last use of every value. run.cpp runs it.
#pragma once
#include <cstdint>
#include <vector>

#include "tenferro/einsum.hpp"
#include "tenferro/layout.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::einsum_detail {

/// One backend-level step. a, b, dst are value slots: slots 0..n-1 hold the operands, every
/// other slot is written by exactly one instruction (a view shares its source's storage).
struct Instr {
  enum class Kind : std::uint8_t { view, reduce_sum, dot, mul, transpose };
  Kind kind = Kind::view;
  int a = -1, b = -1, dst = -1;
  // view: the new view's layout (absolute). dot: the out view handed to dot_general_into, a
  // permuted view of the compact stored tensor (unused when out_compact). mul: a's view.
  Layout layout;
  Layout layout_b;  // mul: b's view (stride 0 along a's labels)
  Shape shape;      // dot, mul: the stored tensor's shape (compact)
  bool out_compact = true;
  // dot: the out view's groups are stride chains (dot_general_into writes it directly); false
  // for a value stored in an order no GEMM writes: the result in output order, or a large
  // intermediate in the order its consumer reads in place (contract_gemm, consumer_order).
  bool out_direct = true;
  Axes axes;  // reduce_sum: summed axes; transpose: the permutation
  DotGeneralConfig cfg;
  std::vector<int> release;  // slots whose last use is this instruction
};

struct Program {
  int num_slots = 0;
  std::vector<Instr> instrs;  // in the order to run them
  int result = -1;
  bool result_is_view = false;  // the result slot holds compact data in output order: rewrap it
  Shape result_shape;
  EinsumStats stats;  // the step report (label strings only when lowered for a report)
  // The device-memory bound (bytes): 1.5x the largest sum of simultaneously live tensors the
  // plan implies (PathCost: inputs and intermediates), and the inputs' bytes (always held).
  // execute() gives each product the rest as optional scratch (GemmCall::scratch_limit).
  double memory_bound = 0, input_bytes = 0;
};

}  // namespace tenferro::einsum_detail
