// Validation of the structural ops: one test per rule. Each bad call must raise the kind of
// SEMANTICS.md "Which kind for which rule", name the op (Error::op and the "[op]" prefix) and
// the argument at fault, leave every input unchanged, and leave the backend usable.
// Backends that do not run an op (declared gaps) are covered by the conformance tests, which
// check that they raise unsupported.
#include <gtest/gtest.h>

#include <string>

#include "backends.hpp"
#include "ref.hpp"
#include "structural.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

namespace sr = structural_ref;
constexpr Tol kExact{0, 0};

/// After an error the backend must still run ops: a small transpose against the reference.
void expect_backend_works(Backend& be) {
  std::mt19937_64 rng(7);
  const RefTensor x = random_ref(DType::F64, {3, 2}, rng);
  try {
    TENFERRO_EXPECT_MATCH(sr::transpose(x, {1, 0}), read(be, transpose_copy(be, place(be, x, LayoutCase::compact), {1, 0})),
                          kExact);
  } catch (const Error& e) {
    ADD_FAILURE() << "backend unusable after an error: " << e.what();
  }
}

/// Runs f, which must throw Error{kind} naming op and arg; inputs must be unchanged afterwards.
template <class F>
void expect_error(Backend& be, ErrorKind kind, const std::string& op, const std::string& arg,
                  const std::vector<TensorView>& inputs, F&& f) {
  std::vector<RefTensor> before;
  for (const TensorView& t : inputs) before.push_back(read(be, t));
  try {
    f();
    ADD_FAILURE() << "expected Error{" << error_kind_name(kind) << "} from " << op << ", nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.arg(), arg) << e.what();
    EXPECT_NE(std::string(e.what()).find("[" + op + "]"), std::string::npos) << e.what();
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) TENFERRO_EXPECT_MATCH(before[i], read(be, inputs[i]), kExact);
  expect_backend_works(be);
}

/// body(be, x) for every backend that runs op on F32; x is a random F32 tensor of `shape`.
template <class Body> void for_backends(OpId op, const Shape& shape, Body&& body) {
  std::mt19937_64 rng(11);
  for (const TestBackend& tb : test_backends()) {
    if (!tb.be->supports(op, DType::F32)) continue;  // gap: conformance asserts unsupported
    SCOPED_TRACE(tb.name);
    const TensorView x = place(*tb.be, random_ref(DType::F32, shape, rng), LayoutCase::transposed);
    body(*tb.be, x);
  }
}

TensorView i64_on(Backend& be, const Shape& shape, const std::vector<std::int64_t>& vals) {
  RefTensor r(DType::I64, shape);
  for (std::size_t i = 0; i < vals.size(); ++i) r.set_int(static_cast<std::int64_t>(i), vals[i]);
  return place(be, r, LayoutCase::compact);
}

TensorView random_on(Backend& be, DType d, const Shape& shape) {
  std::mt19937_64 rng(13);
  return place(be, random_ref(d, shape, rng), LayoutCase::compact);
}

using EK = ErrorKind;

// ---- residency ------------------------------------------------------------------------------

TEST(StructuralValidation, UndefinedInputIsInvalidArgument) {
  for_backends(OpId::transpose, {2, 3}, [](Backend& be, const TensorView&) {
    expect_error(be, EK::invalid_argument, "transpose", "x", {}, [&] { transpose_copy(be, TensorView{}, {1, 0}); });
  });
}

TEST(StructuralValidation, HostTensorOnDeviceBackendIsRuntimeState) {
  bool any_device = false;
  std::mt19937_64 rng(3);
  for (const TestBackend& tb : test_backends()) {
    if (tb.be->is_host()) continue;
    any_device = true;
    SCOPED_TRACE(tb.name);
    const TensorView host = place(cpu_backend(), random_ref(DType::F32, {2, 3}, rng), LayoutCase::compact);
    expect_error(*tb.be, EK::runtime_state, "reverse", "x", {host}, [&] { reverse_copy(*tb.be, host, {0}); });
  }
  if (!any_device) GTEST_SKIP() << "no device backend in this build: residency across devices not testable";
}

