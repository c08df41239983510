// Encoding and decoding of game records; the layout is described in
// game_codec.hpp.
#include "virrey/store/game_codec.hpp"

#include <array>
#include <optional>

#include "canonical_moves.hpp"
#include "varint.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::store {

namespace {

using game::GameRecord;
using game::ItemKind;
using game::MovetextItem;

// Format 1 numbered the legal moves (canonical_moves.hpp); format 2, written
// now, uses move numbers (rules/move_numbers.hpp). Both are read.
constexpr std::uint8_t kLegalIndexFormat = 1;
constexpr std::uint8_t kRecordFormat = 2;
constexpr std::uint8_t kFlagAnnotated = 1;

constexpr std::uint8_t kTokenMaxRun = 0x3f;
constexpr std::uint8_t kTokenNag = 0x40;
constexpr std::uint8_t kTokenComment = 0x41;
constexpr std::uint8_t kTokenBegin = 0x42;
constexpr std::uint8_t kTokenEnd = 0x43;
constexpr std::uint8_t kTokenNull = 0x44;  // a null move in a variation ("--")

// Tag names stored as one byte (index + 1). Frozen: append only.
constexpr std::array<std::string_view, 40> kTagNames = {
    "Event",       "Site",       "Date",         "Round",           "White",
    "Black",       "Result",     "WhiteElo",     "BlackElo",        "ECO",
    "Variant",     "SetUp",      "FEN",          "TimeControl",     "Termination",
    "PlyCount",    "EventDate",  "Annotator",    "WhiteTitle",      "BlackTitle",
    "Opening",     "Variation",  "WhiteFideId",  "BlackFideId",     "EventType",
    "EventRounds", "Mode",       "Board",        "WhiteTeam",       "BlackTeam",
    "Source",      "UTCDate",    "UTCTime",      "WhiteRatingDiff", "BlackRatingDiff",
    "Time",        "SourceDate", "EventCountry", "Stage",           "SubVariation",
};

int tag_code(std::string_view name) {
  for (std::size_t i = 0; i < kTagNames.size(); ++i)
    if (kTagNames[i] == name) return int(i + 1);
  return 0;
}

Error invalid(std::string msg) { return Error{ErrorKind::InvalidArgument, std::move(msg)}; }
Error corrupt(std::string msg) { return Error{ErrorKind::Corrupt, "game record: " + std::move(msg)}; }

// One line of play while walking the movetext, as the game checker keeps it.
template <class G>
struct Line {
  Position<G> pos;
  Position<G> before_last;
  std::uint32_t ply = 0;
  bool has_move = false;

