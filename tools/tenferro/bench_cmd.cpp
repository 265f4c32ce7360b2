// `tenferro bench permute`: the permutation patterns of a tenferro-benchmark pattern file
// (data/instances/permutation_patterns.json: id, dtype, shape, perm, src_layout col_major or
// explicit_strides) run as to_contiguous(src.transpose(perm)) on one backend: output axis k is
// source axis perm[k] (numpy's transpose, as ../shared/tools/peer_bench.py gives PyTorch).
// Per pattern: two warm-ups (the first pattern: 0.5 s of them), then --repeat timed calls of
// one permutation + synchronize (host clock), the median; bandwidth counts 16 bytes per f64
// element (read + write), as the peer script does; the memcpy pattern of the file (a contiguous
// copy) is the run's ceiling, and every pattern's bandwidth is also given as a percentage of it. --check compares 4096 sampled
// output elements (and the first and last) against the source, read on the host.
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

int run_bench(const BenchArgs& a) {
  if (a.group != "permute") throw std::runtime_error("unknown bench group " + a.group + " (permute)");
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
    // Two warm-ups; before the first pattern, warm-ups for kWarmSeconds (a GPU that was idle
    // runs at a low clock for a while: the first patterns timed 2-4x slow without this).
    const auto w0 = std::chrono::steady_clock::now();
    for (int w = 0; w < 2 || (&q == &pats.front() && seconds_since(w0) < kWarmSeconds); ++w) {
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
  CLI::App* cmd = app.add_subcommand("bench", "Benchmarks: `permute` runs a permutation pattern file");
  cmd->add_option("group", args->group, "permute (default)");
  cmd->add_option("--patterns", args->patterns, "Pattern file (default data/instances/permutation_patterns.json)");
  cli::add_backend_options(cmd, args->where);
  cmd->add_option("--repeat", args->repeat, "Timed calls per pattern after two warm-ups (default 15)");
  cmd->add_flag("--json", args->json, "One JSON object per pattern");
  cmd->add_flag("--check", args->check, "Compare sampled output elements against the source");
  add_progress_option(cmd, args->progress);
  cmd->callback([args] { run_subcommand("bench", [&] { return run_bench(*args); }); });
}

}  // namespace tenferro::cli
