// The user API (tenferro/api.hpp): each op finds the backend its operands live on and runs the
// explicit-backend op of tenferro/ops.hpp there.
#include "tenferro/api.hpp"

#include <map>
#include <optional>
#include <vector>

#include "tenferro/expr.hpp"

#include <atomic>
#include <cmath>
#include <string>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro {

namespace {

struct Arg {
  const char* name;
  const TensorView* t;
};

/// The backend a tensor lives on: the CPU backend for host tensors, else the backend that
/// registered its allocation domain.
Backend& backend_of(const TensorView& t, std::string_view op, const char* arg) {
  TENFERRO_CHECK(t.defined(), invalid_argument, op, arg, arg, " is an undefined tensor");
  if (t.domain() == kHostDomain) return cpu_backend();
  Backend* be = registered_backend(t.domain());
  TENFERRO_CHECK(be != nullptr, host_access, op, arg, arg, " lives on ", to_string(t.placement()),
                 " in an allocation domain no backend owns");
  return *be;
}

/// The backend of the operands, which must share one device (undefined views among `args`
/// are skipped when `optional`).
Backend& common_backend(std::string_view op, std::initializer_list<Arg> args) {
  const Arg* first = nullptr;
  for (const Arg& a : args) {
    TENFERRO_CHECK(a.t->defined(), invalid_argument, op, a.name, a.name, " is an undefined tensor");
    if (first == nullptr) {
      first = &a;
      continue;
    }
    const Device d = a.t->device(), d0 = first->t->device();
    TENFERRO_CHECK(d == d0, runtime_state, op, a.name, a.name, " is on ", d.name(), ", ", first->name, " on ",
                   d0.name(), ": operands must share a device (move one with to(x, device) first)");
  }
  return backend_of(*first->t, op, first->name);
}

Backend& backend_of_all(std::string_view op, std::span<const TensorView> ts, const char* arg) {
  TENFERRO_CHECK(!ts.empty(), invalid_argument, op, arg, "no ", arg, ", expected at least one");
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
    TENFERRO_CHECK(ts[i].defined(), invalid_argument, op, arg, name, " is an undefined tensor");
    const Device d = ts[i].device(), d0 = ts[0].device();
    TENFERRO_CHECK(d == d0, runtime_state, op, arg, name, " is on ", d.name(), ", ", arg, "[0] on ", d0.name(),
                   ": operands must share a device (move one with to(x, device) first)");
  }
  return backend_of(ts[0], op, arg);
}

/// The number `v` as a rank-0 tensor of `like`'s dtype on `like`'s device.
Tensor scalar_like(const TensorView& like, const Number& v, std::string_view op, const char* arg,
                   const char* like_arg) {
  Backend& be = backend_of(like, op, like_arg);
  const Scalar s = v.to(like.dtype(), op, arg);
  Tensor t = be.allocate(like.dtype(), {});
  be.fill(t, s);
  return t;
}

/// splitmix64: element i of rand(seed) comes from splitmix64(seed, i) alone.
std::uint64_t mix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (i + 1) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::atomic<std::uint64_t> g_next_seed{0};

}  // namespace

