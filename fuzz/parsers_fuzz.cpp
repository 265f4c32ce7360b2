// libFuzzer harness of the CLI's readers: every input is given, as a file's contents, to
//  - the op-case file reader of `tenferro eval` (parse_case_file, then parse_case on each case:
//    inputs and expected built as host tensors), and
//  - the einsum instance reader of `tenferro einsum` (parse_instance in both layouts, the stored
//    paths, make_plan with the stored path or the planner, and explain: what
//    `tenferro einsum --steps --no-run` does before it prints).
// Malformed input must come out as the CLI's typed errors: CaseError from the case reader,
// InputError from the instance reader, tenferro::Error from planning (which the CLI reports as
// bad input). Any other exception escaping, a crash, a sanitizer report, a hang or an
// allocation over libFuzzer's -malloc_limit_mb is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "case_file.hpp"
#include "instance.hpp"
#include "json_tensor.hpp"
#include "tenferro/einsum.hpp"

namespace {

using namespace tenferro;
using namespace tenferro::cli;

[[noreturn]] void untyped(const char* reader, const std::exception& e) {
  std::fprintf(stderr, "fuzz_parsers: %s let an untyped exception escape (%s): %s\n", reader, typeid(e).name(),
               e.what());
  std::abort();
}

void read_cases(const std::string& text) {
  std::vector<nlohmann::json> cases;
  try {
    cases = parse_case_file(text);
  } catch (const CaseError&) {
    return;
  } catch (const std::exception& e) {
    untyped("parse_case_file", e);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    try {
      (void)case_name(cases[i], i);
      const Case c = parse_case(cases[i], i);
      (void)c;
    } catch (const CaseError&) {
    } catch (const std::exception& e) {
      untyped("parse_case", e);
    }
  }
}

// What `tenferro einsum FILE --steps --no-run [--path P]` does with an instance before printing.
void plan_instance(const Instance& inst) {
  for (const char* key : {"auto", "opt_size", "opt_flops"}) {
    EinsumOptions opts;
    opts.cache = false;  // (the cache would grow with every input)
    if (std::string(key) != "auto") {
      try {
        opts.path = stored_path(inst, key);
        opts.use_path = true;
      } catch (const InputError&) {
        continue;
      }
    }
    try {
      const auto plan = make_plan(inst.format, inst.shapes, opts);
      std::vector<Layout> layouts;
      for (const Shape& sh : inst.shapes) layouts.push_back(Layout::compact(sh));
      (void)explain(plan->spec, plan->path, layouts, DType::F64, true);
      (void)explain(plan->spec, plan->path, layouts, DType::C32, false);
    } catch (const Error&) {
    }
  }
}

void read_instance_text(const std::string& text) {
  for (const char* layout : {"colmajor", "rowmajor"}) {
    try {
      plan_instance(parse_instance(text, "fuzz.json", layout));
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      untyped("the instance reader", e);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_cases(text);
  read_instance_text(text);
  return 0;
}
