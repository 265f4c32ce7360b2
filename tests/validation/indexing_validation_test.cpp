// Validation of gather / scatter: one case per rule of SEMANTICS.md "Which kind for which
// rule". Each case breaks one rule of a valid call and checks the error kind, Error::op(), the
// argument named, that the inputs are unchanged, and that the backend still runs a valid call.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "indexing.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

// A valid gather: rows of a [5, 4] operand picked by a [3, 1] index tensor, and a valid
// scatter-add of [3, 4] rows into a [5, 4] operand. Batching variants use [2, 5, 4] operands
// with indices [2, 3, 1] (batch dim 0 paired with operand dim 0).
struct Inputs {
  DType dtype = DType::F32, index_dtype = DType::I64;
  Shape operand{5, 4}, indices{3, 1}, updates{3, 4};
  DType updates_dtype = DType::F32;
};

GatherConfig valid_gather() {
  GatherConfig c;
  c.offset_dims = {1};
  c.collapsed_slice_dims = {0};
  c.start_index_map = {0};
  c.index_vector_dim = 1;
  c.slice_sizes = {1, 4};
  return c;
}

ScatterConfig valid_scatter() {
  ScatterConfig c;
  c.update_window_dims = {1};
  c.inserted_window_dims = {0};
  c.scatter_dims_to_operand_dims = {0};
  c.index_vector_dim = 1;
  return c;
}

GatherConfig batched_gather() {
  GatherConfig c;
  c.offset_dims = {2};
  c.collapsed_slice_dims = {1};
  c.operand_batching_dims = {0};
  c.start_indices_batching_dims = {0};
  c.start_index_map = {1};
  c.index_vector_dim = 2;
  c.slice_sizes = {1, 1, 4};
  return c;
}

ScatterConfig batched_scatter() {
  ScatterConfig c;
  c.update_window_dims = {2};
  c.inserted_window_dims = {1};
  c.input_batching_dims = {0};
  c.scatter_indices_batching_dims = {0};
  c.scatter_dims_to_operand_dims = {1};
  c.index_vector_dim = 2;
  return c;
}

Inputs batched_inputs() {
  Inputs in;
  in.operand = {2, 5, 4};
  in.indices = {2, 3, 1};
  in.updates = {2, 3, 4};
  return in;
}

struct Rule {
  const char* name;
  bool is_gather;
  ErrorKind kind;
  const char* arg;
  std::function<void(Inputs&, GatherConfig&, ScatterConfig&)> mutate;
  bool batched = false;
  bool non_integral = false;  // index values 0.5, 1.5, ... (F32/F64 index tensors)
};

void PrintTo(const Rule& r, std::ostream* os) { *os << r.name; }

using G = GatherConfig;
using S = ScatterConfig;

