// `tenferro bench permute [--patterns FILE] [--backend B] [--device N] [--repeat N] [--json]
// [--check]`: permutation patterns timed on one backend (bench_cmd.cpp). Exit codes: 0 ok,
// 1 a check failed, 2 bad input or error.
#pragma once

#include <CLI/CLI.hpp>

namespace tenferro::cli {

/// Registers the `bench` subcommand and its callback on app (errors leave through
/// CLI::RuntimeError(exit code), as `einsum` does).
void add_bench_command(CLI::App& app);

}  // namespace tenferro::cli
