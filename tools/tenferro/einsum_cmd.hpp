// `tenferro einsum INSTANCE.json`: runs an einsum instance file (data/instances format) with
// seeded random operands; prints the plan (flops, largest intermediate, peak memory), the
// median time over --repeat runs, a checksum, and with --check compares against the CPU
// backend in double precision. Exit codes: 0 ok, 1 check mismatch, 2 bad input or error.
#pragma once

#include <CLI/CLI.hpp>

namespace tenferro::cli {

/// Registers the `einsum` subcommand and its callback on app. The callback reports errors
/// itself and leaves through CLI::RuntimeError(exit code) when the code is not 0.
void add_einsum_command(CLI::App& app);

}  // namespace tenferro::cli
