// Factories, ops on their operands' device, mixed-device errors, operators with C++ numbers and
// rank-0 tensors, checked against the reference oracle (tests/reference).
#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#include "api_support.hpp"
#include "elementwise.hpp"

namespace tenferro::test {
namespace {

RefTensor ref_full(DType d, const Shape& shape, c64 v) {
  RefTensor r(d, shape);
  for (std::int64_t i = 0; i < r.numel(); ++i) {
    if (r.exact()) r.set_int(i, static_cast<std::int64_t>(v.real()));
    else r.set(i, v);
  }
  return r;
}

RefTensor ref_scalar(DType d, c64 v) { return ref_full(d, {}, v); }

// ---- factories -----------------------------------------------------------------------------------

TEST(ApiFactories, ZerosOnesFullOnEveryDtypeAndDevice) {
  for (const Device& dev : api_devices())
    for (DType d : kAllDTypes) {
      SCOPED_TRACE(dev.name() + " " + std::string(dtype_name(d)));
      const Tensor z = zeros({3, 2}, d, dev), o = ones({3, 2}, d, dev), f = full({2, 2}, 1, d, dev);
      EXPECT_EQ(z.device(), dev);
      EXPECT_EQ(z.dtype(), d);
      TENFERRO_EXPECT_MATCH(ref_full(d, {3, 2}, 0), read_on(z), Tol{});
      TENFERRO_EXPECT_MATCH(ref_full(d, {3, 2}, 1), read_on(o), Tol{});
      TENFERRO_EXPECT_MATCH(ref_full(d, {2, 2}, 1), read_on(f), Tol{});
      TENFERRO_EXPECT_MATCH(ref_full(d, {}, 0), read_on(scalar(0, d, dev)), Tol{});
      EXPECT_EQ(zeros({0, 3}, d, dev).numel(), 0);
    }
  for (const Device& dev : api_devices()) {
    TENFERRO_EXPECT_MATCH(ref_full(DType::F32, {2}, 2.5), read_on(full({2}, 2.5, DType::F32, dev)), Tol{});
    TENFERRO_EXPECT_MATCH(ref_full(DType::C64, {2}, c64(1, -2)), read_on(full({2}, c64(1, -2), DType::C64, dev)),
                          Tol{});
    TENFERRO_EXPECT_MATCH(ref_full(DType::I64, {2}, -7), read_on(full({2}, -7.0, DType::I64, dev)), Tol{});
  }
}

TEST(ApiFactories, FromValuesAndArange) {
  for (const Device& dev : api_devices()) {
    SCOPED_TRACE(dev.name());
    const Tensor t = tensor<double>({2, 2}, {1, 2, 3, 4}, dev);
    EXPECT_EQ(t.device(), dev);
    RefTensor want(DType::F64, {2, 2});
    for (int i = 0; i < 4; ++i) want.set(i, i + 1);  // colex: values[1] is x[1, 0]
    TENFERRO_EXPECT_MATCH(want, read_on(t), Tol{});
    EXPECT_EQ(to_vector<std::int32_t>(tensor<std::int32_t>({3}, {7, -1, 5}, dev)), (std::vector<std::int32_t>{7, -1, 5}));
    EXPECT_EQ(to_vector<bool>(tensor<bool>({2}, {true, false}, dev)), (std::vector<bool>{true, false}));
    EXPECT_EQ(to_vector<std::int64_t>(arange(4, DType::I64, dev)), (std::vector<std::int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(to_vector<float>(arange(3, DType::F32, dev)), (std::vector<float>{0, 1, 2}));
    expect_api_error(ErrorKind::shape_mismatch, "tensor", "values",
                     [&] { (void)tensor<double>({2, 2}, {1, 2, 3}, dev); });
    expect_api_error(ErrorKind::invalid_argument, "arange", "n", [&] { (void)arange(-1, DType::F64, dev); });
  }
}

TEST(ApiFactories, FullRefusesValuesTheDtypeCannotHold) {
  expect_api_error(ErrorKind::invalid_argument, "full", "value", [] { (void)full({2}, 0.5, DType::I32, Device::cpu()); });
  expect_api_error(ErrorKind::invalid_argument, "full", "value",
                   [] { (void)full({2}, std::int64_t{1} << 40, DType::I32, Device::cpu()); });
  expect_api_error(ErrorKind::invalid_argument, "full", "value", [] { (void)full({2}, 1e19, DType::I64, Device::cpu()); });
  expect_api_error(ErrorKind::invalid_argument, "full", "value", [] { (void)full({2}, NAN, DType::I64, Device::cpu()); });
  expect_api_error(ErrorKind::invalid_argument, "full", "value", [] { (void)full({2}, 2, DType::Bool, Device::cpu()); });
  expect_api_error(ErrorKind::dtype_mismatch, "full", "value",
                   [] { (void)full({2}, c64(1, 1), DType::F64, Device::cpu()); });
  // Exact values pass: an integral double into an integer tensor, 0/1 into bool, a real complex.
  EXPECT_EQ(to_vector<std::int32_t>(full({1}, -3.0, DType::I32, Device::cpu())), std::vector<std::int32_t>{-3});
  EXPECT_EQ(to_vector<bool>(full({1}, 1.0, DType::Bool, Device::cpu())), std::vector<bool>{true});
  EXPECT_EQ(to_vector<double>(full({1}, c64(2, 0), DType::F64, Device::cpu())), std::vector<double>{2});
}

TEST(ApiFactories, RandIsUniformSeededAndTheSameOnEveryDevice) {
  const std::int64_t n = 1 << 16;
  for (DType d : {DType::F32, DType::F64}) {
    SCOPED_TRACE(dtype_name(d));
    const RefTensor r = read_on(rand({n}, d, Device::cpu(), 42));
    double mean = 0, var = 0, lo = 1, hi = 0;
    for (const c64& x : r.v) mean += x.real(), lo = std::min(lo, x.real()), hi = std::max(hi, x.real());
    mean /= static_cast<double>(n);
    for (const c64& x : r.v) var += (x.real() - mean) * (x.real() - mean);
    var /= static_cast<double>(n);
    // Uniform [0, 1): mean 1/2 (sd of the mean 0.0011), variance 1/12.
    EXPECT_NEAR(mean, 0.5, 0.006);
    EXPECT_NEAR(var, 1.0 / 12, 0.003);
    EXPECT_GE(lo, 0.0);
    EXPECT_LT(hi, 1.0);
    EXPECT_LT(lo, 0.001);
    EXPECT_GT(hi, 0.999);
  }
  {
    const RefTensor c = read_on(rand({n}, DType::C64, Device::cpu(), 1));
    double mre = 0, mim = 0, cross = 0;
    for (const c64& x : c.v) mre += x.real(), mim += x.imag(), cross += (x.real() - 0.5) * (x.imag() - 0.5);
    EXPECT_NEAR(mre / static_cast<double>(n), 0.5, 0.006);
    EXPECT_NEAR(mim / static_cast<double>(n), 0.5, 0.006);
    EXPECT_NEAR(cross / static_cast<double>(n), 0.0, 0.003);  // independent parts
  }
  {
    const RefTensor b = read_on(rand({n}, DType::Bool, Device::cpu(), 5));
    double ones_frac = 0;
    for (std::int64_t v : b.iv) ones_frac += static_cast<double>(v);
    EXPECT_NEAR(ones_frac / static_cast<double>(n), 0.5, 0.01);
    const RefTensor i = read_on(rand({n}, DType::I32, Device::cpu(), 6));
    double m = 0;
    for (std::int64_t v : i.iv) {
      ASSERT_GE(v, 0);
      m += static_cast<double>(v);
    }
    EXPECT_NEAR(m / static_cast<double>(n) / 2147483648.0, 0.5, 0.006);
    for (std::int64_t v : read_on(rand({64}, DType::I64, Device::cpu(), 6)).iv) ASSERT_GE(v, 0);
  }
  // Seeds: the same seed is the same tensor on every device; another seed differs; no seed draws
  // a new one each call.
  for (DType d : kAllDTypes) {
    const RefTensor a = read_on(rand({5, 7}, d, Device::cpu(), 9));
    for (const Device& dev : api_devices()) TENFERRO_EXPECT_MATCH(a, read_on(rand({5, 7}, d, dev, 9)), Tol{});
    if (d != DType::Bool) {
      EXPECT_NE(compare(a, read_on(rand({5, 7}, d, Device::cpu(), 10)), Tol{}), "");
    }
  }
  manual_seed(3);
  const RefTensor s0 = read_on(rand({8}, DType::F64, Device::cpu())), s1 = read_on(rand({8}, DType::F64, Device::cpu()));
  EXPECT_NE(compare(s0, s1, Tol{}), "");
  TENFERRO_EXPECT_MATCH(s0, read_on(rand({8}, DType::F64, Device::cpu(), 3)), Tol{});
  TENFERRO_EXPECT_MATCH(s1, read_on(rand({8}, DType::F64, Device::cpu(), 4)), Tol{});
}

// ---- ops on their operands' device ------------------------------------------------------------------

TEST(ApiOps, RunWhereTheOperandsLive) {
  std::mt19937_64 rng(17);
  const RefTensor a = random_ref(DType::F64, {3, 4}, rng), b = random_ref(DType::F64, {3, 4}, rng);
  const RefTensor m = random_ref(DType::F64, {4, 5}, rng);
  for (const Device& dev : api_devices()) {
    SCOPED_TRACE(dev.name());
    const Tensor ta = put_on(a, dev), tb = put_on(b, dev), tm = put_on(m, dev);
    const Tensor s = add(ta, tb), e = exp(ta), p = matmul(ta, tm), q = einsum("ij,jk->ik", ta, tm);
    for (const Tensor* t : {&s, &e, &p, &q}) EXPECT_EQ(t->device(), dev);
    const Tol tol = ulp_tol(DType::F64, 8);
    TENFERRO_EXPECT_MATCH(ref::binary(OpId::add, a, b), read_on(s), tol);
    TENFERRO_EXPECT_MATCH(ref::unary(OpId::exp, a), read_on(e), tol);
    RefTensor want(DType::F64, {3, 5});
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 5; ++k) {
        c64 acc = 0;
        for (int j = 0; j < 4; ++j) acc += a.v[static_cast<std::size_t>(i + 3 * j)] * m.v[static_cast<std::size_t>(j + 4 * k)];
        want.set(i + 3 * k, acc);
      }
    const Tol mm_tol{1e-13, 1e-13};
    TENFERRO_EXPECT_MATCH(want, read_on(p), mm_tol);
    TENFERRO_EXPECT_MATCH(want, read_on(q), mm_tol);
    const Tensor q_list = einsum("ij,jk->ik", {ta, tm});
    TENFERRO_EXPECT_MATCH(want, read_on(q_list), mm_tol);
    const Tensor q_backend = einsum(backend_for(dev), "ij,jk->ik", {ta, tm});  // the explicit-backend form
    TENFERRO_EXPECT_MATCH(want, read_on(q_backend), mm_tol);
    const TensorView ops[] = {ta, tm};
    const Tensor q_span = einsum("ij,jk->ik", std::span<const TensorView>(ops));
    TENFERRO_EXPECT_MATCH(want, read_on(q_span), mm_tol);
    // sum of every element, and a transposed view (member: no copy) read through a copy.
    double total = 0;
    for (const c64& x : a.v) total += x.real();
    EXPECT_NEAR(item<double>(sum(ta)), total, 1e-12);
    const Tensor tt = transpose_copy(ta, {1, 0});
    EXPECT_EQ(tt.shape(), (Shape{4, 3}));
    TENFERRO_EXPECT_MATCH(read_on(ta.transpose({1, 0})), read_on(tt), Tol{});
  }
}

TEST(ApiOps, OperandsOnDifferentDevicesAreRuntimeState) {
  if (!vulkan_available()) GTEST_SKIP() << "no Vulkan device";
  const Device vk = Device::vulkan();
  const Tensor c = ones({2, 2}, DType::F64, Device::cpu()), g = ones({2, 2}, DType::F64, vk);
  expect_api_error(ErrorKind::runtime_state, "add", "rhs", [&] { (void)add(c, g); });
  expect_api_error(ErrorKind::runtime_state, "add", "rhs", [&] { (void)(g + c); });
  expect_api_error(ErrorKind::runtime_state, "compare", "rhs", [&] { (void)(c < g); });
  expect_api_error(ErrorKind::runtime_state, "matmul", "b", [&] { (void)matmul(g, c); });
  expect_api_error(ErrorKind::runtime_state, "select", "on_false",
                   [&] { (void)select(ones({2, 2}, DType::Bool, vk), g, c); });
  expect_api_error(ErrorKind::runtime_state, "einsum", "operands", [&] { (void)einsum("ij,jk->ik", g, c); });
  expect_api_error(ErrorKind::runtime_state, "concatenate", "inputs", [&] { (void)concatenate({c, g}, 0); });
  try {
    (void)add(c, g);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rhs is on " + vk.name() + ", lhs on cpu"), std::string::npos) << e.what();
  }
  // A rank-0 tensor is no exception: it must be on the same device too.
  expect_api_error(ErrorKind::runtime_state, "mul", "rhs", [&] { (void)(g * scalar(2.0, DType::F64, Device::cpu())); });
}

TEST(ApiOps, UndefinedOperandsAreInvalidArgument) {
  const Tensor c = ones({2}, DType::F64, Device::cpu());
  expect_api_error(ErrorKind::invalid_argument, "add", "lhs", [&] { (void)add(TensorView(), c); });
  expect_api_error(ErrorKind::invalid_argument, "exp", "x", [&] { (void)exp(TensorView()); });
  expect_api_error(ErrorKind::invalid_argument, "to", "x", [&] { (void)to(TensorView(), Device::cpu()); });
  expect_api_error(ErrorKind::invalid_argument, "matmul", "a", [&] { (void)matmul(TensorView(), c); });
  expect_api_error(ErrorKind::rank_mismatch, "matmul", "a", [&] { (void)matmul(scalar(1.0, DType::F64, Device::cpu()), c); });
  const Tensor m = ones({2, 3}, DType::F64, Device::cpu());
  expect_api_error(ErrorKind::shape_mismatch, "matmul", "b", [&] { (void)matmul(m, m); });
}

// ---- operators ---------------------------------------------------------------------------------------

/// The C++ number `v` as the reference sees it: a rank-0 tensor of dtype d.
struct OpCase {
  const char* name;
  OpId op;
  CompareDir dir;
  std::function<Tensor(const Tensor&, const Tensor&)> tt;
  std::function<Tensor(const Tensor&, Number)> tn;
  std::function<Tensor(Number, const Tensor&)> nt;
};

std::vector<OpCase> operator_cases() {
  using T = const Tensor&;
  return {
      {"+", OpId::add, CompareDir::EQ, [](T a, T b) { return a + b; }, [](T a, Number b) { return a + b; },
       [](Number a, T b) { return a + b; }},
      {"-", OpId::sub, CompareDir::EQ, [](T a, T b) { return a - b; }, [](T a, Number b) { return a - b; },
       [](Number a, T b) { return a - b; }},
      {"*", OpId::mul, CompareDir::EQ, [](T a, T b) { return a * b; }, [](T a, Number b) { return a * b; },
       [](Number a, T b) { return a * b; }},
      {"/", OpId::div, CompareDir::EQ, [](T a, T b) { return a / b; }, [](T a, Number b) { return a / b; },
       [](Number a, T b) { return a / b; }},
      {"==", OpId::compare, CompareDir::EQ, [](T a, T b) { return a == b; }, [](T a, Number b) { return a == b; },
       [](Number a, T b) { return a == b; }},
      {"!=", OpId::compare, CompareDir::NE, [](T a, T b) { return a != b; }, [](T a, Number b) { return a != b; },
       [](Number a, T b) { return a != b; }},
      {"<", OpId::compare, CompareDir::LT, [](T a, T b) { return a < b; }, [](T a, Number b) { return a < b; },
       [](Number a, T b) { return a < b; }},
      {"<=", OpId::compare, CompareDir::LE, [](T a, T b) { return a <= b; }, [](T a, Number b) { return a <= b; },
       [](Number a, T b) { return a <= b; }},
      {">", OpId::compare, CompareDir::GT, [](T a, T b) { return a > b; }, [](T a, Number b) { return a > b; },
       [](Number a, T b) { return a > b; }},
      {">=", OpId::compare, CompareDir::GE, [](T a, T b) { return a >= b; }, [](T a, Number b) { return a >= b; },
       [](Number a, T b) { return a >= b; }},
  };
}

bool allowed(const OpCase& c, DType d) {
  if (!contract_allows(c.op, d)) return false;
  return !(c.op == OpId::compare && is_complex(d) && c.dir != CompareDir::EQ && c.dir != CompareDir::NE);
}

TEST(ApiOperators, TensorsNumbersAndRankZeroTensorsOnEveryDtype) {
  for (const Device& dev : api_devices()) {
    for (DType d : kAllDTypes) {
      std::mt19937_64 rng(100 + static_cast<std::uint64_t>(d));
      // Integral values and nonzero divisors keep division and ties meaningful on every dtype.
      const RefTensor a = ref::rounded(random_ref(d, {3, 4}, rng, LayoutCase::compact, {-4, 4, true, true}));
      const RefTensor b = ref::rounded(random_ref(d, {3, 4}, rng, LayoutCase::compact, {-4, 4, true, true}));
      const Tensor ta = put_on(a, dev), tb = put_on(b, dev);
      // The number 2 (true for Bool), as a C++ number and as the rank-0 tensor it becomes.
      const Number two = d == DType::Bool ? Number(true) : Number(2);
      const RefTensor s = ref_scalar(d, d == DType::Bool ? 1 : 2);
      const Tensor ts = put_on(s, dev);
      for (const OpCase& c : operator_cases()) {
        SCOPED_TRACE(dev.name() + " " + std::string(dtype_name(d)) + " " + c.name);
        if (!allowed(c, d)) {
          try {
            (void)c.tt(ta, tb);
            ADD_FAILURE() << "expected unsupported";
          } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::unsupported) << e.what();
          }
          continue;
        }
        const Tol tol = ulp_tol(d, 4);
        TENFERRO_EXPECT_MATCH(ref::binary(c.op, a, b, c.dir), read_on(c.tt(ta, tb)), tol);
        TENFERRO_EXPECT_MATCH(ref::binary(c.op, a, s, c.dir), read_on(c.tn(ta, two)), tol);
        TENFERRO_EXPECT_MATCH(ref::binary(c.op, s, a, c.dir), read_on(c.nt(two, ta)), tol);
        TENFERRO_EXPECT_MATCH(ref::binary(c.op, a, s, c.dir), read_on(c.tt(ta, ts)), tol);
        TENFERRO_EXPECT_MATCH(ref::binary(c.op, s, a, c.dir), read_on(c.tt(ts, ta)), tol);
        EXPECT_EQ(c.tn(ta, two).device(), dev);
      }
      if (contract_allows(OpId::neg, d)) TENFERRO_EXPECT_MATCH(ref::unary(OpId::neg, a), read_on(-ta), Tol{});
    }
  }
}

TEST(ApiOperators, NumbersFollowTheTensorsDtype) {
  for (const Device& dev : api_devices()) {
    SCOPED_TRACE(dev.name());
    const Tensor f = tensor<float>({2}, {1.0f, 2.0f}, dev);
    const Tensor r = f * 0.1;  // the double 0.1 is rounded to f32 first: the result stays f32
    EXPECT_EQ(r.dtype(), DType::F32);
    EXPECT_EQ(to_vector<float>(r), (std::vector<float>{1.0f * 0.1f, 2.0f * 0.1f}));
    const Tensor i = tensor<std::int32_t>({3}, {7, -7, 9}, dev);
    EXPECT_EQ(to_vector<std::int32_t>(i / 2), (std::vector<std::int32_t>{3, -3, 4}));  // truncates
    EXPECT_EQ(to_vector<std::int32_t>(i + 3.0), (std::vector<std::int32_t>{10, -4, 12}));  // exact double
    expect_api_error(ErrorKind::invalid_argument, "add", "rhs", [&] { (void)(i + 0.5); });
    expect_api_error(ErrorKind::invalid_argument, "mul", "lhs", [&] { (void)(3e10 * i); });
    expect_api_error(ErrorKind::dtype_mismatch, "add", "rhs", [&] { (void)(f + c64(0, 1)); });
    const Tensor z = tensor<c64>({1}, {c64(1, 1)}, dev);
    EXPECT_EQ(to_vector<c64>(z * c64(0, 1)), std::vector<c64>{c64(-1, 1)});
    EXPECT_EQ(to_vector<c64>(z + 1), std::vector<c64>{c64(2, 1)});
    const Tensor b = tensor<bool>({2}, {true, false}, dev);
    EXPECT_EQ(to_vector<bool>(b == true), (std::vector<bool>{true, false}));
    expect_api_error(ErrorKind::invalid_argument, "compare", "rhs", [&] { (void)(b == 2); });
    // Comparisons are elementwise and return Bool tensors.
    const Tensor eq = f == f;
    EXPECT_EQ(eq.dtype(), DType::Bool);
    EXPECT_EQ(to_vector<bool>(eq), (std::vector<bool>{true, true}));
    EXPECT_EQ(to_vector<bool>(f > 1.5), (std::vector<bool>{false, true}));
    EXPECT_EQ(to_vector<bool>(1.5 > f), (std::vector<bool>{true, false}));
  }
}

TEST(ApiOperators, AnExpressionMatchesTheReference) {
  for (const Device& dev : api_devices()) {
    SCOPED_TRACE(dev.name());
    std::mt19937_64 rng(7);
    const RefTensor x = random_ref(DType::F64, {50}, rng, LayoutCase::compact, {0, 1});
    const Tensor tx = put_on(x, dev);
    const Tensor y = 2.0 * tx * tx - tx / (tx + 1.0);
    RefTensor want(DType::F64, {50});
    for (std::int64_t i = 0; i < 50; ++i) {
      const double v = x.v[static_cast<std::size_t>(i)].real();
      want.set(i, 2.0 * v * v - v / (v + 1.0));
    }
    TENFERRO_EXPECT_MATCH(want, read_on(y), ulp_tol(DType::F64, 8));
  }
}

// ---- lazy expressions (tenferro/expr.hpp) -----------------------------------------------------

// The bytes of x's elements in colex order (read by its backend).
std::vector<std::byte> bytes_on(const TensorView& x) {
  Backend& be = backend_for(x.device());
  const Tensor h = be.download(to_contiguous(x));
  const std::size_t n = static_cast<std::size_t>(x.numel()) * dtype_size(x.dtype());
  std::vector<std::byte> b(n);
  if (n > 0) std::memcpy(b.data(), h.storage()->host_data() + h.layout().offset * dtype_size(x.dtype()), n);
  return b;
}

TEST(ApiExpr, EvalGivesTheEagerOpsResultsBitForBit) {
  for (const Device& dev : api_devices())
    for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      SCOPED_TRACE(dev.name() + " " + std::string(dtype_name(d)));
      std::mt19937_64 rng(11);
      const Tensor x = put_on(random_ref(d, {40, 3}, rng, LayoutCase::compact, {-2, 2}), dev);
      const Tensor y = put_on(random_ref(d, {40, 3}, rng, LayoutCase::compact, {-2, 2}), dev);
      const Tensor lazy_result = eval(exp(sin(lazy(x)) * y + 1));
      const Tensor eager = exp(sin(x) * y + 1);
      EXPECT_EQ(lazy_result.dtype(), d);
      EXPECT_EQ(lazy_result.shape(), (Shape{40, 3}));
      EXPECT_EQ(lazy_result.device(), dev);
      EXPECT_TRUE(bytes_on(lazy_result) == bytes_on(eager));
      // A shared subexpression, numbers on either side, unary minus and a transposed view.
      const Expr s = lazy(x) * 0.5;
      const Tensor r2 = eval(-(s + s * s) / (2.0 - s));
      const Tensor e2 = -(x * 0.5 + (x * 0.5) * (x * 0.5)) / (2.0 - x * 0.5);
      EXPECT_TRUE(bytes_on(r2) == bytes_on(e2));
      const TensorView yt = y.transpose({1, 0});
      EXPECT_TRUE(bytes_on(eval(lazy(x.transpose({1, 0})) - yt)) == bytes_on(x.transpose({1, 0}) - yt));
    }
}

