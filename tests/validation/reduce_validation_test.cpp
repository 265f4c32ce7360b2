// Validation of the reductions: one test per rule of SEMANTICS.md "Which kind for which rule".
// Each checks the error kind, Error::op(), Error::arg(), that the input is unchanged, and that
// the backend still runs a valid reduction afterwards.
#include <gtest/gtest.h>

#include <random>

#include "backends.hpp"
#include "ref.hpp"
#include "reduce.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::test {
namespace {

constexpr OpId kReduceOps[] = {OpId::reduce_sum, OpId::reduce_prod, OpId::reduce_max, OpId::reduce_min};

/// After an error the backend must still work: a valid reduction (or, where the backend
/// declares reductions a gap, an upload/download round trip) gives the right values.
void expect_backend_usable(const TestBackend& tb) {
  Backend& be = *tb.be;
  std::mt19937_64 rng(11);
  const RefTensor x = random_ref(DType::F64, {4, 3}, rng);
  const TensorView xv = place(be, x, LayoutCase::compact);
  if (!be.supports(OpId::reduce_sum, DType::F64)) {
    EXPECT_EQ(compare(x, read(be, xv), Tol{}), "");
    return;
  }
  const auto want = reference::reduce(OpId::reduce_sum, x, {1});
  const RefTensor got = read(be, reduce_sum(be, xv, {1}));
  EXPECT_EQ(compare(want.value, got, Tol{1e-14, 1e-14}), "");
}

/// Expects reduce(op, x, axes) on tb to throw `kind` naming `op_name` and `arg`, leaving x as it was.
void expect_rule(const TestBackend& tb, OpId op, const TensorView& x, const Axes& axes, ErrorKind kind,
                 const std::string& want_op, const std::string& arg) {
  SCOPED_TRACE(tb.name + " " + want_op);
  Backend& be = *tb.be;
  const RefTensor before = x.defined() ? read(be, x) : RefTensor{};
  try {
    (void)reduce(be, op, x, axes);
    ADD_FAILURE() << "no error raised";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), want_op) << e.what();
    EXPECT_EQ(e.arg(), arg) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("[" + want_op + "] ", 0), 0u) << e.what();
  }
  if (x.defined()) {
    EXPECT_EQ(compare(before, read(be, x), Tol{}), "");
  }
  expect_backend_usable(tb);
}

TensorView sample(Backend& be, DType d, const Shape& s) {
  std::mt19937_64 rng(5);
  return place(be, random_ref(d, s, rng), LayoutCase::transposed);
}

TEST(ReduceValidation, AxisOutOfRangeIsAxisOutOfBounds) {
  for (const TestBackend& tb : test_backends())
    for (OpId op : kReduceOps) {
      const TensorView x = sample(*tb.be, DType::F64, {3, 4});
      for (const Axes& axes : {Axes{2}, Axes{0, 5}, Axes{-1}})
        expect_rule(tb, op, x, axes, ErrorKind::axis_out_of_bounds, std::string(op_name(op)), "axes");
      const TensorView s = sample(*tb.be, DType::F64, {});
      expect_rule(tb, op, s, {0}, ErrorKind::axis_out_of_bounds, std::string(op_name(op)), "axes");
    }
}

TEST(ReduceValidation, RepeatedAxisIsInvalidArgument) {
  for (const TestBackend& tb : test_backends())
    for (OpId op : kReduceOps) {
      const TensorView x = sample(*tb.be, DType::F32, {3, 4, 2});
      for (const Axes& axes : {Axes{1, 1}, Axes{0, 2, 0}})
        expect_rule(tb, op, x, axes, ErrorKind::invalid_argument, std::string(op_name(op)), "axes");
    }
}

TEST(ReduceValidation, ReducingExtentZeroAxisIsInvalidArgument) {
  for (const TestBackend& tb : test_backends())
    for (OpId op : kReduceOps) {
      const TensorView x = sample(*tb.be, DType::I32, {3, 0});
      for (const Axes& axes : {Axes{1}, Axes{1, 0}})
        expect_rule(tb, op, x, axes, ErrorKind::invalid_argument, std::string(op_name(op)), "axes");
    }
}

TEST(ReduceValidation, DtypeOutsideContractIsUnsupported) {
  for (const TestBackend& tb : test_backends())
    for (OpId op : kReduceOps)
      for (DType d : kAllDTypes) {
        if (contract_allows(op, d)) continue;  // Bool everywhere; complex for max/min
        const TensorView x = sample(*tb.be, d, {2, 3});
        expect_rule(tb, op, x, {0}, ErrorKind::unsupported, std::string(op_name(op)), "x");
      }
}

TEST(ReduceValidation, NonReductionOpIsInvalidArgument) {
  for (const TestBackend& tb : test_backends()) {
    const TensorView x = sample(*tb.be, DType::F64, {2, 3});
    for (OpId op : {OpId::add, OpId::exp, OpId::transpose})
      expect_rule(tb, op, x, {0}, ErrorKind::invalid_argument, "reduce", "op");
  }
}

TEST(ReduceValidation, UndefinedInputIsInvalidArgument) {
  for (const TestBackend& tb : test_backends())
    for (OpId op : kReduceOps)
      expect_rule(tb, op, TensorView{}, {}, ErrorKind::invalid_argument, std::string(op_name(op)), "x");
}

// A host tensor given to a device backend is runtime_state ("upload first"); only testable
// when a device backend is present.
TEST(ReduceValidation, HostTensorOnDeviceBackendIsRuntimeState) {
  const auto backends = test_backends();
  if (backends.size() < 2) GTEST_SKIP() << "no device backend available";
  for (const TestBackend& tb : backends) {
    if (tb.be->is_host()) continue;
    const TensorView host = sample(cpu_backend(), DType::F32, {2, 3});
    for (OpId op : kReduceOps) {
      const RefTensor before = read(cpu_backend(), host);
      try {
        (void)reduce(*tb.be, op, host, {0});
        ADD_FAILURE() << "no error raised";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::runtime_state) << e.what();
        EXPECT_EQ(e.op(), std::string(op_name(op)));
        EXPECT_EQ(e.arg(), "x");
      }
      EXPECT_EQ(compare(before, read(cpu_backend(), host), Tol{}), "");
      expect_backend_usable(tb);
    }
  }
}

}  // namespace
}  // namespace tenferro::test
