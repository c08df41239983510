// What a pawn reaching its last rank becomes, by variant (RULES.md): in
// Virrey chess the piece of the initial array on its file (the king's file:
// the viceroy), elsewhere the mover's choice.
#pragma once

#include <array>
#include <span>

#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey {

// Virrey chess's promotion piece by file (a..h; Modern's ninth file is
// none of Virrey's).
inline constexpr std::array<PieceType, 8> kVirreyPromotionByFile = {
    PieceType::Rook,    PieceType::Knight, PieceType::Bishop, PieceType::Queen,
    PieceType::Viceroy, PieceType::Bishop, PieceType::Knight, PieceType::Rook};

// Every piece a mover may choose, in the order stored move numbers count
// the choices (frozen).
inline constexpr std::array<PieceType, 5> kPromotionChoices = {
    PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Minister};

// The piece a pawn becomes on a file (0 = a) when the variant fixes it;
// None when the mover chooses.
constexpr PieceType fixed_promotion_on_file(Variant v, int file) {
  return info(v).promotion_rule == PromotionRule::FixedByFile ? kVirreyPromotionByFile[std::size_t(file % 8)]
                                                              : PieceType::None;
}

// What the mover chooses from where the variant fixes nothing (all but
// Virrey chess), in kPromotionChoices' order. Virrey's are standard
// chess's: they bound its move numbers (frozen).
constexpr std::span<const PieceType> promotion_choices(Variant v) {
  return std::span<const PieceType>(kPromotionChoices).first(v == Variant::Modern ? 5 : 4);
}

}  // namespace virrey
