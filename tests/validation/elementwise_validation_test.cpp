// Validation rules of the elementwise, analytic, cast and fusion ops: one test per rule. Each
// checks the documented ErrorKind, that Error::op() names the op and Error::arg() the argument
// at fault, that every input is unchanged afterwards, and that the backend still works.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "backends.hpp"
#include "elementwise.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

TensorView on(Backend& be, const RefTensor& r) { return place(be, r, LayoutCase::compact); }

RefTensor rnd(DType d, const Shape& shape, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  return ref::rounded(random_ref(d, shape, rng, LayoutCase::compact, {-3, 3, false, true}));
}

Tensor ew(Backend& be, OpId op, const std::vector<TensorView>& ins, CompareDir dir = CompareDir::EQ) {
  return elementwise(be, op, ins, dir);
}

/// Runs f on `inputs` (tensors of be), expecting Error{kind} naming `op` and `arg`; then checks
/// that the inputs are unchanged and that the backend still computes an add correctly.
void expect_rejected(Backend& be, ErrorKind kind, const std::string& op, const std::string& arg,
                     const std::vector<TensorView>& inputs, const std::function<void()>& f) {
  std::vector<RefTensor> before;
  for (const TensorView& t : inputs) before.push_back(read(be, t));
  try {
    f();
    ADD_FAILURE() << "expected " << error_kind_name(kind) << " from " << op << ", got no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.arg(), arg) << e.what();
    EXPECT_NE(std::string(e.what()).find("[" + op + "]"), std::string::npos) << e.what();
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) TENFERRO_EXPECT_MATCH(before[i], read(be, inputs[i]), Tol{});
  const RefTensor a = rnd(DType::F64, {3, 2}, 99);
  TENFERRO_EXPECT_MATCH(ref::binary(OpId::add, a, a), read(be, add(be, on(be, a), on(be, a))), ulp_tol(DType::F64));
}

/// Calls body(be) for every test backend with a trace of its name.
void for_each_backend(const std::function<void(Backend&)>& body) {
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    body(*tb.be);
  }
}

// ---- shapes ------------------------------------------------------------------------------------

TEST(ElementwiseValidation, BinaryShapesDifferIsShapeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView a = on(be, rnd(DType::F32, {3, 2})), b = on(be, rnd(DType::F32, {2, 3}));
    for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::pow, OpId::maximum, OpId::compare})
      expect_rejected(be, ErrorKind::shape_mismatch, std::string(op_name(op)), "rhs", {a, b},
                      [&] { (void)ew(be, op, {a, b}); });
  });
}

TEST(ElementwiseValidation, RankZeroOperandBroadcastsOtherShapesDifferAreShapeMismatch) {
  // A rank-0 operand broadcasts (SEMANTICS.md, binary elementwise); a rank-1 extent-1 operand
  // does not, and the message names the rank-0 alternative.
  for_each_backend([](Backend& be) {
    const RefTensor ra = rnd(DType::F64, {4}), rs = rnd(DType::F64, {}, 2);
    const TensorView a = on(be, ra), s = on(be, rs), one = on(be, rnd(DType::F64, {1}, 3));
    TENFERRO_EXPECT_MATCH(ref::binary(OpId::add, ra, rs), read(be, add(be, a, s)), ulp_tol(DType::F64));
    TENFERRO_EXPECT_MATCH(ref::binary(OpId::mul, rs, ra), read(be, mul(be, s, a)), ulp_tol(DType::F64));
    expect_rejected(be, ErrorKind::shape_mismatch, "add", "rhs", {a, one}, [&] { (void)add(be, a, one); });
    expect_rejected(be, ErrorKind::shape_mismatch, "mul", "rhs", {one, a}, [&] { (void)mul(be, one, a); });
    try {
      (void)add(be, a, one);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("or rank 0"), std::string::npos) << e.what();
    }
  });
}

