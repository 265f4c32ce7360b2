// `tenferro einsum`: see einsum_cmd.hpp and docs/einsum.md.
#include "einsum_cmd.hpp"
#include "cli_backend.hpp"
#include "cli_exit.hpp"
#include "instance.hpp"
#include "json_tensor.hpp"
#include "progress.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <complex>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "tenferro/slicing.hpp"
#ifdef TENFERRO_HAVE_MPI
#include "tenferro/mpi.hpp"
#endif

namespace tenferro::cli {
namespace {

struct EinsumArgs {
  std::string instance;
  cli::BackendChoice where;  // --backend, --device
  std::string dtype = "f64";
  std::string path = "auto";
  std::string layout = "colmajor";  // which of the instance's strings: colmajor or rowmajor
  int repeat = 5;
  std::uint64_t seed = 42;
  bool check = false;
  bool json = false;
  bool steps = false;   // print the step report (explain)
  bool no_run = false;  // the report only: plan, explain, no operands, no timing
  bool profile = false; // GPU time per kernel family over extra profiled runs
  bool program = false; // runs through an EinsumProgram (recorded once, replayed)
  std::int64_t max_extent = 0;  // > 0: every extent clamped to this (host overhead runs)
  ProgressMode progress = ProgressMode::automatic;
  // Slicing (docs/einsum.md): any of these runs the contraction sliced.
  std::uint64_t memory_limit = 0;  // bytes a slice may hold beside the operands and result
  std::string devices;             // "cpu,vulkan:0,...": slices spread over these
  bool distributed = false;        // MPI: ranks take slices, results reduced to rank 0
};

/// The MPI rank and size when running distributed (0 and 1 otherwise).
struct Ranks {
  int rank = 0, size = 1;
};

#ifdef TENFERRO_HAVE_MPI
Ranks start_mpi() {
  int ready = 0;
  MPI_Initialized(&ready);
  if (!ready) MPI_Init(nullptr, nullptr);
  Ranks r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  return r;
}
#endif

/// The slicing report: `slicing` of einsum --json (docs/cli.md) and the text line.
nlohmann::json slicing_json(const SlicePlan& sp, std::size_t devices, int ranks) {
  nlohmann::json labels = nlohmann::json::array();
  for (std::size_t k = 0; k < sp.labels.size(); ++k)
    labels.push_back({{"label", sp.labels[k]},
                      {"extent", sp.spec.extents[static_cast<std::size_t>(sp.labels[k])]},
                      {"chunk", sp.chunks[k]}});
  return {{"memory_limit_bytes", sp.memory_limit}, {"slice_bytes", sp.slice_bytes},
          {"unsliced_bytes", sp.unsliced_bytes},   {"slices", sp.slices},
          {"overhead", sp.overhead},               {"labels", labels},
          {"devices", devices},                    {"ranks", ranks}};
}
std::string slicing_text(const SlicePlan& sp, std::size_t devices, int ranks) {
  std::ostringstream o;
  o << "slicing      " << sp.slices << " slices (" << sp.labels.size() << " labels cut), overhead " << sp.overhead
    << "x the flops; a slice holds " << sp.slice_bytes / 1048576.0 << " MiB (limit " << sp.memory_limit / 1048576.0
    << ", unsliced " << sp.unsliced_bytes / 1048576.0 << ") on " << devices << " device(s) x " << ranks << " rank(s)";
  return o.str();
}

/// The backends of --devices (comma-separated device names, Device::parse), else the one of
/// --backend / --device.
std::vector<Backend*> chosen_devices(const EinsumArgs& a) {
  if (a.devices.empty()) return {&cli::chosen_backend(a.where)};
  if (!a.where.backend.empty() || a.where.device >= 0)
    throw InputError("--devices names the devices itself; it cannot be used with --backend or --device");
  std::vector<Backend*> out;
  std::stringstream in(a.devices);
  for (std::string name; std::getline(in, name, ',');) {
    Backend* be = &backend_for(Device::parse(name));
    if (std::find(out.begin(), out.end(), be) != out.end()) throw InputError("--devices names '" + name + "' twice");
    out.push_back(be);
  }
  if (out.empty()) throw InputError("--devices is empty");
  return out;
}

/// GPU clock warm-up before timing: >= 0.2 s of back-to-back 2048^3 f32 products. An H200
/// that sat idle runs at 345 MHz and a light einsum (a chain of small products) did not raise
/// it in 4 s, so the same instance measured 14 ms cold and 3.1 ms at the 1980 MHz it runs at
/// after any heavy work (bench/RESULTS.md). The peers are timed warm as well
/// (tools/gpu/peer_warm.py). Only on discrete and integrated GPUs (not on the CPU backend or
/// on CPU Vulkan devices such as lavapipe, where it would only cost time).
void warm_gpu(Backend& be) {
  const std::optional<DeviceInfo> info = device_info(be);
  if (!info || (info->type != "discrete" && info->type != "integrated")) return;
  Tensor a = be.allocate(DType::F32, {2048, 2048});
  be.fill(a, Scalar::of(DType::F32, 0.5));
  DotGeneralConfig cfg;
  cfg.lhs_contracting_dims = {1};
  cfg.rhs_contracting_dims = {0};
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 0.2) {
    with_session(be, [&] {
      for (int i = 0; i < 8; ++i) Tensor c = dot_general(be, a, a, cfg);
    });
    be.synchronize();
  }
}

// Seeded uniform [-1, 1] host operand `index` (complex: both parts). A size the host cannot
// allocate is Error{out_of_memory} naming einsum and the operand, before any element is made.
Tensor random_operand(DType d, const Shape& shape, std::size_t index, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Tensor t;
  try {
    t = host_empty(d, shape);
  } catch (const Error& e) {
    throw Error(e.kind(), "einsum", "operands", "operand " + std::to_string(index) + ": " + e.detail());
  }
  const HostMapping m = map_write(t);
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      throw InputError("bool operands are not supported");
    } else {
      for (T& x : m.write<T>()) {
        if constexpr (std::is_floating_point_v<T>) {
          x = static_cast<T>(u(rng));
        } else if constexpr (std::is_same_v<T, c32> || std::is_same_v<T, c64>) {
          using R = typename T::value_type;
          const double re = u(rng);
          x = T(static_cast<R>(re), static_cast<R>(u(rng)));
        } else {
          x = T{};
        }
      }
    }
  });
  return t;
}

