// Validation of dot_general / dot_general_into: one test per rule of SEMANTICS.md. Each checks
// the error kind, the op and argument named, that the inputs (and out) are unchanged, and that
// the backend still computes a correct product afterwards.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "backends.hpp"
#include "dot_general.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

DotGeneralConfig matmul_cfg() {
  DotGeneralConfig c;
  c.lhs_contracting_dims = {1};
  c.rhs_contracting_dims = {0};
  return c;
}

/// Storage snapshot of views, to prove a failed call changed nothing.
struct Snapshot {
  std::vector<std::pair<TensorView, RefTensor>> items;
  Snapshot(Backend& be, std::initializer_list<TensorView> views) {
    for (const TensorView& v : views) items.emplace_back(v, read(be, v));
  }
  void expect_unchanged(Backend& be) const {
    for (const auto& [v, before] : items) {
      const RefTensor now = read(be, v);
      EXPECT_EQ(now.v, before.v) << "a failed call modified a tensor";
      EXPECT_EQ(now.iv, before.iv) << "a failed call modified a tensor";
    }
  }
};

/// After an error the backend must still compute a correct (exact, small-integer) product.
void expect_backend_usable(Backend& be) {
  std::mt19937_64 rng(7);
  const RefTensor l = random_ref(DType::F64, {3, 4}, rng, LayoutCase::compact, {-3, 3, true});
  const RefTensor r = random_ref(DType::F64, {4, 2}, rng, LayoutCase::compact, {-3, 3, true});
  const Tensor out = dot_general(be, place(be, l, LayoutCase::compact), place(be, r, LayoutCase::compact), matmul_cfg());
  TENFERRO_EXPECT_MATCH(ref_dot_general(l, r, matmul_cfg()).value, read(be, out), (Tol{0, 0}));
}

/// Runs f, expecting Error{kind} naming op and arg; then checks snapshot and backend.
void expect_error(Backend& be, const Snapshot& snap, ErrorKind kind, const char* op, const char* arg,
                  const std::function<void()>& f) {
  try {
    f();
    ADD_FAILURE() << "expected Error{" << error_kind_name(kind) << "} from " << op << ", nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.arg(), arg) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::string("[") + op + "]"), std::string::npos) << e.what();
  }
  snap.expect_unchanged(be);
  expect_backend_usable(be);
}

struct Operands {
  RefTensor lref, rref;
  TensorView lhs, rhs;
};

Operands make(Backend& be, DType dl, const Shape& ls, DType dr, const Shape& rs) {
  std::mt19937_64 rng(3);
  Operands o{random_ref(dl, ls, rng), random_ref(dr, rs, rng), {}, {}};
  o.lhs = place(be, o.lref, LayoutCase::compact);
  o.rhs = place(be, o.rref, LayoutCase::compact);
  return o;
}

// Each test runs on the CPU backend, which supports every inexact dtype, so that the rule
// under test (not a backend gap) is what raises.
Backend& cpu() { return *test_backends()[0].be; }

TEST(DotGeneralValidationTest, DtypeMismatchIsDtypeMismatch) {
  Backend& be = cpu();
  const Operands o = make(be, DType::F32, {3, 4}, DType::F64, {4, 2});
  const Snapshot s(be, {o.lhs, o.rhs});
  expect_error(be, s, ErrorKind::dtype_mismatch, "dot_general", "rhs",
               [&] { dot_general(be, o.lhs, o.rhs, matmul_cfg()); });
}

TEST(DotGeneralValidationTest, ExactDtypesAreUnsupported) {
  Backend& be = cpu();
  for (DType d : {DType::I32, DType::I64, DType::Bool}) {
    SCOPED_TRACE(std::string(dtype_name(d)));
    const Operands o = make(be, d, {3, 4}, d, {4, 2});
    const Snapshot s(be, {o.lhs, o.rhs});
    expect_error(be, s, ErrorKind::unsupported, "dot_general", "lhs",
                 [&] { dot_general(be, o.lhs, o.rhs, matmul_cfg()); });
  }
}

TEST(DotGeneralValidationTest, PairedListsOfDifferentLengthsAreInvalid) {
  Backend& be = cpu();
  const Operands o = make(be, DType::F64, {3, 4, 2}, DType::F64, {4, 2, 2});
  const Snapshot s(be, {o.lhs, o.rhs});
  DotGeneralConfig b = matmul_cfg();
  b.lhs_batching_dims = {2};
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general", "rhs_batching_dims",
               [&] { dot_general(be, o.lhs, o.rhs, b); });
  DotGeneralConfig c;
  c.lhs_contracting_dims = {1};
  c.rhs_contracting_dims = {0, 1};
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general", "rhs_contracting_dims",
               [&] { dot_general(be, o.lhs, o.rhs, c); });
}

