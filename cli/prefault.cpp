// Maps the virrey binary's read-only segments (code, constants) into the
// process in one call before anything runs. A search or an opening lookup is
// a short process that executes code scattered over several megabytes; on
// virtual machines, where a page fault is expensive, taking those pages one
// fault at a time is a noticeable part of its run. The pages come from the
// page cache (the binary was just read), so mapping them all costs less than
// faulting in the ones used. Kernels before Linux 5.14 ignore the request.
#include <link.h>
#include <sys/mman.h>

#include <cstdint>

namespace {

#ifndef MADV_POPULATE_READ
constexpr int MADV_POPULATE_READ = 22;
#endif

int populate_read_only_segments(dl_phdr_info* info, std::size_t, void*) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W)) continue;
    constexpr std::uintptr_t kPage = 4096;
    const std::uintptr_t begin = (info->dlpi_addr + ph.p_vaddr) & ~(kPage - 1);
    const std::uintptr_t end = (info->dlpi_addr + ph.p_vaddr + ph.p_memsz + kPage - 1) & ~(kPage - 1);
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
  }
  return 1;  // the first object is the executable itself: stop there
}

// Priority 101: before every other static initialiser (RocksDB has many).
__attribute__((constructor(101))) void populate_binary() {
  ::dl_iterate_phdr(populate_read_only_segments, nullptr);
}

}  // namespace