// Host values of a tensor as complex<double>.
std::vector<c64> host_values(Backend& be, const Tensor& t) {
  const Tensor h = be.is_host() ? t : download(be, t);
  return visit_dtype(h.dtype(), [&](auto tag) -> std::vector<c64> {
    using T = typename decltype(tag)::type;
    std::vector<c64> out;
    if constexpr (std::is_same_v<T, bool>) {
      return out;
    } else if constexpr (std::is_floating_point_v<T>) {
      for (T x : to_vector<T>(h)) out.emplace_back(static_cast<double>(x), 0.0);
    } else if constexpr (std::is_same_v<T, c32> || std::is_same_v<T, c64>) {
      for (T x : to_vector<T>(h)) out.emplace_back(static_cast<double>(x.real()), static_cast<double>(x.imag()));
    }
    return out;
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / 1048576.0; }

nlohmann::json stats_json(const EinsumStats& s) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : s.steps)
    steps.push_back({{"lhs", st.lhs}, {"rhs", st.rhs}, {"lhs_labels", st.lhs_labels}, {"rhs_labels", st.rhs_labels},
                     {"out_labels", st.out_labels}, {"kind", st.kind}, {"M", st.M}, {"N", st.N}, {"K", st.K},
                     {"B", st.B}, {"flops", st.flops}, {"lhs_packed_bytes", st.lhs_packed_bytes},
                     {"rhs_packed_bytes", st.rhs_packed_bytes}, {"out_bytes", st.out_bytes},
                     {"out_copy_bytes", st.out_copy_bytes},
                     {"out_chained", st.out_chained}, {"reduce_bytes", st.reduce_bytes},
                     {"launches", st.launches}, {"batch_unit_stride_operands", st.batch_unit_stride_operands}});
  return {{"steps", steps},
          {"final_reduce_bytes", s.final_reduce_bytes},
          {"final_transpose_bytes", s.final_transpose_bytes},
          {"final_launches", s.final_launches},
          {"gemm_flops", s.gemm_flops},
          {"packed_bytes", s.packed_bytes},
          {"copied_bytes", s.copied_bytes},
          {"launches", s.launches},
          {"levels", s.levels},
          {"order_peak_elements", s.order_peak_elements}};
}