TEST(DotGeneralValidationTest, AxisOutOfRangeIsAxisOutOfBounds) {
  Backend& be = cpu();
  const Operands o = make(be, DType::F64, {3, 4}, DType::F64, {4, 2});
  const Snapshot s(be, {o.lhs, o.rhs});
  const struct {
    Axes lb, rb, lc, rc;
    const char* arg;
  } cases[] = {{{2}, {1}, {1}, {0}, "lhs_batching_dims"},  {{0}, {5}, {1}, {0}, "rhs_batching_dims"},
               {{}, {}, {2}, {0}, "lhs_contracting_dims"}, {{}, {}, {1}, {2}, "rhs_contracting_dims"},
               {{}, {}, {-1}, {0}, "lhs_contracting_dims"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.arg);
    const DotGeneralConfig cfg{c.lb, c.rb, c.lc, c.rc};
    expect_error(be, s, ErrorKind::axis_out_of_bounds, "dot_general", c.arg,
                 [&] { dot_general(be, o.lhs, o.rhs, cfg); });
  }
}

TEST(DotGeneralValidationTest, RepeatedAxisIsInvalidArgument) {
  Backend& be = cpu();
  const Operands o = make(be, DType::F64, {4, 4, 3}, DType::F64, {4, 4, 3});
  const Snapshot s(be, {o.lhs, o.rhs});
  const struct {
    Axes lb, rb, lc, rc;
    const char* arg;
  } cases[] = {{{}, {}, {0, 0}, {0, 1}, "lhs_contracting_dims"},  // within one list
               {{2, 2}, {2, 1}, {}, {}, "lhs_batching_dims"},
               {{}, {}, {0, 1}, {1, 1}, "rhs_contracting_dims"},
               {{0}, {0}, {0}, {1}, "lhs_contracting_dims"},  // batch and contract share an axis
               {{1}, {2}, {0}, {2}, "rhs_contracting_dims"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.arg);
    const DotGeneralConfig cfg{c.lb, c.rb, c.lc, c.rc};
    expect_error(be, s, ErrorKind::invalid_argument, "dot_general", c.arg,
                 [&] { dot_general(be, o.lhs, o.rhs, cfg); });
  }
}

TEST(DotGeneralValidationTest, ExtentMismatchIsShapeMismatch) {
  Backend& be = cpu();
  const Operands o = make(be, DType::C64, {3, 4, 2}, DType::C64, {5, 2, 3});
  const Snapshot s(be, {o.lhs, o.rhs});
  const DotGeneralConfig contract{{}, {}, {1}, {0}};  // 4 vs 5
  expect_error(be, s, ErrorKind::shape_mismatch, "dot_general", "rhs",
               [&] { dot_general(be, o.lhs, o.rhs, contract); });
  const DotGeneralConfig batch{{0}, {2}, {}, {}};  // 3 vs 3 is fine, so pair 2 with 3
  const DotGeneralConfig bad_batch{{2}, {2}, {}, {}};  // 2 vs 3
  EXPECT_NO_THROW(dot_general(be, o.lhs, o.rhs, batch));
  expect_error(be, s, ErrorKind::shape_mismatch, "dot_general", "rhs",
               [&] { dot_general(be, o.lhs, o.rhs, bad_batch); });
}

TEST(DotGeneralValidationTest, UndefinedOperandIsInvalidArgument) {
  Backend& be = cpu();
  const Operands o = make(be, DType::F64, {3, 4}, DType::F64, {4, 2});
  const Snapshot s(be, {o.lhs, o.rhs});
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general", "rhs",
               [&] { dot_general(be, o.lhs, TensorView{}, matmul_cfg()); });
}

// ---- dot_general_into --------------------------------------------------------------------

struct IntoFixture {
  Operands o;
  RefTensor out_ref;
  TensorView out;
};

IntoFixture into_fixture(Backend& be, DType d, const Shape& out_shape) {
  std::mt19937_64 rng(11);
  IntoFixture f{make(be, d, {3, 4}, d, {4, 2}), random_ref(d, out_shape, rng), {}};
  f.out = place(be, f.out_ref, LayoutCase::compact);
  return f;
}

