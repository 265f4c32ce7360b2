// wgsl_dump DIR: writes every kernel of the WebGPU backend's catalog (src/webgpu/catalog.hpp) to
// DIR/<name>.wgsl, first removing DIR's other .wgsl files, for a shader compiler outside the
// process to check (tests/webgpu/tint_check.py: Dawn's Tint).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <vector>

#include "webgpu/catalog.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: wgsl_dump DIR\n");
    return 2;
  }
  try {
    namespace fs = std::filesystem;
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    std::vector<fs::path> stale;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".wgsl") stale.push_back(e.path());
    for (const auto& p : stale) fs::remove(p);
    const auto kernels = tenferro::webgpu::kernel_catalog();
    for (const auto& [name, wgsl] : kernels) {
      std::ofstream f(dir / (name + ".wgsl"), std::ios::binary);
      f << wgsl;
      if (!f) {
        std::fprintf(stderr, "wgsl_dump: cannot write %s\n", (dir / (name + ".wgsl")).c_str());
        return 1;
      }
    }
    std::printf("wgsl_dump: %zu kernels in %s\n", kernels.size(), dir.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wgsl_dump: %s\n", e.what());
    return 1;
  }
  return 0;
}
