// Op identities derived from src/core/ops.def (the one list of ops).
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

enum class OpFamily : std::uint8_t {
  unary, analytic, binary, compare, select, clamp, cast, structural, reduce, dot, gather, scatter
};

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
