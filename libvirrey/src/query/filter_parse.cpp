// Text -> GameFilter parts (game_filter.hpp): FEN and SAN positions, ply
// ranges, pieces, sides, files, results, variants and dates.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include <fmt/format.h>

#include "virrey/base/text.hpp"

#include "virrey/game/calendar.hpp"
#include "virrey/game/main_line_trace.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/rules/en_passant_forms.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/san_line.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::query {

namespace {

Error bad(std::string message) { return Error{ErrorKind::InvalidArgument, std::move(message)}; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The variants a position text is tried in: the one asked for, else every
// variant.
std::vector<Variant> candidate_variants(std::optional<Variant> variant) {
  if (variant) return {*variant};
  std::vector<Variant> out;
  for (const VariantInfo& vi : kVariants) out.push_back(vi.variant);
  return out;
}

bool parse_uint(std::string_view s, std::uint32_t& out) {
  if (s.empty() || s.size() > 9) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Every form of the position (rules/en_passant_forms.hpp): a right no legal
// capture can use is no right, whichever form the FEN or the line gave.
template <class G>
void add_position(const Position<G>& pos, std::vector<PositionTarget>& out) {
  for (const Position<G>& form : same_position_forms(pos)) out.push_back(position_target(form));
}

// `played`: how many of the moves were played (all of them, or those before
// the one in error).
template <class G>
Result<std::vector<PositionTarget>> play_moves(Variant v, std::string_view moves, std::size_t& played) {
  Position<G> start = *variant_start<G>(v);
  start.enable_bishop_swap();  // Modern chess: a line may hold a bishop swap
  const SanLine<G> line = play_san_line(start, moves);
  played = line.moves.size();
  if (const auto& p = line.problem) {
    return bad(fmt::format("bad SAN: {}: {}", p->label,
                           p->code == SanError::NullMove ? "a null move reaches no position" : p->message));
  }
  std::vector<PositionTarget> out;  // none for a line of no move
  if (!line.moves.empty()) add_position(line.last(), out);
  return out;
}

}  // namespace

template <class G>
PositionTarget position_target(const Position<G>& pos) {
  PositionTarget t;
  t.variant = pos.variant();
  t.hash = pos.hash();
  t.setup = pos.to_setup();
  t.setup.halfmove_clock = 0;
  t.setup.fullmove_number = 1;
  return t;
}

template <class G>
bool same_position(const Position<G>& pos, const PositionTarget& t) {
  if (pos.hash() != t.hash || pos.variant() != t.variant || pos.side_to_move() != t.setup.side_to_move ||
      pos.castling() != t.setup.castling || pos.en_passant() != t.setup.en_passant)
    return false;
  for (int s = 0; s < G::squares; ++s)
    if (pos.piece_on(Square(s)) != t.setup.board[std::size_t(s)]) return false;
  return true;
}

template PositionTarget position_target<Board8>(const Position<Board8>&);
template bool same_position<Board8>(const Position<Board8>&, const PositionTarget&);
template PositionTarget position_target<Board9>(const Position<Board9>&);
template bool same_position<Board9>(const Position<Board9>&, const PositionTarget&);

Result<std::vector<PositionTarget>> position_from_fen_text(std::string_view fen,
                                                           std::optional<Variant> variant) {
  fen = trim_space(fen);
  if (fen.empty()) return bad("bad FEN: it is empty");
  std::vector<PositionTarget> out;
  FenProblems best_errors;
  Variant best_variant = Variant::Standard;
  for (Variant v : candidate_variants(variant)) {
    FenProblems errors;
    bool read = false;
    with_geometry(v, [&](auto g) {
      using G = decltype(g);
      if (auto pos = position_from_fen<G>(fen, v, errors)) {
        add_position(*pos, out);
        read = true;
      }
    });
    // The variant whose board the FEN fits, then the one with the fewest problems.
    auto misfit = [](const FenProblems& p) {
      return std::any_of(p.begin(), p.end(),
                         [](const FenProblem& e) { return e.code == FenError::RankCount; });
    };
    if (!read && (best_errors.empty() || std::pair(misfit(errors), errors.size()) <
                                             std::pair(misfit(best_errors), best_errors.size()))) {
      best_errors = std::move(errors);
      best_variant = v;
    }
  }
  if (out.empty()) {
    if (variant) return bad(fmt::format("bad FEN: {}", join_reasons(best_errors)));
    return bad(fmt::format("bad FEN: {} (as {} chess; no variant accepts it)", join_reasons(best_errors),
                           info(best_variant).name));
  }
  return out;
}

Result<std::vector<PositionTarget>> position_from_moves(std::string_view moves,
                                                        std::optional<Variant> variant) {
  std::vector<PositionTarget> out;
  // When no variant plays the moves, the error of the one that played the
  // most of them: where the line goes wrong for the variant it was meant in.
  std::optional<Error> best_error;
  std::size_t best_played = 0;
  Variant best_variant = Variant::Standard;
  const std::vector<Variant> candidates = candidate_variants(variant);
  for (Variant v : candidates) {
    std::optional<Result<std::vector<PositionTarget>>> r;
    std::size_t played = 0;
    with_geometry(v, [&](auto g) { r.emplace(play_moves<decltype(g)>(v, moves, played)); });
    if (r->ok()) {
      out.insert(out.end(), r->value().begin(), r->value().end());
    } else if (!best_error || played > best_played) {
      best_error = r->error();
      best_played = played;
      best_variant = v;
    }
  }
  if (!out.empty()) return out;
  // Move numbers alone ("1.") are no line: the start is not what was meant.
  if (!best_error) return bad(fmt::format("bad SAN: '{}' holds no move", trim_space(moves)));
  if (candidates.size() > 1)
    return bad(fmt::format("{} (as {} chess; no variant plays these moves)", best_error->message,
                           info(best_variant).name));
  return *best_error;
}

Result<Range> parse_range(std::string_view text, std::string_view what) {
  const std::string_view t = trim_space(text);
  auto fail = [&] {
    // A number of more digits than a count takes is named as too large.
    for (std::string_view part : {t.substr(0, t.find('-')), t.substr(std::min(t.size(), t.find('-') + 1))}) {
      part = trim_space(part);
      if (part.size() > 9 && part.find_first_not_of("0123456789") == std::string_view::npos)
        return bad(fmt::format("bad {} range '{}': {} is too large (at most 999999999)", what, text, part));
    }
    return bad(
        fmt::format("bad {} range '{}': expected A-B, A-, -B or A (whole numbers, 0 or more)", what, text));
  };
  Range r;
  const std::size_t dash = t.find('-');
  if (dash == std::string_view::npos) {
    std::uint32_t a = 0;
    if (!parse_uint(t, a)) return fail();
    r.from = r.to = a;
    return r;
  }
  const std::string_view lo = trim_space(t.substr(0, dash)), hi = trim_space(t.substr(dash + 1));
  if (lo.empty() && hi.empty()) return fail();
  std::uint32_t a = 0, b = 0;
  if (!lo.empty()) {
    if (!parse_uint(lo, a)) return fail();
    r.from = a;
  }
  if (!hi.empty()) {
    if (!parse_uint(hi, b)) return fail();
    r.to = b;
  }
  if (r.from && r.to && *r.from > *r.to)
    return bad(fmt::format("bad {} range '{}': {} is after {}", what, text, *r.from, *r.to));
  return r;
}

Result<PlyRange> parse_ply_range(std::string_view text) { return parse_range(text, "ply"); }

Result<PieceType> parse_promotion_piece(std::string_view text) {
  const std::string t = lower(trim_space(text));
  static constexpr std::pair<std::string_view, PieceType> kNames[] = {
      {"v", PieceType::Viceroy},        {"viceroy", PieceType::Viceroy}, {"virrey", PieceType::Viceroy},
      {"q", PieceType::Queen},          {"queen", PieceType::Queen},     {"r", PieceType::Rook},
      {"rook", PieceType::Rook},        {"b", PieceType::Bishop},        {"bishop", PieceType::Bishop},
      {"n", PieceType::Knight},         {"knight", PieceType::Knight},   {"m", PieceType::Minister},
      {"minister", PieceType::Minister}};
  for (const auto& [name, piece] : kNames)
    if (t == name) return piece;
  return bad(fmt::format("bad promotion piece '{}': expected V, Q, R, B, N or M", text));
}

Result<Color> parse_side(std::string_view text) {
  const std::string t = lower(trim_space(text));
  if (t == "white" || t == "w") return Color::White;
  if (t == "black" || t == "b") return Color::Black;
  return bad(fmt::format("bad side '{}': expected white or black", text));
}

Result<int> parse_file(std::string_view text) {
  const std::string t = lower(trim_space(text));
  if (t.size() == 1 && t[0] >= 'a' && t[0] <= 'i') return int(t[0] - 'a');
  return bad(fmt::format("bad file '{}': expected a letter a to i", text));
}

Result<GameResult> parse_result_option(std::string_view text) {
  const std::string t = lower(trim_space(text));
  if (t == "1-0" || t == "white") return GameResult::WhiteWins;
  if (t == "0-1" || t == "black") return GameResult::BlackWins;
  if (t == "1/2-1/2" || t == "1/2" || t == "draw" || t == "=") return GameResult::Draw;
  if (t == "*") return GameResult::Unknown;
  return bad(fmt::format("bad result '{}': expected 1-0, 0-1, 1/2-1/2 or *", text));
}

Result<Variant> parse_variant(std::string_view text) {
  if (auto v = resolve_variant(trim_space(text))) return *v;
  return bad(fmt::format("unknown variant '{}' (standard, virrey or modern)", text));
}

Result<std::string> parse_date_bound(std::string_view text) {
  const std::string_view t = trim_space(text);
  auto fail = [&] {
    return bad(fmt::format(
        "bad date '{}': expected yyyy, yyyy.mm or yyyy.mm.dd ('-' or '/' may stand for '.')", text));
  };
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size(); ++i) {
    if (i == t.size() || t[i] == '.' || t[i] == '-' || t[i] == '/') {
      parts.push_back(t.substr(start, i - start));
      start = i + 1;
    }
  }
  if (parts.empty() || parts.size() > 3) return fail();
  const std::size_t widths[] = {4, 2, 2};
  const std::uint32_t limits[] = {9999, 12, 31};
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::uint32_t n = 0;
    if (parts[i].size() != widths[i] || !parse_uint(parts[i], n)) return fail();
    if (i > 0 && (n < 1 || n > limits[i])) return fail();
    if (i == 2) {  // the days of that month
      std::uint32_t year = 0, month = 0;
      parse_uint(parts[0], year);
      parse_uint(parts[1], month);
      if (n > game::days_in_month(year, month)) return bad(fmt::format("bad date '{}': no such day", text));
    }
    if (i > 0) out += '.';
    out += parts[i];
  }
  return out;
}

