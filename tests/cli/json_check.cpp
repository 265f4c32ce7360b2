// cli_json_check SCHEMA COMMAND...: runs COMMAND (the tenferro CLI with --json), parses what it
// prints on stdout and checks it against SCHEMA (einsum, einsum_no_run, bench, bench_call (bench
// gemm and overhead), devices, eval:
// the fields docs/cli.md lists, with their types and the totals' consistency). Every time is
// in seconds, named with the suffix _s: no key anywhere ends in _seconds, _ms or _us. Exit 0
// when the output matches, 1 with the reason otherwise.
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using json = nlohmann::json;

struct Failure {
  std::string what;
};

void require(bool ok, const std::string& what) {
  if (!ok) throw Failure{what};
}

bool ends_with(const std::string& s, const std::string& t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

/// No key ending in another time unit than _s, at any depth.
void check_time_keys(const json& j, const std::string& at) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      for (const char* bad : {"_seconds", "_ms", "_us"})
        require(!ends_with(k, bad), "key " + at + "." + k + " names a time in another unit than seconds (_s)");
      check_time_keys(v, at + "." + k);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) check_time_keys(v, at + "[]");
  }
}

void has(const json& j, const std::string& key, json::value_t type, const std::string& at) {
  require(j.is_object() && j.contains(key), at + " has no \"" + key + "\"");
  const json::value_t t = j.at(key).type();
  const bool number = type == json::value_t::number_float &&
                      (t == json::value_t::number_float || t == json::value_t::number_integer ||
                       t == json::value_t::number_unsigned);
  const bool integer = type == json::value_t::number_unsigned &&
                       (t == json::value_t::number_integer || t == json::value_t::number_unsigned);
  require(t == type || number || integer, at + "." + key + " has the wrong type: " + j.at(key).dump());
}

constexpr auto kStr = json::value_t::string, kNum = json::value_t::number_float, kInt = json::value_t::number_unsigned,
               kArr = json::value_t::array, kObj = json::value_t::object, kBool = json::value_t::boolean;

void check_einsum(const json& j, bool no_run) {
  for (const char* k : {"instance", "layout", "dtype", "path"}) has(j, k, kStr, "einsum");
  has(j, "num_tensors", kInt, "einsum");
  if (no_run) {
    has(j, "explain_s", kNum, "einsum");
    has(j, "explain", kObj, "einsum");
    return;
  }
  for (const char* k : {"backend", "device", "path_method"}) has(j, k, kStr, "einsum");
  for (const char* k : {"plan_s", "median_s", "log10_flops"}) has(j, k, kNum, "einsum");
  has(j, "repeat", kInt, "einsum");
  has(j, "times_s", kArr, "einsum");
  require(j["times_s"].size() == j["repeat"].get<std::size_t>(), "einsum.times_s does not hold `repeat` times");
  for (const auto& t : j["times_s"]) require(t.is_number() && t.get<double>() >= 0, "einsum.times_s holds a non-time");
  has(j, "output_shape", kArr, "einsum");
  has(j, "checksum", kObj, "einsum");
  has(j["checksum"], "abs_sum", kNum, "einsum.checksum");
  if (j.contains("check")) {
    has(j["check"], "ok", kBool, "einsum.check");
    has(j["check"], "rel_error", kNum, "einsum.check");
  }
}

// bench gemm / overhead: one object; gemm's rate agrees with its time (2 N^3 flops, 8 N^3 for
// complex dtypes).
void check_bench_call(const json& j) {
  for (const char* k : {"group", "op", "dtype", "backend", "device"}) has(j, k, kStr, "bench");
  has(j, "median_s", kNum, "bench");
  const double t = j["median_s"].get<double>();
  require(t > 0, "bench.median_s is not positive");
  if (j["group"] == "gemm") {
    has(j, "size", kInt, "bench");
    has(j, "tflops", kNum, "bench");
    const double n = j["size"].get<double>(), c = j["dtype"].get<std::string>()[0] == 'c' ? 8.0 : 2.0;
    const double want = c * n * n * n / t * 1e-12;
    require(std::abs(j["tflops"].get<double>() - want) <= 1e-9 * want, "bench.tflops disagrees with median_s and size");
  } else {
    require(j["group"] == "overhead", "bench.group is neither gemm nor overhead");
    has(j, "record_s", kNum, "bench");
    require(j["record_s"].get<double>() > 0, "bench.record_s is not positive");
  }
}

