// `tenferro bench GROUP`: memory-bound work on one backend, timed the same way.
//
// `permute`: the permutation patterns of a tenferro-benchmark pattern file
// (data/instances/permutation_patterns.json: id, dtype, shape, perm, src_layout col_major or
// explicit_strides) run as to_contiguous(src.transpose(perm)) on one backend: output axis k is
// source axis perm[k] (numpy's transpose, as ../shared/tools/peer_bench.py gives PyTorch).
// Per pattern: warm-ups for 0.5 s, then --repeat timed calls of
// one permutation + synchronize (host clock), the median; bandwidth counts 16 bytes per f64
// element (read + write), as the peer script does; the memcpy pattern of the file (a contiguous
// copy) is the run's ceiling, and every pattern's bandwidth is also given as a percentage of it. --check compares 4096 sampled
// output elements (and the first and last) against the source, read on the host.
//
// `elementwise`, `analytic`, `reduce`, `fused`: ops on --elements elements of --dtype (default
// f32), each against a copy of the same elements into a compact tensor measured first in the
// same run (the row `copy`, the ceiling): elementwise copy reversed (a negative stride) add mul
// div maximum; analytic exp log sin cos tanh
// sqrt rsqrt expm1 log1p erf (of positive operands where the domain needs them); reduce
// reduce_sum over all axes, the fast axis and the slow axis of a [4096, n / 4096] matrix and
// reduce_max / reduce_min / reduce_prod over all axes; fused exp(sin(x) * y + 1) as four
// unfused ops, then as one fusion plan: its first call (the kernel built, or read from the
// disk cache) is reported on its own row (`fused first call`), the median of the later calls
// on the `fused` row; then sum(x * y) as a product and a reduction, and as one plan. Bandwidth counts the bytes every operand is read and the result written
// once. Per row: warm-ups (0.5 s of them before the group's first row), --repeat timed calls
// + synchronize (host clock), the median.
// `gemm`: the square product c = a b of side --size (default 4096) in --dtype, one dot_general
// into a preallocated c per call; TFLOP/s count 2 N^3 (8 N^3 for complex). `overhead`: the
// per-op cost of small ops, 2000 chained adds of 1000 elements in one session (as
// ../shared/tools/peer_bench.py `overhead` times PyTorch), the median per add, and the host's
// part of it (the session's body alone, before its last submission and the wait). Both on any
// backend, for side-by-side figures of the providers.
// Exit codes: 0 ok, 1 a check failed, 2 bad input or error.
#include "bench_cmd.hpp"
#include "cli_backend.hpp"
#include "cli_exit.hpp"
#include "json_tensor.hpp"
#include "progress.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::cli {
namespace {

struct BenchArgs {
  std::string group = "permute";
  std::string patterns = "data/instances/permutation_patterns.json";
  std::int64_t elements = std::int64_t{1} << 24;
  std::int64_t size = 4096;  // gemm
  std::string dtype = "f32";
  cli::BackendChoice where;  // --backend, --device
  int repeat = 15;
  bool json = false;
  bool check = false;
  ProgressMode progress = ProgressMode::automatic;
};

struct Pattern {
  std::string id;
  Shape shape;
  Axes perm;
  Strides src_strides;  // column-major unless the file gives explicit strides
};

std::vector<Pattern> load_patterns(const std::string& file) {
  std::string text;
  try {
    text = read_input_file(file, "pattern file");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot open pattern file " + file + ": it " + e.what());
  }
  nlohmann::json j;
  try {
    j = parse_json(text);
  } catch (const std::exception& e) {
    throw std::runtime_error("pattern file " + file + " is not valid JSON: " + e.what());
  }
  if (!j.contains("patterns") || !j["patterns"].is_array())
    throw std::runtime_error("pattern file " + file + " has no \"patterns\" array");
  std::vector<Pattern> out;
  for (const auto& p : j["patterns"]) {
    Pattern q;
    q.id = printable(p.value("id", std::string("?")));
    if (p.value("dtype", std::string("f64")) != "f64") throw std::runtime_error("pattern " + q.id + ": only f64 patterns are supported");
    q.shape = p.at("shape").get<Shape>();
    q.perm = p.at("perm").get<Axes>();
    if (q.perm.size() != q.shape.size()) throw std::runtime_error("pattern " + q.id + ": perm and shape differ in rank");
    const auto& sl = p.at("src_layout");
    if (sl.value("kind", std::string()) == "explicit_strides") {
      q.src_strides = sl.at("strides").get<Strides>();
      if (q.src_strides.size() != q.shape.size()) throw std::runtime_error("pattern " + q.id + ": strides and shape differ in rank");
    } else if (sl.value("kind", std::string()) == "col_major") {
      q.src_strides = Layout::compact(q.shape).strides;
    } else {
      throw std::runtime_error("pattern " + q.id + ": unknown src_layout kind");
    }
    out.push_back(std::move(q));
  }
  return out;
}

constexpr double kWarmSeconds = 0.5;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Sampled check of out (compact) == src_view.transpose(perm), on the host.
bool check_pattern(Backend& be, const Pattern& q, const Tensor& src_storage, const Layout& src_layout, const Tensor& out) {
  const std::vector<double> s = to_vector<double>(be.download(src_storage)), o = to_vector<double>(be.download(out));
  const Layout ol = Layout::compact(out.shape());
  std::mt19937_64 rng(7);
  const std::int64_t n = ol.numel();
  if (n == 0) return true;
  std::vector<std::int64_t> idx = {0, n - 1};
  for (int k = 0; k < 4096; ++k) idx.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
  for (std::int64_t i : idx) {
    // Output coordinates (column-major), then the source offset: out axis k = src axis perm[k].
    std::int64_t rest = i, so = src_layout.offset;
    for (std::size_t k = 0; k < q.perm.size(); ++k) {
      const std::int64_t c = rest % ol.shape[k];
      rest /= ol.shape[k];
      so += c * src_layout.strides[static_cast<std::size_t>(q.perm[k])];
    }
    if (o[static_cast<std::size_t>(i)] != s[static_cast<std::size_t>(so)]) return false;
  }
  return true;
}

// Median seconds of `f` (+ synchronize) after warm-ups: two, and before the first row of a
// run until kWarmSeconds have passed.
template <class F> double time_median(Backend& be, int repeat, bool first, F&& f) {
  const auto w0 = std::chrono::steady_clock::now();
  for (int w = 0; w < 2 || (first && seconds_since(w0) < kWarmSeconds); ++w) {
    f();
    be.synchronize();
  }
  std::vector<double> secs;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    be.synchronize();
    secs.push_back(seconds_since(t0));
  }
  std::sort(secs.begin(), secs.end());
  return secs[secs.size() / 2];
}

