// The op table of `tenferro eval`: op name -> (backend, inputs, attrs) -> result, one row per
// op of ops.def (EVAL_FORMAT.md's table). Attribute problems raise Error{invalid_argument} naming the
// op, exactly as the library does for bad arguments.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "eval.hpp"
#include "json_tensor.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::cli {
namespace {

using json = nlohmann::json;
using Inputs = std::span<const TensorView>;
using OpFn = Tensor (*)(Backend&, Inputs, const json&, const char*);

void need_inputs(const char* op, Inputs in, std::size_t n) {
  TENFERRO_CHECK(in.size() == n, invalid_argument, op, "inputs", "takes ", n, " input", n == 1 ? "" : "s",
                 ", got ", in.size());
}

// The attr `name`, or nullptr when absent (a JSON null counts as absent).
const json* find_attr(const json& attrs, const char* name) {
  if (!attrs.is_object()) return nullptr;
  auto it = attrs.find(name);
  if (it == attrs.end() || it->is_null()) return nullptr;
  return &*it;
}

const json& req_attr(const json& attrs, const char* op, const char* name) {
  const json* v = find_attr(attrs, name);
  TENFERRO_CHECK(v != nullptr, invalid_argument, op, name, "missing attribute '", name, "'");
  return *v;
}

std::int64_t as_int(const json& v, const char* op, const char* name) {
  if (v.is_number_unsigned()) {
    TENFERRO_CHECK(v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX), invalid_argument, op, name,
                   "attribute '", name, "' is out of the int64 range: ", v.dump());
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    TENFERRO_CHECK(std::isfinite(d) && d == std::trunc(d) && std::abs(d) < 9.0e18, invalid_argument, op, name,
                   "attribute '", name, "' must be an integer, got ", v.dump());
    return static_cast<std::int64_t>(d);
  }
  TENFERRO_FAIL(invalid_argument, op, name, "attribute '", name, "' must be an integer, got ", v.dump());
}

std::vector<std::int64_t> as_list(const json& v, const char* op, const char* name) {
  TENFERRO_CHECK(v.is_array(), invalid_argument, op, name, "attribute '", name,
                 "' must be a list of integers, got ", v.dump());
  std::vector<std::int64_t> out;
  for (const json& e : v) out.push_back(as_int(e, op, name));
  return out;
}

std::int64_t req_int(const json& attrs, const char* op, const char* name) {
  return as_int(req_attr(attrs, op, name), op, name);
}
std::int64_t opt_int(const json& attrs, const char* op, const char* name, std::int64_t dflt) {
  const json* v = find_attr(attrs, name);
  return v ? as_int(*v, op, name) : dflt;
}
std::vector<std::int64_t> req_list(const json& attrs, const char* op, const char* name) {
  return as_list(req_attr(attrs, op, name), op, name);
}
std::vector<std::int64_t> opt_list(const json& attrs, const char* op, const char* name,
                                   std::vector<std::int64_t> dflt = {}) {
  const json* v = find_attr(attrs, name);
  return v ? as_list(*v, op, name) : dflt;
}
bool opt_bool(const json& attrs, const char* op, const char* name) {
  const json* v = find_attr(attrs, name);
  if (!v) return false;
  TENFERRO_CHECK(v->is_boolean(), invalid_argument, op, name, "attribute '", name, "' must be true or false, got ",
                 v->dump());
  return v->get<bool>();
}
std::string req_string(const json& attrs, const char* op, const char* name) {
  const json& v = req_attr(attrs, op, name);
  TENFERRO_CHECK(v.is_string(), invalid_argument, op, name, "attribute '", name, "' must be a string, got ",
                 v.dump());
  return v.get<std::string>();
}
// The first of several accepted spellings that is present (else the first, for the message).
const char* pick(const json& attrs, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (find_attr(attrs, n)) return n;
  return *names.begin();
}

DType dtype_attr(const json& attrs, const char* op) {
  const std::string s = req_string(attrs, op, "dtype");
  const std::optional<DType> d = parse_dtype(s);
  TENFERRO_CHECK(d.has_value(), invalid_argument, op, "dtype", "unknown dtype '", s,
                 "' (expected f32 f64 i32 i64 bool c32 c64)");
  return *d;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Tensor op_compare(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 2);
  const std::string s = req_string(attrs, op, "direction");
  CompareDir dir{};
  TENFERRO_CHECK(parse_compare_dir(s, dir) || parse_compare_dir(upper(s), dir), invalid_argument, op, "direction",
                 "unknown compare direction '", s, "' (expected EQ NE LT LE GT GE)");
  return compare(be, in[0], in[1], dir);
}