// --- game features (game_features.hpp) ----------------------------------------

Result<store::Ending> parse_ending(std::string_view text) {
  const std::string t = lower(trim_space(text));
  if (t == "checkmate" || t == "mate") return store::Ending::Checkmate;
  if (t == "stalemate") return store::Ending::Stalemate;
  if (t == "other") return store::Ending::Other;
  return bad(fmt::format("bad ending '{}': expected checkmate, stalemate or other", text));
}

Result<std::uint8_t> parse_mate_by(std::string_view text) {
  const std::string t = lower(trim_space(text));
  static constexpr std::pair<std::string_view, PieceType> kNames[] = {
      {"king", PieceType::King},       {"queen", PieceType::Queen},      {"rook", PieceType::Rook},
      {"bishop", PieceType::Bishop},   {"knight", PieceType::Knight},    {"pawn", PieceType::Pawn},
      {"viceroy", PieceType::Viceroy}, {"minister", PieceType::Minister}};
  for (const auto& [name, type] : kNames)
    if (t == name || (t.size() == 1 && t[0] == (piece_letter(type) | 0x20)))
      return game::piece_type_bit(type);
  return bad(fmt::format("bad piece '{}': expected K, Q, R, B, N, P, V or M", text));
}

Result<EloOf> parse_elo_of(std::string_view text) {
  const std::string t = lower(trim_space(text));
  if (t == "both") return EloOf::Both;
  if (t == "either") return EloOf::Either;
  if (t == "average") return EloOf::Average;
  return bad(fmt::format("bad choice '{}': expected both, either or average", text));
}

Result<TimeControlCondition> parse_time_control(std::string_view text) {
  TimeControlCondition c;
  if (auto cls = game::parse_time_class(trim_space(text))) {
    c.time_class = *cls;
    return c;
  }
  if (game::time_class(text) == game::TimeClass::Unknown)
    return bad(fmt::format(
        "bad time control '{}': expected ultrabullet, bullet, blitz, rapid, classical, correspondence, or a "
        "TimeControl value such as 300+3, 40/7200:3600 or -",
        text));
  c.value = store::normalize_tag_value(text);
  return c;
}

}  // namespace virrey::query