TEST(ApiExpr, ComparisonsSelectAndClampOnRealDtypes) {
  for (const Device& dev : api_devices())
    for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64}) {
      SCOPED_TRACE(dev.name() + " " + std::string(dtype_name(d)));
      std::mt19937_64 rng(12);
      RandomSpec spec{-9, 9, true, false};
      const Tensor x = put_on(random_ref(d, {64}, rng, LayoutCase::compact, spec), dev);
      const Tensor y = put_on(random_ref(d, {64}, rng, LayoutCase::compact, spec), dev);
      const Tensor lo = scalar(-3, d, dev), hi = scalar(4, d, dev);
      const Tensor got = eval(select(lazy(x) < y, clamp(lazy(x) * 2, lo, hi), maximum(lazy(x), y) - 1));
      const Tensor twice = x * 2;
      const Tensor want = select(x < y, clamp(twice, full({64}, -3, d, dev), full({64}, 4, d, dev)), maximum(x, y) - 1);
      EXPECT_TRUE(bytes_on(got) == bytes_on(want));
      const Tensor b = eval(lazy(x) >= 0);
      EXPECT_EQ(b.dtype(), DType::Bool);
      EXPECT_TRUE(bytes_on(b) == bytes_on(x >= 0));
      EXPECT_TRUE(bytes_on(eval(lazy(x))) == bytes_on(x));  // lazy(x) alone: a copy
    }
}