std::vector<Rule> rules() {
  using K = ErrorKind;
  return {
      // ---- gather -------------------------------------------------------------------------
      {"gather_index_dtype_bool", true, K::invalid_argument, "start_indices",
       [](Inputs& in, G&, S&) { in.index_dtype = DType::Bool; }},
      {"gather_index_dtype_complex", true, K::invalid_argument, "start_indices",
       [](Inputs& in, G&, S&) { in.index_dtype = DType::C64; }},
      {"gather_index_f64_not_integral", true, K::invalid_argument, "start_indices",
       [](Inputs& in, G&, S&) { in.index_dtype = DType::F64; }, false, true},
      {"gather_index_vector_dim_too_large", true, K::axis_out_of_bounds, "index_vector_dim",
       [](Inputs&, G& g, S&) { g.index_vector_dim = 3; }},
      {"gather_index_vector_dim_negative", true, K::axis_out_of_bounds, "index_vector_dim",
       [](Inputs&, G& g, S&) { g.index_vector_dim = -1; }},
      {"gather_slice_sizes_length", true, K::rank_mismatch, "slice_sizes",
       [](Inputs&, G& g, S&) { g.slice_sizes = {1, 4, 1}; }},
      {"gather_offset_dims_count", true, K::rank_mismatch, "offset_dims",
       [](Inputs&, G& g, S&) { g.offset_dims = {0, 1}; }},
      {"gather_offset_dims_out_of_range", true, K::axis_out_of_bounds, "offset_dims",
       [](Inputs&, G& g, S&) { g.offset_dims = {2}; }},
      {"gather_offset_dims_unsorted", true, K::invalid_argument, "offset_dims",
       [](Inputs&, G& g, S&) {
         g.collapsed_slice_dims = {};
         g.offset_dims = {2, 1};
       }},
      {"gather_offset_dims_repeated", true, K::invalid_argument, "offset_dims",
       [](Inputs&, G& g, S&) {
         g.collapsed_slice_dims = {};
         g.offset_dims = {1, 1};
       }},
      {"gather_collapsed_out_of_range", true, K::axis_out_of_bounds, "collapsed_slice_dims",
       [](Inputs&, G& g, S&) { g.collapsed_slice_dims = {2}; }},
      {"gather_collapsed_repeated", true, K::invalid_argument, "collapsed_slice_dims",
       [](Inputs&, G& g, S&) { g.collapsed_slice_dims = {0, 0}; }},
      {"gather_collapsed_unsorted", true, K::invalid_argument, "collapsed_slice_dims",
       [](Inputs&, G& g, S&) {
         g.collapsed_slice_dims = {1, 0};
         g.offset_dims = {};
         g.slice_sizes = {1, 1};
       }},
      {"gather_collapsed_overlaps_batching", true, K::invalid_argument, "collapsed_slice_dims",
       [](Inputs&, G& g, S&) { g.collapsed_slice_dims = {0, 1}; }, true},
      {"gather_collapsed_slice_size_not_1", true, K::invalid_argument, "slice_sizes",
       [](Inputs&, G& g, S&) { g.slice_sizes = {2, 4}; }},
      {"gather_slice_size_exceeds_extent", true, K::invalid_argument, "slice_sizes",
       [](Inputs&, G& g, S&) { g.slice_sizes = {1, 5}; }},
      {"gather_slice_size_negative", true, K::invalid_argument, "slice_sizes",
       [](Inputs&, G& g, S&) { g.slice_sizes = {1, -1}; }},
      {"gather_start_index_map_out_of_range", true, K::axis_out_of_bounds, "start_index_map",
       [](Inputs&, G& g, S&) { g.start_index_map = {2}; }},
      {"gather_start_index_map_repeated", true, K::invalid_argument, "start_index_map",
       [](Inputs& in, G& g, S&) {
         in.indices = {3, 2};
         g.start_index_map = {0, 0};
       }},
      {"gather_start_index_map_length", true, K::invalid_argument, "start_index_map",
       [](Inputs&, G& g, S&) { g.start_index_map = {0, 1}; }},
      {"gather_start_index_map_overlaps_batching", true, K::invalid_argument, "start_index_map",
       [](Inputs&, G& g, S&) { g.start_index_map = {0}; }, true},
      {"gather_batching_lists_differ_in_length", true, K::invalid_argument, "start_indices_batching_dims",
       [](Inputs&, G& g, S&) { g.start_indices_batching_dims = {}; }, true},
      {"gather_batching_extent_mismatch", true, K::shape_mismatch, "start_indices",
       [](Inputs& in, G&, S&) { in.indices = {3, 3, 1}; }, true},
      {"gather_indices_batching_dim_is_index_vector_dim", true, K::invalid_argument,
       "start_indices_batching_dims", [](Inputs&, G& g, S&) { g.start_indices_batching_dims = {2}; }, true},
      {"gather_indices_batching_dim_out_of_range", true, K::axis_out_of_bounds, "start_indices_batching_dims",
       [](Inputs&, G& g, S&) { g.start_indices_batching_dims = {4}; }, true},
      {"gather_operand_batching_dim_out_of_range", true, K::axis_out_of_bounds, "operand_batching_dims",
       [](Inputs&, G& g, S&) { g.operand_batching_dims = {3}; }, true},
      // ---- scatter ------------------------------------------------------------------------
      {"scatter_updates_dtype_differs", false, K::dtype_mismatch, "updates",
       [](Inputs& in, G&, S&) { in.updates_dtype = DType::F64; }},
      {"scatter_bool_add_unsupported", false, K::unsupported, "operand",
       [](Inputs& in, G&, S&) { in.dtype = in.updates_dtype = DType::Bool; }},
      {"scatter_bool_max_unsupported", false, K::unsupported, "operand",
       [](Inputs& in, G&, S& s) {
         in.dtype = in.updates_dtype = DType::Bool;
         s.combiner = ScatterCombiner::max;
       }},
      {"scatter_complex_max_unsupported", false, K::unsupported, "operand",
       [](Inputs& in, G&, S& s) {
         in.dtype = in.updates_dtype = DType::C64;
         s.combiner = ScatterCombiner::max;
       }},
      {"scatter_complex_min_unsupported", false, K::unsupported, "operand",
       [](Inputs& in, G&, S& s) {
         in.dtype = in.updates_dtype = DType::C64;
         s.combiner = ScatterCombiner::min;
       }},
      {"scatter_index_dtype_bool", false, K::invalid_argument, "scatter_indices",
       [](Inputs& in, G&, S&) { in.index_dtype = DType::Bool; }},
      {"scatter_index_f32_not_integral", false, K::invalid_argument, "scatter_indices",
       [](Inputs& in, G&, S&) { in.index_dtype = DType::F32; }, false, true},
      {"scatter_index_vector_dim_too_large", false, K::axis_out_of_bounds, "index_vector_dim",
       [](Inputs&, G&, S& s) { s.index_vector_dim = 3; }},
      {"scatter_update_window_dims_count", false, K::rank_mismatch, "update_window_dims",
       [](Inputs&, G&, S& s) { s.update_window_dims = {0, 1}; }},
      {"scatter_updates_rank", false, K::rank_mismatch, "updates",
       [](Inputs& in, G&, S&) { in.updates = {3, 4, 1}; }},
      {"scatter_update_window_dims_out_of_range", false, K::axis_out_of_bounds, "update_window_dims",
       [](Inputs&, G&, S& s) { s.update_window_dims = {2}; }},
      {"scatter_update_window_dims_unsorted", false, K::invalid_argument, "update_window_dims",
       [](Inputs& in, G&, S& s) {
         in.updates = {3, 5, 4};
         s.inserted_window_dims = {};
         s.update_window_dims = {2, 1};
       }},
      {"scatter_inserted_out_of_range", false, K::axis_out_of_bounds, "inserted_window_dims",
       [](Inputs&, G&, S& s) { s.inserted_window_dims = {2}; }},
      {"scatter_inserted_repeated", false, K::invalid_argument, "inserted_window_dims",
       [](Inputs&, G&, S& s) { s.inserted_window_dims = {0, 0}; }},
      {"scatter_inserted_overlaps_batching", false, K::invalid_argument, "inserted_window_dims",
       [](Inputs&, G&, S& s) { s.inserted_window_dims = {0, 1}; }, true},
      {"scatter_dims_to_operand_dims_length", false, K::invalid_argument, "scatter_dims_to_operand_dims",
       [](Inputs&, G&, S& s) { s.scatter_dims_to_operand_dims = {0, 1}; }},
      {"scatter_dims_to_operand_dims_out_of_range", false, K::axis_out_of_bounds,
       "scatter_dims_to_operand_dims", [](Inputs&, G&, S& s) { s.scatter_dims_to_operand_dims = {5}; }},
      {"scatter_dims_to_operand_dims_repeated", false, K::invalid_argument, "scatter_dims_to_operand_dims",
       [](Inputs& in, G&, S& s) {
         in.indices = {3, 2};
         s.scatter_dims_to_operand_dims = {0, 0};
       }},
      {"scatter_batching_lists_differ_in_length", false, K::invalid_argument, "scatter_indices_batching_dims",
       [](Inputs&, G&, S& s) { s.scatter_indices_batching_dims = {}; }, true},
      {"scatter_batching_extent_mismatch", false, K::shape_mismatch, "scatter_indices",
       [](Inputs& in, G&, S&) {
         in.indices = {3, 3, 1};
         in.updates = {3, 3, 4};
       },
       true},
      {"scatter_indices_batching_dim_is_index_vector_dim", false, K::invalid_argument,
       "scatter_indices_batching_dims", [](Inputs&, G&, S& s) { s.scatter_indices_batching_dims = {2}; }, true},
      {"scatter_updates_scatter_dims_mismatch", false, K::shape_mismatch, "updates",
       [](Inputs& in, G&, S&) { in.updates = {2, 4}; }},
      // A window larger than the operand is gather's slice larger than the extent: same kind.
      {"scatter_updates_window_exceeds_operand", false, K::invalid_argument, "updates",
       [](Inputs& in, G&, S&) { in.updates = {3, 6}; }},
  };
}