std::string stats_text(const EinsumStats& s) {
  std::ostringstream o;
  o << "step  lhs  rhs  kind                  M        N        K        B     GFLOP  packed(MiB)  out(MiB)  launches"
       "  labels\n";
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    const auto& st = s.steps[k];
    char line[256];
    std::snprintf(line, sizeof line, "%4zu %4d %4d  %-17s %8lld %8lld %8lld %8lld %9.4f %7.3f%s%-4s %9.3f %9d  ", k,
                  st.lhs, st.rhs, st.kind.c_str(), static_cast<long long>(st.M), static_cast<long long>(st.N),
                  static_cast<long long>(st.K), static_cast<long long>(st.B), st.flops * 1e-9,
                  mib(st.lhs_packed_bytes + st.rhs_packed_bytes),
                  st.lhs_packed_bytes + st.rhs_packed_bytes > 0 ? " " : "  ",
                  st.lhs_packed_bytes && st.rhs_packed_bytes ? "LR" : st.lhs_packed_bytes ? "L" : st.rhs_packed_bytes ? "R" : "",
                  mib(st.out_bytes), st.launches);
    o << line << st.lhs_labels << "," << st.rhs_labels << "->" << st.out_labels;
    if (st.reduce_bytes) o << "  [reduce " << mib(st.reduce_bytes) << " MiB]";
    if (st.out_chained && !st.out_copy_bytes)
      o << "  [out in stride chains " << mib(st.out_bytes) << " MiB: written in place]";
    else if (st.out_copy_bytes)
      o << "  [out via temp " << mib(st.out_copy_bytes) << " MiB]";
    if (st.batch_unit_stride_operands) o << "  [" << st.batch_unit_stride_operands << " operand(s) unit-stride on batch]";
    o << "\n";
  }
  o << "final        reduce " << mib(s.final_reduce_bytes) << " MiB, transpose " << mib(s.final_transpose_bytes)
    << " MiB, " << s.final_launches << " launch(es)\n";
  o << "total        " << s.steps.size() << " steps, GEMM " << s.gemm_flops * 1e-9 << " GFLOP, packed "
    << mib(s.packed_bytes) << " MiB, copied " << mib(s.copied_bytes) << " MiB, " << s.launches << " launches\n";
  o << "order        steps run in " << s.levels << " dispatch level(s) (barriers + 1 on Vulkan), live intermediates "
    << "peak " << s.order_peak_elements << " elements\n";
  return o.str();
}

