// Sliced einsum (tenferro/slicing.hpp): the slicing planner and the runner that spreads slices
// over devices.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "core/einsum/internal.hpp"
#include "core/einsum/lower.hpp"
#include "core/einsum/plan/net.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/slicing.hpp"

namespace tenferro {

using einsum_detail::kOp;

namespace {

// Elements a run of spec along path holds beside its operands and its result, as einsum's runner
// allocates, per step: the live intermediates, the step's result, operands prepared for it
// (diagonals taken, private labels summed) and a packing copy of each intermediate it reads;
// then, at the end, the result and its final transpose. Operands themselves are read in place
// (a slice's are views).
std::vector<double> working_elements(const EinsumSpec& spec, const einsum_detail::Net& net,
                                     const einsum_detail::Ssa& ssa, const einsum_detail::Sim& sim) {
  // copy[id]: what step reading id may hold of it besides the live set: an operand's prepared
  // tensor (0: read in place), an intermediate's packing copy (its size; it is released as it is
  // packed, and counted live until then).
  const auto n = static_cast<std::size_t>(net.n);
  std::vector<double> copy(n + ssa.size(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    // Prepared (diagonals or private labels summed) before its step: a tensor of its own.
    std::vector<int> seen;
    for (int id : spec.inputs[i])
      if (id >= 0 && std::find(seen.begin(), seen.end(), id) == seen.end()) seen.push_back(id);
    if (seen.size() != spec.reduced[i].size()) {
      double kept = 1;
      for (int id : spec.reduced[i]) kept *= static_cast<double>(spec.extents[static_cast<std::size_t>(id)]);
      copy[i] = kept;
    }
  }
  double out = 1;
  for (int id : spec.output) out *= static_cast<double>(spec.extents[static_cast<std::size_t>(id)]);
  std::vector<double> ws;
  ws.reserve(ssa.size() + 1);
  double live = 0;
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto a = static_cast<std::size_t>(ssa[k].first), b = static_cast<std::size_t>(ssa[k].second);
    const double r = sim.step_size[k];
    ws.push_back(live + r + copy[a] + copy[b]);
    if (a >= n) live -= copy[a];
    if (b >= n) live -= copy[b];
    copy[n + k] = r;
    live += r;
  }
  ws.push_back(n == 1 ? copy[0] + 2 * out : 2 * out);
  return ws;
}

// A candidate slicing: per label its chunk (the extent of a slice along it; the extent itself
// when the label is not sliced).
struct Candidate {
  EinsumSpec spec;  // the unsliced spec with every label at its chunk
  PathCost cost;
  double slices = 1;
  double bytes = 0;   // the largest working set (bytes)
  double excess = 0;  // the sum over steps of the bytes by which a working set exceeds the limit
  // The total work the search minimises: flops plus a fixed cost per step and slice (each
  // slice launches the path's steps again), in flops.
  double work = 0;
};

constexpr double kStepFlops = 2e6;
constexpr double kMaxSlices = 0x1p62;

Candidate evaluate(const EinsumSpec& whole, const EinsumSpec& chunked, const Path& path, DType d, double limit) {
  using namespace einsum_detail;
  const Net net = make_net(chunked);
  const Ssa ssa = linear_to_ssa(path, net.n);
  const Sim sim = simulate(net, ssa);
  Candidate c;
  c.spec = chunked;
  c.cost = path_cost_of(chunked, net, ssa, sim);
  for (std::size_t l = 0; l < whole.extents.size(); ++l) {
    const std::int64_t e = whole.extents[l], k = chunked.extents[l];
    if (k < e) c.slices *= static_cast<double>((e + k - 1) / k);
  }
  const double es = static_cast<double>(dtype_size(d));
  for (double w : working_elements(chunked, net, ssa, sim)) {
    c.bytes = std::max(c.bytes, w * es);
    c.excess += std::max(0.0, w * es - limit);
  }
  c.work = c.slices * (c.cost.flops + kStepFlops * static_cast<double>(path.size() + 1));
  return c;
}

std::uint64_t to_bytes(double b) { return static_cast<std::uint64_t>(std::min(std::ceil(b), 0x1p64 - 1)); }

}  // namespace

SlicePlan plan_slices(const EinsumSpec& spec, const Path& path, DType dtype, std::uint64_t memory_limit) {
  TENFERRO_CHECK(memory_limit > 0, invalid_argument, kOp, "memory_limit", "the memory limit must be positive");
  const double limit = static_cast<double>(memory_limit);
  const Candidate whole = evaluate(spec, spec, path, dtype, limit);
  Candidate cur = whole;
  // Halve the chunk of the label that adds the least work per byte of excess removed (both on
  // a log scale), until every step fits. The excess, not the largest working set, is what
  // must fall: a path may peak at several steps that share no label.
  while (cur.excess > 0) {
    int best = -1;
    double best_score = 0;
    Candidate best_c;
    for (std::size_t l = 0; l < spec.extents.size(); ++l) {
      const std::int64_t k = cur.spec.extents[l];
      if (k <= 1) continue;
      EinsumSpec t = cur.spec;
      t.extents[l] = (k + 1) / 2;
      Candidate c = evaluate(spec, t, path, dtype, limit);
      if (!(c.excess < cur.excess) || c.slices > kMaxSlices) continue;
      const double score = (std::log(c.work) - std::log(cur.work)) / (std::log1p(cur.excess) - std::log1p(c.excess));
      if (best < 0 || score < best_score || (score == best_score && c.excess < best_c.excess)) {
        best = static_cast<int>(l);
        best_score = score;
        best_c = std::move(c);
      }
    }
    TENFERRO_CHECK(best >= 0, out_of_memory, kOp, "memory_limit", "no slicing fits ", memory_limit,
                   " bytes: the smallest slice holds ", to_bytes(cur.bytes), " bytes beside the operands (",
                   dtype_name(dtype), ")");
    cur = std::move(best_c);
  }
  // Chunks that later choices made smaller than needed grow back while a slice still fits.
  for (std::size_t l = 0; l < spec.extents.size(); ++l) {
    while (cur.spec.extents[l] < spec.extents[l]) {
      EinsumSpec t = cur.spec;
      t.extents[l] = std::min(spec.extents[l], 2 * t.extents[l]);
      Candidate c = evaluate(spec, t, path, dtype, limit);
      if (c.excess > 0) break;
      cur = std::move(c);
    }
  }
  SlicePlan p;
  p.spec = spec;
  p.path = path;
  p.dtype = dtype;
  for (std::size_t l = 0; l < spec.extents.size(); ++l) {
    if (cur.spec.extents[l] < spec.extents[l]) {
      p.labels.push_back(static_cast<int>(l));
      p.chunks.push_back(cur.spec.extents[l]);
    }
  }
  p.slices = static_cast<std::int64_t>(cur.slices);
  p.slice_spec = std::move(cur.spec);
  p.cost = whole.cost;
  p.slice_cost = cur.cost;
  p.overhead = whole.cost.flops > 0 ? cur.slices * cur.cost.flops / whole.cost.flops : 1.0;
  p.slice_bytes = to_bytes(cur.bytes);
  p.unsliced_bytes = to_bytes(whole.bytes);
  p.memory_limit = memory_limit;
  return p;
}

namespace {

// t on be: itself when it lives there, else a copy through the host.
TensorView on_device(Backend& be, const TensorView& t) {
  if (t.domain() == be.domain()) return t;
  if (t.domain() == kHostDomain) return be.upload(t);
  Backend* owner = registered_backend(t.domain());
  TENFERRO_CHECK(owner != nullptr, host_access, kOp, "operands", "an operand of ", to_string(t.placement()),
                 " belongs to no registered backend");
  return be.upload(owner->download(t));
}

// The view of one slice of a tensor whose axis k carries label ids[k] (-1: a broadcast axis):
// each sliced label's axes narrowed to [start, start + size) of that label.
Layout narrowed(Layout l, const std::vector<int>& ids, const std::vector<std::int64_t>& start,
                const std::vector<std::int64_t>& size, const std::vector<char>& is_sliced) {
  for (std::size_t ax = 0; ax < ids.size(); ++ax) {
    const int id = ids[ax];
    if (id < 0 || !is_sliced[static_cast<std::size_t>(id)]) continue;
    l.offset += start[static_cast<std::size_t>(id)] * l.strides[ax];
    l.shape[ax] = size[static_cast<std::size_t>(id)];
  }
  return l;
}

}  // namespace

Tensor execute_sliced(std::span<Backend* const> devices, const SlicePlan& plan, std::span<const TensorView> operands,
                      const SliceRun& run) {
  TENFERRO_CHECK(!devices.empty(), invalid_argument, kOp, "devices", "no device given");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    TENFERRO_CHECK(devices[i] != nullptr, invalid_argument, kOp, "devices", "device ", i, " is null");
    for (std::size_t j = 0; j < i; ++j)
      TENFERRO_CHECK(devices[j] != devices[i], invalid_argument, kOp, "devices", "device ", i, " (",
                     devices[i]->name(), ") is given twice");
  }
  TENFERRO_CHECK(run.stride >= 1 && run.first >= 0 && run.first < run.stride, invalid_argument, kOp, "run",
                 "a share needs 0 <= first < stride, got first ", run.first, ", stride ", run.stride);
  const std::size_t n = plan.spec.num_inputs();
  TENFERRO_CHECK(operands.size() == n, invalid_argument, kOp, "operands", "the plan has ", n, " operand(s), got ",
                 operands.size());
  std::vector<Layout> layouts;
  for (std::size_t i = 0; i < n; ++i) {
    TENFERRO_CHECK(operands[i].defined(), invalid_argument, kOp, "operands", "operand ", i, " is undefined");
    TENFERRO_CHECK(operands[i].dtype() == plan.dtype, dtype_mismatch, kOp, "operands", "operand ", i, " has dtype ",
                   dtype_name(operands[i].dtype()), " but the plan is for ", dtype_name(plan.dtype));
    layouts.push_back(operands[i].layout());
  }
  einsum_detail::check_layouts(plan.spec, layouts);
  einsum_detail::check_path(n, plan.path);
  const DType d = plan.dtype;
  for (Backend* be : devices) {
    be->check_usable(kOp);
    TENFERRO_CHECK(be->supports(OpId::add, d), unsupported, kOp, "devices", "[", be->name(), "] add on ",
                   dtype_name(d), " not supported by this backend");
    if (n >= 2)
      TENFERRO_CHECK(is_inexact(d) && be->supports(OpId::dot_general, d), unsupported, kOp, "devices", "[",
                     be->name(), "] einsum: dot_general on ", dtype_name(d), " not supported by this backend");
  }

