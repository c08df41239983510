#pragma once

#include <cstddef>

namespace virrey::detail {

// Zeroed, 64-byte aligned memory for the attack tables made at start-up, which
// live as long as the process. They (8x8 and 9x9, about 300 KB) are carved
// from one 2 MiB region offered to Linux as a transparent huge page: they then
// cost a page fault or two rather than a hundred, a noticeable part of the
// start-up of a short query. Thread-safe; never freed.
void* table_memory(std::size_t bytes);

}  // namespace virrey::detail
