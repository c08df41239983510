// Fast searches for PGN's few significant bytes (internal). SSE2 (every
// x86-64) checks 16 bytes per step; elsewhere a plain loop does the same.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace virrey::pgn::scan {

// Index of the first byte in data[0, n) equal to one of Cs, or n.
template <char... Cs>
std::size_t find_first_of(const char* data, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    if (const unsigned mask = unsigned(_mm_movemask_epi8(hit))) return i + unsigned(std::countr_zero(mask));
  }
#endif
  for (; i < n; ++i)
    if (((data[i] == Cs) || ...)) return i;
  return n;
}

// A set of bytes, as a type.
template <char... Cs>
struct Bytes {};

// Like find_first_of(Stops), and also tells whether a byte in neither set
// came before the one found.
template <char... Cs, char... Bs>
std::size_t find_noting_others(Bytes<Cs...> /*stops*/, Bytes<Bs...> /*blanks*/, const char* data,
                               std::size_t n, bool& other_seen) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    __m128i stop = _mm_setzero_si128(), blank = _mm_setzero_si128();
    ((stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    ((blank = _mm_or_si128(blank, _mm_cmpeq_epi8(v, _mm_set1_epi8(Bs)))), ...);
    const unsigned stops = unsigned(_mm_movemask_epi8(stop));
    const unsigned others = ~(stops | unsigned(_mm_movemask_epi8(blank))) & 0xffffu;
    if (stops) {
      const unsigned k = unsigned(std::countr_zero(stops));
      if (others & ((1u << k) - 1)) other_seen = true;
      return i + k;
    }
    if (others) other_seen = true;
  }
#endif
  for (; i < n; ++i) {
    const char c = data[i];
    if (((c == Cs) || ...)) return i;
    if (!((c == Bs) || ...)) other_seen = true;
  }
  return n;
}

// Bits set in the low 16 bits of x (no popcnt instruction on baseline x86-64).
inline unsigned popcount16(unsigned x) {
  x &= 0xffffu;
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0f0fu;
  return (x + (x >> 8)) & 0x1fu;
}

// Line breaks in data[0, n) (LF, CRLF, lone CR), given whether the byte before
// data was a CR. Sets `last_break_end` to the index past the last break byte
// (unchanged when there is none) and `ends_with_cr`.
inline std::uint64_t count_line_breaks(const char* data, std::size_t n, bool prev_cr,
                                       std::size_t& last_break_end, bool& ends_with_cr) {
  std::uint64_t lines = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    const unsigned lfs = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)));
    const unsigned crs = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, cr)));
    if (lfs | crs) {
      // A CR or an LF each break a line, except an LF right after a CR.
      const unsigned lf_after_cr = lfs & ((crs << 1) | unsigned(prev_cr));
      lines += popcount16((lfs | crs) & ~lf_after_cr);
      last_break_end = i + 32 - unsigned(std::countl_zero(lfs | crs));  // past the highest bit
    }
    prev_cr = (crs >> 15) & 1u;
  }
#endif
  for (; i < n; ++i) {
    const char c = data[i];
    if (c == '\r' || (c == '\n' && !prev_cr)) ++lines;
    if (c == '\r' || c == '\n') last_break_end = i + 1;
    prev_cr = c == '\r';
  }
  ends_with_cr = prev_cr;
  return lines;
}

}  // namespace virrey::pgn::scan