// n elements of dtype d uniform in [lo, lo + width) on be (made on the host: not every backend
// casts from f64).
Tensor uniform(Backend& be, DType d, std::int64_t n, double lo, double width, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& e : v) e = lo + width * static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return be.upload(cast(cpu_backend(), host_tensor<double>({n}, v), d));
}

// --dtype, which must be f32, f64, c32 or c64 (`what` names the groups in the error).
DType inexact_dtype(const BenchArgs& a, const std::string& what) {
  const std::optional<DType> d = parse_dtype(a.dtype);
  if (!d || *d == DType::Bool || is_integer(*d))
    throw std::runtime_error("--dtype " + a.dtype + ": " + what + " f32, f64, c32 or c64");
  return *d;
}

// The elementwise, analytic, reduce and fused groups (see the top of this file).
int run_op_group(const BenchArgs& a) {
  const DType d = inexact_dtype(a, "the op groups take");
  const std::int64_t n = a.elements;
  if (n < 4096) throw std::runtime_error("--elements must be at least 4096");
  Backend& be = cli::chosen_backend(a.where);
  const double es = static_cast<double>(dtype_size(d));
  // Operands: x in [0.5, 1.5) (positive for log, sqrt, rsqrt), y in [-1, 1).
  const Tensor x = uniform(be, d, n, 0.5, 1.0, 1), y = uniform(be, d, n, -1.0, 2.0, 2),
               one = be.upload(cast(cpu_backend(), host_tensor<double>({}, {1.0}), d));
  if (!a.json)
    std::printf("device: %s\n%-28s %12s %10s %9s %8s\n", be.device_name().c_str(), "op", "elements", "ms", "GB/s", "%copy");
  double copy_gbps = 0;
  bool first = true;
  auto row = [&](const std::string& name, double secs, double bytes, std::int64_t elems) {
    const double gbps = bytes / secs * 1e-9;
    if (name == "copy") copy_gbps = gbps;
    const double pct = copy_gbps > 0 ? 100.0 * gbps / copy_gbps : 0.0;
    if (a.json) {
      std::cout << nlohmann::json{{"group", a.group}, {"op", name}, {"dtype", a.dtype}, {"elements", elems},
                                  {"median_s", secs}, {"gbps", gbps}, {"pct_of_copy", pct}, {"backend", be.name()},
                                  {"device", be.device_name()}}
                       .dump()
                << "\n";
    } else {
      std::printf("%-28s %12lld %10.4f %9.1f %7.1f%%\n", name.c_str(), static_cast<long long>(elems), secs * 1e3, gbps, pct);
    }
    std::fflush(stdout);
  };
  // Ops of the group that the dtype and backend take (complex: no ordering, no erf).
  auto runs = [&](OpId op) { return be.supports(op, d) && (!is_complex(d) || (op != OpId::maximum && op != OpId::erf &&
                                                                              op != OpId::reduce_max && op != OpId::reduce_min)); };
  auto timed = [&](const std::string& name, double bytes, auto&& f) {
    const double secs = time_median(be, a.repeat, first, f);
    first = false;
    row(name, secs, bytes, n);
  };
  Tensor out;
  const Tensor copy_dst = be.allocate(d, {n});
  timed("copy", 2 * es * n, [&] { copy_into(be, x, copy_dst); });
  if (a.group == "elementwise") {
    timed("copy reversed", 2 * es * n, [&] { out = to_contiguous(be, x.reverse({0})); });
    for (OpId op : {OpId::add, OpId::mul, OpId::div, OpId::maximum})
      if (runs(op)) timed(std::string(op_name(op)), 3 * es * n, [&] { out = elementwise(be, op, std::vector<TensorView>{x, y}); });
  } else if (a.group == "analytic") {
    for (OpId op : {OpId::exp, OpId::log, OpId::sin, OpId::cos, OpId::tanh, OpId::sqrt, OpId::rsqrt, OpId::expm1,
                    OpId::log1p, OpId::erf})
      if (runs(op)) timed(std::string(op_name(op)), 2 * es * n, [&] { out = elementwise(be, op, std::vector<TensorView>{x}); });
  } else if (a.group == "reduce") {
    const std::int64_t rows = 4096, cols = n / rows;
    const TensorView m = TensorView(x).slice({0}, {rows * cols}, {1}).reshape({rows, cols});
    timed("reduce_sum all", es * n, [&] { out = reduce_sum(be, x, {0}); });
    timed("reduce_sum fast axis", es * rows * cols, [&] { out = reduce_sum(be, m, {0}); });
    timed("reduce_sum slow axis", es * rows * cols, [&] { out = reduce_sum(be, m, {1}); });
    for (OpId op : {OpId::reduce_max, OpId::reduce_min, OpId::reduce_prod})
      if (runs(op)) timed(std::string(op_name(op)) + " all", es * n, [&] { out = reduce(be, op, x, {0}); });
  } else if (a.group == "fused") {
    FusionPlan plan;
    plan.steps = {{OpId::sin, {-1}}, {OpId::mul, {0, -2}}, {OpId::add, {1, -3}}, {OpId::exp, {2}}};
    const std::vector<TensorView> ins{x, y, one};
    timed("unfused (4 ops)", 3 * es * n, [&] { out = exp(be, add(be, mul(be, sin(be, x), y), one)); });
    const auto t0 = std::chrono::steady_clock::now();
    out = fused(be, plan, ins);
    be.synchronize();
    row("fused first call", seconds_since(t0), 3 * es * n, n);
    timed("fused", 3 * es * n, [&] { out = fused(be, plan, ins); });
    // A chain ending in a reduction: sum(x * y) over every element.
    FusionPlan dot;
    dot.steps = {{OpId::mul, {-1, -2}}};
    dot.reduce = OpId::reduce_sum;
    dot.reduce_axes = {0};
    timed("sum(x * y) unfused (2 ops)", 2 * es * n, [&] { out = reduce_sum(be, mul(be, x, y), {0}); });
    timed("sum(x * y) fused", 2 * es * n, [&] { out = fused(be, dot, std::vector<TensorView>{x, y}); });
  } else {
    throw std::runtime_error("unknown bench group " + a.group + " (permute, elementwise, analytic, reduce, fused, gemm, overhead)");
  }
  return 0;
}

