// Lazy elementwise expressions: a chain of elementwise ops run as one fusion plan, on the
// Vulkan provider as one generated kernel (docs/guide.md "Fused expressions").
//
//   Tensor r = eval(exp(sin(lazy(x)) * y + 1));   // one kernel: x and y read once, r written once
//
// lazy(x) makes a tensor an expression. The elementwise functions and operators of api.hpp
// applied to an expression (the other operands may be expressions, tensors or, for the
// operators, numbers) build the expression instead of running; eval(e) runs it as one fusion
// plan (ops.hpp fused()) on the device of its tensors. The results are the ones the same ops
// give eagerly, bit for bit; a number becomes a rank-0 tensor of the other operand's dtype as in
// api.hpp, and rank-0 tensors broadcast against the others. Errors are the eager ops' (kinds,
// op names) and are raised by eval(), before any work; building an expression checks nothing.
// An expression holds its tensors until it is destroyed. Nothing is cached between evals but
// the compiled kernel, which is cached by the plan's structure.
#pragma once
#include <memory>
#include <optional>

#include "tenferro/api.hpp"

namespace tenferro {

class Expr {
 public:
  /// A tensor as an operand of an expression (implicit, so that lazy(x) * y reads naturally;
  /// an op on tensors alone still runs eagerly).
  Expr(const TensorView& t);  // NOLINT(google-explicit-constructor)
  struct Node;

 private:
  explicit Expr(std::shared_ptr<const Node> n) : n_(std::move(n)) {}
  std::shared_ptr<const Node> n_;
  friend Expr make_expr(OpId op, CompareDir dir, std::initializer_list<Expr> args);
  friend Expr make_expr(OpId op, CompareDir dir, const Expr& a, const Number& n, bool number_first);
  friend Expr make_reduction(OpId op, const Expr& x, std::optional<Axes> axes);
  friend Tensor eval(const Expr& e);
};

/// x as an expression.
Expr lazy(const TensorView& x);
/// Runs e as one fusion plan; its result is a new tensor on the device of e's tensors.
Tensor eval(const Expr& e);

// ---- the elementwise functions, e.g. Expr exp(const Expr& x), Expr add(const Expr&, const Expr&)
#define TENFERRO_EXPR_U(name) Expr name(const Expr& x);
#define TENFERRO_EXPR_B(name) Expr name(const Expr& lhs, const Expr& rhs);
#define TENFERRO_EXPR_R(name)
#define TENFERRO_EXPR_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_EXPR_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_EXPR_U
#undef TENFERRO_EXPR_B
#undef TENFERRO_EXPR_R
#undef TENFERRO_EXPR_X
Expr compare(const Expr& lhs, const Expr& rhs, CompareDir dir);
Expr select(const Expr& pred, const Expr& on_true, const Expr& on_false);
Expr clamp(const Expr& x, const Expr& lower, const Expr& upper);

// ---- a reduction as the expression's last op (eval(sum(lazy(x) * y)): one kernel on Vulkan);
// a reduction used as an operand is refused by eval (invalid_argument)
Expr reduce_sum(const Expr& x, const Axes& axes);
Expr reduce_prod(const Expr& x, const Axes& axes);
Expr reduce_max(const Expr& x, const Axes& axes);
Expr reduce_min(const Expr& x, const Axes& axes);
/// Over every axis (rank 0 result).
Expr sum(const Expr& x);

// ---- operators (numbers by api.hpp's rule) --------------------------------------------------
#define TENFERRO_EXPR_OPERATOR(sym)              \
  Expr operator sym(const Expr& lhs, const Expr& rhs); \
  Expr operator sym(const Expr& lhs, Number rhs);      \
  Expr operator sym(Number lhs, const Expr& rhs);
TENFERRO_EXPR_OPERATOR(+)
TENFERRO_EXPR_OPERATOR(-)
TENFERRO_EXPR_OPERATOR(*)
TENFERRO_EXPR_OPERATOR(/)
TENFERRO_EXPR_OPERATOR(==)
TENFERRO_EXPR_OPERATOR(!=)
TENFERRO_EXPR_OPERATOR(<)
TENFERRO_EXPR_OPERATOR(<=)
TENFERRO_EXPR_OPERATOR(>)
TENFERRO_EXPR_OPERATOR(>=)
#undef TENFERRO_EXPR_OPERATOR
Expr operator-(const Expr& x);

}  // namespace tenferro