TEST(ElementwiseValidation, SelectShapesDifferIsShapeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView p = on(be, rnd(DType::Bool, {3})), p2 = on(be, rnd(DType::Bool, {2}));
    const TensorView t = on(be, rnd(DType::I32, {3})), f = on(be, rnd(DType::I32, {4}));
    expect_rejected(be, ErrorKind::shape_mismatch, "select", "on_false", {p, t, f}, [&] { (void)select(be, p, t, f); });
    expect_rejected(be, ErrorKind::shape_mismatch, "select", "pred", {p2, t, t}, [&] { (void)select(be, p2, t, t); });
  });
}

TEST(ElementwiseValidation, ClampBoundShapeDiffersIsShapeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::F64, {3, 2})), lo = on(be, rnd(DType::F64, {3})),
                     hi = on(be, rnd(DType::F64, {}));
    expect_rejected(be, ErrorKind::shape_mismatch, "clamp", "lower", {x, lo, hi}, [&] { (void)clamp(be, x, lo, hi); });
    expect_rejected(be, ErrorKind::shape_mismatch, "clamp", "upper", {x, hi, lo}, [&] { (void)clamp(be, x, hi, lo); });
  });
}

// ---- dtypes ------------------------------------------------------------------------------------

TEST(ElementwiseValidation, BinaryDtypesDifferIsDtypeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView a = on(be, rnd(DType::F32, {3})), b = on(be, rnd(DType::F64, {3})),
                     i = on(be, rnd(DType::I32, {3}));
    for (OpId op : {OpId::add, OpId::rem, OpId::minimum, OpId::compare})
      expect_rejected(be, ErrorKind::dtype_mismatch, std::string(op_name(op)), "rhs", {a, b},
                      [&] { (void)ew(be, op, {a, b}); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "sub", "rhs", {i, a}, [&] { (void)sub(be, i, a); });
  });
}

TEST(ElementwiseValidation, RealScalarWithComplexOnlyForSamePrecisionArithmetic) {
  for_each_backend([](Backend& be) {
    const TensorView z32 = on(be, rnd(DType::C32, {3})), z64 = on(be, rnd(DType::C64, {3}));
    const TensorView s32 = on(be, rnd(DType::F32, {})), s64 = on(be, rnd(DType::F64, {}));
    const TensorView v64 = on(be, rnd(DType::F64, {3}));
    // Wrong precision, a non-scalar real, and ops outside add/sub/mul/div.
    expect_rejected(be, ErrorKind::dtype_mismatch, "add", "rhs", {s32, z64}, [&] { (void)add(be, s32, z64); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "mul", "rhs", {z32, s64}, [&] { (void)mul(be, z32, s64); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "div", "rhs", {v64, z64}, [&] { (void)div(be, v64, z64); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "pow", "rhs", {z64, s64}, [&] { (void)pow(be, z64, s64); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "compare", "rhs", {s64, z64},
                    [&] { (void)compare(be, s64, z64, CompareDir::EQ); });
  });
}

TEST(ElementwiseValidation, SelectPredNotBoolIsDtypeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView p = on(be, rnd(DType::I32, {3})), t = on(be, rnd(DType::F64, {3}));
    expect_rejected(be, ErrorKind::dtype_mismatch, "select", "pred", {p, t, t}, [&] { (void)select(be, p, t, t); });
  });
}

TEST(ElementwiseValidation, SelectBranchesDifferIsDtypeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView p = on(be, rnd(DType::Bool, {3})), t = on(be, rnd(DType::F64, {3})),
                     f = on(be, rnd(DType::F32, {3}));
    expect_rejected(be, ErrorKind::dtype_mismatch, "select", "on_false", {p, t, f}, [&] { (void)select(be, p, t, f); });
  });
}

