// libFuzzer driver of one virrey fuzz entry, chosen when it is built
// (VIRREY_FUZZ_TARGET names it). Logging is off: only failures speak.
#include "virrey/base/log.hpp"

#include <cstddef>
#include <cstdint>

#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  virrey::log::set_level(virrey::log::Level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  virrey::fuzz::VIRREY_FUZZ_TARGET(data, size);
  return 0;
}