void check_bench_line(const json& j) {
  for (const char* k : {"pattern", "backend", "device"}) has(j, k, kStr, "bench");
  has(j, "elements", kInt, "bench");
  for (const char* k : {"median_s", "gbps", "pct_of_copy"}) has(j, k, kNum, "bench");
  require(j["median_s"].get<double>() > 0, "bench.median_s is not positive");
}

void check_devices(const json& j) {
  has(j, "devices", kArr, "devices");
  int defaults = 0;
  for (const auto& d : j["devices"]) {
    for (const char* k : {"backend", "name", "type", "driver"}) has(d, k, kStr, "devices[]");
    has(d, "ordinal", kInt, "devices[]");
    has(d, "details", kArr, "devices[]");
    has(d, "default", kBool, "devices[]");
    defaults += d["default"].get<bool>() ? 1 : 0;
  }
  require(!j["devices"].empty(), "devices lists no device");
  require(defaults == 1, "devices marks " + std::to_string(defaults) + " default devices, expected 1");
}

void check_eval(const json& j) {
  has(j, "backends", kArr, "eval");
  for (const auto& b : j["backends"]) {
    has(b, "backend", kStr, "eval.backends[]");
    has(b, "ordinal", kInt, "eval.backends[]");
    has(b, "device", kStr, "eval.backends[]");
  }
  has(j, "cases", kArr, "eval");
  for (const char* k : {"passed", "failed", "total"}) has(j, k, kInt, "eval");
  has(j, "time_s", kNum, "eval");
  std::size_t passed = 0;
  for (const auto& c : j["cases"]) {
    for (const char* k : {"file", "case", "backend", "status"}) has(c, k, kStr, "eval.cases[]");
    has(c, "time_s", kNum, "eval.cases[]");
    const std::string s = c["status"];
    require(s == "pass" || s == "fail" || s == "error", "eval.cases[].status '" + s + "'");
    if (s != "pass") has(c, "message", kStr, "eval.cases[] (not passed)");
    passed += s == "pass" ? 1 : 0;
  }
  require(j["total"].get<std::size_t>() == j["cases"].size(), "eval.total is not the number of cases");
  require(j["passed"].get<std::size_t>() == passed, "eval.passed does not count the passed cases");
  require(j["passed"].get<std::size_t>() + j["failed"].get<std::size_t>() == j["cases"].size(),
          "eval.passed + eval.failed is not the number of cases");
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: cli_json_check einsum|einsum_no_run|bench|bench_call|devices|eval COMMAND...\n";
    return 2;
  }
  const std::string schema = argv[1];
  std::string cmd;
  for (int i = 2; i < argc; ++i) {
    if (i > 2) cmd += ' ';
    cmd += quote(argv[i]);
  }
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) {
    std::cerr << "cannot run " << cmd << "\n";
    return 1;
  }
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  try {
    // Exit 1 of eval is a case that failed, still a complete report.
    require(rc == 0 || (schema == "eval" && rc == 1), "the command exited with " + std::to_string(rc));
    std::vector<json> docs;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      try {
        docs.push_back(json::parse(line));
      } catch (const std::exception& e) {
        throw Failure{"stdout line is not JSON (" + std::string(e.what()) + "): " + line.substr(0, 200)};
      }
    }
    require(!docs.empty(), "no output");
    require(schema == "bench" || docs.size() == 1, "expected one JSON object, got " + std::to_string(docs.size()) + " lines");
    for (const json& j : docs) {
      require(j.is_object(), "not a JSON object: " + j.dump().substr(0, 200));
      check_time_keys(j, schema);
      if (schema == "einsum" || schema == "einsum_no_run") check_einsum(j, schema == "einsum_no_run");
      else if (schema == "bench") check_bench_line(j);
      else if (schema == "bench_call") check_bench_call(j);
      else if (schema == "devices") check_devices(j);
      else if (schema == "eval") check_eval(j);
      else throw Failure{"unknown schema " + schema};
    }
    std::cout << "ok: " << schema << ", " << docs.size() << " object(s)\n";
    return 0;
  } catch (const Failure& f) {
    std::cout << "FAIL: " << f.what << "\n" << out.substr(0, 2000) << "\n";
    return 1;
  }
}