TEST(ElementwiseValidation, ClampBoundDtypeDiffersIsDtypeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::I64, {3})), a = on(be, rnd(DType::I32, {3})), b = on(be, rnd(DType::I64, {}));
    expect_rejected(be, ErrorKind::dtype_mismatch, "clamp", "lower", {x, a, b}, [&] { (void)clamp(be, x, a, b); });
    expect_rejected(be, ErrorKind::dtype_mismatch, "clamp", "upper", {x, b, a}, [&] { (void)clamp(be, x, b, a); });
  });
}

// ---- unsupported -------------------------------------------------------------------------------

TEST(ElementwiseValidation, BoolArithmeticIsUnsupported) {
  for_each_backend([](Backend& be) {
    const TensorView b = on(be, rnd(DType::Bool, {4}));
    for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::pow})
      expect_rejected(be, ErrorKind::unsupported, std::string(op_name(op)), "lhs", {b}, [&] { (void)ew(be, op, {b, b}); });
    for (OpId op : {OpId::neg, OpId::abs, OpId::sign})
      expect_rejected(be, ErrorKind::unsupported, std::string(op_name(op)), "x", {b}, [&] { (void)ew(be, op, {b}); });
    expect_rejected(be, ErrorKind::unsupported, "clamp", "x", {b}, [&] { (void)clamp(be, b, b, b); });
  });
}

TEST(ElementwiseValidation, IntegerAnalyticIsUnsupported) {
  for_each_backend([](Backend& be) {
    const TensorView i = on(be, rnd(DType::I32, {4})), l = on(be, rnd(DType::I64, {4}));
    for (const OpInfo& o : all_ops()) {
      if (o.family != OpFamily::analytic) continue;
      expect_rejected(be, ErrorKind::unsupported, std::string(o.name), "x", {i}, [&] { (void)ew(be, o.id, {i}); });
      expect_rejected(be, ErrorKind::unsupported, std::string(o.name), "x", {l}, [&] { (void)ew(be, o.id, {l}); });
    }
  });
}

TEST(ElementwiseValidation, ComplexErfOrderingAndRemainderAreUnsupported) {
  for_each_backend([](Backend& be) {
    const TensorView z = on(be, rnd(DType::C64, {4}));
    expect_rejected(be, ErrorKind::unsupported, "erf", "x", {z}, [&] { (void)erf(be, z); });
    for (OpId op : {OpId::maximum, OpId::minimum, OpId::rem})
      expect_rejected(be, ErrorKind::unsupported, std::string(op_name(op)), "lhs", {z}, [&] { (void)ew(be, op, {z, z}); });
    expect_rejected(be, ErrorKind::unsupported, "clamp", "x", {z}, [&] { (void)clamp(be, z, z, z); });
    for (CompareDir dir : {CompareDir::LT, CompareDir::LE, CompareDir::GT, CompareDir::GE})
      expect_rejected(be, ErrorKind::unsupported, "compare", "dir", {z}, [&] { (void)compare(be, z, z, dir); });
  });
}

TEST(ElementwiseValidation, ConvertOutsideLatticeIsUnsupported) {
  for_each_backend([](Backend& be) {
    for (DType from : kAllDTypes)
      for (DType to : kAllDTypes) {
        if (convert_allowed(from, to)) continue;
        SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
        const TensorView x = on(be, rnd(from, {2, 2}));
        expect_rejected(be, ErrorKind::unsupported, "convert", "to", {x}, [&] { (void)convert(be, x, to); });
      }
  });
}

// ---- data-dependent failures (raised by the backend, same guarantees) ----------------------------

TEST(ElementwiseValidation, IntegerDivisionByZeroIsNumericalFailure) {
  for_each_backend([](Backend& be) {
    for (DType d : {DType::I32, DType::I64}) {
      RefTensor den = rnd(d, {5});
      den.set_int(3, 0);
      const TensorView a = on(be, rnd(d, {5})), b = on(be, den);
      for (OpId op : {OpId::div, OpId::rem})
        expect_rejected(be, ErrorKind::numerical_failure, std::string(op_name(op)), "rhs", {a, b}, [&] {
          (void)ew(be, op, {a, b});
          be.synchronize();
        });
    }
  });
}

