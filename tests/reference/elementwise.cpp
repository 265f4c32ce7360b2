// Reference elementwise/analytic/cast/fusion ops (see elementwise.hpp). Each op is a naive loop
// over colex indices; the math is written from SEMANTICS.md, independently of src/cpu.
#include "elementwise.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tenferro::test::ref {

namespace {

using u64 = std::uint64_t;

// Rank-0 operands broadcast: element i of a scalar is its only element.
std::size_t at(const RefTensor& t, std::int64_t i) {
  return t.shape.empty() ? 0 : static_cast<std::size_t>(i);
}
double re(const RefTensor& t, std::int64_t i) { return t.v[at(t, i)].real(); }
c64 cv(const RefTensor& t, std::int64_t i) { return t.v[at(t, i)]; }
std::int64_t iv(const RefTensor& t, std::int64_t i) { return t.iv[at(t, i)]; }

// Two's-complement integer arithmetic: exact modulo 2^64, then wrapped to the dtype.
std::int64_t wneg(std::int64_t a) { return static_cast<std::int64_t>(u64{0} - static_cast<u64>(a)); }
std::int64_t wadd(std::int64_t a, std::int64_t b) { return static_cast<std::int64_t>(static_cast<u64>(a) + static_cast<u64>(b)); }
std::int64_t wsub(std::int64_t a, std::int64_t b) { return static_cast<std::int64_t>(static_cast<u64>(a) - static_cast<u64>(b)); }
std::int64_t wmul(std::int64_t a, std::int64_t b) { return static_cast<std::int64_t>(static_cast<u64>(a) * static_cast<u64>(b)); }

std::int64_t int_binary(OpId op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case OpId::add: return wadd(a, b);
    case OpId::sub: return wsub(a, b);
    case OpId::mul: return wmul(a, b);
    case OpId::div:
      if (b == 0) throw RefError{ErrorKind::numerical_failure, "integer division by zero"};
      return b == -1 ? wneg(a) : a / b;  // truncation; MIN / -1 wraps to MIN
    case OpId::rem:
      if (b == 0) throw RefError{ErrorKind::numerical_failure, "integer remainder by zero"};
      return b == -1 ? 0 : a % b;  // sign of the dividend, like C++ %
    case OpId::pow: {
      if (b < 0) throw RefError{ErrorKind::numerical_failure, "negative integer exponent"};
      u64 r = 1, base = static_cast<u64>(a);
      for (u64 e = static_cast<u64>(b); e; e >>= 1, base *= base)
        if (e & 1) r *= base;
      return static_cast<std::int64_t>(r);
    }
    case OpId::maximum: return a > b ? a : b;
    case OpId::minimum: return a < b ? a : b;
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not an integer binary op"};
}

double float_binary(OpId op, double a, double b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (op) {
    case OpId::add: return a + b;
    case OpId::sub: return a - b;
    case OpId::mul: return a * b;
    case OpId::div: return a / b;
    case OpId::rem: return std::fmod(a, b);
    case OpId::pow: return std::pow(a, b);
    case OpId::maximum: return std::isnan(a) || std::isnan(b) ? nan : (a > b ? a : b);
    case OpId::minimum: return std::isnan(a) || std::isnan(b) ? nan : (a < b ? a : b);
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not a float binary op"};
}

c64 complex_binary(OpId op, c64 a, c64 b) {
  switch (op) {
    case OpId::add: return a + b;
    case OpId::sub: return a - b;
    case OpId::mul: return a * b;
    case OpId::div: return a / b;
    case OpId::pow: return std::pow(a, b);
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not a complex binary op"};
}

template <class V> bool ordered(CompareDir dir, V a, V b) {
  switch (dir) {
    case CompareDir::EQ: return a == b;
    case CompareDir::NE: return a != b;
    case CompareDir::LT: return a < b;
    case CompareDir::LE: return a <= b;
    case CompareDir::GT: return a > b;
    case CompareDir::GE: return a >= b;
  }
  return false;
}

double real_unary(OpId op, double x) {
  switch (op) {
    case OpId::neg: return -x;
    case OpId::conj: return x;
    case OpId::abs: return std::fabs(x);
    case OpId::sign: return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case OpId::exp: return std::exp(x);
    case OpId::log: return std::log(x);
    case OpId::sin: return std::sin(x);
    case OpId::cos: return std::cos(x);
    case OpId::tanh: return std::tanh(x);
    case OpId::sqrt: return std::sqrt(x);
    case OpId::rsqrt: return 1.0 / std::sqrt(x);
    case OpId::expm1: return std::expm1(x);
    case OpId::log1p: return std::log1p(x);
    case OpId::erf: return std::erf(x);
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not a real unary op"};
}

c64 complex_unary(OpId op, c64 z) {
  switch (op) {
    case OpId::neg: return -z;
    case OpId::conj: return std::conj(z);
    case OpId::abs: return std::abs(z);
    case OpId::sign: return z == c64(0, 0) ? c64(0, 0) : z / std::abs(z);
    case OpId::exp: return std::exp(z);
    case OpId::log: return std::log(z);
    case OpId::sin: return std::sin(z);
    case OpId::cos: return std::cos(z);
    case OpId::tanh: return std::tanh(z);
    case OpId::sqrt: return std::sqrt(z);
    case OpId::rsqrt: return 1.0 / std::sqrt(z);
    // Cancellation-free identities (independent of the kernels' formulas):
    // exp(z) - 1 = 2 exp(z/2) sinh(z/2); log(1 + z) = 2 atanh(z / (2 + z)).
    case OpId::expm1: return 2.0 * std::exp(z / 2.0) * std::sinh(z / 2.0);
    case OpId::log1p: return 2.0 * std::atanh(z / (2.0 + z));
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not a complex unary op"};
}

std::int64_t int_unary(OpId op, std::int64_t a) {
  switch (op) {
    case OpId::neg: return wneg(a);
    case OpId::conj: return a;
    case OpId::abs: return a < 0 ? wneg(a) : a;  // abs(MIN) wraps to MIN
    case OpId::sign: return (a > 0) - (a < 0);
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not an integer unary op"};
}

}  // namespace

void put(RefTensor& t, std::int64_t i, c64 x) {
  if (t.exact() || (t.dtype != DType::F32 && t.dtype != DType::C32)) {
    t.set(i, x);
    return;
  }
  // volatile forces the float rounding GCC 12.2 -O2 would otherwise drop (see the header).
  volatile float r = static_cast<float>(x.real()), m = static_cast<float>(x.imag());
  const auto k = static_cast<std::size_t>(i);
  t.v[k] = c64(r, t.dtype == DType::C32 ? static_cast<double>(m) : 0.0);
  t.iv[k] = 0;
}

RefTensor rounded(RefTensor t) {
  if (t.dtype == DType::F32 || t.dtype == DType::C32)
    for (std::int64_t i = 0; i < t.numel(); ++i) put(t, i, t.v[static_cast<std::size_t>(i)]);
  return t;
}

RefTensor unary(OpId op, const RefTensor& x) {
  const DType od = op == OpId::abs ? real_dtype(x.dtype) : x.dtype;
  RefTensor out(od, x.shape);
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    if (x.exact()) out.set_int(i, int_unary(op, iv(x, i)));
    else if (is_complex(x.dtype)) put(out, i, complex_unary(op, cv(x, i)));
    else put(out, i, real_unary(op, re(x, i)));
  }
  return out;
}

RefTensor binary(OpId op, const RefTensor& lhs, const RefTensor& rhs, CompareDir dir) {
  // A rank-0 real scalar meeting a complex tensor takes the complex dtype and the tensor's shape.
  const DType d = is_complex(rhs.dtype) ? rhs.dtype : lhs.dtype;
  const Shape& shape = lhs.shape.empty() ? rhs.shape : lhs.shape;
  RefTensor out(op == OpId::compare ? DType::Bool : d, shape);
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    if (op == OpId::compare) {
      bool r;
      if (lhs.exact()) r = ordered(dir, iv(lhs, i), iv(rhs, i));
      else if (is_complex(d)) r = dir == CompareDir::EQ ? cv(lhs, i) == cv(rhs, i) : cv(lhs, i) != cv(rhs, i);
      else r = ordered(dir, re(lhs, i), re(rhs, i));
      out.set_int(i, r ? 1 : 0);
    } else if (out.exact()) {
      out.set_int(i, int_binary(op, iv(lhs, i), iv(rhs, i)));
    } else if (is_complex(d)) {
      put(out, i, complex_binary(op, cv(lhs, i), cv(rhs, i)));
    } else {
      put(out, i, float_binary(op, re(lhs, i), re(rhs, i)));
    }
  }
  return out;
}

RefTensor select(const RefTensor& pred, const RefTensor& on_true, const RefTensor& on_false) {
  RefTensor out = on_true;
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    if (iv(pred, i) != 0) continue;
    const auto k = static_cast<std::size_t>(i);
    out.v[k] = on_false.v[k];
    out.iv[k] = on_false.iv[k];
  }
  return out;
}

RefTensor clamp(const RefTensor& x, const RefTensor& lower, const RefTensor& upper) {
  RefTensor out(x.dtype, x.shape);
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    if (x.exact()) {
      out.set_int(i, int_binary(OpId::minimum, int_binary(OpId::maximum, iv(x, i), iv(lower, i)), iv(upper, i)));
    } else {
      const double m = float_binary(OpId::maximum, re(x, i), re(lower, i));
      put(out, i, float_binary(OpId::minimum, m, re(upper, i)));
    }
  }
  return out;
}

RefTensor elementwise(OpId op, const std::vector<RefTensor>& in, CompareDir dir) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return unary(op, in.at(0));
    case OpFamily::binary:
    case OpFamily::compare: return binary(op, in.at(0), in.at(1), dir);
    case OpFamily::select: return select(in.at(0), in.at(1), in.at(2));
    case OpFamily::clamp: return clamp(in.at(0), in.at(1), in.at(2));
    default: break;
  }
  throw RefError{ErrorKind::internal, "reference: not an elementwise op"};
}