std::pair<std::int64_t, std::int64_t> diagonal_axes(const json& attrs, const char* op) {
  const std::vector<std::int64_t> axes = req_list(attrs, op, "axes");
  TENFERRO_CHECK(axes.size() == 2, invalid_argument, op, "axes", "attribute 'axes' must be [a, b], got ",
                 axes.size(), " entries");
  return {axes[0], axes[1]};
}

Tensor op_reduce(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 1);
  const Axes axes = req_list(attrs, op, pick(attrs, {"dimensions", "axes"}));
  return reduce(be, *parse_op(op), in[0], axes);
}

Tensor op_dot_general(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 2);
  DotGeneralConfig cfg;
  cfg.lhs_batching_dims = opt_list(attrs, op, "lhs_batching_dimensions");
  cfg.rhs_batching_dims = opt_list(attrs, op, "rhs_batching_dimensions");
  cfg.lhs_contracting_dims = req_list(attrs, op, "lhs_contracting_dimensions");
  cfg.rhs_contracting_dims = req_list(attrs, op, "rhs_contracting_dimensions");
  return dot_general(be, in[0], in[1], cfg, opt_bool(attrs, op, "lhs_conj"), opt_bool(attrs, op, "rhs_conj"));
}

Tensor op_gather(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 2);
  GatherConfig cfg;
  cfg.offset_dims = req_list(attrs, op, "offset_dims");
  cfg.collapsed_slice_dims = req_list(attrs, op, "collapsed_slice_dims");
  cfg.operand_batching_dims = opt_list(attrs, op, "operand_batching_dims");
  cfg.start_indices_batching_dims = opt_list(attrs, op, "start_indices_batching_dims");
  cfg.start_index_map = req_list(attrs, op, "start_index_map");
  cfg.index_vector_dim = req_int(attrs, op, "index_vector_dim");
  cfg.slice_sizes = req_list(attrs, op, "slice_sizes");
  return gather(be, in[0], in[1], cfg);
}

Tensor op_scatter(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 3);
  ScatterConfig cfg;
  cfg.update_window_dims = req_list(attrs, op, "update_window_dims");
  cfg.inserted_window_dims = req_list(attrs, op, "inserted_window_dims");
  cfg.input_batching_dims = opt_list(attrs, op, "input_batching_dims");
  cfg.scatter_indices_batching_dims = opt_list(attrs, op, "scatter_indices_batching_dims");
  cfg.scatter_dims_to_operand_dims = req_list(attrs, op, "scatter_dims_to_operand_dims");
  cfg.index_vector_dim = req_int(attrs, op, "index_vector_dim");
  if (find_attr(attrs, "combiner")) {
    const std::string s = req_string(attrs, op, "combiner");
    TENFERRO_CHECK(parse_combiner(s, cfg.combiner) || parse_combiner(lower(s), cfg.combiner), invalid_argument, op,
                   "combiner", "unknown combiner '", s, "' (expected add replace mul max min)");
  }
  if (find_attr(attrs, "out_of_bounds")) {
    const std::string s = lower(req_string(attrs, op, "out_of_bounds"));
    TENFERRO_CHECK(s == "clamp" || s == "skip", invalid_argument, op, "out_of_bounds",
                   "unknown out_of_bounds mode '", s, "' (expected clamp or skip)");
    cfg.out_of_bounds = s == "clamp" ? OutOfBounds::clamp : OutOfBounds::skip;
  }
  return scatter(be, in[0], in[1], in[2], cfg);
}

Tensor op_slice(Backend& be, Inputs in, const json& attrs, const char* op) {
  need_inputs(op, in, 1);
  SliceConfig cfg;
  cfg.start_indices = req_list(attrs, op, "start_indices");
  cfg.limit_indices = req_list(attrs, op, "limit_indices");
  cfg.strides = opt_list(attrs, op, "strides", std::vector<std::int64_t>(cfg.start_indices.size(), 1));
  return slice_copy(be, in[0], cfg);
}

Tensor op_pad(Backend& be, Inputs in, const json& attrs, const char* op) {
  TENFERRO_CHECK(in.size() == 1 || in.size() == 2, invalid_argument, op, "inputs",
                 "takes 1 or 2 inputs (x, optional padding value), got ", in.size());
  PadConfig cfg;
  cfg.edge_padding_low = req_list(attrs, op, "edge_padding_low");
  cfg.edge_padding_high = req_list(attrs, op, "edge_padding_high");
  cfg.interior_padding = opt_list(attrs, op, "interior_padding", std::vector<std::int64_t>(cfg.edge_padding_low.size(), 0));
  return pad(be, in[0], cfg, in.size() == 2 ? in[1] : TensorView{});
}

