// The einsum instances of data/instances (TENFERRO_INSTANCES overrides the directory): subscripts,
// shapes and the stored opt_flops and opt_size paths.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/einsum.hpp"

namespace tenferro::test {

inline std::filesystem::path instance_dir() {
  if (const char* env = std::getenv("TENFERRO_INSTANCES")) return env;
#ifdef TENFERRO_INSTANCE_DIR
  return TENFERRO_INSTANCE_DIR;  // absolute (ccache's base_dir can make __FILE__ relative)
#else
  return std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "data" / "instances";
#endif
}

struct Instance {
  std::string name, format;
  std::vector<Shape> shapes;
  Path opt_flops, opt_size;
  double stored_log10 = 0;
};

inline Path read_path(const nlohmann::json& j) {
  Path p;
  for (const auto& s : j) p.emplace_back(s.at(0).get<int>(), s.at(1).get<int>());
  return p;
}

/// Every instance file, sorted by file name (files without format_string and shapes skipped).
inline std::vector<Instance> load_instances() {
  std::vector<Instance> out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(instance_dir()))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    const auto j = nlohmann::json::parse(in);
    if (!j.contains("format_string") || !j.contains("shapes")) continue;  // not an einsum instance
    Instance inst;
    inst.name = j.at("name").get<std::string>();
    inst.format = j.at("format_string").get<std::string>();
    for (const auto& s : j.at("shapes")) inst.shapes.push_back(s.get<Shape>());
    inst.opt_flops = read_path(j.at("paths").at("opt_flops").at("path"));
    inst.opt_size = read_path(j.at("paths").at("opt_size").at("path"));
    inst.stored_log10 = j.at("paths").at("opt_flops").at("log10_flops").get<double>();
    out.push_back(std::move(inst));
  }
  return out;
}

}  // namespace tenferro::test