  void play(Move m) {
    before_last = pos;
    pos.play(m);
    has_move = true;
    ++ply;
  }
  void play_null() {
    before_last = pos;
    pos.play_null();
    has_move = true;
    ++ply;
  }
  Line variation() const {
    Line l{has_move ? before_last : pos, has_move ? before_last : pos, has_move ? ply - 1 : ply, false};
    return l;
  }
};

int read_move_number(ByteReader& r, bool wide) {
  if (!wide) return r.byte();
  const int hi = r.byte();
  return hi << 8 | r.byte();
}

// Reads one move of a record of either format; null when the bytes name no
// legal move. `legal` receives the legal moves when `list` is set (SAN needs
// them); format 1 always lists them.
template <class G>
Move read_move(ByteReader& r, std::uint8_t format, const Position<G>& pos, MoveList& legal, bool list) {
  if (format == kLegalIndexFormat || list) legal_moves_into(pos, legal);
  if (format == kLegalIndexFormat)
    return canonical_at(legal, std::size_t(read_move_number(r, legal.size() > 256)));
  const int number = read_move_number(r, move_numbers_wide(pos));
  return r.ok() ? move_with_number(pos, number) : Move{};
}

bool annotated(const GameRecord& rec) {
  for (const MovetextItem& item : rec.movetext)
    if (item.kind != ItemKind::Move) return true;
  return false;
}

template <class G>
Status encode_moves(const GameRecord& rec, const std::string* main_line_numbers, std::string& out) {
  auto start = start_position<G>(rec.variant, rec.start_fen, rec.bishop_swap());
  if (!start) return invalid("the start FEN is not a legal position");
  // Main line.
  put_varint(out, rec.main_line.size());
  if (main_line_numbers) {
    out += *main_line_numbers;
  } else {
    Position<G> pos = *start;
    for (Move m : rec.main_line) {
      if (!append_move_number(out, pos, m)) return invalid("a main-line move is not legal");
      pos.play(m);
    }
  }
  if (!annotated(rec)) return {};

  // Movetext tokens; runs of depth-0 moves come from the main line.
  std::vector<Line<G>> lines{Line<G>{*start, *start, 0, false}};
  std::size_t main_index = 0;
  std::string run;  // move indices of the pending run (variations only)
  int run_length = 0;
  std::string tokens;
  auto flush = [&] {
    if (run_length == 0) return;
    tokens += char(run_length);
    tokens += run;
    run.clear();
    run_length = 0;
  };
  std::size_t implicit_from = 0;  // tokens.size() after the last non-main token
  for (const MovetextItem& item : rec.movetext) {
    Line<G>& line = lines.back();
    switch (item.kind) {
      case ItemKind::Move:
        if (item.move.is_null()) {
          if (lines.size() == 1) return invalid("a null move in the main line");
          if (line.pos.in_check()) return invalid("a null move by a side in check");
          flush();
          tokens += char(kTokenNull);
          line.play_null();
          break;
        }
        if (lines.size() == 1) {
          if (main_index >= rec.main_line.size() || rec.main_line[main_index] != item.move)
            return invalid("the movetext does not follow the main line");
          ++main_index;
        } else {
          if (!append_move_number(run, line.pos, item.move)) return invalid("a variation move is not legal");
        }
        line.play(item.move);
        if (++run_length == kTokenMaxRun) flush();
        continue;
      case ItemKind::Nag:
        flush();
        tokens += char(kTokenNag);
        tokens += char(item.nag);
        break;
      case ItemKind::Comment:
        flush();
        tokens += char(kTokenComment);
        put_bytes(tokens, item.text);
        break;
      case ItemKind::BeginVariation:
        flush();
        tokens += char(kTokenBegin);
        lines.push_back(line.variation());
        break;
      case ItemKind::EndVariation:
        flush();
        if (lines.size() == 1) return invalid("the movetext closes a variation it never opened");
        tokens += char(kTokenEnd);
        lines.pop_back();
        break;
    }
    implicit_from = tokens.size();
  }
  if (lines.size() != 1) return invalid("the movetext leaves a variation open");
  if (main_index != rec.main_line.size()) return invalid("the movetext does not hold the main line");
  // Trailing depth-0 moves are implied by the main line: drop their run.
  out.append(tokens, 0, implicit_from);
  return {};
}

template <class G>
Status decode_moves(ByteReader& r, std::uint8_t format, GameRecord& rec, bool bishop_swap, bool is_annotated,
                    unsigned parts, std::uint32_t main_line_plies, int main_line_min_men) {
  auto start = start_position<G>(rec.variant, rec.start_fen, bishop_swap);
  if (!start) return corrupt("bad start FEN");
  rec.start_side = start->side_to_move();
  rec.start_fullmove = start->fullmove_number();
  if (!(parts & (kDecodeMainLine | kDecodeMovetext))) return {};
  const bool want_text = parts & kDecodeMovetext;

  MoveList legal;
  const std::uint64_t plies = r.varint();
  if (!r.ok() || plies > game::kMaxMainLinePlies) return corrupt("bad ply count");
  const std::uint64_t decoded = want_text ? plies : std::min<std::uint64_t>(plies, main_line_plies);
  rec.main_line.reserve(decoded);
  Position<G> pos = *start;
  const bool main_line_text = want_text && !is_annotated;
  const bool stop_on_men = !want_text && main_line_min_men > 0;
  for (std::uint64_t p = 0; p < decoded; ++p) {
    if (stop_on_men && popcount(pos.occupied()) < main_line_min_men) break;
    const Move m = read_move(r, format, pos, legal, main_line_text);
    if (!r.ok() || m.is_null()) return corrupt("bad main-line move");
    if (main_line_text) {
      MovetextItem item;
      item.kind = ItemKind::Move;
      item.ply = std::uint32_t(p + 1);
      item.move = m;
      item.text = write_san(pos, m, legal);
      rec.movetext.push_back(std::move(item));
    }
    rec.main_line.push_back(m);
    pos.play(m);
  }
  if (!want_text || !is_annotated) return {};

  std::vector<Line<G>> lines{Line<G>{*start, *start, 0, false}};
  std::size_t main_index = 0;
  auto add_move = [&](Line<G>& line, Move m, const MoveList& list) {
    MovetextItem item;
    item.kind = ItemKind::Move;
    item.ply = line.ply + 1;
    item.move = m;
    item.text = write_san(line.pos, m, list);
    rec.movetext.push_back(std::move(item));
    line.play(m);
  };
  auto add_main_move = [&] {
    Line<G>& line = lines.back();
    legal_moves_into(line.pos, legal);
    add_move(line, rec.main_line[main_index++], legal);
  };
  while (!r.at_end()) {
    const std::uint8_t token = r.byte();
    if (token >= 1 && token <= kTokenMaxRun) {
      for (int n = 0; n < token; ++n) {
        if (lines.size() == 1) {
          if (main_index >= rec.main_line.size()) return corrupt("movetext past the main line");
          add_main_move();
          continue;
        }
        Line<G>& line = lines.back();
        const Move m = read_move(r, format, line.pos, legal, true);
        if (!r.ok() || m.is_null()) return corrupt("bad variation move");
        add_move(line, m, legal);
      }
      continue;
    }
    MovetextItem item;
    switch (token) {
      case kTokenNag:
        item.kind = ItemKind::Nag;
        item.nag = r.byte();
        break;
      case kTokenComment:
        item.kind = ItemKind::Comment;
        item.text = std::string(r.bytes());
        break;
      case kTokenBegin:
        item.kind = ItemKind::BeginVariation;
        lines.push_back(lines.back().variation());
        break;
      case kTokenEnd:
        if (lines.size() == 1) return corrupt("unbalanced variation");
        item.kind = ItemKind::EndVariation;
        lines.pop_back();
        break;
      case kTokenNull: {
        Line<G>& line = lines.back();
        if (lines.size() == 1 || line.pos.in_check()) return corrupt("a null move where none can be");
        item.kind = ItemKind::Move;
        item.ply = line.ply + 1;
        item.text = "--";
        line.play_null();
        break;
      }
      default: return corrupt("unknown movetext token");
    }
    if (!r.ok()) return corrupt("truncated movetext");
    rec.movetext.push_back(std::move(item));
  }
  if (lines.size() != 1) return corrupt("unbalanced variation");
  while (main_index < rec.main_line.size()) add_main_move();
  return {};
}

}  // namespace

