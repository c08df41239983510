// Whether this file is being built with a sanitizer, spelled once for both
// compilers: g++ defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang
// answers __has_feature. Defines VIRREY_ASAN and VIRREY_TSAN.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define VIRREY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VIRREY_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define VIRREY_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VIRREY_TSAN 1
#endif
#endif