class IndexingValidation : public ::testing::TestWithParam<Rule> {};

RefTensor make_indices(DType d, const Shape& shape, bool non_integral) {
  RefTensor r(d, shape);
  for (std::int64_t i = 0; i < r.numel(); ++i)
    r.set(i, c64(static_cast<double>(i % 2) + (non_integral ? 0.5 : 0.0), 0));
  return r;
}

TEST_P(IndexingValidation, RaisesKindNamesOpAndArgLeavesInputsAndBackendUsable) {
  const Rule& rule = GetParam();
  Backend& be = cpu_backend();
  std::mt19937_64 rng(7);
  Inputs in = rule.batched ? batched_inputs() : Inputs{};
  GatherConfig g = rule.batched ? batched_gather() : valid_gather();
  ScatterConfig s = rule.batched ? batched_scatter() : valid_scatter();
  rule.mutate(in, g, s);

  const RefTensor operand = random_ref(in.dtype, in.operand, rng);
  const RefTensor indices = make_indices(in.index_dtype, in.indices, rule.non_integral);
  const RefTensor updates = random_ref(in.updates_dtype, in.updates, rng);
  const TensorView o = place(be, operand, LayoutCase::compact), i = place(be, indices, LayoutCase::compact),
                   u = place(be, updates, LayoutCase::compact);
  try {
    if (rule.is_gather) gather(be, o, i, g);
    else scatter(be, o, i, u, s);
    ADD_FAILURE() << "expected Error{" << error_kind_name(rule.kind) << "}, nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), rule.kind) << e.what();
    EXPECT_EQ(e.op(), rule.is_gather ? "gather" : "scatter") << e.what();
    EXPECT_EQ(e.arg(), rule.arg) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(rule.is_gather ? "[gather] " : "[scatter] ", 0), 0u) << e.what();
  }
  TENFERRO_EXPECT_MATCH(operand, read(be, o), Tol{});
  TENFERRO_EXPECT_MATCH(indices, read(be, i), Tol{});
  TENFERRO_EXPECT_MATCH(updates, read(be, u), Tol{});

  // The backend still runs valid calls.
  const RefTensor op2 = random_ref(DType::F32, {5, 4}, rng);
  const RefTensor idx2 = make_indices(DType::I64, {3, 1}, false);
  const RefTensor upd2 = random_ref(DType::F32, {3, 4}, rng);
  const TensorView o2 = place(be, op2, LayoutCase::compact), i2 = place(be, idx2, LayoutCase::compact),
                   u2 = place(be, upd2, LayoutCase::compact);
  TENFERRO_EXPECT_MATCH(ref_gather(op2, idx2, valid_gather()), read(be, gather(be, o2, i2, valid_gather())), Tol{});
  TENFERRO_EXPECT_MATCH(ref_scatter(op2, idx2, upd2, valid_scatter()),
                        read(be, scatter(be, o2, i2, u2, valid_scatter())), (Tol{1e-6, 1e-6}));
}