// ---- transpose ------------------------------------------------------------------------------

TEST(StructuralValidation, TransposePermutationLengthIsRankMismatch) {
  for_backends(OpId::transpose, {2, 3, 4}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "transpose", "perm", {x}, [&] { transpose_copy(be, x, {1, 0}); });
  });
}

TEST(StructuralValidation, TransposeAxisOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::transpose, {2, 3, 4}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "transpose", "perm", {x}, [&] { transpose_copy(be, x, {0, 3, 1}); });
    expect_error(be, EK::axis_out_of_bounds, "transpose", "perm", {x}, [&] { transpose_copy(be, x, {0, -1, 1}); });
  });
}

TEST(StructuralValidation, TransposeRepeatedAxisIsInvalidArgument) {
  for_backends(OpId::transpose, {2, 3, 4}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "transpose", "perm", {x}, [&] { transpose_copy(be, x, {0, 1, 1}); });
  });
}

// ---- reshape / broadcast_in_dim ----------------------------------------------------------------

TEST(StructuralValidation, ReshapeCountMismatchIsShapeMismatch) {
  for_backends(OpId::reshape, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::shape_mismatch, "reshape", "shape", {x}, [&] { reshape_copy(be, x, {7}); });
  });
}

TEST(StructuralValidation, ReshapeNegativeExtentIsInvalidArgument) {
  for_backends(OpId::reshape, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "reshape", "shape", {x}, [&] { reshape_copy(be, x, {-2, -3}); });
  });
}

TEST(StructuralValidation, BroadcastDimsLengthIsRankMismatch) {
  for_backends(OpId::broadcast_in_dim, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "broadcast_in_dim", "dims", {x},
                 [&] { broadcast_in_dim_copy(be, x, {2, 3, 4}, {0}); });
  });
}

TEST(StructuralValidation, BroadcastDimOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::broadcast_in_dim, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "broadcast_in_dim", "dims", {x},
                 [&] { broadcast_in_dim_copy(be, x, {2, 3}, {0, 2}); });
  });
}

TEST(StructuralValidation, BroadcastRepeatedDimIsInvalidArgument) {
  for_backends(OpId::broadcast_in_dim, {3, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "broadcast_in_dim", "dims", {x},
                 [&] { broadcast_in_dim_copy(be, x, {3, 3}, {1, 1}); });
  });
}

TEST(StructuralValidation, BroadcastExtentMismatchIsShapeMismatch) {
  for_backends(OpId::broadcast_in_dim, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::shape_mismatch, "broadcast_in_dim", "shape", {x},
                 [&] { broadcast_in_dim_copy(be, x, {2, 4}, {0, 1}); });
  });
}

TEST(StructuralValidation, BroadcastNegativeExtentIsInvalidArgument) {
  for_backends(OpId::broadcast_in_dim, {1}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "broadcast_in_dim", "shape", {x},
                 [&] { broadcast_in_dim_copy(be, x, {-1}, {0}); });
  });
}

// ---- diagonals, triangles ----------------------------------------------------------------------

TEST(StructuralValidation, ExtractDiagonalEqualAxesIsInvalidArgument) {
  for_backends(OpId::extract_diagonal, {3, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "extract_diagonal", "b", {x}, [&] { extract_diagonal(be, x, 1, 1); });
  });
}

TEST(StructuralValidation, ExtractDiagonalExtentsDifferIsShapeMismatch) {
  for_backends(OpId::extract_diagonal, {3, 4}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::shape_mismatch, "extract_diagonal", "x", {x}, [&] { extract_diagonal(be, x, 0, 1); });
  });
}

TEST(StructuralValidation, ExtractDiagonalAxisOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::extract_diagonal, {3, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "extract_diagonal", "a", {x}, [&] { extract_diagonal(be, x, 2, 0); });
    expect_error(be, EK::axis_out_of_bounds, "extract_diagonal", "b", {x}, [&] { extract_diagonal(be, x, 0, -1); });
  });
}

