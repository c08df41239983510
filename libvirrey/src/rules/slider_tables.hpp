// The 8x8 slider attack tables, made when virrey is built
// (tools/gen_slider_tables.cpp writes slider_tables.cpp in the build tree) and
// read-only in the binary: a short process does not spend its start-up
// filling a megabyte of tables it will look at a few times.
#pragma once

#include <cstdint>

namespace virrey::detail {

struct SliderSquare {
  std::uint64_t mask;    // the squares whose occupancy matters
  std::uint64_t magic;   // multiplier: (occupancy & mask) * magic >> shift is the slot
  std::uint32_t offset;  // of the square's first slot in the kind's table
  std::uint32_t shift;
};

extern const SliderSquare kBishopSquares[64];
extern const SliderSquare kRookSquares[64];
extern const std::uint64_t kBishopAttacks[];
extern const std::uint64_t kRookAttacks[];

}  // namespace virrey::detail
