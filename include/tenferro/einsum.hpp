// Einstein summation over tenferro ops (composite: diagonal views, reduce_sum, dot_general,
// mul, at most one final transpose). See docs/einsum.md.
//
// Subscripts are UTF-8; every Unicode code point other than ',', '-', '>', '.' and ASCII
// whitespace (ignored) is a label. "a,b->c" is explicit; without "->" the output holds the
// labels that appear exactly once, sorted by code point (ellipsis dimensions first). "..."
// broadcasts with NumPy rules (aligned at the end of the ellipsis, extent 1 stretches).
// Column-major: the k-th label of a term names axis k of that operand. A label repeated in
// one operand takes its diagonal; a label that appears in one operand only and not in the
// output is summed there first. Labels of different extents are a shape_mismatch (no size-1
// broadcasting outside "...").
//
// Errors (Error, op "einsum"): malformed subscripts, wrong operand count, an output label
// that is repeated or absent from the inputs, a bad path: invalid_argument; a term whose
// label count does not match its operand's rank: rank_mismatch; conflicting extents:
// shape_mismatch; operand dtypes that differ: dtype_mismatch; a dtype dot_general does not
// support with two or more operands: unsupported. All are raised before any work.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/tensor.hpp"

namespace tenferro {

class Backend;  // tenferro/backend/backend.hpp

/// Labels synthesised for ellipsis dimensions: kEllipsisLabelBase + k (beyond Unicode).
inline constexpr char32_t kEllipsisLabelBase = 0x110000;

/// One term of the subscripts as written. `ellipsis` is the index in `labels` where "..."
/// stands (-1: none).
struct EinsumTerm {
  std::vector<char32_t> labels;
  int ellipsis = -1;
};

/// Subscripts parsed, before shapes are known.
struct EinsumSubscripts {
  std::vector<EinsumTerm> inputs;
  EinsumTerm output;
  bool explicit_output = false;
};

/// Parses UTF-8 subscripts. Throws Error{invalid_argument} (op "einsum", arg "subscripts")
/// for invalid UTF-8, a stray '-', '>' or '.', two ellipses in a term, more than one "->".
EinsumSubscripts parse_subscripts(std::string_view subscripts);

/// A checked einsum bound to operand shapes. Labels are dense ids 0..L-1.
struct EinsumSpec {
  std::vector<char32_t> labels;          // id -> code point
  std::vector<std::int64_t> extents;     // id -> extent
  /// Per operand, per axis: the label id, or -1 for an extent-1 ellipsis axis that
  /// broadcasts (dropped before contraction).
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;               // output axis k -> label id (unique)
  /// Per operand: the distinct labels left after diagonals, dropped broadcast axes and sums
  /// of labels private to that operand (the planner's view of the operand), in first-
  /// occurrence order.
  std::vector<std::vector<int>> reduced;
  std::size_t num_inputs() const { return inputs.size(); }
};

/// Parses and binds. Throws the errors listed at the top of this file.
EinsumSpec make_spec(std::string_view subscripts, std::span<const Shape> shapes);
/// Subscripts of a spec as UTF-8 (explicit form; ellipsis dims print as "…k" tokens).
std::string spec_to_string(const EinsumSpec& spec);

/// opt_einsum's linear path format: step {i, j} contracts the operands at current positions
/// i and j (i != j); both are removed and the result is appended at the end.
using Path = std::vector<std::pair<int, int>>;

/// Cost of a path. flops = sum over steps of the product of the extents of every label of
/// the two operands (opt_einsum's convention without its factor 2), plus numel of each
/// operand that is summed or diagonalised before pairing. opt_einsum_flops doubles the steps
/// that sum a label (what opt_einsum reports and the instance files store).
struct PathCost {
  double flops = 0, opt_einsum_flops = 0;
  double log10_flops = 0;                   // log10(max(flops, 1))
  double largest_intermediate = 0;          // elements of the largest step result
  double peak_live_intermediates = 0;       // max over steps of live intermediates (elements)
  double input_elements = 0;                // sum of operand sizes (always live)
  std::vector<double> step_flops;
};

/// Validates the path (invalid_argument: wrong number of steps for n operands, a position
/// out of range or i == j) and computes its cost. n == 1 needs the empty path; n operands
/// need n - 1 steps.
PathCost path_cost(const EinsumSpec& spec, const Path& path);

enum class PathMethod {
  automatic,      // trivial for n <= 2; optimal for n <= optimal_max_inputs; else random greedy
  optimal,        // dynamic programming over subsets (exact minimum flops), n <= 20
  greedy,         // one deterministic greedy pass
  random_greedy,  // greedy + Boltzmann-sampled restarts + subtree re-optimisation
};

struct PlanOptions {
  PathMethod method = PathMethod::automatic;
  /// Largest allowed intermediate (elements); 0 means no cap. Planners prefer paths within
  /// the cap; when none is found the smallest-peak path found is used.
  double max_intermediate = 0;
  int optimal_max_inputs = 12;
  int restarts = 256;           // random greedy restarts (each refined by subtree DP)
  // Safety net only: every planner budget is a deterministic work count, so plans do not
  // depend on machine load; this wall-clock limit (seconds) cuts the search only when
  // something runs far longer than expected (then the plan may depend on timing).
  double time_budget_s = 5.0;
  int subtree_size = 10;        // window of the subtree re-optimisation (0: off)
  std::uint64_t seed = 0x7e5f3a11;
};

/// Plans a path for spec. Deterministic for given options (unless the time budget cuts).
Path plan_path(const EinsumSpec& spec, const PlanOptions& opts = {});
const char* path_method_name(PathMethod m);

/// A spec with its path and cost.
struct EinsumPlan {
  EinsumSpec spec;
  Path path;
  PathCost cost;
  std::string method;       // "given", "trivial", "optimal", "greedy", "random_greedy"
  double plan_seconds = 0;
};

struct EinsumOptions {
  PlanOptions plan;
  /// A given path (linear format); when set, no planner runs.
  std::vector<std::pair<int, int>> path;
  bool use_path = false;
  /// Plans are cached by (subscripts, shapes, options) unless false.
  bool cache = true;
};

/// Parses, binds and plans (cached). Throws like make_spec and path_cost.
std::shared_ptr<const EinsumPlan> make_plan(std::string_view subscripts, std::span<const Shape> shapes,
                                            const EinsumOptions& opts = {});
/// Entries in the plan cache (for tests) and clearing it.
std::size_t plan_cache_size();
void clear_plan_cache();

/// Runs a checked spec along a path on `be`: operands must match the spec's shapes, share a
/// dtype and live on `be`. Intermediates are freed at last use; pairwise steps go through
/// dot_general on strided views (steps summing nothing: one mul of broadcast views), each
/// result stored in the axis order its next step reads in place where possible, at most one
/// transpose at the end. The planned program is cached by (spec, path, operand layouts,
/// dtype). Does not open a session: callers wanting one batch wrap the call in
/// with_session(be, ...). `progress`, when set, is called after each instruction that does work
/// (a product, a sum, a copy) with the count issued so far and the total: on the CPU backend
/// the work is then done, on a GPU it may still be queued.
using EinsumProgress = std::function<void(std::size_t done, std::size_t total)>;
Tensor execute(Backend& be, const EinsumSpec& spec, const Path& path, std::span<const TensorView> operands,
               const EinsumProgress& progress = {});

/// What one pairwise step of execute does, as decided before any work (see explain).
struct EinsumStepStats {
  int lhs = -1, rhs = -1;         // path ids: operand i (< n), or n + k for the result of step k
  std::string lhs_labels, rhs_labels;  // the operands' labels in the axis order dot_general gets
  std::string out_labels;         // the result's labels in stored (memory) order
  std::string kind;               // "gemm"; "gemv" (M or N is 1); "outer" (K is 1); "dot" (M = N
                                  // = 1); "elementwise" (M = N = K = 1); + "batched" when B > 1
  std::int64_t M = 1, N = 1, K = 1, B = 1;  // the one batched GEMM dot_general lowers onto
  double flops = 0;               // 2 M N K B (8 M N K B for complex dtypes)
  std::int64_t lhs_packed_bytes = 0, rhs_packed_bytes = 0;  // dot_general's packing copies
  std::int64_t out_bytes = 0;     // the result
  std::int64_t out_copy_bytes = 0;  // out view not writable in place: GEMM into a temp + copy
  bool out_chained = false;       // the out view's groups form few enough stride chains
                                  // (GemmCall::c) to be written in place where
                                  // GemmCaps::chained_output (explain's writes_chains: no
                                  // out_copy_bytes then), through the temp elsewhere
  std::int64_t reduce_bytes = 0;  // read by reduce_sum on this step's operands before the GEMM
  int launches = 0;               // backend calls: reduce_sum, copy (packing), gemm
  int batch_unit_stride_operands = 0;  // operands read in place whose unit stride is a batch
                                       // axis (the GEMM loads them with strides)
};

/// The whole execution: the steps, then what follows the last one.
struct EinsumStats {
  std::vector<EinsumStepStats> steps;
  std::int64_t final_reduce_bytes = 0;     // a single operand's sums (no step)
  std::int64_t final_transpose_bytes = 0;  // the final transpose (0 when none is needed)
  int final_launches = 0;
  // Totals over everything above.
  double gemm_flops = 0;
  std::int64_t packed_bytes = 0;   // lhs + rhs packing copies
  std::int64_t copied_bytes = 0;   // packing + out temps + final transpose (bytes written)
  int launches = 0;
  // The order execute runs the steps in (independent steps back to back, within the planned
  // order's peak of live intermediates): its dispatch levels (runs of dispatches that read
  // nothing written within the run; the Vulkan backend puts one barrier between levels) and
  // its peak of live intermediate elements (at most the path's peak_live_intermediates).
  int levels = 0;
  double order_peak_elements = 0;
};

/// The decisions execute would take for operands of these layouts (offsets included) and
/// dtype, without running anything: the same planning code, so the report is what runs on a
/// backend whose gemm writes chained outputs (GemmCaps::chained_output: the Vulkan backend)
/// when writes_chains, else on one that does not (the CPU backend). Throws like execute for a
/// bad path or shapes.
EinsumStats explain(const EinsumSpec& spec, const Path& path, std::span<const Layout> operand_layouts, DType dtype,
                    bool writes_chains = true);

class RecordedWork;  // tenferro/backend/backend.hpp

/// An einsum prepared once for operands of given shapes and dtype on one backend, then run
/// many times (akin to opt_einsum's contract_expression): planned (through the plan cache),
/// lowered and, where the backend records work (the Vulkan backend), recorded, so that a run
/// queues the recorded GPU work again with no planning, no lowering and no recording: one
/// submission, whatever the number of steps. Runs are asynchronous on a GPU, like ops.
///
/// A run copies its operands (any layout) into the program's own inputs first; write inputs()
/// directly and call run() to skip those copies. It returns a new tensor (the recorded work's
/// result is copied out). Where nothing is recorded (the CPU backend; the Vulkan backend while
/// profiling, for a contraction whose work cannot be recorded, or when its intermediates did
/// not fit in the device memory left at construction) a run executes the lowered program on
/// the operands directly. The program holds its inputs and, when recorded, the
/// memory of every intermediate (at most the peak of a direct run) until destroyed.
/// Thread safety: one program must not run on two threads at once; distinct programs may.
class EinsumProgram {
 public:
  /// Throws like make_plan for bad subscripts or shapes, unsupported for a dtype or backend
  /// that cannot run them.
  EinsumProgram(Backend& be, std::string_view subscripts, std::span<const Shape> shapes, DType dtype,
                const EinsumOptions& opts = {});
  EinsumProgram(Backend& be, std::string_view subscripts, std::initializer_list<Shape> shapes, DType dtype,
                const EinsumOptions& opts = {});
  ~EinsumProgram();
  EinsumProgram(EinsumProgram&&) noexcept;
  EinsumProgram& operator=(EinsumProgram&&) noexcept;

  /// Runs on `operands`: the program's shapes and dtype, on its backend (else
  /// invalid_argument, shape_mismatch, dtype_mismatch or check_resident's error, naming
  /// "einsum_program" and "operands", before any work).
  Tensor operator()(std::span<const TensorView> operands);
  Tensor operator()(std::initializer_list<TensorView> operands);
  /// Runs on what inputs() hold now.
  Tensor run();
  /// The program's own operands: compact tensors of the program's shapes on its backend.
  std::span<const Tensor> inputs();
  /// True when runs replay recorded work.
  bool recorded() const;
  const EinsumPlan& plan() const;
  Backend& backend() const;
  DType dtype() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// einsum = make_plan + execute. The operands' device picks the backend in tenferro/api.hpp's
/// einsum(subscripts, a, b, ...); these forms name it.
Tensor einsum(Backend& be, std::string_view subscripts, std::span<const TensorView> operands,
              const EinsumOptions& opts = {});
/// einsum(be, "ij,jk->ik", {a, b}).
Tensor einsum(Backend& be, std::string_view subscripts, std::initializer_list<TensorView> operands,
              const EinsumOptions& opts = {});

}  // namespace tenferro
