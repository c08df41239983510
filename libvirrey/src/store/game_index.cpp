// What one game adds to the indexes (game_index.hpp): a replay of its main
// line collecting hashes, moves, promotions and how the game ends.
#include "virrey/store/game_index.hpp"

#include <algorithm>
#include <array>

#include "canonical_moves.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {

using validate::GameRecord;

constexpr std::array<std::string_view, 7> kSevenTagRoster = {"Event", "Site",  "Date",  "Round",
                                                             "White", "Black", "Result"};

// FNV-1a over the identity's bytes, then a final avalanche (frozen).
class IdentityHash {
 public:
  void bytes(std::string_view s) {
    for (unsigned char c : s) h_ = (h_ ^ c) * 0x100000001b3ULL;
  }
  void field(std::string_view s) {
    number(s.size());
    bytes(s);
  }
  void number(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h_ = (h_ ^ (v >> (8 * i) & 0xff)) * 0x100000001b3ULL;
  }
  std::uint64_t value() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

bool placeholder(TagField f, std::string_view normalized) {
  if (normalized.empty() || normalized == "?" || normalized == "-") return true;
  if (f == TagField::Date) return normalized.find_first_not_of("?.") == std::string_view::npos;
  return false;
}

void collect_tags(const GameRecord& rec, GameIndex& out) {
  auto add = [&](TagField f, std::string_view raw) {
    std::string v = normalize_tag_value(raw);
    if (placeholder(f, v)) return;
    for (const TagEntry& t : out.tags)
      if (t.field == f && t.value == v) return;
    out.tags.push_back({f, std::move(v)});
  };
  for (TagField f : {TagField::White, TagField::Black, TagField::Event, TagField::Site,
                     TagField::Round, TagField::Date, TagField::Eco})
    add(f, rec.tag(tag_field_name(f)));
  add(TagField::Result, validate::outcome_text(rec.result));
  add(TagField::Variant, info(rec.variant).cli_name);
}

TreeCounters game_counters(const GameSummary& s) {
  TreeCounters c;
  c.games = 1;
  c.white_wins = s.result == validate::Outcome::WhiteWins;
  c.draws = s.result == validate::Outcome::Draw;
  c.black_wins = s.result == validate::Outcome::BlackWins;
  c.white_elo_sum = s.white_elo;
  c.white_elo_games = s.white_elo != 0;
  c.black_elo_sum = s.black_elo;
  c.black_elo_games = s.black_elo != 0;
  c.last_date = s.date;
  return c;
}

template <class G>
Status replay(const GameRecord& rec, GameIndex& out) {
  auto start = start_position<G>(rec.variant, rec.start_fen, rec.bishop_swap());
  if (!start) return Error{ErrorKind::InvalidArgument, "the start FEN is not a legal position"};
  Position<G> pos = *start;

  std::vector<PositionEntry> seen;
  seen.reserve(rec.main_line.size() + 1);
  seen.push_back({pos.hash(), 0});
  out.tree.reserve(std::min<std::size_t>(rec.main_line.size(), kTreePlies));
  std::vector<Square> promoted;  // current square of each promoted piece (kNoSquare: captured)

  for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
    const Move m = rec.main_line[i];
    // Records come from the checker or the decoder, so moves are legal; a
    // cheap guard keeps a broken record from corrupting the replay.
    if (m.from() >= G::squares || m.to() >= G::squares)
      return Error{ErrorKind::InvalidArgument, "a main-line move is off the board"};
    const Piece mover = pos.piece_on(m.from());
    if (mover.empty() || mover.color != pos.side_to_move())
      return Error{ErrorKind::InvalidArgument, "a main-line move is not legal"};
    const auto ply = std::uint32_t(i + 1);
    if (i < kTreePlies) {
      const TreeEntry e{pos.hash(), m};
      const bool dup = std::any_of(out.tree.begin(), out.tree.end(), [&](const TreeEntry& t) {
        return t.hash == e.hash && t.move == e.move;
      });
      if (!dup) out.tree.push_back(e);
    }
    // Follow promoted pieces: captured when a move lands on them.
    for (Square& s : promoted) {
      if (s == kNoSquare) continue;
      if (m.kind() == MoveKind::BishopSwap && m.to() == s) s = m.from();
      else if (m.from() == s) s = m.to();
      else if (m.to() == s) {
        out.promotions[&s - promoted.data()].flags |= kCapturedLater;
        s = kNoSquare;
      }
    }
    if (m.kind() == MoveKind::Promotion) {
      out.promotions.push_back({m.promotion(), pos.side_to_move(), file_of<G>(m.to()), ply, 0});
      promoted.push_back(m.to());
    }
    pos.play(m);
    seen.push_back({pos.hash(), ply});
  }

  const BoardState state = board_state(pos);
  out.summary.ending = state == BoardState::Checkmate   ? Ending::Checkmate
                       : state == BoardState::Stalemate ? Ending::Stalemate
                                                        : Ending::Other;
  if (state == BoardState::Checkmate) {
    const auto checkers = pos.checkers();
    for (std::size_t k = 0; k < promoted.size(); ++k)
      if (promoted[k] != kNoSquare && (checkers & square_bb<G>(promoted[k])))
        out.promotions[k].flags |= kGaveMate;
  }

  // Distinct positions with their first ply.
  std::sort(seen.begin(), seen.end(), [](const PositionEntry& a, const PositionEntry& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.first_ply < b.first_ply;
  });
  seen.erase(std::unique(seen.begin(), seen.end(),
                         [](const PositionEntry& a, const PositionEntry& b) { return a.hash == b.hash; }),
             seen.end());
  out.positions = std::move(seen);
  return {};
}

}  // namespace

std::uint64_t game_identity(const GameRecord& rec) {
  IdentityHash h;
  h.number(std::uint64_t(rec.variant));
  h.field(rec.start_fen);
  h.number(rec.main_line.size());
  for (Move m : rec.main_line) {
    const Key<3> b = move_bytes(m);
    h.bytes(view(b));
  }
  for (std::string_view name : kSevenTagRoster) h.field(rec.tag(name));
  return h.value();
}

bool same_game(const GameRecord& a, const GameRecord& b) {
  if (a.variant != b.variant || a.start_fen != b.start_fen || a.main_line != b.main_line)
    return false;
  for (std::string_view name : kSevenTagRoster)
    if (a.tag(name) != b.tag(name)) return false;
  return true;
}

Result<GameIndex> index_game(const GameRecord& rec) {
  GameIndex out;
  out.variant = rec.variant;
  out.identity = game_identity(rec);
  GameSummary& s = out.summary;
  s.variant = rec.variant;
  s.result = rec.result;
  s.plies = std::uint16_t(std::min<std::size_t>(rec.main_line.size(), 0xffff));
  s.date = parse_date(rec.tag("Date"));
  s.white_elo = parse_elo(rec.tag("WhiteElo"));
  s.black_elo = parse_elo(rec.tag("BlackElo"));

  Status status;
  virrey::with_geometry(rec.variant, [&]<class G>(G) { status = replay<G>(rec, out); });
  if (!status) return status.error();
  s.promotions = std::uint8_t(std::min<std::size_t>(out.promotions.size(), 255));
  out.counters = game_counters(s);
  collect_tags(rec, out);
  return out;
}

}  // namespace virrey::store