TEST(ApiExpr, AReductionEndsTheExpression) {
  for (const Device& dev : api_devices()) {
    SCOPED_TRACE(dev.name());
    std::mt19937_64 rng(13);
    const Tensor x = put_on(random_ref(DType::F64, {30, 7}, rng, LayoutCase::compact, {-2, 2}), dev);
    const Tensor y = put_on(random_ref(DType::F64, {30, 7}, rng, LayoutCase::compact, {-2, 2}), dev);
    // max is order-independent: the eager result exactly.
    EXPECT_TRUE(bytes_on(eval(reduce_max(lazy(x) * y - 1, {1}))) == bytes_on(reduce_max(x * y - 1, {1})));
    EXPECT_TRUE(bytes_on(eval(reduce_min(exp(lazy(x)), {0, 1}))) == bytes_on(reduce_min(exp(x), {0, 1})));
    // Sums are reassociated (SEMANTICS.md): within 2 n eps sum|x|.
    const double got = item<double>(eval(sum(lazy(x) * y))), want = item<double>(sum(x * y));
    EXPECT_LE(std::abs(got - want), 2 * 210 * 0x1p-52 * item<double>(sum(abs(x * y))));
    const Tensor rows = eval(reduce_sum(lazy(x) + y, {1}));
    EXPECT_EQ(rows.shape(), (Shape{30}));
    const std::vector<double> r = to_vector<double>(to_host(rows)), e = to_vector<double>(to_host(reduce_sum(x + y, {1})));
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(r[i], e[i], 1e-12);
    // A reduction of a tensor alone is the reduction op.
    EXPECT_TRUE(bytes_on(eval(sum(lazy(x)))) == bytes_on(sum(x)));
  }
  const Tensor x = full({3}, 1.5, DType::F64);
  expect_api_error(ErrorKind::invalid_argument, "reduce_sum", "x", [&] { (void)eval(sum(lazy(x)) + 1); });
}

TEST(ApiExpr, ErrorsAreTheEagerOpsAndRaisedByEval) {
  const Tensor x = full({3}, 1.5, DType::F64), i = full({3}, 2, DType::I32);
  // Building checks nothing; eval raises the op's error naming the op and the argument.
  const Expr bad = lazy(x) + i;
  expect_api_error(ErrorKind::invalid_argument, "add", "rhs", [&] { (void)eval(lazy(i) + 0.5); });
  try {
    (void)eval(bad);
    ADD_FAILURE() << "no error for f64 + i32";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::dtype_mismatch) << e.what();
    EXPECT_EQ(e.op(), "fused") << e.what();
  }
  if (vulkan_available()) {
    const Tensor g = full({3}, 1.0, DType::F64, Device::vulkan());
    expect_api_error(ErrorKind::runtime_state, "fused", "inputs", [&] { (void)eval(lazy(x) * g); });
  }
  // The tensors are unchanged and usable.
  EXPECT_EQ(to_vector<double>(eval(lazy(x) * 2)), (std::vector<double>{3, 3, 3}));
}

}  // namespace
}  // namespace tenferro::test
