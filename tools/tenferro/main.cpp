// The tenferro command-line tool: `eval` runs op-case files (EVAL_FORMAT.md), `einsum` runs
// an einsum instance, `bench permute` times permutation patterns, `devices` lists the usable
// devices, `--version` prints the library version.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bench_cmd.hpp"
#include "einsum_cmd.hpp"
#include "eval.hpp"
#include "printable.hpp"
#include "tenferro/options.hpp"

namespace {

/// OpenBLAS picks its kernels when it is loaded, and in a VM that hides the CPU's model it
/// falls back to generic ones; OPENBLAS_CORETYPE overrides that choice but is read at load
/// time only. So the CLI restarts itself once with it set (tenferro::blas_coretype_hint; set
/// OPENBLAS_CORETYPE to keep OpenBLAS's own choice). If the restart fails, it runs as it is.
void restart_with_fitting_blas_kernels(char** argv) {
  const std::string core = tenferro::blas_coretype_hint();
  if (core.empty() || ::setenv("OPENBLAS_CORETYPE", core.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("OPENBLAS_CORETYPE");
}

}  // namespace

int main(int argc, char** argv) {
  restart_with_fitting_blas_kernels(argv);
  CLI::App app{"tenferro: tensor ops, einsum, benchmarks and devices"};
  app.set_version_flag("--version", std::string("tenferro ") + TENFERRO_VERSION);
  app.require_subcommand(1);

  tenferro::cli::EvalOptions opts;
  CLI::App* eval = app.add_subcommand("eval", "Run op-case files (EVAL_FORMAT.md) and check their results");
  eval->add_option("files", opts.files, "Case files: one case object or {\"cases\": [...]} each")->required();
  eval->add_option("--backend", opts.backend, "Backend to run on: cpu, vulkan or all (default cpu; vulkan with --device)")
      ->check(CLI::IsMember({"cpu", "vulkan", "all"}));
  eval->add_option("--device", opts.device, "Vulkan device ordinal (default: the default Vulkan device; implies --backend vulkan)")
      ->check(CLI::Range(0, 4095));
  eval->add_flag("--json", opts.json, "One JSON object: every case's outcome and the totals");
  tenferro::cli::add_progress_option(eval, opts.progress);

  bool devices_json = false;
  CLI::App* devices = app.add_subcommand("devices", "List the usable devices (CPU and Vulkan); the default one is marked");
  devices->add_flag("--json", devices_json, "One JSON object");
  tenferro::cli::add_einsum_command(app);
  tenferro::cli::add_bench_command(app);

  CLI11_PARSE(app, argc, argv);
  try {
    if (*eval) return tenferro::cli::run_eval(opts);
    if (*devices) return tenferro::cli::run_devices(devices_json);
  } catch (const std::exception& e) {
    std::cerr << "tenferro: " << tenferro::cli::printable(e.what(), tenferro::cli::kMaxPrintedMessage) << "\n";
    return 2;
  }
  return 0;
}