TEST(ElementwiseValidation, NegativeIntegerExponentIsNumericalFailure) {
  for_each_backend([](Backend& be) {
    RefTensor e = rnd(DType::I64, {4});
    for (std::int64_t i = 0; i < 4; ++i) e.set_int(i, i == 2 ? -1 : i);
    const TensorView a = on(be, rnd(DType::I64, {4})), b = on(be, e);
    expect_rejected(be, ErrorKind::numerical_failure, "pow", "rhs", {a, b}, [&] {
      (void)pow(be, a, b);
      be.synchronize();
    });
  });
}

TEST(ElementwiseValidation, NonFiniteOrOutOfRangeFloatCastToIntegerIsInvalidArgument) {
  for_each_backend([](Backend& be) {
    for (double bad : {std::nan(""), 1.0 / 0.0, 4e9}) {
      RefTensor x(DType::F64, {3});
      ref::put(x, 0, c64(1.5, 0));
      ref::put(x, 1, c64(bad, 0));
      const TensorView v = on(be, x);
      expect_rejected(be, ErrorKind::invalid_argument, "cast", "x", {v}, [&] {
        (void)cast(be, v, DType::I32);
        be.synchronize();
      });
    }
  });
}

// ---- the generic entry point and fusion plans --------------------------------------------------

TEST(ElementwiseValidation, GenericEntryChecksOpAndArity) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::F32, {3}));
    expect_rejected(be, ErrorKind::invalid_argument, "add", "inputs", {x}, [&] { (void)ew(be, OpId::add, {x}); });
    expect_rejected(be, ErrorKind::invalid_argument, "exp", "inputs", {x}, [&] { (void)ew(be, OpId::exp, {x, x}); });
    expect_rejected(be, ErrorKind::invalid_argument, "select", "inputs", {x}, [&] { (void)ew(be, OpId::select, {}); });
    expect_rejected(be, ErrorKind::invalid_argument, "transpose", "op", {x}, [&] { (void)ew(be, OpId::transpose, {x}); });
  });
}

TEST(ElementwiseValidation, UndefinedInputIsInvalidArgument) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::F32, {3})), none;
    expect_rejected(be, ErrorKind::invalid_argument, "add", "rhs", {x}, [&] { (void)add(be, x, none); });
    expect_rejected(be, ErrorKind::invalid_argument, "cast", "x", {}, [&] { (void)cast(be, none, DType::F64); });
  });
}

// A tensor of another allocation domain (another runtime) is host_access.
class ForeignStorage final : public Storage {
 public:
  explicit ForeignStorage(std::size_t n) : Storage(n, new_domain_id(), Placement{}), bytes_(n) {}
  std::byte* host_data() override { return bytes_.data(); }

 private:
  std::vector<std::byte> bytes_;
};

TEST(ElementwiseValidation, ForeignTensorIsRejected) {
  for_each_backend([](Backend& be) {
    const TensorView foreign(std::make_shared<ForeignStorage>(3 * sizeof(float)), DType::F32, Layout::compact({3}));
    const TensorView x = on(be, rnd(DType::F32, {3}));
    // On a device backend a host tensor is runtime_state; on the CPU a foreign host domain is
    // host_access. Either way the op and argument are named.
    const ErrorKind kind = be.is_host() ? ErrorKind::host_access : ErrorKind::runtime_state;
    expect_rejected(be, kind, "sub", "rhs", {x}, [&] { (void)sub(be, x, foreign); });
    expect_rejected(be, kind, "exp", "x", {x}, [&] { (void)exp(be, foreign); });
    expect_rejected(be, kind, "convert", "x", {x}, [&] { (void)convert(be, foreign, DType::F64); });
    const std::vector<TensorView> ins{x, foreign};
    FusionPlan plan;
    plan.steps = {{OpId::add, {-1, -2}}};
    expect_rejected(be, kind, "fused", "inputs", {x}, [&] { (void)fused(be, plan, ins); });
  });
}

