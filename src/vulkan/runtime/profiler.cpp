#include "vulkan/runtime/profiler.hpp"

#include <algorithm>

namespace tenferro::vk {

const char* family_name(KernelFamily f) {
  switch (f) {
    case KernelFamily::gemm: return "gemm";
    case KernelFamily::copy: return "copy";
    case KernelFamily::permute: return "permute";
    case KernelFamily::elementwise: return "elementwise";
    case KernelFamily::reduce: return "reduce";
    case KernelFamily::cast: return "cast";
    case KernelFamily::indexing: return "indexing";
    case KernelFamily::triangular: return "triangular";
    case KernelFamily::fill: return "fill";
    case KernelFamily::transfer: return "transfer";
    case KernelFamily::other: return "other";
  }
  return "other";
}

Profiler::Profiler(const Device& device) : device_(device) {
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(device.physical(), &props);
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &n, nullptr);
  std::vector<VkQueueFamilyProperties> qs(n);
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &n, qs.data());
  if (device.queue_family() < n) valid_bits_ = qs[device.queue_family()].timestampValidBits;
  period_ns_ = static_cast<double>(props.limits.timestampPeriod);
  mask_ = valid_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits_) - 1;
}

void Profiler::start() {
  enabled_ = supported();
  count_.fill(0);
  ticks_.fill(0);
  first_ = ~std::uint64_t{0};
  last_ = 0;
  batches_ = 0;
  trace_.clear();
}

void Profiler::begin(VkCommandBuffer cmd, CommandQueries& q, KernelFamily f) {
  const std::size_t pair = q.families.size();
  const std::size_t pool = pair / kPairsPerPool;
  if (pool == q.pools.size()) {
    auto ci = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = 2 * kPairsPerPool;
    VkQueryPool p = VK_NULL_HANDLE;
    TENFERRO_VK_CHECK(vkCreateQueryPool(device_.get(), &ci, nullptr, &p));
    q.pools.emplace_back(device_.get(), p, vkDestroyQueryPool);
  }
  const VkQueryPool p = q.pools[pool].get();
  const auto index = static_cast<std::uint32_t>(pair % kPairsPerPool);
  if (index == 0) vkCmdResetQueryPool(cmd, p, 0, 2 * kPairsPerPool);  // first use in this buffer
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p, 2 * index);
  q.families.push_back(f);
  q.open = true;
}

void Profiler::end(VkCommandBuffer cmd, CommandQueries& q) {
  if (!q.open) return;
  const std::size_t pair = q.families.size() - 1;
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, q.pools[pair / kPairsPerPool].get(),
                      static_cast<std::uint32_t>(2 * (pair % kPairsPerPool) + 1));
  q.open = false;
}

void Profiler::harvest(CommandQueries& q) {
  TENFERRO_ASSERT(!q.open);
  std::vector<std::uint64_t> t(2 * kPairsPerPool);
  for (std::size_t base = 0; base < q.families.size(); base += kPairsPerPool) {
    const auto pairs = static_cast<std::uint32_t>(std::min<std::size_t>(kPairsPerPool, q.families.size() - base));
    TENFERRO_VK_CHECK(vkGetQueryPoolResults(device_.get(), q.pools[base / kPairsPerPool].get(), 0, 2 * pairs,
                                            t.size() * sizeof(std::uint64_t), t.data(), sizeof(std::uint64_t),
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    for (std::uint32_t k = 0; k < pairs; ++k) {
      const std::uint64_t b = t[2 * k] & mask_, e = t[2 * k + 1] & mask_;
      const auto f = static_cast<std::size_t>(q.families[base + k]);
      ++count_[f];
      ticks_[f] += e >= b ? e - b : 0;
      if (trace_.size() < ProfileReport::kMaxTrace) trace_.push_back({b, e >= b ? e - b : 0, q.families[base + k]});
      first_ = std::min(first_, b);
      last_ = std::max(last_, e);
    }
  }
  q.families.clear();
}

ProfileReport Profiler::report() const {
  ProfileReport r;
  r.supported = supported();
  r.batches = batches_;
  for (int f = 0; f < kKernelFamilies; ++f) {
    if (count_[f] == 0) continue;
    ProfileFamily pf;
    pf.name = family_name(static_cast<KernelFamily>(f));
    pf.dispatches = count_[f];
    pf.gpu_us = static_cast<double>(ticks_[f]) * period_ns_ * 1e-3;
    r.dispatches += pf.dispatches;
    r.busy_us += pf.gpu_us;
    r.families.push_back(std::move(pf));
  }
  // Batches are harvested when their command buffers are reused, not necessarily in order.
  std::vector<Stamp> t = trace_;
  std::stable_sort(t.begin(), t.end(), [](const Stamp& a, const Stamp& b) { return a.begin < b.begin; });
  r.trace.reserve(t.size());
  for (const Stamp& s : t) r.trace.push_back({family_name(s.family), static_cast<double>(s.ticks) * period_ns_ * 1e-3});
  if (last_ >= first_ && r.dispatches > 0) r.span_us = static_cast<double>(last_ - first_) * period_ns_ * 1e-3;
  return r;
}

}  // namespace tenferro::vk
