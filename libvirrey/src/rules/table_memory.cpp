#include "table_memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace virrey::detail {

namespace {

constexpr std::size_t kRegion = std::size_t(2) << 20;
constexpr std::size_t kAlign = 64;

struct Region {
  unsigned char* base = nullptr;
  std::size_t used = 0;
};

Region map_region() {
  Region r;
#ifdef __linux__
  // Twice the size, so that an aligned 2 MiB window fits inside.
  void* raw = ::mmap(nullptr, 2 * kRegion, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw != MAP_FAILED) {
    const auto at = (reinterpret_cast<std::uintptr_t>(raw) + kRegion - 1) & ~(kRegion - 1);
    r.base = reinterpret_cast<unsigned char*>(at);
    ::madvise(r.base, kRegion, MADV_HUGEPAGE);
  }
#endif
  return r;
}

}  // namespace

void* table_memory(std::size_t bytes) {
  static std::mutex mutex;
  static Region region = map_region();
  const std::size_t size = (bytes + kAlign - 1) / kAlign * kAlign;
  {
    std::lock_guard lock(mutex);
    if (region.base && kRegion - region.used >= size) {
      void* out = region.base + region.used;
      region.used += size;
      return out;
    }
  }
  void* out = std::aligned_alloc(kAlign, size);
  if (!out) std::abort();
  return std::memset(out, 0, size);
}

}  // namespace virrey::detail