TEST(FusionValidation, MalformedPlanIsInvalidArgument) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::F64, {3})), y = on(be, rnd(DType::F64, {3}));
    const std::vector<TensorView> ins{x, y};
    const std::vector<FusionPlan> bad = {
        FusionPlan{},                                                      // no steps
        FusionPlan{{{OpId::exp, {0}}}},                                    // refers to itself
        FusionPlan{{{OpId::exp, {-1}}, {OpId::add, {0, 2}}}},              // refers to a later step
        FusionPlan{{{OpId::add, {-1, -3}}}},                               // input 2 does not exist
        FusionPlan{{{OpId::add, {-1}}}},                                   // wrong arity
        FusionPlan{{{OpId::reduce_sum, {-1}}}},                            // not elementwise
    };
    for (std::size_t i = 0; i < bad.size(); ++i) {
      SCOPED_TRACE("plan " + std::to_string(i));
      expect_rejected(be, ErrorKind::invalid_argument, "fused", "plan", {x, y}, [&] { (void)fused(be, bad[i], ins); });
    }
    const FusionPlan ok{{{OpId::add, {-1, -2}}}};
    expect_rejected(be, ErrorKind::invalid_argument, "fused", "inputs", {x}, [&] {
      (void)fused(be, ok, std::span<const TensorView>{});
    });
  });
}

TEST(FusionValidation, InputShapesDifferIsShapeMismatch) {
  for_each_backend([](Backend& be) {
    const TensorView x = on(be, rnd(DType::F64, {3})), y = on(be, rnd(DType::F64, {4}));
    const std::vector<TensorView> ins{x, y};
    const FusionPlan plan{{{OpId::add, {-1, -2}}}};
    expect_rejected(be, ErrorKind::shape_mismatch, "fused", "inputs", {x, y}, [&] { (void)fused(be, plan, ins); });
  });
}

// Each step follows its unfused op's dtype rules, with the same error kind.
TEST(FusionValidation, StepDtypeRulesMatchUnfusedOps) {
  for_each_backend([](Backend& be) {
    const TensorView f = on(be, rnd(DType::F64, {3})), i = on(be, rnd(DType::I32, {3})),
                     z = on(be, rnd(DType::C64, {3}));
    const std::vector<TensorView> fi{f, i}, ii{i, i}, zz{z, z}, ff{f, f};
    const FusionPlan mixed{{{OpId::add, {-1, -2}}}};
    expect_rejected(be, ErrorKind::dtype_mismatch, "fused", "plan", {f, i}, [&] { (void)fused(be, mixed, fi); });
    const FusionPlan int_exp{{{OpId::mul, {-1, -2}}, {OpId::exp, {0}}}};
    expect_rejected(be, ErrorKind::unsupported, "fused", "plan", {i}, [&] { (void)fused(be, int_exp, ii); });
    const FusionPlan complex_lt{{{OpId::compare, {-1, -2}, CompareDir::LT}}};
    expect_rejected(be, ErrorKind::unsupported, "fused", "plan", {z}, [&] { (void)fused(be, complex_lt, zz); });
    // compare yields Bool: adding it to a float is a dtype mismatch, selecting with it is fine.
    const FusionPlan bool_add{{{OpId::compare, {-1, -2}, CompareDir::LT}, {OpId::add, {0, -1}}}};
    expect_rejected(be, ErrorKind::dtype_mismatch, "fused", "plan", {f}, [&] { (void)fused(be, bool_add, ff); });
    const FusionPlan float_pred{{{OpId::add, {-1, -2}}, {OpId::select, {0, -1, -2}}}};
    expect_rejected(be, ErrorKind::dtype_mismatch, "fused", "plan", {f}, [&] { (void)fused(be, float_pred, ff); });
  });
}

}  // namespace
}  // namespace tenferro::test
