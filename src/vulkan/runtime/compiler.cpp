#include "vulkan/runtime/compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>

#include "core/env.hpp"
#include "tenferro/error.hpp"
#include "vulkan/options.hpp"
#include "vulkan/runtime/shaders.hpp"

namespace tenferro::vk {

namespace {

// #include "path" of a generated kernel: the embedded file of that path, else of the path
// relative to the including file's folder (as glslangValidator resolves them in the build).
class EmbeddedIncluder final : public glslang::TShader::Includer {
 public:
  IncludeResult* includeLocal(const char* requested, const char* includer, std::size_t) override {
    const EmbeddedSource* s = find(requested);
    const std::string_view from = includer;
    if (s == nullptr && from.rfind('/') != std::string_view::npos)
      s = find(std::string(from.substr(0, from.rfind('/') + 1)) + requested);
    static const char kMissing[] = "not an embedded shader include (TENFERRO_SHADER_INCLUDES)";
    if (s == nullptr) return new IncludeResult("", kMissing, sizeof kMissing - 1, nullptr);
    return new IncludeResult(std::string(s->path), s->text.data(), s->text.size(), nullptr);
  }
  IncludeResult* includeSystem(const char* requested, const char* includer, std::size_t depth) override {
    return includeLocal(requested, includer, depth);
  }
  void releaseInclude(IncludeResult* r) override { delete r; }

 private:
  static const EmbeddedSource* find(std::string_view path) {
    for (const EmbeddedSource& s : embedded_shader_sources())
      if (s.path == path) return &s;
    return nullptr;
  }
};

// GLSL 450 compute -> SPIR-V 1.5 for Vulkan 1.2, as `glslangValidator -V --target-env
// vulkan1.2` compiles shaders/ in the build. Empty with `log` set on failure.
std::vector<std::uint32_t> glslang_compile(const std::string& source, const std::string& name, std::string& log) {
  static const bool initialized = glslang::InitializeProcess();  // once; kept for the process
  if (!initialized) {
    log = "glslang could not be initialized";
    return {};
  }
  glslang::TShader shader(EShLangCompute);
  const char* text = source.c_str();
  const char* names = name.c_str();
  shader.setStringsWithLengthsAndNames(&text, nullptr, &names, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  EmbeddedIncluder includer;
  if (!shader.parse(GetDefaultResources(), 450, false, messages, includer)) {
    log = shader.getInfoLog();
    return {};
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    log = program.getInfoLog();
    return {};
  }
  std::vector<unsigned int> spirv;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv);
  return {spirv.begin(), spirv.end()};
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

constexpr std::string_view kMagic = "tenferro-spirv 1\n";

std::filesystem::path cache_file(const std::filesystem::path& dir, std::string_view source) {
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.spv", static_cast<unsigned long long>(fnv1a(source)));
  return dir / name;
}

// The SPIR-V cached for `source`, or empty (no file, another source of the same hash, a short
// or foreign file).
std::vector<std::uint32_t> read_cached(const std::filesystem::path& file, std::string_view source) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::string head(kMagic.size(), '\0');
  std::uint64_t n = 0;
  if (!in.read(head.data(), static_cast<std::streamsize>(head.size())) || head != kMagic ||
      !in.read(reinterpret_cast<char*>(&n), sizeof n) || n != source.size())
    return {};
  std::string text(n, '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(n)) || text != source) return {};
  std::vector<char> rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (rest.empty() || rest.size() % 4 != 0) return {};
  std::vector<std::uint32_t> words(rest.size() / 4);
  std::memcpy(words.data(), rest.data(), rest.size());
  return words;
}

void write_cached(const std::filesystem::path& dir, const std::filesystem::path& file, std::string_view source,
                  const std::vector<std::uint32_t>& words) {
  const std::uint64_t n = source.size();
  write_file_atomically(dir, file,
                        {kMagic, {reinterpret_cast<const char*>(&n), sizeof n}, source,
                         {reinterpret_cast<const char*>(words.data()), words.size() * 4}});
}

struct State {
  std::mutex mutex;
  std::unordered_map<std::string, std::vector<std::uint32_t>> memory;
  CompilerStats stats;
};
State& state() {
  static State s;
  return s;
}

}  // namespace

std::filesystem::path kernel_cache_dir() {
  const std::string& o = options().kernel_cache;
  if (o == "off") return {};
  if (!o.empty()) return o;
  if (auto x = env::text("XDG_CACHE_HOME"); x && !x->empty()) return std::filesystem::path(*x) / "tenferro" / "kernels";
  if (auto h = env::text("HOME"); h && !h->empty()) return std::filesystem::path(*h) / ".cache" / "tenferro" / "kernels";
  return {};
}

void write_file_atomically(const std::filesystem::path& dir, const std::filesystem::path& file,
                           const std::vector<std::string_view>& parts) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;
  // A name of this process and call: writers in other processes or threads never share it.
  static std::atomic<std::uint64_t> calls{0};
  std::filesystem::path tmp = file;
  tmp += ".tmp" + std::to_string(::getpid()) + "." + std::to_string(calls.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    for (std::string_view p : parts) out.write(p.data(), static_cast<std::streamsize>(p.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

std::vector<std::uint32_t> compile_glsl(const std::string& source, std::string_view name) {
  State& st = state();
  std::lock_guard lock(st.mutex);
  const bool memory = !test_hooks().compiler_memory_off;
  if (auto it = st.memory.find(source); memory && it != st.memory.end()) {
    ++st.stats.memory_hits;
    return it->second;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto took = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
  const std::filesystem::path dir = kernel_cache_dir();
  const std::filesystem::path file = dir.empty() ? dir : cache_file(dir, source);
  std::vector<std::uint32_t> words;
  if (!dir.empty()) words = read_cached(file, source);
  if (!words.empty()) {
    ++st.stats.disk_hits;
  } else {
    std::string log;
    words = glslang_compile(source, std::string(name), log);
    TENFERRO_CHECK(!words.empty(), internal, std::string(name), "", "[vulkan] the generated kernel did not compile: ", log);
    ++st.stats.compiles;
    if (!dir.empty()) write_cached(dir, file, source, words);
  }
  st.stats.compile_ms += took();
  if (!memory) return words;
  return st.memory.emplace(source, std::move(words)).first->second;
}

CompilerStats compiler_stats() {
  State& st = state();
  std::lock_guard lock(st.mutex);
  return st.stats;
}

}  // namespace tenferro::vk
