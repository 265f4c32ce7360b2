// The elementwise families (unary, binary, compare, select, clamp) on one shader per family;
// the op is specialization constant 1 (op codes in shaders/common/params.h).
#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

namespace {
// OpId -> shader op code; -1 for ops without an elementwise kernel here.
int op_code(OpId op) {
  switch (op) {
    case OpId::neg: return TF_OP_NEG;
    case OpId::conj: return TF_OP_CONJ;
    case OpId::abs: return TF_OP_ABS;
    case OpId::sign: return TF_OP_SIGN;
    case OpId::add: return TF_OP_ADD;
    case OpId::sub: return TF_OP_SUB;
    case OpId::mul: return TF_OP_MUL;
    case OpId::div: return TF_OP_DIV;
    case OpId::rem: return TF_OP_REM;
    case OpId::pow: return TF_OP_POW;
    case OpId::maximum: return TF_OP_MAX;
    case OpId::minimum: return TF_OP_MIN;
    default: return -1;
  }
}

int compare_code(CompareDir dir) {
  switch (dir) {
    case CompareDir::EQ: return TF_CMP_EQ;
    case CompareDir::NE: return TF_CMP_NE;
    case CompareDir::LT: return TF_CMP_LT;
    case CompareDir::LE: return TF_CMP_LE;
    case CompareDir::GT: return TF_CMP_GT;
    case CompareDir::GE: return TF_CMP_GE;
  }
  return TF_CMP_EQ;
}
}  // namespace

void elementwise_kernel(VulkanBackend& be, OpId op, std::span<const TensorView> inputs, const TensorView& out,
                        CompareDir dir) {
  Dispatch d;
  d.tag = static_cast<std::uint32_t>(op) + 1;
  d.add(out);
  for (const TensorView& in : inputs) d.add(in);
  const DType in = inputs.empty() ? out.dtype() : inputs[0].dtype();
  switch (op_info(op).family) {
    case OpFamily::unary:
      d.kernel = op == OpId::abs && is_complex(in) ? "unary_abs" : "unary";
      d.type = arith_tag(be, in);
      d.op = op_code(op);
      break;
    case OpFamily::binary:
      if (op == OpId::pow && pow_via_math_library(be, inputs, out)) return;
      d.kernel = "binary";
      d.type = arith_tag(be, in);
      d.op = op_code(op);
      break;
    case OpFamily::compare:
      d.kernel = "compare";
      d.type = type_tag(in);
      d.op = compare_code(dir);
      break;
    case OpFamily::select:
      d.kernel = "select";
      d.type = bits_tag(out.dtype());
      break;
    case OpFamily::clamp:
      d.kernel = "clamp";
      d.type = arith_tag(be, in);
      break;
    case OpFamily::analytic: analytic_kernel(be, op, inputs[0], out); return;
    case OpFamily::cast:
    case OpFamily::structural:
    case OpFamily::reduce:
    case OpFamily::dot:
    case OpFamily::gather:
    case OpFamily::scatter:
      TENFERRO_FAIL(unsupported, std::string(op_name(op)), "", "[vulkan] op not yet implemented");
  }
  TENFERRO_ASSERT(d.op >= 0);
  record_dispatch(be, d);
}

}  // namespace tenferro::vk
