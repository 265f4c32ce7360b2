// One elementwise-style dispatch: jointly coalesced strided operands, a shader variant picked
// by kernel, type tag and index width, the op code as specialization constant.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tenferro/op_info.hpp"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

struct Dispatch {
  std::string kernel;                 // shader family: "fill", "copy", "binary", ...
  std::string type;                   // variant dtype tag: "f32", "c64", "bool", "b4", ...
  int op = 0;                         // specialization constant 1 (TF_OP_* / TF_CMP_*)
  std::uint32_t tag = 0;              // OpId + 1, reported with kernel-detected errors
  std::vector<TensorView> operands;   // [0] = output (written), [1..3] = inputs (read)
  std::array<std::uint64_t, 2> value{};  // raw fill value
};

/// Records `d` (nothing for an empty output) and lets the backend submit per its policy.
/// @pre every operand has the output's shape and lives in `be`'s domain; operands.size() <= 4.
/// Picks the `_idx64` variant when an element count or offset reaches 2^31 (STYLE.md B6.7).
/// Fast path: when, after joint coalescing, every operand is rank <= 1 with stride 1 (inputs
/// may have stride 0) and numel < 2^31 - 2^26, fill/copy/unary/unary_abs/binary/compare/select/
/// clamp use the `<kernel>_<type>_contig` variant (offsets folded into the addresses, 4
/// elements per invocation, 16-byte accesses when every stride-1 operand is aligned).
void record_dispatch(VulkanBackend& be, const Dispatch& d);

/// Variant tag of a dtype: f32 f64 i32 i64 bool c32 c64.
std::string type_tag(DType d);
/// Raw-bit tag of a dtype's element size: b1 b4 b8 b16.
std::string bits_tag(DType d);

}  // namespace tenferro::vk
