// What one game adds to the indexes (game_index.hpp): a replay of its main
// line collecting hashes, moves, promotions and how the game ends.
#include "virrey/store/game_index.hpp"

#include <algorithm>
#include <array>

#include "canonical_moves.hpp"
#include "hash_set64.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {

using game::GameRecord;

bool placeholder(TagField f, std::string_view normalized) {
  if (normalized.empty() || normalized == "?" || normalized == "-") return true;
  if (f == TagField::Date) return normalized.find_first_not_of("?.") == std::string_view::npos;
  return false;
}

void collect_tags(const GameRecord& rec, GameIndex& out) {
  out.tags.reserve(9);
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
  add(TagField::Result, result_text(rec.result));
  add(TagField::Variant, info(rec.variant).cli_name);
}

TreeCounters game_counters(const GameSummary& s) {
  TreeCounters c;
  c.games = 1;
  c.white_wins = s.result == GameResult::WhiteWins;
  c.draws = s.result == GameResult::Draw;
  c.black_wins = s.result == GameResult::BlackWins;
  c.white_elo_sum = s.white_elo;
  c.white_elo_games = s.white_elo != 0;
  c.black_elo_sum = s.black_elo;
  c.black_elo_games = s.black_elo != 0;
  c.last_date = s.date;
  return c;
}

// The distinct positions of a game in the order they first occur. The set
// that finds repetitions is the thread's, kept from game to game.
class DistinctPositions {
 public:
  explicit DistinctPositions(std::size_t most) : seen_(thread_set()) {
    seen_.reset(most);
    list_.reserve(most);
  }
  void add(std::uint64_t hash, std::uint32_t ply) {
    if (seen_.insert(hash)) list_.push_back({hash, ply});
  }
  std::vector<PositionEntry> take() { return std::move(list_); }

 private:
  static HashSet64& thread_set() {
    thread_local HashSet64 set;
    return set;
  }
  HashSet64& seen_;
  std::vector<PositionEntry> list_;
};

template <class G>
Status replay(const GameRecord& rec, GameIndex& out, std::string* move_numbers) {
  auto start = start_position<G>(rec.variant, rec.start_fen, rec.bishop_swap());
  if (!start) return Error{ErrorKind::InvalidArgument, "the start FEN is not a legal position"};
  Position<G> pos = *start;

  DistinctPositions seen(rec.main_line.size() + 1);
  if (move_numbers) move_numbers->reserve(move_numbers->size() + 2 * rec.main_line.size());
  seen.add(pos.hash(), 0);
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
    if (move_numbers && !append_move_number(*move_numbers, pos, m))
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
    seen.add(pos.hash(), ply);
  }

  out.summary.final_men = std::uint8_t(popcount(pos.occupied()));
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

  out.positions = seen.take();
  return {};
}

}  // namespace

Result<GameIndex> index_game(const GameRecord& rec, std::string* move_numbers) {
  GameIndex out;
  out.variant = rec.variant;
  out.identity_bytes = game::identity_bytes(rec);
  out.identity = game::identity_hash(out.identity_bytes);
  GameSummary& s = out.summary;
  s.variant = rec.variant;
  s.result = rec.result;
  s.plies = std::uint16_t(std::min<std::size_t>(rec.main_line.size(), 0xffff));
  s.date = parse_date(rec.tag("Date"));
  s.white_elo = parse_elo(rec.tag("WhiteElo"));
  s.black_elo = parse_elo(rec.tag("BlackElo"));

  Status status;
  virrey::with_geometry(rec.variant, [&]<class G>(G) { status = replay<G>(rec, out, move_numbers); });
  if (!status) return status.error();
  s.promotions = std::uint8_t(std::min<std::size_t>(out.promotions.size(), 255));
  out.counters = game_counters(s);
  collect_tags(rec, out);
  return out;
}

}  // namespace virrey::store
