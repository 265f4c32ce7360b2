#include "vulkan/runtime/hazards.hpp"

namespace tenferro::vk {

namespace {
bool any_overlap(std::span<const ByteRange> a, const std::vector<ByteRange>& b) {
  for (const ByteRange& x : a)
    for (const ByteRange& y : b)
      if (x.overlaps(y)) return true;
  return false;
}
}  // namespace

bool HazardTracker::conflicts(std::span<const ByteRange> reads, std::span<const ByteRange> writes) const {
  return any_overlap(reads, writes_) || any_overlap(writes, writes_) || any_overlap(writes, reads_);
}

bool HazardTracker::access(std::span<const ByteRange> reads, std::span<const ByteRange> writes) {
  const bool barrier = conflicts(reads, writes);
  if (barrier) clear();
  reads_.insert(reads_.end(), reads.begin(), reads.end());
  writes_.insert(writes_.end(), writes.begin(), writes.end());
  return barrier;
}

void HazardTracker::clear() {
  reads_.clear();
  writes_.clear();
}

}  // namespace tenferro::vk