TEST(StructuralValidation, EmbedDiagonalAxisOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::embed_diagonal, {3, 2}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "embed_diagonal", "a", {x}, [&] { embed_diagonal(be, x, 2, 0); });
    expect_error(be, EK::axis_out_of_bounds, "embed_diagonal", "b", {x}, [&] { embed_diagonal(be, x, 0, 3); });
  });
}

TEST(StructuralValidation, TrilTriuRankBelowTwoIsRankMismatch) {
  for_backends(OpId::tril, {4}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "tril", "x", {x}, [&] { tril(be, x, 0); });
  });
  for_backends(OpId::triu, {}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "triu", "x", {x}, [&] { triu(be, x, 0); });
  });
}

// ---- copy_into --------------------------------------------------------------------------------

TEST(StructuralValidation, CopyIntoDtypeMismatch) {
  for_backends(OpId::copy_into, {2, 3}, [](Backend& be, const TensorView& x) {
    const TensorView dst = random_on(be, DType::F64, {2, 3});
    expect_error(be, EK::dtype_mismatch, "copy_into", "dst", {x, dst}, [&] { copy_into(be, x, dst); });
  });
}

TEST(StructuralValidation, CopyIntoShapeMismatch) {
  for_backends(OpId::copy_into, {2, 3}, [](Backend& be, const TensorView& x) {
    const TensorView dst = random_on(be, DType::F32, {3, 2});
    expect_error(be, EK::shape_mismatch, "copy_into", "dst", {x, dst}, [&] { copy_into(be, x, dst); });
  });
}

TEST(StructuralValidation, CopyIntoOverlappingViewsIsInvalidArgument) {
  for_backends(OpId::copy_into, {4, 4}, [](Backend& be, const TensorView& x) {
    // The same view, a partial overlap, and an interleaving that shares elements (gcd passes).
    expect_error(be, EK::invalid_argument, "copy_into", "dst", {x}, [&] { copy_into(be, x, x); });
    const TensorView a = x.slice({0, 0}, {4, 3}, {1, 1}), b = x.slice({0, 1}, {4, 4}, {1, 1});
    expect_error(be, EK::invalid_argument, "copy_into", "dst", {x}, [&] { copy_into(be, a, b); });
    const TensorView c = x.slice({0, 0}, {2, 2}, {1, 1}), d = x.transpose({1, 0}).slice({0, 0}, {2, 2}, {1, 1});
    expect_error(be, EK::invalid_argument, "copy_into", "dst", {x}, [&] { copy_into(be, c, d); });
  });
}

TEST(StructuralValidation, CopyIntoSelfOverlappingDstIsInvalidArgument) {
  for_backends(OpId::copy_into, {3}, [](Backend& be, const TensorView& x) {
    const TensorView one = random_on(be, DType::F32, {1});
    const TensorView bdst = one.broadcast_in_dim({3}, {0});
    expect_error(be, EK::invalid_argument, "copy_into", "dst", {x, one}, [&] { copy_into(be, x, bdst); });
    // Strides (1, 1) over extents (2, 2): element 1 reached twice, no zero stride.
    const TensorView buf = random_on(be, DType::F32, {4});
    const TensorView skew(buf.storage(), DType::F32, Layout{{2, 2}, {1, 1}, 0});
    const TensorView src = random_on(be, DType::F32, {2, 2});
    expect_error(be, EK::invalid_argument, "copy_into", "dst", {buf, src}, [&] { copy_into(be, src, skew); });
  });
}

// ---- slice --------------------------------------------------------------------------------------

TEST(StructuralValidation, SliceVectorLengthsAreRankMismatch) {
  for_backends(OpId::slice, {4, 5}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "slice", "start_indices", {x},
                 [&] { slice_copy(be, x, SliceConfig{{0}, {4, 5}, {1, 1}}); });
    expect_error(be, EK::rank_mismatch, "slice", "limit_indices", {x},
                 [&] { slice_copy(be, x, SliceConfig{{0, 0}, {4, 5, 1}, {1, 1}}); });
    expect_error(be, EK::rank_mismatch, "slice", "strides", {x}, [&] { slice_copy(be, x, SliceConfig{{0, 0}, {4, 5}, {}}); });
  });
}

