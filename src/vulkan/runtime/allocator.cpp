// Block sub-allocation with first-fit free lists, a reservation cap and an empty-block cache.
#include "vulkan/runtime/allocator.hpp"

#include <algorithm>

namespace tenferro::vk {

namespace {
constexpr VkDeviceSize round_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

// Free-list edits that reuse map nodes, so that the steady allocate/free of equal sizes makes no
// heap allocation (a split or a merge moves a range's start; an emptied range becomes the spare).
void add_range(Block& b, VkDeviceSize off, VkDeviceSize size) {
  if (b.spare.empty()) {
    b.free_ranges.emplace(off, size);
    return;
  }
  b.spare.key() = off;
  b.spare.mapped() = size;
  b.free_ranges.insert(std::move(b.spare));
}
void drop_range(Block& b, Block::Ranges::iterator it) {
  if (b.spare.empty())
    b.spare = b.free_ranges.extract(it);
  else
    b.free_ranges.erase(it);
}
/// The range at `it` becomes [off, +size). @pre its neighbours keep their order around `off`.
void move_range(Block& b, Block::Ranges::iterator it, VkDeviceSize off, VkDeviceSize size) {
  const auto hint = std::next(it);
  auto node = b.free_ranges.extract(it);
  node.key() = off;
  node.mapped() = size;
  b.free_ranges.insert(hint, std::move(node));
}

// Index of the first memory type with all `want` flags (and none of `avoid`), else -1.
int find_type(const VkPhysicalDeviceMemoryProperties& m, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid = 0) {
  for (std::uint32_t t = 0; t < m.memoryTypeCount; ++t) {
    const auto f = m.memoryTypes[t].propertyFlags;
    if ((f & want) == want && (f & avoid) == 0) return static_cast<int>(t);
  }
  return -1;
}
}  // namespace

Allocator::Allocator(const Device& device, std::uint64_t cap, std::uint64_t cache)
    : device_(device), cap_(cap), cache_(cache) {
  const auto& m = device.caps().memory;
  constexpr auto DL = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr auto HV = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  constexpr auto HC = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  std::uint64_t largest_dl = 0;
  for (std::uint32_t h = 0; h < m.memoryHeapCount; ++h)
    if (m.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) largest_dl = std::max<std::uint64_t>(largest_dl, m.memoryHeaps[h].size);
  // Tensors: device-local; zero-copy when a host-visible device-local type covers (nearly) the
  // whole device-local heap (UMA, lavapipe, ReBAR), not the 256 MiB BAR window.
  int dl = find_type(m, DL);
  const int dl_hv = find_type(m, DL | HV);
  // On a discrete GPU a host-visible device-local type is the PCIe BAR (resizable BAR): host
  // reads of it are uncached and crawl (a 1 GiB download took minutes on an H200), so there
  // tensors stay in plain device memory and transfers go through staging, unless the type is
  // also host-cached.
  const bool discrete = device.caps().device_type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  const bool dl_hv_cached = dl_hv >= 0 && (m.memoryTypes[dl_hv].propertyFlags & HC);
  if (dl_hv >= 0 && m.memoryHeaps[m.memoryTypes[dl_hv].heapIndex].size * 10 >= largest_dl * 9 &&
      (!discrete || dl_hv_cached))
    dl = dl_hv;
  int up = find_type(m, HV, HC);
  if (up < 0) up = find_type(m, HV);
  int rb = find_type(m, HV | HC);
  if (rb < 0) rb = find_type(m, HV);
  TENFERRO_CHECK(dl >= 0 && up >= 0 && rb >= 0, unsupported, "vulkan", "", "device ", device.caps().name,
                 " lacks a device-local or host-visible coherent memory type");
  types_[0] = static_cast<std::uint32_t>(dl);
  types_[1] = static_cast<std::uint32_t>(up);
  types_[2] = static_cast<std::uint32_t>(rb);
  types_[3] = static_cast<std::uint32_t>(dl_hv >= 0 ? dl_hv : up);
  if (cap_ == 0) cap_ = largest_dl ? largest_dl : m.memoryHeaps[0].size;
  if (cache_ == kCacheAuto) cache_ = std::min<std::uint64_t>(cap_ / 8, std::uint64_t{8} << 30);
}

Allocator::~Allocator() {
  // Live allocations at destruction are a leak of the owner; release the memory regardless.
  blocks_.clear();
}

std::uint32_t Allocator::type_for(MemoryIntent intent) const { return types_[static_cast<int>(intent)]; }

bool Allocator::host_visible(MemoryIntent intent) const {
  return device_.caps().memory.memoryTypes[type_for(intent)].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
}

void Allocator::set_limits(std::uint64_t cap, std::uint64_t cache) {
  if (cap) cap_ = cap;
  cache_ = cache;
  enforce_limits();
}

Allocation Allocator::allocate(VkDeviceSize size, MemoryIntent intent) {
  TENFERRO_ASSERT(size > 0);
  const VkDeviceSize need = round_up(size, kAlignment);
  const std::uint32_t type = type_for(intent);
  const bool tensors = intent == MemoryIntent::device_local;
  Block* block = nullptr;
  VkDeviceSize offset = 0;
  auto try_fit = [&](Block* b) {
    for (auto it = b->free_ranges.begin(); it != b->free_ranges.end(); ++it) {
      if (it->second < need) continue;
      offset = it->first;
      const VkDeviceSize rest = it->second - need;
      if (rest)
        move_range(*b, it, offset + need, rest);
      else
        drop_range(*b, it);
      return true;
    }
    return false;
  };
  // Prefer partly used blocks so that cached empty blocks stay whole.
  for (int pass = 0; pass < 2 && !block; ++pass)
    for (auto& b : blocks_)
      if (b->type == type && b->tensors == tensors && (pass == 1 || b->used > 0) && try_fit(b.get())) {
        block = b.get();
        break;
      }
  if (!block) {
    // Small requests share blocks; large ones get a block of their own.
    VkDeviceSize bsize = need >= kBlockSize / 2 ? round_up(need, 1ull << 20) : kBlockSize;
    if (!tensors && need <= kSmallRequest) bsize = kSmallBlockSize;
    if (tensors) {
      constexpr VkDeviceSize kGrain = 1ull << 16;
      const VkDeviceSize least = round_up(need, kGrain);
      // Give cached empty tensor blocks back until the request fits under the cap.
      while (tensor_reserved_ + least > cap_) {
        auto it = std::find_if(blocks_.begin(), blocks_.end(),
                               [&](const auto& b) { return b->tensors && releasable(*b); });
        if (it == blocks_.end()) break;
        release_block(it->get());
      }
      TENFERRO_CHECK(tensor_reserved_ + least <= cap_, out_of_memory, "allocate", "", "[vulkan] allocating ",
                     size, " bytes would exceed the memory cap: ", tensor_reserved_, " of ", cap_,
                     " bytes held by tensor blocks");
      // A block shrinks to what is left under the cap (at least the request).
      const VkDeviceSize room = (cap_ - tensor_reserved_) / kGrain * kGrain;
      bsize = std::min(bsize, std::max(least, room));
    }
    block = new_block(bsize, type, tensors);
    try_fit(block);
  }
  block->used += need;
  in_use_ += need;
  ++live_;
  if (intent == MemoryIntent::device_local) {
    tensor_in_use_ += need;
    tensor_peak_ = std::max(tensor_peak_, tensor_in_use_);
  }
  Allocation a;
  a.block = block;
  a.buffer = block->buffer.get();
  a.offset = offset;
  a.size = need;
  a.address = block->address + offset;
  a.mapped = block->mapped ? block->mapped + offset : nullptr;
  a.intent = intent;
  a.reuse_after = block->busy_until > completed_ ? block->busy_until : 0;  // the block's latest free
  return a;
}

bool Allocator::releasable(const Block& b) const { return b.used == 0 && b.busy_until <= completed_; }

void Allocator::set_completed(std::uint64_t value) {
  completed_ = std::max(completed_, value);
  enforce_limits();
}

void Allocator::free(const Allocation& a, std::uint64_t busy_until) {
  if (!a) return;
  Block* b = a.block;
  b->busy_until = std::max(b->busy_until, busy_until);
  auto next = b->free_ranges.lower_bound(a.offset);
  const bool join_next = next != b->free_ranges.end() && a.offset + a.size == next->first;
  auto prev = next == b->free_ranges.begin() ? b->free_ranges.end() : std::prev(next);
  if (prev != b->free_ranges.end() && prev->first + prev->second == a.offset) {  // grow the previous range
    prev->second += a.size;
    if (join_next) {
      prev->second += next->second;
      drop_range(*b, next);
    }
  } else if (join_next) {  // the next range starts earlier
    move_range(*b, next, a.offset, a.size + next->second);
  } else {
    add_range(*b, a.offset, a.size);
  }
  b->used -= a.size;
  in_use_ -= a.size;
  --live_;
  if (a.intent == MemoryIntent::device_local) tensor_in_use_ -= a.size;
  if (b->used == 0) enforce_limits();
}

void Allocator::trim() {
  for (std::size_t i = blocks_.size(); i-- > 0;)
    if (releasable(*blocks_[i])) release_block(blocks_[i].get());
}

void Allocator::enforce_limits() {
  for (;;) {
    std::uint64_t cached = 0;
    Block *largest = nullptr, *largest_tensors = nullptr;
    for (auto& b : blocks_)
      if (b->used == 0) {
        cached += b->size;
        if (!releasable(*b)) continue;
        if (!largest || b->size > largest->size) largest = b.get();
        if (b->tensors && (!largest_tensors || b->size > largest_tensors->size)) largest_tensors = b.get();
      }
    // Tensor blocks over a lowered cap go first: the cap is not exceeded by cached blocks.
    if (tensor_reserved_ > cap_ && largest_tensors) {
      release_block(largest_tensors);
      continue;
    }
    if (cached <= cache_ || !largest) return;
    release_block(largest);
  }
}

MemoryStats Allocator::stats() const {
  MemoryStats s;
  s.bytes_in_use = in_use_;
  s.bytes_reserved = reserved_;
  s.tensor_bytes_reserved = tensor_reserved_;
  s.blocks = blocks_.size();
  s.live_allocations = live_;
  s.tensor_bytes_in_use = tensor_in_use_;
  s.tensor_bytes_peak = tensor_peak_;
  for (const auto& b : blocks_)
    if (b->used == 0) s.bytes_cached += b->size;
  return s;
}

Block* Allocator::new_block(VkDeviceSize size, std::uint32_t type, bool tensors) {
  const VkDevice dev = device_.get();
  auto b = std::make_unique<Block>();
  b->tensors = tensors;
  auto bi = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.size = size;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
             VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
             VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;  // (the certified Ozaki product's fallback)
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buf = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateBuffer(dev, &bi, nullptr, &buf));
  b->buffer = Unique<VkBuffer>(dev, buf, vkDestroyBuffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, buf, &req);
  TENFERRO_CHECK(req.memoryTypeBits & (1u << type), unsupported, "vulkan", "", "memory type ", type,
                 " cannot back storage buffers on ", device_.caps().name);
  auto flags = vk_struct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  auto ai = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  ai.pNext = &flags;
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkAllocateMemory(dev, &ai, nullptr, &mem));
  b->memory = Unique<VkDeviceMemory>(dev, mem, vkFreeMemory);
  TENFERRO_VK_CHECK(vkBindBufferMemory(dev, buf, mem, 0));
  if (device_.caps().memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void* p = nullptr;
    TENFERRO_VK_CHECK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, &p));
    b->mapped = static_cast<std::byte*>(p);
  }
  auto addr = vk_struct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  addr.buffer = buf;
  b->address = vkGetBufferDeviceAddress(dev, &addr);
  b->size = size;
  b->type = type;
  b->free_ranges.emplace(0, size);
  reserved_ += size;
  if (tensors) tensor_reserved_ += size;
  blocks_.push_back(std::move(b));
  return blocks_.back().get();
}

void Allocator::release_block(Block* b) {
  TENFERRO_ASSERT(b->used == 0);
  reserved_ -= b->size;
  if (b->tensors) tensor_reserved_ -= b->size;
  // Unique handles unmap implicitly: vkFreeMemory releases the mapping.
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [b](const auto& p) { return p.get() == b; });
  blocks_.erase(it);
}

}  // namespace tenferro::vk
