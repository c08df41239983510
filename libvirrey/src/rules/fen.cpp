#include "virrey/rules/fen.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "add_problem.hpp"

namespace virrey {

namespace {

using detail::add_problem;

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

void parse_board(std::string_view field, Setup& s, FenProblems& errors) {
  const int width = s.width(), height = s.height();
  int rank = height - 1, file = 0;
  std::vector<int> lengths;  // of the ranks, from the top
  FenProblems letters;
  for (std::size_t i = 0; i <= field.size(); ++i) {
    const char c = i < field.size() ? field[i] : '/';
    if (c == '/') {
      lengths.push_back(file);
      --rank;
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '9') {  // a digit: that many empty squares (no board is ten wide)
      file += c - '0';
      continue;
    }
    PieceType pt = piece_type_from_letter(c);
    if (pt == PieceType::None) {
      add_problem(letters, FenError::BadPieceLetter, "'{}' is not a piece letter", c);
      continue;
    }
    if (rank >= 0 && file < width)
      s.board[rank * width + file] = Piece{c >= 'a' ? Color::Black : Color::White, pt};
    ++file;
  }
  errors.insert(errors.end(), letters.begin(), letters.end());
  const int ranks = int(lengths.size());
  // A board of another size altogether (an 8x8 FEN given for Modern chess):
  // one problem, not one per rank.
  const bool one_width = std::all_of(lengths.begin(), lengths.end(), [&](int n) { return n == lengths[0]; });
  if (one_width && ranks >= 2 && ranks != height && lengths[0] != width && letters.empty()) {
    add_problem(errors, FenError::RankCount, "the board is {}x{} ({} chess is played on {}x{})", lengths[0],
                ranks, info(s.variant).name, width, height);
    return;
  }
  for (int r = 0; r < std::min(ranks, height); ++r)
    if (lengths[std::size_t(r)] != width)
      add_problem(errors, FenError::RankLength, "rank {} has {} square{} (expected {})", height - r,
                  lengths[std::size_t(r)], lengths[std::size_t(r)] == 1 ? "" : "s", width);
  if (ranks != height)
    add_problem(errors, FenError::RankCount, "the board has {} rank{} (expected {})", ranks,
                ranks == 1 ? "" : "s", height);
}

void parse_castling(std::string_view field, Setup& s, FenProblems& errors) {
  if (field == "-") return;
  const int width = s.width();
  for (char c : field) {
    const Color color = (c >= 'a' && c <= 'z') ? Color::Black : Color::White;
    const char lower = char(c | 0x20);
    int shift = 2 * index(color);
    if (lower == 'k') {
      s.castling |= std::uint8_t(kWhiteKingside << shift);
    } else if (lower == 'q') {
      s.castling |= std::uint8_t(kWhiteQueenside << shift);
    } else if (lower >= 'a' && lower < 'a' + width && (lower == 'a' || lower == 'a' + width - 1)) {
      s.castling |= std::uint8_t((lower == 'a' ? kWhiteQueenside : kWhiteKingside) << shift);
    } else {
      add_problem(errors, FenError::Castling, "castling field '{}' has an invalid letter '{}'", field, c);
    }
  }
}

void parse_en_passant(std::string_view field, Setup& s, FenProblems& errors) {
  if (field == "-") return;
  if (field.size() == 2 && field[0] >= 'a' && field[0] < 'a' + s.width() && field[1] >= '1' &&
      field[1] < '1' + s.height()) {
    s.en_passant = Square((field[1] - '1') * s.width() + (field[0] - 'a'));
    return;
  }
  add_problem(errors, FenError::EnPassant, "en passant field '{}' is not a square or '-'", field);
}

void parse_number(std::string_view field, FenError code, const char* what, int& out, FenProblems& errors) {
  auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), out);
  if (ec == std::errc::result_out_of_range && ptr == field.data() + field.size())
    add_problem(errors, code, "{} {} is out of range", what, field);
  else if (ec != std::errc() || ptr != field.data() + field.size())
    add_problem(errors, code, "{} '{}' is not a number", what, field);
}

}  // namespace

std::optional<Setup> parse_fen(std::string_view fen, Variant variant, FenProblems& errors) {
  if (fen.size() > kMaxFenBytes) {
    add_problem(errors, FenError::TooLong, "the FEN is {} bytes long (at most {} are read)", fen.size(),
                kMaxFenBytes);
    return std::nullopt;
  }
  const auto fields = split_fields(fen);
  if (fields.empty()) {
    add_problem(errors, FenError::Empty, "the FEN is empty");
    return std::nullopt;
  }
  Setup s;
  s.variant = variant;
  parse_board(fields[0], s, errors);
  if (fields.size() < 2) {
    add_problem(errors, FenError::SideToMove, "side to move is missing");
  } else if (fields[1] == "w" || fields[1] == "W") {
    s.side_to_move = Color::White;
  } else if (fields[1] == "b" || fields[1] == "B") {
    s.side_to_move = Color::Black;
  } else {
    add_problem(errors, FenError::SideToMove, "side to move '{}' is not 'w' or 'b'", fields[1]);
  }
  if (fields.size() >= 3) parse_castling(fields[2], s, errors);
  if (fields.size() >= 4) parse_en_passant(fields[3], s, errors);
  if (fields.size() >= 5)
    parse_number(fields[4], FenError::HalfmoveClock, "halfmove clock", s.halfmove_clock, errors);
  if (fields.size() >= 6)
    parse_number(fields[5], FenError::FullmoveNumber, "fullmove number", s.fullmove_number, errors);
  if (fields.size() > 6) add_problem(errors, FenError::FieldCount, "{} fields (expected 6)", fields.size());
  return s;
}

std::string write_fen(const Setup& s) {
  const int width = s.width(), height = s.height();
  std::string out;
  for (int rank = height - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < width; ++file) {
      Piece p = s.board[rank * width + file];
      if (p.empty()) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += fen_letter(p);
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  out += s.side_to_move == Color::White ? " w " : " b ";
  if (!s.castling) out += '-';
  if (s.castling & kWhiteKingside) out += 'K';
  if (s.castling & kWhiteQueenside) out += 'Q';
  if (s.castling & kBlackKingside) out += 'k';
  if (s.castling & kBlackQueenside) out += 'q';
  out += ' ';
  if (s.en_passant == kNoSquare) {
    out += '-';
  } else {
    out += char('a' + s.en_passant % width);
    out += std::to_string(s.en_passant / width + 1);
  }
  out += fmt::format(" {} {}", s.halfmove_clock, s.fullmove_number);
  return out;
}

std::string join_reasons(const FenProblems& problems) {
  std::string out;
  for (const FenProblem& p : problems) {
    if (!out.empty()) out += "; ";
    out += p.message;
  }
  return out;
}

}  // namespace virrey
