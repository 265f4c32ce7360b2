// Subcommand callbacks of the tenferro tool: run the command, print an error as
// "tenferro <name>: <message>" (exit code 2), and leave through CLI::RuntimeError when the exit
// code is not 0 (CLI11 turns it into the process's exit code).
#pragma once

#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

namespace tenferro::cli {

template <class F> void run_subcommand(const char* name, F&& run) {
  int code = 0;
  try {
    code = run();
  } catch (const std::exception& e) {
    std::cerr << "tenferro " << name << ": " << e.what() << "\n";
    code = 2;
  }
  if (code != 0) throw CLI::RuntimeError(code);
}

}  // namespace tenferro::cli
