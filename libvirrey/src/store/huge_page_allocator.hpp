// An allocator for the import's large, growing buffers (index entries of a
// group, table file contents). Blocks of 4 MiB and more are mapped on their
// own, 2 MiB aligned, and marked for transparent huge pages: filling one then
// costs one fault per 2 MiB instead of one per 4 KiB page, which on a virtual
// machine is most of what touching fresh memory costs. Smaller blocks, and
// systems without madvise, use the ordinary heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace virrey::store {

namespace huge_pages {

constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kThreshold = std::size_t(4) << 20;

inline std::size_t mapped_size(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

inline void* allocate(std::size_t bytes) {
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
  if (bytes >= kThreshold) {
    const std::size_t size = mapped_size(bytes);
    // One huge page more, so that an aligned block fits; the rest is unmapped.
    void* raw = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const auto aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > start) ::munmap(raw, aligned - start);
    const std::size_t tail = start + size + kHugePage - (aligned + size);
    if (tail > 0) ::munmap(reinterpret_cast<void*>(aligned + size), tail);
    ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
  }
#endif
  return ::operator new(bytes);
}

inline void deallocate(void* p, std::size_t bytes) {
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
  if (bytes >= kThreshold) {
    ::munmap(p, mapped_size(bytes));
    return;
  }
#endif
  ::operator delete(p);
}

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
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace virrey::store
