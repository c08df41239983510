#include "virrey/analyse/self_play.hpp"

#include <vector>

#include <fmt/format.h>

#include "virrey/engine/search.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::analyse {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

engine::EngineConfig with_default(engine::EngineConfig c, Variant v) {
  if (c.path.empty()) {
    const auto d = engine::default_engine(v);
    c.path = engine::find_program(d.program).value_or(std::string(d.program));
    c.protocol = d.protocol;
  }
  return c;
}

}  // namespace

SelfPlay::SelfPlay(SelfPlayOptions options)
    : options_(options), engine_(with_default(options.engine, options.variant)) {}

SelfPlay::~SelfPlay() = default;

engine::Limits SelfPlay::strong_limits() const {
  engine::Limits l = options_.limits;
  l.nodes *= 4;
  if (l.depth) l.depth += 2;
  l.movetime *= 4;
  return l;
}

Result<game::GameRecord> SelfPlay::game(std::uint64_t index) {
  const Variant v = options_.variant;
  // A fresh engine per game: nothing of the last game's search is left.
  if (auto err = engine_.start(v))
    return Error{ErrorKind::Io,
                 fmt::format("cannot start the engine {}: {}", engine_.config().path, err->message)};
  std::uint64_t rng = options_.seed * 0x100000001b3ull ^ (index + 1) * 0x9e3779b97f4a7c15ull;
  game::GameRecord rec;
  rec.variant = v;
  GameResult result = GameResult::Draw;
  std::string termination = "ply limit";
  std::optional<Error> failure;
  with_geometry(v, [&](auto geometry) {
    using G = decltype(geometry);
    Position<G> pos = *variant_start<G>(v);
    std::vector<std::uint64_t> history{pos.hash()};
    for (int ply = 0;; ++ply) {
      const MoveList legal = legal_moves(pos);
      if (legal.empty()) {
        if (pos.in_check()) {
          result = pos.side_to_move() == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
          termination = "checkmate";
        } else {
          termination = "stalemate";
        }
        return;
      }
      if (insufficient_material(pos)) {
        termination = "insufficient material";
        return;
      }
      if (fifty_move_rule(pos)) {
        termination = "50-move rule";
        return;
      }
      if (repetitions(history, pos.halfmove_clock()) >= 3) {
        termination = "threefold repetition";
        return;
      }
      if (ply >= options_.max_plies) return;
      Move m{};
      if (ply < options_.opening_plies) {
        m = legal[std::size_t(splitmix64(rng) % legal.size())];
      } else {
        engine::RawResult raw;
        const bool strong = (pos.side_to_move() == Color::White) == (index % 2 == 1);
        auto err = engine_.search(write_fen(pos), {}, strong ? strong_limits() : options_.limits, raw);
        // A draw the engine claims that virrey's rules did not find above
        // (a repetition it counts otherwise): the game ends so, by agreement.
        if (err && raw.claim.rfind("1/2-1/2", 0) == 0) {
          termination = "drawn by the engine: " + raw.claim;
          return;
        }
        if (err) {
          failure = Error{ErrorKind::Io, fmt::format("game {}, ply {}: {}: {}", index + 1, ply + 1,
                                                     engine::failure_name(err->failure), err->message)};
          return;
        }
        auto checked = engine::read_engine_move(pos, raw.best);
        if (!checked) {
          failure = Error{ErrorKind::Io,
                          fmt::format("game {}, ply {}: the engine answered \"{}\", not a legal move",
                                      index + 1, ply + 1, raw.best)};
          return;
        }
        m = *checked;
      }
      rec.movetext.push_back({game::ItemKind::Move, 0, std::uint32_t(ply + 1), m, write_san(pos, m, legal)});
      rec.main_line.push_back(m);
      pos.play(m);
      history.push_back(pos.hash());
    }
  });
  if (failure) return *failure;
  rec.result = result;
  const std::string name = engine_.name();
  const std::string weak = fmt::format("{} ({})", name, options_.limits.describe());
  const std::string strong = fmt::format("{} ({})", name, strong_limits().describe());
  rec.tags = {{"Event", fmt::format("{} self-play, seed {}", name, options_.seed)},
              {"Site", "virrey generate --engine"},
              {"Date", "????.??.??"},
              {"Round", fmt::format("{}", index + 1)},
              {"White", index % 2 ? strong : weak},
              {"Black", index % 2 ? weak : strong},
              {"Result", std::string(result_text(result))},
              {"Variant", std::string(info(v).cli_name)},
              {"Termination", termination},
              {"PlyCount", fmt::format("{}", rec.main_line.size())}};
  return rec;
}

}  // namespace virrey::analyse
