// `tenferro eval`: load case files, run each case on each backend, check, report.
// `tenferro devices`: list the usable devices.
#include "eval.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "case_file.hpp"
#include "cli_backend.hpp"
#include "json_tensor.hpp"
#include "printable.hpp"
#include "progress.hpp"
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

std::string_view status_name(Status s) {
  switch (s) {
    case Status::pass: return "pass";
    case Status::fail: return "fail";
    case Status::error: return "error";
  }
  return "error";
}

/// The outcomes so far; with --json also each as an object of the report's "cases".
struct Tally {
  int passed = 0, failed = 0;
  bool as_json = false;
  json cases = json::array();
};

/// One outcome: a line on stdout (text), or an entry of tally.cases (--json). `file` and
/// `case_name` are printable; `backend` empty for a file that could not be read.
void report(Tally& tally, Status status, const std::string& file, const std::string& case_name,
            const std::string& backend, const std::string& message, double seconds) {
  if (tally.as_json) {
    (status == Status::pass ? tally.passed : tally.failed)++;
    json j = {{"file", file}, {"case", case_name}, {"backend", backend}, {"status", status_name(status)},
              {"time_s", seconds}};
    // (JSON escapes control characters: the message is kept whole but for its length.)
    if (!message.empty()) j["message"] = status == Status::pass ? message : shorten(message, kMaxPrintedMessage);
    tally.cases.push_back(std::move(j));
    return;
  }
  const std::string what = case_name.empty() ? file : file + ":" + case_name + " [" + backend + "]";
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

/// A case file read (or the reason it could not be).
struct LoadedFile {
  std::string file;
  std::vector<json> cases;
  std::optional<std::string> error;
};

void run_file(const LoadedFile& f, const std::vector<Backend*>& backends, Tally& tally, Progress& progress,
              long& done) {
  const std::string file = printable(f.file);
  if (f.error) {
    progress.before_output();
    report(tally, Status::error, file, "", "", *f.error, 0.0);
    return;
  }
  for (std::size_t i = 0; i < f.cases.size(); ++i) {
    const std::string name = printable(case_name(f.cases[i], i));
    std::optional<Case> c;
    std::string parse_error;
    try {
      c = parse_case(f.cases[i], i);
    } catch (const std::exception& e) {
      parse_error = e.what();
    }
    for (Backend* be : backends) {
      const auto t0 = std::chrono::steady_clock::now();
      const Outcome o = c ? run_case(*be, *c) : Outcome{Status::error, parse_error};
      progress.before_output();
      report(tally, o.status, file, name, be->name(), o.message,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      progress.update(++done);
    }
  }
}

}  // namespace

int run_eval(const EvalOptions& opts) {
  std::vector<Backend*> backends;
  // --device N alone selects Vulkan device N; with --backend cpu it is an error.
  const std::string backend = !opts.backend.empty() ? opts.backend : opts.device >= 0 ? "vulkan" : "cpu";
  try {
    if (opts.backend != "all") check_device_choice(opts.backend, opts.device);
  } catch (const std::exception& e) {
    std::cerr << "tenferro eval: " << e.what() << "\n";
    return 2;
  }
  try {
    if (backend == "cpu" || backend == "all") backends.push_back(&cpu_backend());
    if (backend == "vulkan" || backend == "all") {
      if (vulkan_available()) {
        backends.push_back(&get_backend("vulkan", opts.device));
      } else if (backend == "vulkan") {
        std::cerr << "tenferro eval: the Vulkan backend is not available (no Vulkan device could be opened, "
                     "or tenferro was built without the Vulkan provider); try --backend cpu\n";
        return 2;
      }
    }
    if (backends.empty()) {
      std::cerr << "tenferro eval: unknown backend '" << backend << "' (expected cpu, vulkan or all)\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "tenferro eval: cannot open backend '" << backend << "': " << e.what() << "\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<LoadedFile> files;
  long total = 0;
  for (const std::string& file : opts.files) {
    LoadedFile f{file, {}, std::nullopt};
    try {
      f.cases = load_cases(file);
    } catch (const std::exception& e) {
      f.error = e.what();
    }
    total += static_cast<long>(f.cases.size() * backends.size());
    files.push_back(std::move(f));
  }
  Tally tally;
  tally.as_json = opts.json;
  {
    Progress progress(opts.progress, "eval cases", total);
    long done = 0;
    for (const LoadedFile& f : files) run_file(f, backends, tally, progress, done);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (opts.json) {
    json backends_json = json::array();
    for (const Backend* be : backends)
      backends_json.push_back({{"backend", be->name()}, {"ordinal", be->placement().ordinal}, {"device", be->device_name()}});
    const json j = {{"backends", backends_json}, {"cases", tally.cases},      {"passed", tally.passed},
                    {"failed", tally.failed},    {"total", tally.passed + tally.failed}, {"time_s", seconds}};
    std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  } else {
    std::cout << tally.passed << " passed, " << tally.failed << " failed" << std::endl;
  }
  return tally.failed == 0 ? 0 : 1;
}

int run_devices(bool as_json) {
  const std::vector<DeviceInfo> devices = list_devices();
  // The default device: the one default_backend() opens (it fails for an invalid
  // TENFERRO_DEVICE: the list is printed without a mark and the error follows on stderr).
  std::string no_default;
  std::string default_backend_name;
  int default_ordinal = -1;
  try {
    const Backend& be = default_backend();
    default_backend_name = be.name();
    default_ordinal = be.placement().ordinal;
  } catch (const std::exception& e) {
    no_default = e.what();
  }
  auto is_default = [&](const DeviceInfo& d) { return d.backend == default_backend_name && d.ordinal == default_ordinal; };
  if (as_json) {
    json list = json::array();
    for (const DeviceInfo& d : devices)
      list.push_back({{"backend", d.backend}, {"ordinal", d.ordinal}, {"name", d.name}, {"type", d.type},
                      {"driver", d.driver}, {"details", d.details}, {"default", is_default(d)}});
    std::cout << json{{"devices", list}}.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  }
  for (const DeviceInfo& d : as_json ? std::vector<DeviceInfo>{} : devices) {
    std::cout << d.backend << " " << d.ordinal << ": " << d.name << (is_default(d) ? "  (default)" : "") << "\n";
    std::cout << "    type: " << d.type << "\n";
    std::cout << "    driver: " << d.driver << "\n";
    for (const std::string& line : d.details) std::cout << "    " << line << "\n";
  }
  std::cout.flush();
  if (!no_default.empty()) {
    std::cerr << "tenferro devices: no default device: " << printable(no_default, kMaxPrintedMessage) << "\n";
    return 2;
  }
  return 0;
}

}  // namespace tenferro::cli
