#include "filter_options.hpp"

#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "virrey/base/log.hpp"

namespace virrey::cli {

namespace {

std::optional<std::string> given(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

Error usage(std::string message) { return Error{ErrorKind::InvalidArgument, std::move(message)}; }

// Stores a parsed value, or keeps the first error.
template <class T, class U>
void take(Result<T> r, U& target, std::optional<Error>& error) {
  if (r)
    target = std::move(r.value());
  else if (!error)
    error = r.error();
}

// The same for the value of one option: its error names the option.
template <class T, class U>
void take(std::string_view option, Result<T> r, U& target, std::optional<Error>& error) {
  if (!r && !error) error = Error{r.error().kind, fmt::format("{}: {}", option, r.error().message)};
  take(std::move(r), target, error);
}

}  // namespace

Result<std::optional<query::OpeningCondition>> opening_condition(const FilterOptions& o) {
  if (o.opening.empty() && o.eco.empty()) return std::optional<query::OpeningCondition>{};
  query::OpeningCondition c;
  if (!o.eco.empty()) {
    auto range = query::parse_eco_range(o.eco);
    if (!range) return Error{ErrorKind::InvalidArgument, fmt::format("--eco: {}", range.error().message)};
    c = *range;
  }
  if (!o.opening.empty()) c.name = o.opening;
  return std::optional<query::OpeningCondition>{std::move(c)};
}

namespace {

// A FEN of a board and a side alone has no castling rights. Said when a king
// and a rook of one side stand where castling starts, as the user may have
// meant them to castle.
void note_fen_without_castling(std::string_view fen, const std::vector<query::PositionTarget>& targets) {
  std::istringstream fields{std::string(fen)};
  std::string field;
  int count = 0;
  while (fields >> field) ++count;
  if (count != 2) return;
  for (const query::PositionTarget& t : targets) {
    const Setup& s = t.setup;
    const int w = s.width(), top = s.height() - 1;
    for (Color c : {Color::White, Color::Black}) {
      const int rank = c == Color::White ? 0 : top;
      const auto at = [&](int file) { return s.board[std::size_t(rank * w + file)]; };
      const bool king = at(Position<Board8>::kKingFile) == Piece{c, PieceType::King};
      const bool rook = at(0) == Piece{c, PieceType::Rook} || at(w - 1) == Piece{c, PieceType::Rook};
      if (king && rook) {
        log::warn("the FEN has no castling field: read as '-' (no castling rights; KQkq gives them all)");
        return;
      }
    }
  }
}

}  // namespace

Result<query::GameFilter> build_filter(const FilterOptions& o) {
  query::GameFilter f;
  query::TagConditions& t = f.tags;
  std::optional<Error> error;
  if (!o.variant.empty()) take("--variant", query::parse_variant(o.variant), t.variant, error);
  if (error) return *error;
  if (!o.fen.empty() && !o.moves.empty()) return usage("--fen and --moves exclude each other");
  if (!o.fen.empty()) {
    take("--fen", query::position_from_fen_text(o.fen, t.variant), f.positions, error);
    note_fen_without_castling(o.fen, f.positions);
  } else if (!o.moves.empty())
    take("--moves", query::position_from_moves(o.moves, t.variant), f.positions, error);

  if (!o.promotion.empty() || !o.by.empty() || !o.file.empty() || o.min_count != o.kNoMinCount ||
      !o.ply.empty()) {
    query::PromotionCondition p;
    if (!o.promotion.empty()) take("--promotion", query::parse_promotion_piece(o.promotion), p.piece, error);
    if (!o.by.empty()) take("--promotion-by", query::parse_side(o.by), p.by, error);
    if (!o.file.empty()) take("--file", query::parse_file(o.file), p.file, error);
    if (!o.ply.empty()) take("--ply", query::parse_ply_range(o.ply), p.plies, error);
    if (o.min_count != o.kNoMinCount) {
      if (o.min_count < 1 || o.min_count > 64)
        return usage(fmt::format("--min-count {} is out of range (1 to 64)", o.min_count));
      p.min_count = std::uint32_t(o.min_count);
    }
    f.promotion = p;
  }

  t.white = given(o.white), t.black = given(o.black), t.player = given(o.player);
  t.event = given(o.event), t.site = given(o.site), t.round = given(o.round);
  if (!o.result.empty()) take("--result", query::parse_result_option(o.result), t.result, error);
  if (!o.date_from.empty()) take("--date-from", query::parse_date_bound(o.date_from), t.date_from, error);
  if (!o.date_to.empty()) take("--date-to", query::parse_date_bound(o.date_to), t.date_to, error);
  take(material_condition(o.material), f.material, error);
  take(pattern_condition(o.pattern, o.material.either_colour), f.pattern, error);
  if (!error && o.material.either_colour && !f.material && !f.pattern)
    error = usage("--either-colour needs --material, --pattern or --fenpattern");
  take(feature_conditions(o.features), f.features, error);
  take(opening_condition(o), f.opening, error);
  if (error) return *error;
  if (t.date_from && t.date_to && *t.date_from > *t.date_to &&
      t.date_to->compare(0, t.date_to->size(), t.date_from->substr(0, t.date_to->size())) != 0)
    return usage(fmt::format("--date-from {} is after --date-to {}", *t.date_from, *t.date_to));
  return f;
}

void note_position_variants(const query::GameFilter& filter, const store::Database& db) {
  if (filter.positions.empty() || filter.tags.variant) return;
  const auto counts = db.counts();
  std::uint64_t games = 0;
  for (const auto& c : counts) games += c.games;
  std::vector<std::string> names;
  for (const query::PositionTarget& t : filter.positions) {
    if (counts[std::size_t(t.variant)].games > 0) return;
    // (two forms of one position in one variant: named once)
    if (names.empty() || names.back() != info(t.variant).name) names.emplace_back(info(t.variant).name);
  }
  if (games > 0)
    log::warn("the position is one of {} chess only, and {} holds no game of it", fmt::join(names, " or "),
              db.path());
}

}  // namespace virrey::cli
