// GLSL -> SPIR-V at run time, for the kernels the provider generates (kernels/fused.cpp).
//
// The compiler is glslang, linked from Debian's glslang-dev (static libraries: Debian 12's
// libshaderc.so.1 leaves glslang's symbols unresolved and cannot be loaded). Sources are
// compiled as the build compiles shaders/ (GLSL 450, SPIR-V 1.5 for Vulkan 1.2) and `#include`
// resolves to the embedded shader tree (runtime/shaders.hpp, embedded_shader_sources).
//
// Cache. compile(source) keeps every result in memory for the process, and on disk across
// processes in Options::kernel_cache (TENFERRO_VK_KERNEL_CACHE; docs/configuration.md): one file
// per source, named by a 64-bit hash of it and holding the whole source, which a read compares
// before it trusts the SPIR-V. Files are written to a temporary name and renamed, so that
// processes sharing the directory never read a partial file. A cache that cannot be read or
// written is skipped (the kernel is compiled), never an error.
//
// Thread safety: every function may be called from any thread.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tenferro::vk {

/// What the compiler did since the process started (for tests and `tenferro bench`).
struct CompilerStats {
  std::uint64_t compiles = 0;     // sources compiled by glslang
  std::uint64_t disk_hits = 0;    // sources found in the disk cache
  std::uint64_t memory_hits = 0;  // sources found in memory
  double compile_ms = 0;          // wall time spent compiling (and reading the disk cache)
};

/// The SPIR-V of `source` (a compute shader), from the caches or compiled. `name` labels it in
/// errors. Compile errors (a generator bug) raise Error{internal} with the compiler's log.
std::vector<std::uint32_t> compile_glsl(const std::string& source, std::string_view name);

CompilerStats compiler_stats();

/// The disk cache's folder (Options::kernel_cache, else $XDG_CACHE_HOME/tenferro/kernels, else
/// $HOME/.cache/tenferro/kernels), or empty when it is off or there is no such place. The
/// driver's pipeline cache is kept there too (runtime/pipelines.hpp).
std::filesystem::path kernel_cache_dir();

/// Writes `bytes` to `file` in `dir` (created if missing) through a temporary name and a
/// rename, so that a reader never sees a partial file; a failure leaves no file and is ignored.
void write_file_atomically(const std::filesystem::path& dir, const std::filesystem::path& file,
                           const std::vector<std::string_view>& parts);

}  // namespace tenferro::vk