TEST(StructuralValidation, SliceStartAboveLimitIsInvalidArgument) {
  for_backends(OpId::slice, {4, 5}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "slice", "limit_indices", {x},
                 [&] { slice_copy(be, x, SliceConfig{{0, 3}, {4, 2}, {1, 1}}); });
  });
}

TEST(StructuralValidation, SliceLimitAboveExtentIsInvalidArgument) {
  for_backends(OpId::slice, {4, 5}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "slice", "limit_indices", {x},
                 [&] { slice_copy(be, x, SliceConfig{{0, 0}, {5, 5}, {1, 1}}); });
  });
}

TEST(StructuralValidation, SliceNegativeStartIsInvalidArgument) {
  for_backends(OpId::slice, {4, 5}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "slice", "start_indices", {x},
                 [&] { slice_copy(be, x, SliceConfig{{-1, 0}, {4, 5}, {1, 1}}); });
  });
}

TEST(StructuralValidation, SliceNonPositiveStrideIsInvalidArgument) {
  for_backends(OpId::slice, {4, 5}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "slice", "strides", {x},
                 [&] { slice_copy(be, x, SliceConfig{{0, 0}, {4, 5}, {1, 0}}); });
    expect_error(be, EK::invalid_argument, "slice", "strides", {x},
                 [&] { slice_copy(be, x, SliceConfig{{3, 0}, {0, 5}, {-1, 1}}); });
  });
}

// ---- dynamic_slice / dynamic_update_slice --------------------------------------------------------

TEST(StructuralValidation, DynamicSliceSizesLengthIsRankMismatch) {
  for_backends(OpId::dynamic_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView st = i64_on(be, {2}, {0, 0});
    expect_error(be, EK::rank_mismatch, "dynamic_slice", "slice_sizes", {x, st}, [&] { dynamic_slice(be, x, st, {2}); });
  });
}

TEST(StructuralValidation, DynamicSliceSizeAboveExtentIsInvalidArgument) {
  for_backends(OpId::dynamic_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView st = i64_on(be, {2}, {0, 0});
    expect_error(be, EK::invalid_argument, "dynamic_slice", "slice_sizes", {x, st},
                 [&] { dynamic_slice(be, x, st, {2, 6}); });
  });
}

TEST(StructuralValidation, DynamicSliceStartsOfWrongLengthIsInvalidArgument) {
  for_backends(OpId::dynamic_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView st3 = i64_on(be, {3}, {0, 0, 0});
    expect_error(be, EK::invalid_argument, "dynamic_slice", "starts", {x, st3}, [&] { dynamic_slice(be, x, st3, {2, 2}); });
    const TensorView st2d = i64_on(be, {2, 1}, {0, 0});
    expect_error(be, EK::invalid_argument, "dynamic_slice", "starts", {x, st2d}, [&] { dynamic_slice(be, x, st2d, {2, 2}); });
  });
}

TEST(StructuralValidation, DynamicSliceNonIntegerStartsIsInvalidArgument) {
  for_backends(OpId::dynamic_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView sb = random_on(be, DType::Bool, {2});
    expect_error(be, EK::invalid_argument, "dynamic_slice", "starts", {x, sb}, [&] { dynamic_slice(be, x, sb, {2, 2}); });
    RefTensor f(DType::F64, {2});
    f.set(0, c64(0.5, 0));
    const TensorView sf = place(be, f, LayoutCase::compact);
    expect_error(be, EK::invalid_argument, "dynamic_slice", "starts", {x, sf}, [&] { dynamic_slice(be, x, sf, {2, 2}); });
  });
}