int run_einsum(const EinsumArgs& a) {
  if (a.layout != "colmajor" && a.layout != "rowmajor")
    throw InputError("unknown --layout '" + a.layout + "' (expected colmajor or rowmajor)");
  Instance inst = read_instance(a.instance, a.layout);
  if (a.max_extent < 0) throw InputError("--max-extent must be positive");
  if (a.max_extent > 0)
    for (auto& sh : inst.shapes)
      for (auto& e : sh) e = std::min(e, a.max_extent);
  const auto dt = parse_dtype(a.dtype);
  if (!dt || !is_inexact(*dt)) throw InputError("unknown or unsupported --dtype '" + a.dtype + "' (expected f32, f64, c32 or c64)");
  const DType dtype = *dt;
  if (a.path != "auto" && a.path != "opt_flops" && a.path != "opt_size")
    throw InputError("unknown --path '" + a.path + "' (expected auto, opt_flops or opt_size)");
  if (a.repeat < 1) throw InputError("--repeat must be at least 1, got " + std::to_string(a.repeat));
  const std::string& bk = a.where.backend;
  if (!bk.empty() && bk != "cpu" && bk != "vulkan" && bk != "webgpu")
    throw InputError("unknown --backend '" + bk + "' (expected cpu, vulkan or webgpu)");

  EinsumOptions opts;
  if (a.path != "auto") {
    opts.path = stored_path(inst, a.path);
    opts.use_path = true;
  }
  std::shared_ptr<const EinsumPlan> plan;
  try {
    plan = make_plan(inst.format, inst.shapes, opts);
  } catch (const Error& e) {
    throw InputError("instance '" + inst.name + "': " + e.what());
  }
  const bool sliced = a.memory_limit > 0 || !a.devices.empty() || a.distributed;
  if (a.no_run && !a.steps && a.memory_limit == 0) throw InputError("--no-run needs --steps or --memory-limit");
  if (sliced && (a.steps || a.profile || a.program))
    throw InputError("--steps, --profile and --program do not apply to a sliced run");
  // --no-run: what the plan is, before the report of the steps or of the slicing.
  const auto no_run_json = [&] {
    return nlohmann::json{{"instance", inst.name}, {"layout", inst.layout}, {"dtype", std::string(dtype_name(dtype))},
                          {"path", a.path},        {"num_tensors", inst.shapes.size()}};
  };
  const auto no_run_text = [&] {
    std::ostringstream o;
    o << "instance     " << inst.name << " (" << inst.shapes.size() << " tensors, " << inst.layout
      << " strings), dtype " << dtype_name(dtype) << ", path " << a.path << "\n";
    return o.str();
  };
  if (a.no_run && sliced) {  // the slicing plan only
    const SlicePlan sp = plan_slices(plan->spec, plan->path, dtype, a.memory_limit);
    if (a.json) {
      nlohmann::json j = no_run_json();
      j["slicing"] = slicing_json(sp, 1, 1);
      std::cout << j.dump() << "\n";
    } else {
      std::cout << no_run_text() << slicing_text(sp, 1, 1) << "\n";
    }
    return 0;
  }
  Ranks ranks;
  if (a.distributed) {
#ifdef TENFERRO_HAVE_MPI
    ranks = start_mpi();
#else
    throw InputError("--distributed needs MPI: this build of tenferro has none (install libopenmpi-dev and rebuild)");
#endif
  }
  const std::vector<Backend*> devs = chosen_devices(a);
  Backend& be = *devs[0];
  std::optional<EinsumStats> stats;
  double explain_seconds = 0;
  if (a.steps) {
    std::vector<Layout> layouts;
    for (const auto& sh : inst.shapes) layouts.push_back(Layout::compact(sh));
    // With --no-run, --repeat times the planning (median), the host work execute adds per call.
    std::vector<double> ts;
    for (int r = 0; r < (a.no_run ? a.repeat : 1); ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      stats = explain(plan->spec, plan->path, layouts, dtype, be.gemm_caps().chained_output);
      ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    explain_seconds = median(ts);
  }
  if (a.no_run) {
    if (a.json) {
      nlohmann::json j = no_run_json();
      j["explain"] = stats_json(*stats);
      j["explain_s"] = explain_seconds;
      std::cout << j.dump() << "\n";
    } else {
      std::cout << no_run_text() << stats_text(*stats) << "explain      " << explain_seconds * 1e3
                << " ms (median of " << a.repeat << ")\n";
    }
    return 0;
  }

  std::mt19937_64 rng(a.seed);
  std::vector<Tensor> host_ops, dev_ops;
  for (const auto& s : inst.shapes) host_ops.push_back(random_operand(dtype, s, host_ops.size(), rng));
  for (const auto& h : host_ops) dev_ops.push_back(be.is_host() ? h : upload(be, h));
  std::vector<TensorView> views(dev_ops.begin(), dev_ops.end());

  Tensor result;
  // --program: the plan's path prepared (and recorded, on Vulkan) once; runs replay it.
  std::optional<EinsumProgram> program;
  if (a.program) {
    EinsumOptions po;
    po.path = plan->path;
    po.use_path = true;
    program.emplace(be, inst.format, inst.shapes, dtype, po);
  }
  std::optional<SlicePlan> splan;
  if (sliced) {
    // Default limit: what devices[0] has left (its memory cap, or the host's available memory,
    // less what it holds now: the operands).
    std::uint64_t limit = a.memory_limit;
    if (limit == 0) {
      const MemoryUsage m = be.memory_usage();
      limit = m.capacity > m.in_use ? m.capacity - m.in_use : 1;
    }
    splan = plan_slices(plan->spec, plan->path, dtype, limit);
  }
  // The host's part of a run: until everything is queued (the whole run on the CPU backend).
  std::chrono::steady_clock::time_point host_done;
  bool profiling = false;  // profiled runs go kernel by kernel, also with --program
  const auto run_once = [&](const EinsumProgress& on_step = {}) {
    if (splan) {
      SliceRun run;
      run.progress = on_step;
      if (a.distributed) {
#ifdef TENFERRO_HAVE_MPI
        MPI_Barrier(MPI_COMM_WORLD);
        result = mpi::execute_distributed(MPI_COMM_WORLD, devs, *splan, views);
#endif
      } else {
        result = execute_sliced(devs, *splan, views, run);
      }
      host_done = std::chrono::steady_clock::now();
      for (Backend* d : devs) d->synchronize();
      return;
    }
    if (program && !on_step && !profiling)
      result = (*program)(views);
    else
      with_session(be, [&] { result = execute(be, plan->spec, plan->path, views, on_step); });
    host_done = std::chrono::steady_clock::now();
    be.synchronize();
  };
  warm_gpu(be);
  // Warm-up: at least one run and 0.3 s of runs (a GPU that sat idle during the uploads runs
  // its first work slowly; the peers' scripts warm up by repetition too). The first run reports
  // its steps (a long contraction shows progress before any run is done).
  {
    std::optional<Progress> steps;
    run_once([&](std::size_t done, std::size_t total) {
      if (!steps) steps.emplace(a.progress, splan ? "einsum first run, slices" : "einsum first run, steps",
                                static_cast<long>(total));
      steps->update(static_cast<long>(done));
    });
    steps.reset();
    // Ranks run the same number of collective runs: no timed warm-up when distributed.
    const auto w0 = std::chrono::steady_clock::now();
    while (!a.distributed && std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < 0.3)
      run_once();
  }
  // Device memory over the timed runs: the most held at once by the operands, intermediates,
  // packing buffers, kernel scratch and the result (MemoryUsage; each run starts with the
  // previous result released, so this is one run's peak), against the plan's largest sum of
  // simultaneously live tensors with the inputs.
  const double plan_live_bytes =
      (plan->cost.peak_live_intermediates + plan->cost.input_elements) * static_cast<double>(dtype_size(dtype));
  result = Tensor();
  for (Backend* d : devs) d->synchronize();
  const std::uint64_t held_before = be.memory_usage().in_use;  // the operands
  be.reset_memory_peak();
  std::vector<double> times, host_times;
  // --profile: kProfileRuns more runs with GPU timestamps around every dispatch (which
  // serializes them, so these runs are not the timed ones); per-run averages.
  constexpr int kProfileRuns = 3;
  std::optional<Progress> progress(std::in_place, a.progress, "einsum runs", a.repeat + (a.profile ? kProfileRuns : 0));
  for (int r = 0; r < a.repeat; ++r) {
    result = Tensor();
    const auto t0 = std::chrono::steady_clock::now();
    run_once();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    host_times.push_back(std::chrono::duration<double>(host_done - t0).count());
    progress->update(r + 1);
  }
  const MemoryUsage mem = be.memory_usage();
  // A sliced run: the most devices[0] held beside the operands and the result (at most the
  // limit); distributed, the largest over the ranks.
  std::uint64_t slice_held = 0;
  if (splan && mem.tracked) {
    // Every rank holds a result-sized accumulator (rank 0 then the result).
    std::uint64_t result_bytes = dtype_size(dtype);
    for (int id : plan->spec.output) result_bytes *= static_cast<std::uint64_t>(plan->spec.extents[static_cast<std::size_t>(id)]);
    slice_held = mem.peak - std::min(mem.peak, held_before + result_bytes);
#ifdef TENFERRO_HAVE_MPI
    if (a.distributed) MPI_Allreduce(MPI_IN_PLACE, &slice_held, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
#endif
  }
  if (ranks.rank != 0) return 0;  // rank 0 checks and reports
  ProfileReport prof;
  if (a.profile) {
    profiling = true;
    be.profile_begin();
    for (int r = 0; r < kProfileRuns; ++r) {
      run_once();
      progress->update(a.repeat + r + 1);
    }
    prof = be.profile_end();
  }
  progress.reset();
  // Per-dispatch GPU times of one run, in GPU order, averaged over the profiled runs (when every
  // run dispatched the same kernels; else those of the first run).
  std::vector<ProfileReport::Dispatch> trace;
  if (a.profile && prof.supported && !prof.trace.empty()) {
    const std::size_t per_run = prof.trace.size() % kProfileRuns == 0 ? prof.trace.size() / kProfileRuns : prof.trace.size();
    bool same = per_run * kProfileRuns == prof.trace.size();
    for (std::size_t i = 0; same && i < per_run; ++i)
      for (int r = 1; r < kProfileRuns; ++r)
        if (std::string_view(prof.trace[i].family) != prof.trace[r * per_run + i].family) same = false;
    for (std::size_t i = 0; i < per_run; ++i) {
      double us = prof.trace[i].gpu_us;
      if (same)
        for (int r = 1; r < kProfileRuns; ++r) us += prof.trace[r * per_run + i].gpu_us;
      trace.push_back({prof.trace[i].family, same ? us / kProfileRuns : us});
    }
  }
  const std::vector<c64> vals = host_values(be, result);
  c64 sum(0, 0);
  double abs_sum = 0;
  for (const c64& x : vals) {
    sum += x;
    abs_sum += std::abs(x);
  }

  // --check: the CPU backend in double precision; on the CPU in f64/c64 itself, along a
  // different path (the stored opt_flops path, or the auto plan when that was given).
  bool checked = false, ok = true;
  double rel_err = 0;
  const double tol = (dtype == DType::F32 || dtype == DType::C32) ? 1e-4 : 1e-10;
  std::string ref_path_name;
  if (a.check) {
    checked = true;
    Backend& cpu = cpu_backend();
    const DType ref_dt = dtype == DType::F32 ? DType::F64 : dtype == DType::C32 ? DType::C64 : dtype;
    std::vector<Tensor> ref_ops;
    for (const auto& h : host_ops) ref_ops.push_back(ref_dt == dtype ? h : convert(cpu, h, ref_dt));
    std::vector<TensorView> ref_views(ref_ops.begin(), ref_ops.end());
    Path ref_path = plan->path;
    ref_path_name = "same path";
    if (be.is_host() && ref_dt == dtype) {
      if (a.path == "auto") {
        try {
          ref_path = stored_path(inst, "opt_flops");
          ref_path_name = "opt_flops";
        } catch (const InputError&) {
          ref_path = plan_path(plan->spec, PlanOptions{PathMethod::greedy});
          ref_path_name = "greedy";
        }
      } else {
        ref_path = plan_path(plan->spec);
        ref_path_name = "auto";
      }
    }
    Tensor ref;
    with_session(cpu, [&] { ref = execute(cpu, plan->spec, ref_path, ref_views); });
    const std::vector<c64> rv = host_values(cpu, ref);
    // ||got - ref|| / ||ref|| on values scaled by the largest magnitude, so that results near
    // the top of the double range (str_mps_varying_inner_product_200 gives ~5e168) do not
    // overflow the squares. A non-finite value anywhere makes rel_err NaN: a mismatch.
    const std::size_t n = std::min(rv.size(), vals.size());
    double scale = 0;
    for (std::size_t i = 0; i < n; ++i) scale = std::max({scale, std::abs(rv[i]), std::abs(vals[i])});
    double diff2 = 0, ref2 = 0;
    if (scale > 0 && std::isfinite(scale)) {
      for (std::size_t i = 0; i < n; ++i) {
        diff2 += std::norm((vals[i] - rv[i]) / scale);
        ref2 += std::norm(rv[i] / scale);
      }
      rel_err = ref2 > 0 ? std::sqrt(diff2 / ref2) : (diff2 > 0 ? 1.0 : 0.0);
    } else {
      rel_err = scale == 0 ? 0.0 : std::nan("");
    }
    ok = rv.size() == vals.size() && rel_err <= tol;
  }

  const double esize = static_cast<double>(dtype_size(dtype));
  const PathCost& c = plan->cost;
  double stored_log10 = std::nan("");
  if (inst.paths.is_object() && inst.paths.contains("opt_flops") && inst.paths["opt_flops"].contains("log10_flops") &&
      inst.paths["opt_flops"]["log10_flops"].is_number())
    stored_log10 = inst.paths["opt_flops"]["log10_flops"].get<double>();
  const double med = median(times), host_med = median(host_times);
  const std::size_t steps = plan->path.size();
  if (a.json) {
    nlohmann::json j;
    j["instance"] = inst.name;
    j["layout"] = inst.layout;
    j["backend"] = be.name();
    j["device"] = be.device_name();
    j["dtype"] = std::string(dtype_name(dtype));
    j["path"] = a.path;
    j["path_method"] = plan->method;
    j["num_tensors"] = inst.shapes.size();
    j["log10_flops"] = c.log10_flops;
    j["opt_einsum_log10_flops"] = std::log10(std::max(c.opt_einsum_flops, 1.0));
    if (!std::isnan(stored_log10)) j["stored_opt_flops_log10_flops"] = stored_log10;
    j["largest_intermediate_elements"] = c.largest_intermediate;
    j["largest_intermediate_bytes"] = c.largest_intermediate * esize;
    j["peak_live_intermediate_elements"] = c.peak_live_intermediates;
    j["peak_live_bytes_with_inputs"] = plan_live_bytes;
    if (mem.tracked)
      j["device_memory"] = {{"peak_bytes", mem.peak},
                            {"plan_live_bytes_with_inputs", plan_live_bytes},
                            {"ratio", plan_live_bytes > 0 ? double(mem.peak) / plan_live_bytes : 0.0}};
    if (splan) {
      j["slicing"] = slicing_json(*splan, devs.size(), ranks.size);
      if (mem.tracked) j["slicing"]["held_bytes"] = slice_held;
    }
    j["plan_s"] = plan->plan_seconds;
    j["repeat"] = a.repeat;
    j["median_s"] = med;
    // The host's part of a run (until all its work is queued), and that per pairwise step.
    j["host_median_s"] = host_med;
    j["host_per_step_s"] = steps > 0 ? host_med / static_cast<double>(steps) : host_med;
    if (program) j["program"] = {{"recorded", program->recorded()}};
    j["times_s"] = times;
    j["output_shape"] = result.shape();
    j["checksum"] = {{"sum", is_complex(dtype) ? nlohmann::json::array({sum.real(), sum.imag()}) : nlohmann::json(sum.real())},
                     {"abs_sum", abs_sum}};
    if (checked) j["check"] = {{"ok", ok}, {"rel_error", rel_err}, {"tol", tol}, {"reference", ref_path_name}};
    if (stats) j["explain"] = stats_json(*stats);
    if (a.profile && prof.supported) {
      nlohmann::json f = nlohmann::json::object();
      for (const auto& fam : prof.families)
        f[fam.name] = {{"gpu_s", fam.gpu_us * 1e-6 / kProfileRuns}, {"dispatches", fam.dispatches / kProfileRuns}};
      j["profile_per_run"] = {{"families", f},
                              {"busy_s", prof.busy_us * 1e-6 / kProfileRuns},
                              {"span_s", prof.span_us * 1e-6 / kProfileRuns},
                              {"batches", prof.batches / kProfileRuns},
                              {"runs", kProfileRuns}};
      nlohmann::json t = nlohmann::json::array();
      for (const auto& d : trace) t.push_back({d.family, d.gpu_us * 1e-6});
      j["profile_per_run"]["trace_s"] = t;
    }
    std::cout << j.dump() << "\n";
  } else {
    std::ostringstream o;
    o << "instance     " << inst.name << " (" << inst.shapes.size() << " tensors, " << inst.layout << " strings)\n";
    o << "backend      " << be.name() << " (" << be.device_name() << "), dtype " << dtype_name(dtype) << "\n";
    o << "path         " << a.path << " [" << plan->method << "], planned in " << plan->plan_seconds * 1e3 << " ms\n";
    o << "flops        log10 " << c.log10_flops << " (opt_einsum convention " << std::log10(std::max(c.opt_einsum_flops, 1.0));
    if (!std::isnan(stored_log10)) o << "; stored opt_flops " << stored_log10;
    o << ")\n";
    o << "largest      " << c.largest_intermediate << " elements (" << c.largest_intermediate * esize / 1048576.0
      << " MiB); peak live intermediates " << c.peak_live_intermediates << " elements, with inputs "
      << (c.peak_live_intermediates + c.input_elements) * esize / 1048576.0 << " MiB\n";
    if (mem.tracked)
      o << "memory       device peak " << mem.peak / 1048576.0 << " MiB = " << (plan_live_bytes > 0 ? mem.peak / plan_live_bytes : 0.0)
        << "x the plan's live tensors with inputs (" << plan_live_bytes / 1048576.0 << " MiB)\n";
    if (splan) {
      o << slicing_text(*splan, devs.size(), ranks.size);
      if (mem.tracked) o << "; held " << slice_held / 1048576.0 << " MiB beside operands and result";
      o << "\n";
    }
    o << "time         median " << med * 1e3 << " ms over " << a.repeat << " runs; host part " << host_med * 1e6
      << " us (" << (steps > 0 ? host_med / static_cast<double>(steps) : host_med) * 1e6 << " us per step)";
    if (program) o << (program->recorded() ? ", recorded program" : ", program (not recorded)");
    o << "\n";
    o << "checksum     sum " << sum.real();
    if (is_complex(dtype)) o << (sum.imag() < 0 ? " - " : " + ") << std::abs(sum.imag()) << "i";
    o << ", sum|x| " << abs_sum << "\n";
    if (checked)
      o << "check        " << (ok ? "ok" : "MISMATCH") << ": relative error " << rel_err << " (tol " << tol << ", CPU reference: "
        << ref_path_name << ")\n";
    if (stats) o << stats_text(*stats);
    if (a.profile) {
      if (!prof.supported) {
        o << "profile      not available on this backend\n";
      } else {
        o << "profile      GPU time per run (average of " << kProfileRuns << " profiled runs; dispatches serialized):\n";
        for (const auto& fam : prof.families)
          o << "             " << fam.name << ": " << fam.gpu_us / kProfileRuns << " us in "
            << fam.dispatches / kProfileRuns << " dispatches\n";
        o << "             busy " << prof.busy_us / kProfileRuns << " us, span " << prof.span_us / kProfileRuns
          << " us (GPU idle " << (prof.span_us - prof.busy_us) / kProfileRuns << " us: host work, submission)\n";
        o << "dispatches   GPU us of each dispatch of a run, in order (a split-K gemm is two):\n";
        for (std::size_t i = 0; i < trace.size(); ++i)
          o << (i % 8 == 0 ? "            " : "") << " " << trace[i].family << " " << std::fixed << std::setprecision(1)
            << trace[i].gpu_us << std::defaultfloat << std::setprecision(6) << (i % 8 == 7 || i + 1 == trace.size() ? "\n" : ",");
      }
    }
    std::cout << o.str();
  }
  return ok ? 0 : 1;
}

}  // namespace

void add_einsum_command(CLI::App& app) {
  auto args = std::make_shared<EinsumArgs>();
  CLI::App* cmd = app.add_subcommand("einsum", "Run an einsum instance file with random operands");
  cmd->add_option("instance", args->instance, "Instance JSON (format_string, shapes, paths)");
  cli::add_backend_options(cmd, args->where);
  cmd->add_option("--dtype", args->dtype, "f32, f64, c32 or c64 (default f64)");
  cmd->add_option("--path", args->path, "opt_size, opt_flops (stored paths) or auto (default)");
  cmd->add_option("--layout", args->layout,
                  "colmajor (default): the instance's column-major variant (format_string_colmajor, shapes_colmajor), "
                  "the memory order a row-major library has for format_string; rowmajor: format_string and shapes "
                  "as column-major tensors (each operand's memory order reversed)");
  cmd->add_option("--repeat", args->repeat, "Timed runs after one warm-up (default 5)");
  cmd->add_option("--seed", args->seed, "Seed of the random operands (default 42)");
  cmd->add_flag("--check", args->check, "Compare against the CPU backend in double precision");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--steps", args->steps, "Print what every pairwise step does (GEMM shape, packing copies, launches)");
  cmd->add_flag("--no-run", args->no_run,
                "With --steps or --memory-limit: only plan and report (the steps, the slicing), run nothing");
  cmd->add_flag("--program", args->program,
                "Run through an einsum program: planned and lowered once and, on Vulkan, recorded once; each run "
                "replays it (the operands copied into its inputs)");
  cmd->add_flag("--profile", args->profile,
                "After the timed runs, 3 runs with GPU timestamps: time per kernel family (Vulkan)");
  cmd->add_option("--max-extent", args->max_extent,
                  "Clamp every extent to this (e.g. 2: tiny tensors, to measure host overhead per step)");
  cmd->add_option("--memory-limit", args->memory_limit,
                  "Slice the contraction so that a slice holds at most this many bytes beside the operands and the "
                  "result (e.g. 64MiB; default with --devices or --distributed: what the device has left)")
      ->transform(CLI::AsSizeValue(false));
  cmd->add_option("--devices", args->devices,
                  "Spread the slices over these devices, comma-separated (cpu, vulkan, vulkan:N); the first holds the result");
  cmd->add_flag("--distributed", args->distributed,
                "Under mpirun: every rank takes a share of the slices, the results are summed on rank 0 (MPI)");
  add_progress_option(cmd, args->progress);
  cmd->callback([args] {
    if (!args->distributed) {
      run_subcommand("einsum", [&] { return run_einsum(*args); });
      return;
    }
#ifdef TENFERRO_HAVE_MPI
    // Any rank's error ends the whole job (never a partial result): the message, then MPI_Abort.
    int code = 0;
    try {
      code = run_einsum(*args);
    } catch (const std::exception& e) {
      int rank = 0, ready = 0;
      MPI_Initialized(&ready);
      if (ready) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      // One write: mpirun forwards each rank's output in the pieces it reads, and may print its
      // abort notice between two writes of one line.
      const std::string msg =
          "tenferro einsum (rank " + std::to_string(rank) + "): " + printable(e.what(), kMaxPrintedMessage) + "\n";
      std::fwrite(msg.data(), 1, msg.size(), stderr);
      if (ready) MPI_Abort(MPI_COMM_WORLD, 2);
      throw CLI::RuntimeError(2);
    }
    MPI_Finalize();
    if (code != 0) throw CLI::RuntimeError(code);
#else
    run_subcommand("einsum", [&] { return run_einsum(*args); });
#endif
  });
}

}  // namespace tenferro::cli
