// `tenferro eval`: load case files, run each case on each backend, check, report.
// `tenferro devices`: list the usable devices.
#include "eval.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "case_file.hpp"
#include "json_tensor.hpp"
#include "printable.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::cli {
namespace {

using json = nlohmann::json;

enum class Status { pass, fail, error };

struct Outcome {
  Status status;
  std::string message;  // FAIL/ERROR: why; PASS of a case without expectations: the result
};

// Long results in messages are cut to keep report lines readable.
std::string shorten(std::string s, std::size_t max = 400) {
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

Outcome run_case(Backend& be, const Case& c) {
  try {
    // Device backends get uploaded copies; the CPU backend uses the host tensors directly.
    std::vector<Tensor> uploaded;
    std::vector<TensorView> views;
    for (const Tensor& t : c.inputs) {
      if (be.is_host()) {
        views.push_back(t);
      } else {
        uploaded.push_back(upload(be, t));
        views.push_back(uploaded.back());
      }
    }
    Tensor out = run_op(be, c.op, views, c.attrs);
    // Asynchronous GPU errors surface at the synchronization, inside this try: they belong
    // to this case.
    Tensor host = out;
    if (!be.is_host()) {
      be.synchronize();
      host = download(be, out);
    }
    if (c.expected_error) {
      // The result's values only when small: a large one would be converted whole to be cut.
      // (An empty result of a huge shape is many nested lists: [2^62, 0] is 2^62 of them.)
      std::ostringstream what;
      what << dtype_name(host.dtype()) << " " << host.shape();
      const bool small = host.numel() <= 64 && json_nested_items(host.shape()) <= 1024;
      return {Status::fail, "expected error " + std::string(error_kind_name(*c.expected_error)) +
                                ", got success: " + (small ? shorten(tensor_to_json(host)) : what.str() + " result")};
    }
    if (!c.expected) return {Status::pass, tensor_to_json(host)};
    const double rtol = c.rtol.value_or(default_rtol(c.expected->dtype()));
    if (std::optional<std::string> diff = compare_tensors(host, *c.expected, rtol)) return {Status::fail, *diff};
    return {Status::pass, ""};
  } catch (const Error& e) {
    if (!c.expected_error) return {Status::error, e.what()};
    if (e.kind() == *c.expected_error) return {Status::pass, ""};
    return {Status::fail, "expected error " + std::string(error_kind_name(*c.expected_error)) + ", got " +
                              std::string(error_kind_name(e.kind())) + ": " + e.what()};
  } catch (const std::exception& e) {
    return {Status::error, e.what()};
  }
}

struct Tally {
  int passed = 0, failed = 0;
};

void report(Tally& tally, Status status, const std::string& what, const std::string& message) {
  switch (status) {
    case Status::pass:
      tally.passed++;
      std::cout << "PASS " << what;
      break;
    case Status::fail:
      tally.failed++;
      std::cout << "FAIL " << what;
      break;
    case Status::error:
      tally.failed++;
      std::cout << "ERROR " << what;
      break;
  }
  // A result printed as JSON holds no control character and is not cut (it is the case's
  // output); a FAIL or ERROR message may quote the file's text.
  if (!message.empty()) std::cout << " : " << (status == Status::pass ? message : printable(message, kMaxPrintedMessage));
  std::cout << std::endl;  // flushed per line so a crash in a later case keeps earlier lines
}


// Reads and parses one file into its list of case objects; throws CaseError.
std::vector<json> load_cases(const std::string& file) {
  std::string text;
  try {
    text = read_input_file(file, "case file");
  } catch (const std::runtime_error& e) {
    throw CaseError(e.what());
  }
  return parse_case_file(text);
}

void run_file(const std::string& file, const std::vector<Backend*>& backends, Tally& tally) {
  std::vector<json> cases;
  try {
    cases = load_cases(file);
  } catch (const std::exception& e) {
    report(tally, Status::error, printable(file), e.what());
    return;
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string name = printable(file) + ":" + printable(case_name(cases[i], i));
    std::optional<Case> c;
    std::string parse_error;
    try {
      c = parse_case(cases[i], i);
    } catch (const std::exception& e) {
      parse_error = e.what();
    }
    for (Backend* be : backends) {
      const std::string what = name + " [" + be->name() + "]";
      if (!c) {
        report(tally, Status::error, what, parse_error);
        continue;
      }
      const Outcome o = run_case(*be, *c);
      report(tally, o.status, what, o.message);
    }
  }
}

}  // namespace

int run_eval(const EvalOptions& opts) {
  std::vector<Backend*> backends;
  try {
    if (opts.backend == "cpu" || opts.backend == "all") backends.push_back(&cpu_backend());
    if (opts.backend == "vulkan" || opts.backend == "all") {
      if (vulkan_available()) {
        backends.push_back(&get_backend("vulkan", opts.device));
      } else if (opts.backend == "vulkan") {
        std::cerr << "tenferro eval: the Vulkan backend is not available (no Vulkan device could be opened, "
                     "or tenferro was built without the Vulkan provider); try --backend cpu\n";
        return 2;
      }
    }
    if (backends.empty()) {
      std::cerr << "tenferro eval: unknown backend '" << opts.backend << "' (expected cpu, vulkan or all)\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "tenferro eval: cannot open backend '" << opts.backend << "': " << e.what() << "\n";
    return 2;
  }
  Tally tally;
  for (const std::string& file : opts.files) run_file(file, backends, tally);
  std::cout << tally.passed << " passed, " << tally.failed << " failed" << std::endl;
  return tally.failed == 0 ? 0 : 1;
}

int run_devices() {
  for (const DeviceInfo& d : list_devices()) {
    std::cout << d.backend << " " << d.ordinal << ": " << d.name << "\n";
    std::cout << "    type: " << d.type << "\n";
    std::cout << "    driver: " << d.driver << "\n";
    for (const std::string& line : d.details) std::cout << "    " << line << "\n";
  }
  std::cout.flush();
  return 0;
}

}  // namespace tenferro::cli