TEST(StructuralValidation, DynamicUpdateSliceDtypeMismatch) {
  for_backends(OpId::dynamic_update_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView u = random_on(be, DType::F64, {2, 2});
    const TensorView st = i64_on(be, {2}, {0, 0});
    expect_error(be, EK::dtype_mismatch, "dynamic_update_slice", "update", {x, u, st},
                 [&] { dynamic_update_slice(be, x, u, st); });
  });
}

TEST(StructuralValidation, DynamicUpdateSliceRankIsRankMismatch) {
  for_backends(OpId::dynamic_update_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView u = random_on(be, DType::F32, {2});
    const TensorView st = i64_on(be, {2}, {0, 0});
    expect_error(be, EK::rank_mismatch, "dynamic_update_slice", "update", {x, u, st},
                 [&] { dynamic_update_slice(be, x, u, st); });
  });
}

TEST(StructuralValidation, DynamicUpdateSliceLargerUpdateIsInvalidArgument) {
  for_backends(OpId::dynamic_update_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView u = random_on(be, DType::F32, {5, 1});
    const TensorView st = i64_on(be, {2}, {0, 0});
    expect_error(be, EK::invalid_argument, "dynamic_update_slice", "update", {x, u, st},
                 [&] { dynamic_update_slice(be, x, u, st); });
  });
}

TEST(StructuralValidation, DynamicUpdateSliceStartsOfWrongLengthIsInvalidArgument) {
  for_backends(OpId::dynamic_update_slice, {4, 5}, [](Backend& be, const TensorView& x) {
    const TensorView u = random_on(be, DType::F32, {2, 2});
    const TensorView st = i64_on(be, {1}, {0});
    expect_error(be, EK::invalid_argument, "dynamic_update_slice", "starts", {x, u, st},
                 [&] { dynamic_update_slice(be, x, u, st); });
  });
}

// ---- pad ------------------------------------------------------------------------------------------

TEST(StructuralValidation, PadVectorLengthsAreRankMismatch) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::rank_mismatch, "pad", "edge_padding_low", {x}, [&] { pad(be, x, PadConfig{{1}, {1, 1}, {0, 0}}); });
    expect_error(be, EK::rank_mismatch, "pad", "edge_padding_high", {x}, [&] { pad(be, x, PadConfig{{1, 1}, {}, {0, 0}}); });
    expect_error(be, EK::rank_mismatch, "pad", "interior_padding", {x},
                 [&] { pad(be, x, PadConfig{{1, 1}, {1, 1}, {0, 0, 0}}); });
  });
}

TEST(StructuralValidation, PadNegativeInteriorIsInvalidArgument) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "pad", "interior_padding", {x}, [&] { pad(be, x, PadConfig{{0, 0}, {0, 0}, {0, -1}}); });
  });
}

TEST(StructuralValidation, PadNegativeResultExtentIsInvalidArgument) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "pad", "edge_padding_high", {x}, [&] { pad(be, x, PadConfig{{0, 0}, {-4, 0}, {0, 0}}); });
    expect_error(be, EK::invalid_argument, "pad", "edge_padding_low", {x}, [&] { pad(be, x, PadConfig{{0, -3}, {0, 0}, {0, 0}}); });
  });
}

// Paddings at the int64 limits: the error names the padding that makes the extent negative or
// too large (the extent is computed exactly, never wrapped).
TEST(StructuralValidation, PadExtentOutOfRangeAtTheInt64LimitsNamesThePadding) {
  constexpr std::int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    const auto expect_pad_error = [&](const char* arg, const PadConfig& cfg) {
      expect_error(be, EK::invalid_argument, "pad", arg, {x}, [&] { pad(be, x, cfg); });
    };
    expect_pad_error("edge_padding_low", PadConfig{{kMin, 0}, {0, 0}, {0, 0}});
    expect_pad_error("edge_padding_low", PadConfig{{kMin, 0}, {-1, 0}, {0, 0}});
    expect_pad_error("edge_padding_high", PadConfig{{2, 0}, {kMax, 0}, {0, 0}});
    expect_pad_error("edge_padding_low", PadConfig{{kMax, 0}, {1, 0}, {0, 0}});
    expect_pad_error("interior_padding", PadConfig{{0, 0}, {0, 0}, {std::int64_t{1} << 62, 0}});
  });
}