// The gemm and overhead groups (see the top of this file).
int run_call_group(const BenchArgs& a) {
  const DType d = inexact_dtype(a, "the " + a.group + " group takes");
  if (a.repeat < 1) throw std::runtime_error("--repeat must be at least 1");
  Backend& be = cli::chosen_backend(a.where);
  std::string name;
  double secs = 0, rate = 0, record = 0;
  if (a.group == "gemm") {
    const std::int64_t n = a.size;
    if (n < 1) throw std::runtime_error("--size must be at least 1");
    const Tensor xs = uniform(be, d, n * n, -1.0, 2.0, 1), ys = uniform(be, d, n * n, -1.0, 2.0, 2);
    const TensorView x = TensorView(xs).reshape({n, n}), y = TensorView(ys).reshape({n, n});
    const Tensor c = be.allocate(d, {n, n});
    DotGeneralConfig cfg;
    cfg.lhs_contracting_dims = {1};
    cfg.rhs_contracting_dims = {0};
    const Scalar one = Scalar::of(d, 1.0), zero = Scalar::of(d, 0.0);
    secs = time_median(be, a.repeat, true, [&] { dot_general_into(be, x, y, cfg, false, false, one, zero, c); });
    name = "gemm " + std::to_string(n) + "^3";
    rate = (is_complex(d) ? 8.0 : 2.0) * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / secs * 1e-12;
  } else {
    constexpr int kChain = 2000;
    const Tensor s0 = uniform(be, d, 1000, -1.0, 2.0, 1), one = uniform(be, d, 1000, 1.0, 0.0, 2);
    std::vector<double> rec;  // the session body alone: the host's part, before the last submission
    secs = time_median(be, a.repeat, true, [&] {
             with_session(be, [&] {
               const auto t0 = std::chrono::steady_clock::now();
               Tensor z = s0;
               for (int k = 0; k < kChain; ++k) z = add(be, z, one);
               rec.push_back(seconds_since(t0));
             });
           }) / kChain;
    rec.erase(rec.begin(), rec.end() - a.repeat);  // the warm-ups' out
    std::sort(rec.begin(), rec.end());
    record = rec[rec.size() / 2] / kChain;
    name = "overhead (2000 chained adds of 1000)";
  }
  if (a.json) {
    nlohmann::json j{{"group", a.group}, {"op", name}, {"dtype", a.dtype}, {"median_s", secs}, {"backend", be.name()},
                     {"device", be.device_name()}};
    if (a.group == "gemm") j["size"] = a.size, j["tflops"] = rate;
    else j["record_s"] = record;
    std::cout << j.dump() << "\n";
  } else if (a.group == "gemm") {
    std::printf("device: %s\n%-40s %10.4f ms %9.2f TFLOP/s\n", be.device_name().c_str(), name.c_str(), secs * 1e3, rate);
  } else {
    std::printf("device: %s\n%-40s %10.3f us per op (host recording %.3f)\n", be.device_name().c_str(), name.c_str(),
                secs * 1e6, record * 1e6);
  }
  return 0;
}

