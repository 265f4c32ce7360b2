// Push-constant layouts and shader constants, defined once and included by both GLSL and C++
// (STYLE.md B6.6). Every kernel of tenferro's Vulkan provider reads one `KernelParams`.
//
// Operands are addressed through buffer device addresses (Vulkan 1.2 bufferDeviceAddress), so a
// tensor may exceed maxStorageBufferRange and no descriptor sets exist. Operand 0 is the output,
// operands 1..3 the inputs. Layout block (int64 words at `layout_addr`):
//   [shape[0..rank) | for each operand j: offset_j, strides_j[0..rank)]   (elements, colex order)
#ifndef TENFERRO_SHADERS_COMMON_PARAMS_H
#define TENFERRO_SHADERS_COMMON_PARAMS_H

#ifdef __cplusplus
#include <cstdint>

#include "tenferro/config.hpp"
namespace tenferro::vk {
using tf_u64 = std::uint64_t;
using tf_i64 = std::int64_t;
using tf_u32 = std::uint32_t;
#else
#define tf_u64 uint64_t
#define tf_i64 int64_t
#define tf_u32 uint
#endif

#define TF_MAX_OPERANDS 4

// Op codes (specialization constant 1): an op's OpId value, TF_OP_<NAME> in GLSL, generated
// from ops.def (cmake/TenferroOps.cmake); C++ passes static_cast<int>(op). Compare directions:
// CompareDir's values.
#ifndef __cplusplus
#include "tf_op_codes.h"
#endif
#define TF_CMP_EQ 0
#define TF_CMP_NE 1
#define TF_CMP_LT 2
#define TF_CMP_LE 3
#define TF_CMP_GT 4
#define TF_CMP_GE 5

// Kernel-detected error bits, OR-ed into the device error word (rethrown at the next sync).
#define TF_ERR_DIV_ZERO 1u
#define TF_ERR_NEG_EXPONENT 2u
#define TF_ERR_CAST_RANGE 4u

struct KernelParams {
  tf_u64 addr[TF_MAX_OPERANDS];  // device address of element 0 of each operand's storage
  tf_u64 layout_addr;            // int64 layout block (see above)
  tf_u64 error_addr;             // uint[2]: error bits, tag of the first failing op
  tf_i64 numel;                  // elements to produce (> 0)
  tf_u64 value[2];               // raw bits of a fill value (16 bytes, little endian)
  tf_u32 rank;                   // rank of the jointly coalesced layouts
  tf_u32 tag;                    // OpId + 1 of the op, reported with kernel errors
};

#ifdef __cplusplus
static_assert(TF_CMP_EQ == int(CompareDir::EQ) && TF_CMP_NE == int(CompareDir::NE) && TF_CMP_LT == int(CompareDir::LT) &&
              TF_CMP_LE == int(CompareDir::LE) && TF_CMP_GT == int(CompareDir::GT) && TF_CMP_GE == int(CompareDir::GE));
inline constexpr std::uint32_t kMaxPushConstantBytes = 128;  // the Vulkan guaranteed minimum
static_assert(sizeof(KernelParams) == 80 && sizeof(KernelParams) <= kMaxPushConstantBytes);
}  // namespace tenferro::vk
#else
#undef tf_u64
#undef tf_i64
#undef tf_u32
#endif

#endif  // TENFERRO_SHADERS_COMMON_PARAMS_H
