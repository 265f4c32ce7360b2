// Op table derived from ops.def.
#include "tenferro/op_info.hpp"

namespace tenferro {

namespace {
constexpr OpInfo kOps[] = {
#define TENFERRO_OP(name, family, dtypes) {OpId::name, #name, OpFamily::family, DTypeClass::dtypes},
#include "tenferro/ops.def"
#undef TENFERRO_OP
};
}  // namespace

std::span<const OpInfo> all_ops() { return kOps; }
const OpInfo& op_info(OpId id) { return kOps[static_cast<std::size_t>(id)]; }
std::string_view op_name(OpId id) { return op_info(id).name; }

std::optional<OpId> parse_op(std::string_view name) {
  for (const OpInfo& o : kOps)
    if (o.name == name) return o.id;
  return std::nullopt;
}

bool dtype_in_class(DType d, DTypeClass c) {
  switch (c) {
    case DTypeClass::all: return true;
    case DTypeClass::numeric: return is_numeric(d);
    case DTypeClass::inexact: return is_inexact(d);
    case DTypeClass::real_float: return is_real_float(d);
    case DTypeClass::ordered: return is_ordered(d);
  }
  return false;
}

bool is_elementwise(OpId op) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic:
    case OpFamily::binary:
    case OpFamily::compare:
    case OpFamily::select:
    case OpFamily::clamp: return true;
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: return false;
  }
  return false;
}

}  // namespace tenferro