Result<std::string> encode_game(const GameRecord& rec, const std::string* main_line_numbers) {
  std::string out;
  out.reserve(64 + rec.main_line.size() + rec.tags.size() * 16);
  const bool is_annotated = annotated(rec);
  out += char(kRecordFormat);
  out += char(rec.variant);
  out += char(rec.result);
  out += char(is_annotated ? kFlagAnnotated : 0);
  put_bytes(out, rec.start_fen);
  put_varint(out, rec.tags.size());
  for (const auto& t : rec.tags) {
    const int code = tag_code(t.name);
    out += char(code);
    if (code == 0) put_bytes(out, t.name);
    put_bytes(out, t.value);
  }
  Status status;
  virrey::with_geometry(rec.variant,
                        [&]<class G>(G) { status = encode_moves<G>(rec, main_line_numbers, out); });
  if (!status) return status.error();
  return out;
}

Result<GameRecord> decode_game(std::string_view bytes, unsigned parts, std::uint32_t main_line_plies,
                               int main_line_min_men) {
  ByteReader r(bytes);
  GameRecord rec;
  const std::uint8_t format = r.byte();
  if (format != kRecordFormat && format != kLegalIndexFormat) return corrupt("unknown format");
  const std::uint8_t variant = r.byte();
  const std::uint8_t result = r.byte();
  const std::uint8_t flags = r.byte();
  if (!r.ok() || variant >= kVariantCount || result > 3) return corrupt("bad header");
  rec.variant = Variant(variant);
  rec.result = GameResult(result);
  rec.start_fen = std::string(r.bytes());
  const std::uint64_t tags = r.varint();
  if (!r.ok() || tags > bytes.size()) return corrupt("bad tag count");
  const bool want_tags = parts & kDecodeTags;
  if (want_tags) rec.tags.reserve(tags);
  std::optional<std::string_view> bishop_swap;  // the first BishopSwap tag, as GameRecord::tag
  for (std::uint64_t i = 0; i < tags; ++i) {
    const std::uint8_t code = r.byte();
    std::string_view name = code == 0                  ? r.bytes()
                            : code <= kTagNames.size() ? kTagNames[code - 1]
                                                       : std::string_view{};
    std::string_view value = r.bytes();
    if (!r.ok() || name.empty()) return corrupt("bad tag");
    if (name == game::kBishopSwapTag && !bishop_swap) bishop_swap = value;
    if (want_tags) rec.tags.push_back({std::string(name), std::string(value)});
  }
  Status status;
  virrey::with_geometry(rec.variant, [&]<class G>(G) {
    status = decode_moves<G>(r, format, rec, game::allows_bishop_swap(rec.variant, bishop_swap.value_or("")),
                             flags & kFlagAnnotated, parts, main_line_plies, main_line_min_men);
  });
  if (!status) return status.error();
  return rec;
}

}  // namespace virrey::store