// ---- Number ---------------------------------------------------------------------------------
Scalar Number::to(DType d, std::string_view op, const char* arg) const {
  const bool integral_real = kind_ == Kind::real && std::isfinite(c_.real()) && std::trunc(c_.real()) == c_.real();
  switch (d) {
    case DType::F32:
    case DType::F64:
      TENFERRO_CHECK(kind_ != Kind::complex || c_.imag() == 0, dtype_mismatch, op, arg, "the complex number ",
                     c_.real(), (c_.imag() < 0 ? "" : "+"), c_.imag(), "i meets a ", dtype_name(d),
                     " tensor (a complex number needs a complex tensor)");
      if (kind_ == Kind::integer || kind_ == Kind::boolean) return Scalar::of(d, static_cast<double>(i_));
      return Scalar::of(d, c_.real());
    case DType::C32:
    case DType::C64:
      if (kind_ == Kind::integer || kind_ == Kind::boolean) return Scalar::of(d, static_cast<double>(i_));
      return Scalar::of_complex(d, c_);
    case DType::I32:
    case DType::I64: {
      const bool i32 = d == DType::I32;
      const double lo = i32 ? -2147483648.0 : -9223372036854775808.0, hi = i32 ? 2147483648.0 : 9223372036854775808.0;
      std::int64_t v = i_;
      if (kind_ == Kind::real || kind_ == Kind::complex) {
        TENFERRO_CHECK((kind_ == Kind::real ? integral_real : c_.imag() == 0 && std::isfinite(c_.real()) &&
                                                                  std::trunc(c_.real()) == c_.real()) &&
                           c_.real() >= lo && c_.real() < hi,
                       invalid_argument, op, arg, "the number ", c_.real(),
                       kind_ == Kind::complex ? " (complex)" : "", " is not an integer a ", dtype_name(d),
                       " tensor can hold exactly");
        v = static_cast<std::int64_t>(c_.real());
      }
      if (i32)
        TENFERRO_CHECK(v >= -2147483648LL && v <= 2147483647LL, invalid_argument, op, arg, "the number ", v,
                       " is outside the range of i32");
      return Scalar::of_int(d, v);
    }
    case DType::Bool: {
      bool ok = kind_ == Kind::boolean || (kind_ == Kind::integer && (i_ == 0 || i_ == 1));
      if (kind_ == Kind::real || kind_ == Kind::complex)
        ok = c_.imag() == 0 && (c_.real() == 0 || c_.real() == 1);
      TENFERRO_CHECK(ok, invalid_argument, op, arg, "a bool tensor takes true/false or a number equal to 0 or 1");
      const bool b = kind_ == Kind::real || kind_ == Kind::complex ? c_.real() != 0 : i_ != 0;
      return Scalar::of_int(DType::Bool, b ? 1 : 0);
    }
  }
  TENFERRO_FAIL(internal, op, arg, "unknown dtype");
}

// ---- factories --------------------------------------------------------------------------------
Tensor empty(const Shape& shape, DType dtype, const Device& device) {
  return backend_for(device).allocate(dtype, shape);
}

Tensor full(const Shape& shape, Number value, DType dtype, const Device& device) {
  const Scalar s = value.to(dtype, "full", "value");
  Backend& be = backend_for(device);
  Tensor t = be.allocate(dtype, shape);
  if (t.numel() > 0) be.fill(t, s);
  return t;
}

Tensor zeros(const Shape& shape, DType dtype, const Device& device) { return full(shape, 0, dtype, device); }
Tensor ones(const Shape& shape, DType dtype, const Device& device) { return full(shape, 1, dtype, device); }
Tensor scalar(Number value, DType dtype, const Device& device) { return full({}, value, dtype, device); }

Tensor arange(std::int64_t n, DType dtype, const Device& device) {
  TENFERRO_CHECK(n >= 0, invalid_argument, "arange", "n", "n is ", n, ", expected >= 0");
  TENFERRO_CHECK(dtype != DType::Bool, unsupported, "arange", "dtype", "arange has no bool form");
  Tensor h = host_empty(dtype, {n});
  if (n > 0)
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* p = reinterpret_cast<T*>(h.storage()->host_data());
      for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(i);
    });
  return device.is_cpu() ? h : to(h, device);
}

void manual_seed(std::uint64_t seed) { g_next_seed = seed; }

Tensor rand(const Shape& shape, DType dtype, const Device& device, std::optional<std::uint64_t> seed) {
  const std::uint64_t s = seed ? *seed : g_next_seed++;
  Tensor h = host_empty(dtype, shape);
  const auto n = static_cast<std::uint64_t>(h.numel());
  if (n > 0)
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* p = reinterpret_cast<T*>(h.storage()->host_data());
      constexpr double k53 = 1.0 / 9007199254740992.0;  // 2^-53
      constexpr float k24 = 1.0f / 16777216.0f;          // 2^-24
      for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, double>) {
          p[i] = static_cast<double>(mix(s, i) >> 11) * k53;
        } else if constexpr (std::is_same_v<T, float>) {
          p[i] = static_cast<float>(mix(s, i) >> 40) * k24;
        } else if constexpr (std::is_same_v<T, c64>) {  // parts from draws 2i and 2i + 1
          p[i] = c64(static_cast<double>(mix(s, 2 * i) >> 11) * k53, static_cast<double>(mix(s, 2 * i + 1) >> 11) * k53);
        } else if constexpr (std::is_same_v<T, c32>) {
          p[i] = c32(static_cast<float>(mix(s, 2 * i) >> 40) * k24, static_cast<float>(mix(s, 2 * i + 1) >> 40) * k24);
        } else if constexpr (std::is_same_v<T, bool>) {
          p[i] = (mix(s, i) >> 63) != 0;
        } else if constexpr (std::is_same_v<T, std::int32_t>) {
          p[i] = static_cast<std::int32_t>(mix(s, i) >> 33);
        } else {
          p[i] = static_cast<std::int64_t>(mix(s, i) >> 1);
        }
      }
    });
  return device.is_cpu() ? h : to(h, device);
}

