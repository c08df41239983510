// The material signature: its frozen packing and the plain form.
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/material.hpp"

namespace virrey {
namespace {

TEST(Material, PacksCountsInFrozenNibbles) {
  Material m;
  m.set(Color::White, PieceType::Pawn, 8);
  m.set(Color::White, PieceType::King, 1);
  m.set(Color::Black, PieceType::Viceroy, 2);
  m.set(Color::Black, PieceType::Minister, 1);
  // White: pawn nibble 0, king nibble 5; Black: viceroy nibble 6, minister 7 of the high half.
  EXPECT_EQ(m.key(), 0x8ull | 0x1ull << 20 | 0x2ull << 56 | 0x1ull << 60);
  EXPECT_EQ(m.count(Color::Black, PieceType::Viceroy), 2);
  EXPECT_EQ(m.men(Color::White), 9);
  EXPECT_EQ(m.men(), 12);
  EXPECT_EQ(m.flipped().count(Color::White, PieceType::Viceroy), 2);
  EXPECT_EQ(m.flipped().flipped(), m);
  m.set(Color::White, PieceType::Queen, 20);
  EXPECT_EQ(m.count(Color::White, PieceType::Queen), 15);
  EXPECT_EQ(m.count(Color::White, PieceType::Rook), 0);
}

TEST(Material, PlainFormStrongestFirst) {
  Material m;
  for (Color c : {Color::White, Color::Black}) m.set(c, PieceType::King, 1);
  m.set(Color::White, PieceType::Viceroy, 1);
  m.set(Color::White, PieceType::Rook, 1);
  m.set(Color::White, PieceType::Pawn, 2);
  m.set(Color::Black, PieceType::Queen, 1);
  EXPECT_EQ(m.to_string(), "KVRPP-KQ");
}

TEST(Material, OfTheStartPositions) {
  EXPECT_EQ(material_of(*variant_start<Board8>(Variant::Standard)).to_string(), "KQRRBBNNPPPPPPPP-KQRRBBNNPPPPPPPP");
  EXPECT_EQ(material_of(*variant_start<Board9>(Variant::Modern)).to_string(),
            "KQMRRBBNNPPPPPPPPP-KQMRRBBNNPPPPPPPPP");
  FenProblems problems;
  auto pos = position_from_fen<Board8>("4k3/8/8/8/8/8/2V1V3/4K3 w - - 0 1", Variant::Virrey, problems);
  ASSERT_TRUE(pos);
  EXPECT_EQ(material_of(*pos).to_string(), "KVV-K");
}

}  // namespace
}  // namespace virrey
