// Start-up of every virrey process, before anything else runs: the binary's
// read-only segments (code, constants) are mapped in one call, and the heap
// is put on a huge page (below). A search or an opening lookup is
// a short process that executes code scattered over several megabytes; on
// virtual machines, where a page fault is expensive, taking those pages one
// fault at a time is a noticeable part of its run. The pages come from the
// page cache (the binary was just read), so mapping them all costs less than
// faulting in the ones used. Kernels before Linux 5.14 ignore the request.
#include <link.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include "virrey/base/sanitizers.hpp"

namespace {

#ifndef MADV_POPULATE_READ
constexpr int MADV_POPULATE_READ = 22;
#endif
#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23;
#endif

constexpr std::uintptr_t kPage = 4096;

int populate_read_only_segments(dl_phdr_info* info, std::size_t, void*) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W)) continue;
    const std::uintptr_t begin = (info->dlpi_addr + ph.p_vaddr) & ~(kPage - 1);
    const std::uintptr_t end = (info->dlpi_addr + ph.p_vaddr + ph.p_memsz + kPage - 1) & ~(kPage - 1);
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
  }
  return 1;  // the first object is the executable itself: stop there
}

// The heap on a transparent huge page. A query process allocates a megabyte
// or so, most of it in RocksDB's static initialisers and its table readers;
// on a virtual machine each fresh 4 KiB page costs 10-25 us to fault in, a
// few milliseconds in all, where one 2 MiB huge page costs about 0.15 ms.
// glibc's heap grows upwards from the program break, so: make the heap reach
// past the next 2 MiB boundary without touching what lies beyond it, ask for
// huge pages there, then fill the space below the boundary with a block that
// is never used, so that every later allocation comes from the huge page.
// Freed memory stays mapped (no trimming), and blocks below 4 MiB come from
// the heap rather than from fresh mappings. Each step only allocates and
// frees ordinary blocks: if glibc behaves otherwise than expected, the heap
// is simply not on a huge page. (Sanitizer builds have heaps of their own
// and skip all this.)
#if defined(VIRREY_ASAN) || defined(VIRREY_TSAN)
void heap_on_huge_page() {}
#else
// Volatile: the compiler would otherwise drop a block nobody reads, and the
// malloc with it.
void* volatile kept_below_boundary = nullptr;

void heap_on_huge_page() {
  constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
  constexpr std::uintptr_t kHeader = 16;  // a chunk's header before its block
  ::mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
  void* volatile probe = ::malloc(64 << 10);  // nothing that large is free yet: from the top
  if (!probe) return;
  const auto chunk = reinterpret_cast<std::uintptr_t>(probe) - kHeader;
  ::free(probe);
  std::uintptr_t boundary = (chunk + kHuge - 1) & ~(kHuge - 1);
  if (boundary - chunk < kPage) boundary += kHuge;
  // Make the heap reach past boundary + 2 MiB: only the block's two ends
  // are written, and neither lies in the huge page.
  void* volatile reach = ::malloc(boundary + kHuge + kPage - chunk);
  if (!reach) return;
  const bool from_top = reinterpret_cast<std::uintptr_t>(reach) == chunk + kHeader;
  if (from_top) ::madvise(reinterpret_cast<void*>(boundary), kHuge, MADV_HUGEPAGE);
  ::free(reach);
  if (!from_top) return;
  // The space below the boundary, kept forever and never written: its pages
  // are never faulted in.
  kept_below_boundary = ::malloc(boundary - chunk - 8);
}
#endif

// Priority 101: before every other static initialiser (RocksDB has many).
__attribute__((constructor(101))) void populate_binary_and_heap() {
  ::dl_iterate_phdr(populate_read_only_segments, nullptr);
  heap_on_huge_page();
}

}  // namespace