const Scalar kOne = Scalar::of(DType::F64, 1.0), kZero = Scalar::of(DType::F64, 0.0);

TEST(DotGeneralIntoValidationTest, OperandRulesNameDotGeneralInto) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 2});
  const Snapshot s(be, {f.o.lhs, f.o.rhs, f.out});
  const DotGeneralConfig bad{{}, {}, {1}, {1}};  // 4 vs 2
  expect_error(be, s, ErrorKind::shape_mismatch, "dot_general_into", "rhs",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, bad, false, false, kOne, kZero, f.out); });
  const Operands ints = make(be, DType::I64, {3, 4}, DType::I64, {4, 2});
  expect_error(be, s, ErrorKind::unsupported, "dot_general_into", "lhs",
               [&] { dot_general_into(be, ints.lhs, ints.rhs, matmul_cfg(), false, false, kOne, kZero, f.out); });
}

TEST(DotGeneralIntoValidationTest, OutDtypeMismatchIsDtypeMismatch) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 2});
  std::mt19937_64 rng(5);
  const TensorView out32 = place(be, random_ref(DType::F32, {3, 2}, rng), LayoutCase::compact);
  const Snapshot s(be, {f.o.lhs, f.o.rhs, out32});
  expect_error(be, s, ErrorKind::dtype_mismatch, "dot_general_into", "out",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, kZero, out32); });
}

TEST(DotGeneralIntoValidationTest, OutRankMismatchIsRankMismatch) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 2, 1});
  const Snapshot s(be, {f.o.lhs, f.o.rhs, f.out});
  expect_error(be, s, ErrorKind::rank_mismatch, "dot_general_into", "out",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, kZero, f.out); });
}

TEST(DotGeneralIntoValidationTest, OutShapeMismatchIsShapeMismatch) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {2, 3});
  const Snapshot s(be, {f.o.lhs, f.o.rhs, f.out});
  expect_error(be, s, ErrorKind::shape_mismatch, "dot_general_into", "out",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, kZero, f.out); });
}

TEST(DotGeneralIntoValidationTest, OutOverlappingAnInputIsInvalidArgument) {
  Backend& be = cpu();
  // lhs [3,4] and out [3,2] are views of one storage (out = lhs's first two columns).
  std::mt19937_64 rng(9);
  const RefTensor l = random_ref(DType::F64, {3, 4}, rng), r = random_ref(DType::F64, {4, 2}, rng);
  const TensorView lhs = place(be, l, LayoutCase::compact), rhs = place(be, r, LayoutCase::compact);
  const TensorView out = lhs.slice({0, 0}, {3, 2}, {1, 1});
  const TensorView out_r = rhs.slice({0, 0}, {3, 2}, {1, 1});
  const Snapshot s(be, {lhs, rhs});
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "out",
               [&] { dot_general_into(be, lhs, rhs, matmul_cfg(), false, false, kOne, kZero, out); });
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "out",
               [&] { dot_general_into(be, lhs, rhs, matmul_cfg(), false, false, kOne, kZero, out_r); });
}

TEST(DotGeneralIntoValidationTest, BroadcastOutIsInvalidArgument) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 1});
  const TensorView bout = f.out.broadcast_in_dim({3, 2}, {0, 1});  // stride 0 on axis 1
  const Snapshot s(be, {f.o.lhs, f.o.rhs, f.out});
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "out",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, kZero, bout); });
}

TEST(DotGeneralIntoValidationTest, BadCoefficientsAreInvalidArgument) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 2});
  const Snapshot s(be, {f.o.lhs, f.o.rhs, f.out});
  const Scalar boolean = Scalar::of_int(DType::Bool, 1);
  const Scalar complex = Scalar::of_complex(DType::C64, c64(1.0, 2.0));
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "alpha",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, boolean, kZero, f.out); });
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "beta",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, complex, f.out); });
}

TEST(DotGeneralIntoValidationTest, UndefinedOutIsInvalidArgument) {
  Backend& be = cpu();
  const IntoFixture f = into_fixture(be, DType::F64, {3, 2});
  const Snapshot s(be, {f.o.lhs, f.o.rhs});
  expect_error(be, s, ErrorKind::invalid_argument, "dot_general_into", "out",
               [&] { dot_general_into(be, f.o.lhs, f.o.rhs, matmul_cfg(), false, false, kOne, kZero, TensorView{}); });
}

}  // namespace
}  // namespace tenferro::test