  const std::int64_t total =
      run.first < plan.slices ? (plan.slices - run.first + run.stride - 1) / run.stride : std::int64_t{0};
  Shape out_shape;
  for (int id : plan.spec.output) out_shape.push_back(plan.spec.extents[static_cast<std::size_t>(id)]);
  std::vector<char> is_sliced(plan.spec.extents.size(), 0);
  for (int l : plan.labels) is_sliced[static_cast<std::size_t>(l)] = 1;

  std::atomic<std::int64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;  // guards failure, done and the progress calls
  std::exception_ptr failure;
  std::int64_t done = 0;
  std::vector<Tensor> acc(devices.size());

  auto work = [&](std::size_t dev) {
    try {
      Backend& be = *devices[dev];
      std::vector<TensorView> ops;
      for (const TensorView& t : operands) ops.push_back(on_device(be, t));
      acc[dev] = be.allocate(d, out_shape);
      if (acc[dev].numel() > 0) be.fill(acc[dev], detail::zero_of(d));
      const std::size_t labels = plan.spec.extents.size();
      std::vector<std::int64_t> start(labels, 0), size(labels, 0);
      std::vector<TensorView> views(n);
      EinsumSpec last_chunks;  // slice_spec with some sliced labels at their last, smaller chunk
      for (std::int64_t k; !stop.load() && (k = next.fetch_add(1)) < total;) {
        // Slice index: mixed radix over the sliced labels' chunks, the first label fastest.
        std::int64_t s = run.first + k * run.stride;
        bool full = true;
        for (std::size_t j = 0; j < plan.labels.size(); ++j) {
          const auto l = static_cast<std::size_t>(plan.labels[j]);
          const std::int64_t e = plan.spec.extents[l], c = plan.chunks[j], parts = (e + c - 1) / c;
          start[l] = (s % parts) * c;
          size[l] = std::min(c, e - start[l]);
          full = full && size[l] == c;
          s /= parts;
        }
        const EinsumSpec* spec = &plan.slice_spec;
        if (!full) {
          last_chunks = plan.slice_spec;
          for (int l : plan.labels) last_chunks.extents[static_cast<std::size_t>(l)] = size[static_cast<std::size_t>(l)];
          spec = &last_chunks;
        }
        for (std::size_t i = 0; i < n; ++i)
          views[i] = TensorView(ops[i].storage(), d, narrowed(ops[i].layout(), plan.spec.inputs[i], start, size, is_sliced));
        const Tensor r = einsum_detail::execute_within(be, *spec, plan.path, views, {}, plan.slice_bytes);
        const TensorView part(acc[dev].storage(), d,
                              narrowed(acc[dev].layout(), plan.spec.output, start, size, is_sliced));
        if (part.numel() > 0) {
          const TensorView in[] = {part, r};
          be.elementwise(OpId::add, in, part, CompareDir::EQ);
        }
        if (run.progress) {
          std::lock_guard<std::mutex> lock(mu);
          run.progress(static_cast<std::size_t>(++done), static_cast<std::size_t>(total));
        }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!failure) failure = std::current_exception();
      stop.store(true);
    }
  };
  if (devices.size() == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t dev = 0; dev < devices.size(); ++dev) threads.emplace_back(work, dev);
    for (std::thread& t : threads) t.join();
  }
  if (failure) std::rethrow_exception(failure);
  Backend& first = *devices[0];
  for (std::size_t dev = 1; dev < devices.size(); ++dev) {
    if (acc[0].numel() == 0) break;
    const TensorView other = on_device(first, acc[dev]);
    const TensorView in[] = {acc[0], other};
    first.elementwise(OpId::add, in, acc[0], CompareDir::EQ);
  }
  return std::move(acc[0]);
}

}  // namespace tenferro