int run_bench(const BenchArgs& a) {
  if (a.group == "gemm" || a.group == "overhead") return run_call_group(a);
  if (a.group != "permute") return run_op_group(a);
  if (a.repeat < 1) throw std::runtime_error("--repeat must be at least 1");
  const std::vector<Pattern> pats = load_patterns(a.patterns);
  Backend& be = cli::chosen_backend(a.where);
  if (!a.json) std::printf("device: %s\n%-44s %10s %10s %9s %8s%s\n", be.device_name().c_str(), "pattern", "elements", "ms", "GB/s", "%copy", a.check ? "  check" : "");
  double copy_gbps = 0;
  bool all_ok = true;
  Progress progress(a.progress, "bench patterns", static_cast<long>(pats.size()));
  long done = 0;
  for (const Pattern& q : pats) {
    Layout sl{q.shape, q.src_strides, 0};
    const std::int64_t n = sl.numel(), storage = n == 0 ? 1 : sl.max_offset() + 1;
    std::vector<double> host(static_cast<std::size_t>(storage));
    for (std::int64_t k = 0; k < storage; ++k) host[static_cast<std::size_t>(k)] = static_cast<double>(k % 1000003) + 0.25;
    const Tensor src = be.upload(host_tensor<double>({storage}, host));
    const TensorView view = TensorView(src.storage(), DType::F64, sl).transpose(q.perm);
    Tensor out;
    // Warm-ups for kWarmSeconds before every pattern: building and uploading the pattern's
    // source leaves the GPU idle long enough to drop its clock, and a few calls do not bring
    // it back (H100, reverse_23d_2 after the 6-d rotation: 0.22 ms after two warm-ups, 0.09
    // after 0.5 s of them).
    const auto w0 = std::chrono::steady_clock::now();
    for (int w = 0; w < 2 || seconds_since(w0) < kWarmSeconds; ++w) {
      out = to_contiguous(be, view);
      be.synchronize();
    }
    std::vector<double> secs;
    for (int r = 0; r < a.repeat; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      out = to_contiguous(be, view);
      be.synchronize();
      secs.push_back(seconds_since(t0));
    }
    std::sort(secs.begin(), secs.end());
    const double med = secs[secs.size() / 2];
    const double gbps = 16.0 * static_cast<double>(n) / med * 1e-9;
    if (q.id.rfind("memcpy", 0) == 0) copy_gbps = gbps;
    const bool ok = !a.check || check_pattern(be, q, src, sl, out);
    all_ok &= ok;
    const double pct = copy_gbps > 0 ? 100.0 * gbps / copy_gbps : 0.0;
    progress.before_output();
    if (a.json) {
      nlohmann::json j = {{"pattern", q.id}, {"elements", n}, {"median_s", med}, {"gbps", gbps},
                          {"pct_of_copy", pct}, {"backend", be.name()}, {"device", be.device_name()}};
      if (a.check) j["ok"] = ok;
      std::cout << j.dump() << "\n";
    } else {
      std::printf("%-44s %10lld %10.4f %9.1f %7.1f%%%s\n", q.id.c_str(), static_cast<long long>(n), med * 1e3, gbps, pct,
                  a.check ? (ok ? "  ok" : "  WRONG") : "");
    }
    std::fflush(stdout);
    progress.update(++done);
  }
  return all_ok ? 0 : 1;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Benchmarks on one backend: permute (a permutation pattern file), elementwise, analytic, reduce, fused, gemm, overhead");
  cmd->add_option("group", args->group, "permute (default), elementwise, analytic, reduce, fused, gemm or overhead");
  cmd->add_option("--size", args->size, "Side of the gemm group's square product (default 4096)");
  cmd->add_option("--elements", args->elements, "Elements of the op groups' operands (default 2^24)");
  cmd->add_option("--dtype", args->dtype, "dtype of the op groups (default f32)");
  cmd->add_option("--patterns", args->patterns, "Pattern file (default data/instances/permutation_patterns.json)");
  cli::add_backend_options(cmd, args->where);
  cmd->add_option("--repeat", args->repeat, "Timed calls per row after the warm-ups (default 15)");
  cmd->add_flag("--json", args->json, "One JSON object per row");
  cmd->add_flag("--check", args->check, "Compare sampled output elements against the source");
  add_progress_option(cmd, args->progress);
  cmd->callback([args] { run_subcommand("bench", [&] { return run_bench(*args); }); });
}

}  // namespace tenferro::cli