// The unary, analytic and binary families by op id: their eval rows need nothing but inputs.
Tensor op_elementwise(Backend& be, Inputs in, const json&, const char* op) {
  const OpId id = *parse_op(op);
  need_inputs(op, in, op_info(id).family == OpFamily::binary ? 2 : 1);
  return elementwise(be, id, in);
}

// The row of every op of ops.def; nullptr for an op `tenferro eval` does not run (copy_into
// writes into an existing tensor and has no result). No default: a new op of ops.def fails to
// compile here until it has its row.
OpFn op_fn(OpId id) {
  switch (id) {
#define TENFERRO_CASE_U(name) case OpId::name:
#define TENFERRO_CASE_B(name) case OpId::name:
#define TENFERRO_CASE_R(name)
#define TENFERRO_CASE_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_CASE_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_CASE_U
#undef TENFERRO_CASE_B
#undef TENFERRO_CASE_R
#undef TENFERRO_CASE_X
      return op_elementwise;
    case OpId::compare: return op_compare;
    case OpId::select:
      return [](Backend& be, Inputs in, const json&, const char* op) -> Tensor {
        need_inputs(op, in, 3);
        return select(be, in[0], in[1], in[2]);
      };
    case OpId::clamp:
      return [](Backend& be, Inputs in, const json&, const char* op) -> Tensor {
        need_inputs(op, in, 3);
        return clamp(be, in[0], in[1], in[2]);
      };
    case OpId::convert:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return convert(be, in[0], dtype_attr(attrs, op));
      };
    case OpId::cast:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return cast(be, in[0], dtype_attr(attrs, op));
      };
    case OpId::transpose:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return transpose_copy(be, in[0], req_list(attrs, op, pick(attrs, {"permutation", "perm"})));
      };
    case OpId::reshape:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return reshape_copy(be, in[0], req_list(attrs, op, "shape"));
      };
    case OpId::broadcast_in_dim:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return broadcast_in_dim_copy(be, in[0], req_list(attrs, op, "shape"), req_list(attrs, op, "broadcast_dimensions"));
      };
    case OpId::extract_diagonal:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        const auto [a, b] = diagonal_axes(attrs, op);
        return extract_diagonal(be, in[0], a, b);
      };
    case OpId::embed_diagonal:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        const auto [a, b] = diagonal_axes(attrs, op);
        return embed_diagonal(be, in[0], a, b);
      };
    case OpId::tril:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return tril(be, in[0], opt_int(attrs, op, "k", 0));
      };
    case OpId::triu:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return triu(be, in[0], opt_int(attrs, op, "k", 0));
      };
    case OpId::copy_into: return nullptr;
    case OpId::to_contiguous:
      return [](Backend& be, Inputs in, const json&, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return to_contiguous(be, in[0]);
      };
    case OpId::slice: return op_slice;
    case OpId::dynamic_slice:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 2);
        return dynamic_slice(be, in[0], in[1], req_list(attrs, op, "slice_sizes"));
      };
    case OpId::dynamic_update_slice:
      return [](Backend& be, Inputs in, const json&, const char* op) -> Tensor {
        need_inputs(op, in, 3);
        return dynamic_update_slice(be, in[0], in[1], in[2]);
      };
    case OpId::pad: return op_pad;
    case OpId::concatenate:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        return concatenate(be, in, req_int(attrs, op, pick(attrs, {"dimension", "axis"})));
      };
    case OpId::reverse:
      return [](Backend& be, Inputs in, const json& attrs, const char* op) -> Tensor {
        need_inputs(op, in, 1);
        return reverse_copy(be, in[0], req_list(attrs, op, pick(attrs, {"dimensions", "axes"})));
      };
    case OpId::reduce_sum:
    case OpId::reduce_prod:
    case OpId::reduce_max:
    case OpId::reduce_min: return op_reduce;
    case OpId::dot_general: return op_dot_general;
    case OpId::gather: return op_gather;
    case OpId::scatter: return op_scatter;
  }
  return nullptr;
}

}  // namespace

bool is_known_op(const std::string& op) {
  const std::optional<OpId> id = parse_op(op);
  return id && op_fn(*id) != nullptr;
}

Tensor run_op(Backend& be, const std::string& op, std::span<const TensorView> inputs, const json& attrs) {
  const std::optional<OpId> id = parse_op(op);
  const OpFn fn = id ? op_fn(*id) : nullptr;
  if (!fn) throw CaseError("unknown op \"" + op + "\"");
  if (!attrs.is_null() && !attrs.is_object())
    TENFERRO_FAIL(invalid_argument, op, "attrs", "\"attrs\" must be an object, got ", attrs.dump());
  // op_name's strings outlive the call; errors name the op as the file spelled it.
  return fn(be, inputs, attrs, op_name(*id).data());
}

}  // namespace tenferro::cli
