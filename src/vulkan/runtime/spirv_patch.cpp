#include "vulkan/runtime/spirv_patch.hpp"

#include <cstring>

#include "tenferro/error.hpp"

namespace tenferro::vk {

namespace {
// SPIR-V 1.6 spec, section 3 (numbers from the unified grammar).
constexpr std::uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17;
constexpr std::uint32_t kCapabilityDenormPreserve = 4464;
constexpr std::uint32_t kExecutionModeDenormPreserve = 4459;
constexpr std::size_t kHeaderWords = 5;

std::uint32_t opcode(std::uint32_t w) { return w & 0xFFFFu; }
std::uint32_t length(std::uint32_t w) { return w >> 16; }
std::uint32_t instruction(std::uint32_t op, std::uint32_t n) { return n << 16 | op; }

// OpExtension "SPV_KHR_float_controls": the literal string nul-terminated, padded to words.
std::vector<std::uint32_t> extension_instruction() {
  static constexpr char kName[] = "SPV_KHR_float_controls";
  const std::size_t nwords = (sizeof kName + 3) / 4;  // sizeof counts the nul
  std::vector<std::uint32_t> out(1 + nwords, 0);
  out[0] = instruction(kOpExtension, static_cast<std::uint32_t>(1 + nwords));
  std::memcpy(out.data() + 1, kName, sizeof kName);
  return out;
}
}  // namespace

std::vector<std::uint32_t> with_denorm_preserve(std::span<const std::uint32_t> words, std::uint32_t width) {
  TENFERRO_CHECK(words.size() >= kHeaderWords && words[0] == 0x07230203u, internal, "vulkan", "",
                 "not a SPIR-V module");
  // Pass 1: positions (word indices) of the last capability and the entry points' ids.
  std::size_t after_caps = kHeaderWords, after_entries = 0;
  std::vector<std::uint32_t> entries;
  for (std::size_t i = kHeaderWords; i < words.size();) {
    const std::uint32_t n = length(words[i]), op = opcode(words[i]);
    TENFERRO_CHECK(n > 0 && i + n <= words.size(), internal, "vulkan", "", "malformed SPIR-V instruction at word ", i);
    if (op == kOpCapability) {
      if (n >= 2 && words[i + 1] == kCapabilityDenormPreserve) return {words.begin(), words.end()};
      after_caps = i + n;
    } else if (op == kOpEntryPoint) {
      TENFERRO_CHECK(n >= 3, internal, "vulkan", "", "malformed OpEntryPoint");
      entries.push_back(words[i + 2]);
      after_entries = i + n;
    }
    i += n;
  }
  TENFERRO_CHECK(!entries.empty(), internal, "vulkan", "", "SPIR-V module without an entry point");
  // Pass 2: copy, inserting the capability and extension after the capabilities (the extension
  // section follows them) and the execution modes right after the entry points.
  std::vector<std::uint32_t> out;
  out.reserve(words.size() + 16 + 4 * entries.size());
  out.insert(out.end(), words.begin(), words.begin() + static_cast<std::ptrdiff_t>(after_caps));
  out.push_back(instruction(kOpCapability, 2));
  out.push_back(kCapabilityDenormPreserve);
  const std::vector<std::uint32_t> ext = extension_instruction();
  out.insert(out.end(), ext.begin(), ext.end());
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(after_caps),
             words.begin() + static_cast<std::ptrdiff_t>(after_entries));
  for (std::uint32_t id : entries) {
    out.push_back(instruction(kOpExecutionMode, 4));
    out.push_back(id);
    out.push_back(kExecutionModeDenormPreserve);
    out.push_back(width);
  }
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(after_entries), words.end());
  return out;
}

}  // namespace tenferro::vk
