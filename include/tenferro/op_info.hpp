// Op identities derived from include/tenferro/ops.def (the one list of ops).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "tenferro/dtype.hpp"

namespace tenferro {

enum class OpId : std::uint16_t {
#define TENFERRO_OP(name, family, dtypes) name,
#include "tenferro/ops.def"
#undef TENFERRO_OP
};

/// X-macros over ops.def that treat ops by their function's signature:
/// TENFERRO_OP_BY_SIGNATURE(prefix, family, name) expands to prefixU(name) for the unary and
/// analytic families (one operand), prefixB(name) for binary (two), prefixR(name) for the
/// reductions, prefixX(name) for the others.
#define TENFERRO_OP_SIGNATURE_unary U
#define TENFERRO_OP_SIGNATURE_analytic U
#define TENFERRO_OP_SIGNATURE_binary B
#define TENFERRO_OP_SIGNATURE_compare X
#define TENFERRO_OP_SIGNATURE_select X
#define TENFERRO_OP_SIGNATURE_clamp X
#define TENFERRO_OP_SIGNATURE_cast X
#define TENFERRO_OP_SIGNATURE_structural X
#define TENFERRO_OP_SIGNATURE_reduce R
#define TENFERRO_OP_SIGNATURE_dot X
#define TENFERRO_OP_SIGNATURE_gather X
#define TENFERRO_OP_SIGNATURE_scatter X
/// Inside a switch over OpId that handles the ops of one signature and has no default, so that
/// the compiler reports a new op of that signature without its case: with
/// @code
///   #define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_OP_CASE_UNLESS_U_, family, name)
///   #include "tenferro/ops.def"
/// @endcode
/// the other ops' `case OpId::name:` labels (UNLESS_B_ for binary, UNLESS_R_ for reductions).
#define TENFERRO_OP_CASE_(name) case OpId::name:
#define TENFERRO_OP_NO_CASE_(name)
#define TENFERRO_OP_CASE_UNLESS_U_U TENFERRO_OP_NO_CASE_
#define TENFERRO_OP_CASE_UNLESS_U_B TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_U_R TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_U_X TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_B_U TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_B_B TENFERRO_OP_NO_CASE_
#define TENFERRO_OP_CASE_UNLESS_B_R TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_B_X TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_R_U TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_R_B TENFERRO_OP_CASE_
#define TENFERRO_OP_CASE_UNLESS_R_R TENFERRO_OP_NO_CASE_
#define TENFERRO_OP_CASE_UNLESS_R_X TENFERRO_OP_CASE_
#define TENFERRO_OP_CAT_(a, b) a##b
#define TENFERRO_OP_CAT(a, b) TENFERRO_OP_CAT_(a, b)
#define TENFERRO_OP_BY_SIGNATURE(prefix, family, name) TENFERRO_OP_CAT(prefix, TENFERRO_OP_SIGNATURE_##family)(name)

enum class OpFamily : std::uint8_t {
  unary, analytic, binary, compare, select, clamp, cast, structural, reduce, dot, gather, scatter
};
/// The case labels of the families without elementwise ops, for switches over an elementwise
/// op's family that list every family (no default).
#define TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE                                                     \
  case OpFamily::cast:                                                                           \
  case OpFamily::structural:                                                                     \
  case OpFamily::reduce:                                                                         \
  case OpFamily::dot:                                                                            \
  case OpFamily::gather:                                                                         \
  case OpFamily::scatter

/// Dtype classes of the contract column in ops.def.
enum class DTypeClass : std::uint8_t { all, numeric, inexact, real_float, ordered };

struct OpInfo {
  OpId id;
  std::string_view name;
  OpFamily family;
  DTypeClass dtypes;
};

std::span<const OpInfo> all_ops();
const OpInfo& op_info(OpId id);
std::string_view op_name(OpId id);
std::optional<OpId> parse_op(std::string_view name);
bool dtype_in_class(DType d, DTypeClass c);
/// True when the contract of SEMANTICS.md allows `op` on operands of dtype `d`.
inline bool contract_allows(OpId op, DType d) { return dtype_in_class(d, op_info(op).dtypes); }
/// Unary, analytic, binary, compare, select and clamp ops: those a fusion plan may hold.
bool is_elementwise(OpId op);

}  // namespace tenferro