template <class T> Tensor tensor(const Shape& shape, const std::vector<T>& values, const Device& device) {
  TENFERRO_CHECK(shape_numel(shape, "tensor") == static_cast<std::int64_t>(values.size()), shape_mismatch, "tensor",
                 "values", "got ", values.size(), " values for shape ", shape, ", expected ",
                 shape_numel(shape, "tensor"));
  Tensor h = host_tensor<T>(shape, values);
  return device.is_cpu() ? h : to(h, device);
}

// ---- transfers --------------------------------------------------------------------------------
Tensor to(const TensorView& x, const Device& device) {
  Backend& src = backend_of(x, "to", "x");
  Backend& dst = backend_for(device);
  if (&src == &dst) return to_contiguous(src, x);
  if (x.domain() == kHostDomain) return upload(dst, x);
  Tensor host = download(src, x);
  return dst.domain() == kHostDomain ? host : upload(dst, host);
}

Tensor to_host(const TensorView& x) { return to(x, Device::cpu()); }

template <class T> T item(const TensorView& x) {
  TENFERRO_CHECK(x.defined(), invalid_argument, "item", "x", "x is an undefined tensor");
  TENFERRO_CHECK(x.numel() == 1, invalid_argument, "item", "x", "x has ", x.numel(), " elements (shape ", x.shape(),
                 "), expected 1");
  return to_vector<T>(x)[0];
}

void synchronize(const Device& device) { backend_for(device).synchronize(); }

void with_session(const Device& device, const std::function<void()>& f) { with_session(backend_for(device), f); }