RefTensor cast(const RefTensor& x, DType to) {
  RefTensor out(to, x.shape);
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (x.exact()) {
      const std::int64_t a = x.iv[k];
      if (to == DType::Bool || is_integer(to)) out.set_int(i, to == DType::Bool ? a != 0 : a);
      // i64 -> f32 rounds once, straight from the integer (not through double).
      else if (to == DType::F32 || to == DType::C32) put(out, i, c64(static_cast<float>(a), 0.0));
      else put(out, i, c64(static_cast<double>(a), 0.0));
      continue;
    }
    const c64 z = x.v[k];
    if (to == DType::Bool) {
      out.set_int(i, z.real() != 0 || z.imag() != 0 ? 1 : 0);  // NaN counts as nonzero
    } else if (is_integer(to)) {
      const double t = std::trunc(z.real());
      const double lim = to == DType::I32 ? 2147483648.0 : 9223372036854775808.0;
      if (!(t >= -lim && t < lim))
        throw RefError{ErrorKind::invalid_argument, "non-finite or out-of-range float cast to integer"};
      out.set_int(i, static_cast<std::int64_t>(t));
    } else if (is_complex(to)) {
      put(out, i, z);
    } else {
      put(out, i, c64(z.real(), 0.0));
    }
  }
  return out;
}

RefTensor convert(const RefTensor& x, DType to) {
  if (!convert_allowed(x.dtype, to)) throw RefError{ErrorKind::unsupported, "conversion outside the lattice"};
  return cast(x, to);
}

RefTensor fused(const FusionPlan& plan, const std::vector<RefTensor>& inputs) {
  std::vector<RefTensor> results;
  for (const FusionStep& s : plan.steps) {
    std::vector<RefTensor> args;
    for (int a : s.args)
      args.push_back(a >= 0 ? results.at(static_cast<std::size_t>(a)) : inputs.at(static_cast<std::size_t>(-a - 1)));
    results.push_back(elementwise(s.op, args, s.dir));
  }
  return results.back();
}

}  // namespace tenferro::test::ref
