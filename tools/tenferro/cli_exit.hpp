// Subcommand callbacks of the tenferro tool: run the command, print an error as
// "tenferro <name>: <message>" (exit code 2), and leave through CLI::RuntimeError when the exit
// code is not 0 (CLI11 turns it into the process's exit code).
#pragma once

#include <exception>
#include <new>
#include <iostream>

#include <CLI/CLI.hpp>

#include "printable.hpp"

namespace tenferro::cli {

template <class F> void run_subcommand(const char* name, F&& run) {
  int code = 0;
  try {
    code = run();
  } catch (const std::bad_alloc&) {  // (its what() says only "std::bad_alloc")
    std::cerr << "tenferro " << name << ": out of host memory (the tensors or the plan do not fit this machine)\n";
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "tenferro " << name << ": " << printable(e.what(), kMaxPrintedMessage) << "\n";
    code = 2;
  }
  if (code != 0) throw CLI::RuntimeError(code);
}

}  // namespace tenferro::cli
