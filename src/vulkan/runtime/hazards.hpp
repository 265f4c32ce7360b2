// HazardTracker: pure logic deciding where a barrier is needed between the dispatches of one
// command buffer (STYLE.md B6.3, the ggml rule). Ranges are half-open byte ranges of device
// addresses. No Vulkan here, so it is unit-tested without a GPU (tests/vulkan/hazards_test.cpp).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace tenferro::vk {

struct ByteRange {
  std::uint64_t begin = 0, end = 0;  // [begin, end)
  bool overlaps(const ByteRange& o) const { return begin < o.end && o.begin < end && begin < end && o.begin < o.end; }
};

class HazardTracker {
 public:
  /// True when an access reading `reads` and writing `writes` conflicts with the pending set:
  /// reads a range a pending access wrote (RAW), writes a range a pending access wrote (WAW)
  /// or writes a range a pending access read (WAR). Reads after reads never conflict.
  bool conflicts(std::span<const ByteRange> reads, std::span<const ByteRange> writes) const;
  /// Records an access: if it conflicts, clears the pending set first (the caller emits one
  /// barrier) and returns true; then adds the access to the pending set.
  /// @post pending sets hold exactly the accesses since the last barrier.
  bool access(std::span<const ByteRange> reads, std::span<const ByteRange> writes);
  /// Forgets every pending access (after a barrier or a submission).
  void clear();
  bool empty() const { return reads_.empty() && writes_.empty(); }

 private:
  std::vector<ByteRange> reads_, writes_;
};

}  // namespace tenferro::vk