INSTANTIATE_TEST_SUITE_P(Rules, IndexingValidation, ::testing::ValuesIn(rules()),
                         [](const ::testing::TestParamInfo<Rule>& p) { return std::string(p.param.name); });

// Residency: a tensor of another allocation domain is rejected for every input.
class ForeignStorage final : public Storage {
 public:
  explicit ForeignStorage(std::size_t n)
      : Storage(n, new_domain_id(), {MemoryKind::UnpinnedHost, DeviceKind::Cpu, 0}), bytes_(n) {}
  std::byte* host_data() override { return bytes_.data(); }

 private:
  std::vector<std::byte> bytes_;
};

TEST(IndexingValidationResidency, ForeignDomainInputsAreRejectedForEveryArgument) {
  Backend& be = cpu_backend();
  std::mt19937_64 rng(8);
  auto foreign = [](DType d, const Shape& shape) {
    const auto n = static_cast<std::size_t>(shape_numel(shape)) * dtype_size(d);
    return TensorView(std::make_shared<ForeignStorage>(n), d, Layout::compact(shape));
  };
  const TensorView o = place(be, random_ref(DType::F32, {5, 4}, rng), LayoutCase::compact);
  const TensorView i = place(be, make_indices(DType::I64, {3, 1}, false), LayoutCase::compact);
  const TensorView u = place(be, random_ref(DType::F32, {3, 4}, rng), LayoutCase::compact);
  const TensorView fo = foreign(DType::F32, {5, 4}), fi = foreign(DType::I64, {3, 1}), fu = foreign(DType::F32, {3, 4});
  struct Call {
    const char* op;
    const char* arg;
    ErrorKind kind;
    std::function<void()> f;
  };
  constexpr ErrorKind kForeign = ErrorKind::host_access, kUndefined = ErrorKind::invalid_argument;
  const std::vector<Call> calls = {
      {"gather", "operand", kForeign, [&] { gather(be, fo, i, valid_gather()); }},
      {"gather", "start_indices", kForeign, [&] { gather(be, o, fi, valid_gather()); }},
      {"scatter", "operand", kForeign, [&] { scatter(be, fo, i, u, valid_scatter()); }},
      {"scatter", "scatter_indices", kForeign, [&] { scatter(be, o, fi, u, valid_scatter()); }},
      {"scatter", "updates", kForeign, [&] { scatter(be, o, i, fu, valid_scatter()); }},
      {"gather", "operand", kUndefined, [&] { gather(be, TensorView{}, i, valid_gather()); }},
      {"scatter", "updates", kUndefined, [&] { scatter(be, o, i, TensorView{}, valid_scatter()); }},
  };
  for (const Call& c : calls) {
    SCOPED_TRACE(std::string(c.op) + " " + c.arg);
    try {
      c.f();
      ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), c.kind) << e.what();
      EXPECT_EQ(e.op(), c.op);
      EXPECT_EQ(e.arg(), c.arg);
    }
  }
}

}  // namespace
}  // namespace tenferro::test
