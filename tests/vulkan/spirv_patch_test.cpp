// with_denorm_preserve (src/vulkan/runtime/spirv_patch.hpp) on every embedded shader: the patched
// module has the capability, the extension and one DenormPreserve execution mode per entry
// point, keeps every original instruction in order, and passes spirv-val for Vulkan 1.2. No GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <string>
#include <vector>

#include "tenferro/error.hpp"
#include "vulkan/runtime/shaders.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace tenferro::vk {
namespace {

struct Inst {
  std::uint32_t op;
  std::vector<std::uint32_t> words;
};

std::vector<Inst> parse(const std::vector<std::uint32_t>& m) {
  std::vector<Inst> out;
  for (std::size_t i = 5; i < m.size();) {
    const std::uint32_t n = m[i] >> 16;
    if (n == 0 || i + n > m.size()) {
      ADD_FAILURE() << "malformed instruction at word " << i;
      return out;
    }
    out.push_back({m[i] & 0xFFFFu, {m.begin() + static_cast<std::ptrdiff_t>(i), m.begin() + static_cast<std::ptrdiff_t>(i + n)}});
    i += n;
  }
  return out;
}

TEST(SpirvPatchTest, DenormPreserveOnEveryEmbeddedShader) {
  const auto dir = std::filesystem::temp_directory_path() / ("tenferro_spirv_patch_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::size_t checked = 0;
  for (const EmbeddedShader& s : embedded_shaders()) {
    const std::vector<std::uint32_t> orig(s.words, s.words + s.word_count);
    const std::vector<std::uint32_t> patched = with_denorm_preserve(orig, 32);
    const std::vector<Inst> a = parse(orig), b = parse(patched);
    // Added: 1 capability, 1 extension, 1 execution mode per entry point; nothing else changes.
    std::size_t entries = 0, caps = 0, modes = 0, exts = 0;
    std::vector<Inst> kept;
    for (const Inst& i : b) {
      if (i.op == 17 && i.words.size() == 2 && i.words[1] == 4464) { ++caps; continue; }
      if (i.op == 10 && std::string(reinterpret_cast<const char*>(i.words.data() + 1)) == "SPV_KHR_float_controls") { ++exts; continue; }
      if (i.op == 16 && i.words.size() == 4 && i.words[2] == 4459) {
        EXPECT_EQ(i.words[3], 32u) << s.name;
        ++modes;
        continue;
      }
      if (i.op == 15) ++entries;
      kept.push_back(i);
    }
    EXPECT_EQ(caps, 1u) << s.name;
    EXPECT_EQ(exts, 1u) << s.name;
    EXPECT_EQ(modes, entries) << s.name;
    EXPECT_GE(entries, 1u) << s.name;
    ASSERT_EQ(kept.size(), a.size()) << s.name;
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(kept[i].words, a[i].words) << s.name << " instruction " << i;
    // Patching twice changes nothing.
    EXPECT_EQ(with_denorm_preserve(patched, 32), patched) << s.name;
    // spirv-val accepts it for the environment the shaders are built for.
    const auto file = dir / (std::string(s.name) + ".spv");
    std::FILE* f = std::fopen(file.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(patched.data(), 4, patched.size(), f), patched.size());
    std::fclose(f);
    const std::string cmd = std::string(TENFERRO_SPIRV_VAL) + " --target-env vulkan1.2 " + file.string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << s.name << ": " << cmd;
    ++checked;
  }
  std::filesystem::remove_all(dir);
  EXPECT_GT(checked, 50u);
}

TEST(SpirvPatchTest, RejectsWhatIsNotSpirv) {
  const std::vector<std::uint32_t> junk = {1, 2, 3, 4, 5, 6};
  EXPECT_THROW(with_denorm_preserve(junk, 32), Error);
}

}  // namespace
}  // namespace tenferro::vk
