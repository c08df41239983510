// An allocator for the import's large, growing buffers (index entries of a
// group, table file contents). Blocks of 4 MiB and more are mapped on their
// own, 2 MiB aligned, and marked for transparent huge pages: filling one then
// costs one fault per 2 MiB instead of one per 4 KiB page, which on a virtual
// machine is most of what touching fresh memory costs. Smaller blocks, and
// systems without madvise, use the ordinary heap.
#pragma once

#include <cstddef>
#include <cstdint>

// Under AddressSanitizer (VIRREY_ASAN) large blocks come from the ordinary
// heap, so that ASan sees every access.
#include "virrey/base/sanitizers.hpp"

namespace virrey::store {

namespace huge_pages {

// Freed blocks are kept (up to kKeptBytes) and handed out again for requests
// of half their size and more, so that buffers growing one after another
// reuse memory whose pages are mapped already instead of faulting in fresh
// ones.
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kThreshold = std::size_t(4) << 20;
constexpr std::size_t kKeptBytes = std::size_t(256) << 20;

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes);
// Unmaps the kept blocks (an import calls it when it ends).
void release_kept();

}  // namespace huge_pages

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(huge_pages::allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { huge_pages::deallocate(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace virrey::store
