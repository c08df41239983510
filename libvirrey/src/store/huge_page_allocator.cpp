#include "huge_page_allocator.hpp"

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace virrey::store::huge_pages {

#if defined(__linux__) && !defined(VIRREY_ASAN)

namespace {

std::size_t mapped_size(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

struct Block {
  void* start;
  std::size_t size;  // mapped
};

// The blocks handed out (with their mapped size, which may exceed what was
// asked for) and the blocks kept for reuse.
struct Blocks {
  std::mutex mutex;
  std::vector<Block> live, kept;
  std::size_t kept_bytes = 0;
};

Blocks& blocks() {
  static Blocks* b = new Blocks;  // never destroyed: buffers may outlive static destruction
  return *b;
}

void* map(std::size_t size) {
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

}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes < kThreshold) return ::operator new(bytes);
  const std::size_t size = mapped_size(bytes);
  Blocks& b = blocks();
  {
    std::lock_guard lock(b.mutex);
    // The smallest kept block that fits, if it is at most twice the size.
    auto best = b.kept.end();
    for (auto it = b.kept.begin(); it != b.kept.end(); ++it)
      if (it->size >= size && it->size <= 2 * size && (best == b.kept.end() || it->size < best->size))
        best = it;
    if (best != b.kept.end()) {
      const Block block = *best;
      b.kept.erase(best);
      b.kept_bytes -= block.size;
      b.live.push_back(block);
      return block.start;
    }
  }
  void* p = map(size);
  std::lock_guard lock(b.mutex);
  b.live.push_back({p, size});
  return p;
}

void deallocate(void* p, std::size_t bytes) {
  if (bytes < kThreshold) {
    ::operator delete(p);
    return;
  }
  Blocks& b = blocks();
  std::lock_guard lock(b.mutex);
  auto it = std::find_if(b.live.begin(), b.live.end(), [&](const Block& x) { return x.start == p; });
  if (it == b.live.end()) return;  // not ours: cannot happen
  const Block block = *it;
  b.live.erase(it);
  if (b.kept_bytes + block.size <= kKeptBytes) {
    b.kept.push_back(block);
    b.kept_bytes += block.size;
  } else {
    ::munmap(block.start, block.size);
  }
}

void release_kept() {
  Blocks& b = blocks();
  std::lock_guard lock(b.mutex);
  for (const Block& block : b.kept) ::munmap(block.start, block.size);
  b.kept.clear();
  b.kept_bytes = 0;
}

#else

void* allocate(std::size_t bytes) { return ::operator new(bytes); }
void deallocate(void* p, std::size_t) { ::operator delete(p); }
void release_kept() {}

#endif

}  // namespace virrey::store::huge_pages
