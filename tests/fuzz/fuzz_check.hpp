// A property that every input must keep: when it does not, virrey's fuzz
// entry prints what broke and aborts, so the fuzzer keeps the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace virrey::fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail, const char* file, int line) {
  std::fprintf(stderr, "virrey fuzz check failed at %s:%d: %s\n%s\n", file, line, what, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace virrey::fuzz

#define VIRREY_FUZZ_CHECK(cond, detail)                                     \
  do {                                                                      \
    if (!(cond)) ::virrey::fuzz::fail(#cond, (detail), __FILE__, __LINE__); \
  } while (0)