// Paddings at the int64 limits whose sum is a small extent are no error: x lands outside.
TEST(StructuralValidation, PadAtTheInt64LimitsWithASmallExtentIsExact) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    const Tensor out = pad(be, x, PadConfig{{INT64_MIN, 0}, {INT64_MAX, 1}, {0, 0}});
    EXPECT_EQ(out.shape(), (Shape{2, 3}));
    TENFERRO_EXPECT_MATCH(RefTensor(DType::F32, {2, 3}), read(be, out), kExact);  // all padding
  });
}

TEST(StructuralValidation, PadValueDtypeMismatch) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    const TensorView v = random_on(be, DType::F64, {});
    expect_error(be, EK::dtype_mismatch, "pad", "pad_value", {x, v}, [&] { pad(be, x, PadConfig{{1, 1}, {1, 1}, {0, 0}}, v); });
  });
}

TEST(StructuralValidation, PadValueNotRankZeroIsInvalidArgument) {
  for_backends(OpId::pad, {3, 2}, [](Backend& be, const TensorView& x) {
    const TensorView v = random_on(be, DType::F32, {1});
    expect_error(be, EK::invalid_argument, "pad", "pad_value", {x, v}, [&] { pad(be, x, PadConfig{{1, 1}, {1, 1}, {0, 0}}, v); });
  });
}

// ---- concatenate / reverse -------------------------------------------------------------------------

TEST(StructuralValidation, ConcatenateNoInputsIsInvalidArgument) {
  for_backends(OpId::concatenate, {1}, [](Backend& be, const TensorView&) {
    expect_error(be, EK::invalid_argument, "concatenate", "inputs", {},
                 [&] { concatenate(be, std::span<const TensorView>{}, 0); });
  });
}

TEST(StructuralValidation, ConcatenateRankMismatch) {
  for_backends(OpId::concatenate, {2, 3}, [](Backend& be, const TensorView& x) {
    const TensorView y = random_on(be, DType::F32, {2, 3, 1});
    expect_error(be, EK::rank_mismatch, "concatenate", "inputs", {x, y},
                 [&] { concatenate(be, std::vector<TensorView>{x, y}, 0); });
  });
}

TEST(StructuralValidation, ConcatenateDtypeMismatch) {
  for_backends(OpId::concatenate, {2, 3}, [](Backend& be, const TensorView& x) {
    const TensorView y = random_on(be, DType::I32, {2, 3});
    expect_error(be, EK::dtype_mismatch, "concatenate", "inputs", {x, y},
                 [&] { concatenate(be, std::vector<TensorView>{x, y}, 0); });
  });
}

TEST(StructuralValidation, ConcatenateOtherExtentsDifferIsShapeMismatch) {
  for_backends(OpId::concatenate, {2, 3}, [](Backend& be, const TensorView& x) {
    const TensorView y = random_on(be, DType::F32, {2, 4});
    expect_error(be, EK::shape_mismatch, "concatenate", "inputs", {x, y},
                 [&] { concatenate(be, std::vector<TensorView>{x, y}, 0); });
  });
}

TEST(StructuralValidation, ConcatenateAxisOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::concatenate, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "concatenate", "axis", {x},
                 [&] { concatenate(be, std::vector<TensorView>{x, x}, 2); });
  });
}

TEST(StructuralValidation, ReverseAxisOutOfRangeIsAxisOutOfBounds) {
  for_backends(OpId::reverse, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::axis_out_of_bounds, "reverse", "axes", {x}, [&] { reverse_copy(be, x, {2}); });
  });
}

TEST(StructuralValidation, ReverseRepeatedAxisIsInvalidArgument) {
  for_backends(OpId::reverse, {2, 3}, [](Backend& be, const TensorView& x) {
    expect_error(be, EK::invalid_argument, "reverse", "axes", {x}, [&] { reverse_copy(be, x, {1, 1}); });
  });
}

}  // namespace
}  // namespace tenferro::test
