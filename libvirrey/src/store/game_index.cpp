// What one game adds to the indexes (game_index.hpp), from a trace of its main
// line: hashes, moves, promotions and how the game ends.
#include "virrey/store/game_index.hpp"

#include <algorithm>

#include "canonical_moves.hpp"
#include "hash_set64.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {

using game::GameRecord;

void collect_tags(const GameRecord& rec, GameIndex& out) {
  out.tags.reserve(9);
  auto add = [&](TagField f, std::string_view raw) {
    std::string v = normalize_tag_value(raw);
    if (is_placeholder_tag_value(f, v)) return;
    for (const TagEntry& t : out.tags)
      if (t.field == f && t.value == v) return;
    out.tags.push_back({f, std::move(v)});
  };
  for (TagField f : {TagField::White, TagField::Black, TagField::Event, TagField::Site, TagField::Round,
                     TagField::Date, TagField::Eco})
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
Status replay(const GameRecord& rec, game::MainLineTrace& trace, bool with_numbers) {
  auto start = start_position<G>(rec.variant, rec.start_fen, rec.bishop_swap());
  if (!start) return Error{ErrorKind::InvalidArgument, "the start FEN is not a legal position"};
  Position<G> pos = *start;
  trace.start(rec.main_line.size(), with_numbers);
  for (Move m : rec.main_line) {
    // Records come from the checker or the decoder, so moves are legal; a
    // cheap guard keeps a broken record from corrupting the replay.
    if (m.from() >= G::squares || m.to() >= G::squares)
      return Error{ErrorKind::InvalidArgument, "a main-line move is off the board"};
    const Piece mover = pos.piece_on(m.from());
    if (mover.empty() || mover.color != pos.side_to_move() || !trace.add(pos, m))
      return Error{ErrorKind::InvalidArgument, "a main-line move is not legal"};
    pos.play(m);
  }
  trace.finish(pos, board_state(pos));
  return {};
}

}  // namespace

Status trace_main_line(const GameRecord& rec, game::MainLineTrace& trace, bool with_numbers) {
  Status status;
  virrey::with_geometry(rec.variant, [&]<class G>(G) { status = replay<G>(rec, trace, with_numbers); });
  return status;
}

GameIndex index_game(const GameRecord& rec, const game::MainLineTrace& trace) {
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
  s.final_men = trace.final_men;
  s.mate_by = trace.mate_by;
  s.time_class = game::time_class(rec.tag("TimeControl"));
  s.ending = trace.final_state == BoardState::Checkmate   ? Ending::Checkmate
             : trace.final_state == BoardState::Stalemate ? Ending::Stalemate
                                                          : Ending::Other;

  DistinctPositions seen(trace.hashes.size());
  for (std::size_t ply = 0; ply < trace.hashes.size(); ++ply) seen.add(trace.hashes[ply], std::uint32_t(ply));
  out.positions = seen.take();
  const std::size_t tree_plies = std::min<std::size_t>(rec.main_line.size(), kTreePlies);
  out.tree.reserve(tree_plies);
  for (std::size_t i = 0; i < tree_plies; ++i) {
    const TreeEntry e{trace.hashes[i], rec.main_line[i]};
    const bool dup = std::any_of(out.tree.begin(), out.tree.end(),
                                 [&](const TreeEntry& t) { return t.hash == e.hash && t.move == e.move; });
    if (!dup) out.tree.push_back(e);
  }
  out.promotions.reserve(trace.promotions.size());
  for (const game::TracedPromotion& p : trace.promotions)
    out.promotions.push_back(
        {p.piece, p.colour, p.file, p.ply,
         std::uint8_t((p.square == kNoSquare ? kCapturedLater : 0) | (p.gave_mate ? kGaveMate : 0))});

  const auto positions = std::uint32_t(trace.hashes.size());
  out.materials.reserve(trace.materials.size());
  for (std::size_t i = 0; i < trace.materials.size(); ++i) {
    const std::uint32_t first = trace.materials[i].first_ply;
    const std::uint32_t end = i + 1 < trace.materials.size() ? trace.materials[i + 1].first_ply : positions;
    out.materials.push_back({trace.materials[i].material, first, end > first ? end - first : 1});
  }

  s.promotions = std::uint8_t(std::min<std::size_t>(out.promotions.size(), 255));
  out.counters = game_counters(s);
  collect_tags(rec, out);
  return out;
}

Result<GameIndex> index_game(const GameRecord& rec) {
  game::MainLineTrace trace;
  if (Status s = trace_main_line(rec, trace, false); !s) return s.error();
  return index_game(rec, trace);
}

}  // namespace virrey::store