// ---- elementwise ------------------------------------------------------------------------------
#define TENFERRO_API_U(name) \
  Tensor name(const TensorView& x) { return name(common_backend(#name, {{"x", &x}}), x); }
#define TENFERRO_API_B(name)                                                 \
  Tensor name(const TensorView& lhs, const TensorView& rhs) {                \
    return name(common_backend(#name, {{"lhs", &lhs}, {"rhs", &rhs}}), lhs, rhs); \
  }
#define TENFERRO_API_R(name)
#define TENFERRO_API_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_API_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_API_U
#undef TENFERRO_API_B
#undef TENFERRO_API_R
#undef TENFERRO_API_X

Tensor compare(const TensorView& lhs, const TensorView& rhs, CompareDir dir) {
  return compare(common_backend("compare", {{"lhs", &lhs}, {"rhs", &rhs}}), lhs, rhs, dir);
}
Tensor select(const TensorView& pred, const TensorView& on_true, const TensorView& on_false) {
  return select(common_backend("select", {{"pred", &pred}, {"on_true", &on_true}, {"on_false", &on_false}}), pred,
                on_true, on_false);
}
Tensor clamp(const TensorView& x, const TensorView& lower, const TensorView& upper) {
  return clamp(common_backend("clamp", {{"x", &x}, {"lower", &lower}, {"upper", &upper}}), x, lower, upper);
}
Tensor convert(const TensorView& x, DType to) { return convert(common_backend("convert", {{"x", &x}}), x, to); }
Tensor cast(const TensorView& x, DType to) { return cast(common_backend("cast", {{"x", &x}}), x, to); }

// ---- operators --------------------------------------------------------------------------------
namespace {
Tensor binary(OpId op, const TensorView& lhs, const TensorView& rhs, CompareDir dir) {
  const std::string_view name = op_name(op);
  Backend& be = common_backend(name, {{"lhs", &lhs}, {"rhs", &rhs}});
  const TensorView in[] = {lhs, rhs};
  return elementwise(be, op, in, dir);
}
}  // namespace

#define TENFERRO_API_OPERATOR(sym, op, dir)                                                        \
  Tensor operator sym(const TensorView& lhs, const TensorView& rhs) { return binary(op, lhs, rhs, dir); } \
  Tensor operator sym(const TensorView& lhs, Number rhs) {                                           \
    return binary(op, lhs, scalar_like(lhs, rhs, op_name(op), "rhs", "lhs"), dir);                  \
  }                                                                                                 \
  Tensor operator sym(Number lhs, const TensorView& rhs) {                                           \
    return binary(op, scalar_like(rhs, lhs, op_name(op), "lhs", "rhs"), rhs, dir);                  \
  }
TENFERRO_API_OPERATOR(+, OpId::add, CompareDir::EQ)
TENFERRO_API_OPERATOR(-, OpId::sub, CompareDir::EQ)
TENFERRO_API_OPERATOR(*, OpId::mul, CompareDir::EQ)
TENFERRO_API_OPERATOR(/, OpId::div, CompareDir::EQ)
TENFERRO_API_OPERATOR(==, OpId::compare, CompareDir::EQ)
TENFERRO_API_OPERATOR(!=, OpId::compare, CompareDir::NE)
TENFERRO_API_OPERATOR(<, OpId::compare, CompareDir::LT)
TENFERRO_API_OPERATOR(<=, OpId::compare, CompareDir::LE)
TENFERRO_API_OPERATOR(>, OpId::compare, CompareDir::GT)
TENFERRO_API_OPERATOR(>=, OpId::compare, CompareDir::GE)
#undef TENFERRO_API_OPERATOR

Tensor operator-(const TensorView& x) { return neg(x); }

// ---- reductions and contractions --------------------------------------------------------------
Tensor reduce_sum(const TensorView& x, const Axes& axes) {
  return reduce_sum(common_backend("reduce_sum", {{"x", &x}}), x, axes);
}
Tensor reduce_prod(const TensorView& x, const Axes& axes) {
  return reduce_prod(common_backend("reduce_prod", {{"x", &x}}), x, axes);
}
Tensor reduce_max(const TensorView& x, const Axes& axes) {
  return reduce_max(common_backend("reduce_max", {{"x", &x}}), x, axes);
}
Tensor reduce_min(const TensorView& x, const Axes& axes) {
  return reduce_min(common_backend("reduce_min", {{"x", &x}}), x, axes);
}
Tensor sum(const TensorView& x) {
  Backend& be = common_backend("reduce_sum", {{"x", &x}});
  Axes all(static_cast<std::size_t>(x.rank()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
  return all.empty() ? to_contiguous(be, x) : reduce_sum(be, x, all);
}

Tensor dot_general(const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg, bool lhs_conj,
                   bool rhs_conj) {
  return dot_general(common_backend("dot_general", {{"lhs", &lhs}, {"rhs", &rhs}}), lhs, rhs, cfg, lhs_conj,
                     rhs_conj);
}

Tensor matmul(const TensorView& a, const TensorView& b) {
  Backend& be = common_backend("matmul", {{"a", &a}, {"b", &b}});
  TENFERRO_CHECK(a.rank() >= 1, rank_mismatch, "matmul", "a", "a has rank 0, expected rank >= 1");
  TENFERRO_CHECK(b.rank() >= 1, rank_mismatch, "matmul", "b", "b has rank 0, expected rank >= 1");
  TENFERRO_CHECK(a.dim(a.rank() - 1) == b.dim(0), shape_mismatch, "matmul", "b", "b's first extent is ", b.dim(0),
                 ", expected a's last extent ", a.dim(a.rank() - 1), " (shapes ", a.shape(), " and ", b.shape(), ")");
  DotGeneralConfig cfg;
  cfg.lhs_contracting_dims = {a.rank() - 1};
  cfg.rhs_contracting_dims = {0};
  return dot_general(be, a, b, cfg);
}

Tensor einsum(std::string_view subscripts, std::span<const TensorView> operands, const EinsumOptions& opts) {
  return einsum(backend_of_all("einsum", operands, "operands"), subscripts, operands, opts);
}
Tensor einsum(std::string_view subscripts, std::initializer_list<TensorView> operands, const EinsumOptions& opts) {
  return einsum(subscripts, std::span<const TensorView>(operands.begin(), operands.size()), opts);
}

// ---- structural ---------------------------------------------------------------------------------
Tensor transpose_copy(const TensorView& x, const Axes& perm) {
  return transpose_copy(common_backend("transpose", {{"x", &x}}), x, perm);
}
Tensor reshape_copy(const TensorView& x, const Shape& shape) {
  return reshape_copy(common_backend("reshape", {{"x", &x}}), x, shape);
}
Tensor broadcast_in_dim_copy(const TensorView& x, const Shape& shape, const Axes& dims) {
  return broadcast_in_dim_copy(common_backend("broadcast_in_dim", {{"x", &x}}), x, shape, dims);
}
Tensor slice_copy(const TensorView& x, const SliceConfig& cfg) {
  return slice_copy(common_backend("slice", {{"x", &x}}), x, cfg);
}
Tensor reverse_copy(const TensorView& x, const Axes& axes) {
  return reverse_copy(common_backend("reverse", {{"x", &x}}), x, axes);
}
Tensor to_contiguous(const TensorView& x) { return to_contiguous(common_backend("to_contiguous", {{"x", &x}}), x); }
Tensor extract_diagonal(const TensorView& x, std::int64_t a, std::int64_t b) {
  return extract_diagonal(common_backend("extract_diagonal", {{"x", &x}}), x, a, b);
}
Tensor embed_diagonal(const TensorView& x, std::int64_t a, std::int64_t b) {
  return embed_diagonal(common_backend("embed_diagonal", {{"x", &x}}), x, a, b);
}
Tensor tril(const TensorView& x, std::int64_t k) { return tril(common_backend("tril", {{"x", &x}}), x, k); }
Tensor triu(const TensorView& x, std::int64_t k) { return triu(common_backend("triu", {{"x", &x}}), x, k); }
Tensor pad(const TensorView& x, const PadConfig& cfg, const TensorView& pad_value) {
  Backend& be = pad_value.defined() ? common_backend("pad", {{"x", &x}, {"pad_value", &pad_value}})
                                    : common_backend("pad", {{"x", &x}});
  return pad(be, x, cfg, pad_value);
}
Tensor concatenate(std::span<const TensorView> inputs, std::int64_t axis) {
  return concatenate(backend_of_all("concatenate", inputs, "inputs"), inputs, axis);
}
Tensor concatenate(std::initializer_list<TensorView> inputs, std::int64_t axis) {
  return concatenate(std::span<const TensorView>(inputs.begin(), inputs.size()), axis);
}
void copy_into(const TensorView& src, const TensorView& dst) {
  copy_into(common_backend("copy_into", {{"src", &src}, {"dst", &dst}}), src, dst);
}
Tensor gather(const TensorView& operand, const TensorView& start_indices, const GatherConfig& cfg) {
  return gather(common_backend("gather", {{"operand", &operand}, {"start_indices", &start_indices}}), operand,
                start_indices, cfg);
}
Tensor scatter(const TensorView& operand, const TensorView& scatter_indices, const TensorView& updates,
               const ScatterConfig& cfg) {
  return scatter(common_backend("scatter",
                                {{"operand", &operand}, {"scatter_indices", &scatter_indices}, {"updates", &updates}}),
                 operand, scatter_indices, updates, cfg);
}


// ---- lazy expressions (tenferro/expr.hpp) ------------------------------------------------------
struct Expr::Node {
  enum class Kind : std::uint8_t { tensor, number, op } kind = Kind::op;
  TensorView tensor;             // Kind::tensor
  std::optional<Number> number;  // Kind::number
  OpId op = OpId::neg;           // Kind::op (a reduction: the root only)
  CompareDir dir = CompareDir::EQ;
  std::optional<Axes> axes;      // a reduction's axes (none: every axis)
  std::vector<std::shared_ptr<const Node>> args;
};

Expr::Expr(const TensorView& t) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::tensor;
  n->tensor = t;
  n_ = std::move(n);
}
Expr lazy(const TensorView& x) { return Expr(x); }

Expr make_expr(OpId op, CompareDir dir, std::initializer_list<Expr> args) {
  auto n = std::make_shared<Expr::Node>();
  n->op = op;
  n->dir = dir;
  for (const Expr& a : args) n->args.push_back(a.n_);
  return Expr(std::move(n));
}
Expr make_expr(OpId op, CompareDir dir, const Expr& a, const Number& v, bool number_first) {
  auto num = std::make_shared<Expr::Node>();
  num->kind = Expr::Node::Kind::number;
  num->number = v;
  auto n = std::make_shared<Expr::Node>();
  n->op = op;
  n->dir = dir;
  n->args = number_first ? std::vector<std::shared_ptr<const Expr::Node>>{num, a.n_}
                         : std::vector<std::shared_ptr<const Expr::Node>>{a.n_, num};
  return Expr(std::move(n));
}

Expr make_reduction(OpId op, const Expr& x, std::optional<Axes> axes) {
  auto n = std::make_shared<Expr::Node>();
  n->op = op;
  n->axes = std::move(axes);
  n->args.push_back(x.n_);
  return Expr(std::move(n));
}

Tensor eval(const Expr& e) {
  using Node = Expr::Node;
  auto is_reduction = [](const Node* n) { return n->kind == Node::Kind::op && op_info(n->op).family == OpFamily::reduce; };
  // Post-order walk: each node once (shared subexpressions are one step), tensors as inputs,
  // numbers as rank-0 inputs of the other operand's dtype.
  FusionPlan plan;
  std::vector<TensorView> inputs;
  std::vector<Tensor> numbers;  // keeps the rank-0 tensors of numbers alive
  std::map<const Node*, std::pair<int, DType>> done;  // node -> (plan argument, dtype)
  auto visit = [&](auto& self, const Node* n) -> std::pair<int, DType> {
    if (auto it = done.find(n); it != done.end()) return it->second;
    std::pair<int, DType> r;
    TENFERRO_CHECK(!is_reduction(n), invalid_argument, op_name(n->op), "x", op_name(n->op),
                   " is an operand of another op in the expression: a reduction must be its last op");
    if (n->kind == Node::Kind::tensor) {
      TENFERRO_CHECK(n->tensor.defined(), invalid_argument, "fused", "inputs", "an expression holds an undefined tensor");
      inputs.push_back(n->tensor);
      r = {-static_cast<int>(inputs.size()), n->tensor.dtype()};
    } else {
      FusionStep step{n->op, {}, n->dir};
      std::vector<std::pair<int, DType>> a(n->args.size());
      for (std::size_t j = 0; j < n->args.size(); ++j)
        if (n->args[j]->kind != Node::Kind::number) a[j] = self(self, n->args[j].get());
      for (std::size_t j = 0; j < n->args.size(); ++j) {
        if (n->args[j]->kind != Node::Kind::number) continue;
        // Operators only: the number meets one expression, the other operand.
        const DType d = a[1 - j].second;
        const char* arg = j == 0 ? "lhs" : "rhs";
        TENFERRO_CHECK(!inputs.empty(), invalid_argument, op_name(n->op), arg, "an expression of numbers alone");
        const Scalar v = n->args[j]->number->to(d, op_name(n->op), arg);
        Backend& be = backend_of(inputs.front(), "fused", "inputs");
        numbers.push_back(be.allocate(d, {}));
        be.fill(numbers.back(), v);
        inputs.push_back(numbers.back());
        a[j] = {-static_cast<int>(inputs.size()), d};
        done[n->args[j].get()] = a[j];
      }
      for (const auto& x : a) step.args.push_back(x.first);
      const OpFamily fam = op_info(n->op).family;
      DType d = fam == OpFamily::select ? a[1].second : a[0].second;
      if (fam == OpFamily::compare) d = DType::Bool;
      if (n->op == OpId::abs && is_complex(d)) d = d == DType::C32 ? DType::F32 : DType::F64;
      plan.steps.push_back(std::move(step));
      r = {static_cast<int>(plan.steps.size()) - 1, d};
    }
    done[n] = r;
    return r;
  };
  const Node* root = e.n_.get();
  if (is_reduction(root)) {
    visit(visit, root->args[0].get());
    if (plan.steps.empty()) {  // a reduction of a tensor alone: the reduction op itself
      Backend& be = backend_of(inputs.front(), op_name(root->op), "x");
      Axes all;
      for (std::int64_t a = 0; a < inputs.front().rank(); ++a) all.push_back(a);
      return reduce(be, root->op, inputs.front(), root->axes.value_or(all));
    }
    plan.reduce = root->op;
    if (root->axes) {
      plan.reduce_axes = *root->axes;
    } else {  // every axis of the plan's shape (that of its inputs that are not rank 0)
      std::int64_t rank = 0;
      for (const TensorView& t : inputs) rank = std::max(rank, t.rank());
      for (std::int64_t a = 0; a < rank; ++a) plan.reduce_axes.push_back(a);
    }
  } else {
    visit(visit, root);
  }
  if (plan.steps.empty()) return to_contiguous(inputs.front());  // lazy(x) alone: a copy
  return fused(backend_of_all("fused", inputs, "inputs"), plan, inputs);
}

#define TENFERRO_EXPR_U(name) \
  Expr name(const Expr& x) { return make_expr(OpId::name, CompareDir::EQ, {x}); }
#define TENFERRO_EXPR_B(name) \
  Expr name(const Expr& lhs, const Expr& rhs) { return make_expr(OpId::name, CompareDir::EQ, {lhs, rhs}); }
#define TENFERRO_EXPR_R(name)
#define TENFERRO_EXPR_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_EXPR_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_EXPR_U
#undef TENFERRO_EXPR_B
#undef TENFERRO_EXPR_R
#undef TENFERRO_EXPR_X
Expr compare(const Expr& lhs, const Expr& rhs, CompareDir dir) { return make_expr(OpId::compare, dir, {lhs, rhs}); }
Expr select(const Expr& pred, const Expr& on_true, const Expr& on_false) {
  return make_expr(OpId::select, CompareDir::EQ, {pred, on_true, on_false});
}
Expr clamp(const Expr& x, const Expr& lower, const Expr& upper) {
  return make_expr(OpId::clamp, CompareDir::EQ, {x, lower, upper});
}
#define TENFERRO_EXPR_OPERATOR(sym, op, dir)                                                                 \
  Expr operator sym(const Expr& lhs, const Expr& rhs) { return make_expr(op, dir, {lhs, rhs}); }             \
  Expr operator sym(const Expr& lhs, Number rhs) { return make_expr(op, dir, lhs, rhs, false); }             \
  Expr operator sym(Number lhs, const Expr& rhs) { return make_expr(op, dir, rhs, lhs, true); }
TENFERRO_EXPR_OPERATOR(+, OpId::add, CompareDir::EQ)
TENFERRO_EXPR_OPERATOR(-, OpId::sub, CompareDir::EQ)
TENFERRO_EXPR_OPERATOR(*, OpId::mul, CompareDir::EQ)
TENFERRO_EXPR_OPERATOR(/, OpId::div, CompareDir::EQ)
TENFERRO_EXPR_OPERATOR(==, OpId::compare, CompareDir::EQ)
TENFERRO_EXPR_OPERATOR(!=, OpId::compare, CompareDir::NE)
TENFERRO_EXPR_OPERATOR(<, OpId::compare, CompareDir::LT)
TENFERRO_EXPR_OPERATOR(<=, OpId::compare, CompareDir::LE)
TENFERRO_EXPR_OPERATOR(>, OpId::compare, CompareDir::GT)
TENFERRO_EXPR_OPERATOR(>=, OpId::compare, CompareDir::GE)
#undef TENFERRO_EXPR_OPERATOR
Expr operator-(const Expr& x) { return neg(x); }
Expr reduce_sum(const Expr& x, const Axes& axes) { return make_reduction(OpId::reduce_sum, x, axes); }
Expr reduce_prod(const Expr& x, const Axes& axes) { return make_reduction(OpId::reduce_prod, x, axes); }
Expr reduce_max(const Expr& x, const Axes& axes) { return make_reduction(OpId::reduce_max, x, axes); }
Expr reduce_min(const Expr& x, const Axes& axes) { return make_reduction(OpId::reduce_min, x, axes); }
Expr sum(const Expr& x) { return make_reduction(OpId::reduce_sum, x, std::nullopt); }

#define TENFERRO_INST(T) \
  template Tensor tensor<T>(const Shape&, const std::vector<T>&, const Device&); \
  template T item<T>(const TensorView&);
TENFERRO_INST(float)
TENFERRO_INST(double)
TENFERRO_INST(std::int32_t)
TENFERRO_INST(std::int64_t)
TENFERRO_INST(bool)
TENFERRO_INST(c32)
TENFERRO_INST(c64)
#undef TENFERRO_INST

}  // namespace tenferro
