// The elementwise families (unary, binary, compare, select, clamp) on one shader per family;
// the op is specialization constant 1: its OpId value (TF_OP_<NAME> in the shaders), a compare's
// CompareDir value (TF_CMP_*).
#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

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
      d.op = static_cast<int>(op);
      break;
    case OpFamily::binary:
      if (op == OpId::pow && pow_via_math_library(be, inputs, out)) return;
      d.kernel = "binary";
      d.type = arith_tag(be, in);
      d.op = static_cast<int>(op);
      break;
    case OpFamily::compare:
      d.kernel = "compare";
      d.type = type_tag(in);
      d.op = static_cast<int>(dir);
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
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE:
      TENFERRO_FAIL(internal, std::string(op_name(op)), "op", "[vulkan] not an elementwise op");
  }
  record_dispatch(be, d);
}

}  // namespace tenferro::vk
