#include "stats_collection.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "virrey/generate/game_generator.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::stats_test {

namespace fs = std::filesystem;

namespace {

// Does the piece on `from` attack `to`? Walks the board square by square.
template <class G>
bool attacks(const Position<G>& pos, Square from, Square to) {
  const Piece p = pos.piece_on(from);
  const int ff = file_of<G>(from), fr = rank_of<G>(from), tf = file_of<G>(to), tr = rank_of<G>(to);
  const int df = tf - ff, dr = tr - fr;
  auto slide = [&](bool straight, bool diagonal) {
    const bool is_straight = (df == 0) != (dr == 0);
    const bool is_diagonal = df != 0 && (df == dr || df == -dr);
    if (!((straight && is_straight) || (diagonal && is_diagonal))) return false;
    const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    for (int f = ff + sf, r = fr + sr; f != tf || r != tr; f += sf, r += sr)
      if (!pos.piece_on(make_square<G>(f, r)).empty()) return false;
    return true;
  };
  switch (p.type) {
    case PieceType::Viceroy:
    case PieceType::King: return std::max(std::abs(df), std::abs(dr)) == 1;
    case PieceType::Knight: return std::abs(df * dr) == 2;
    case PieceType::Bishop: return slide(false, true);
    case PieceType::Rook: return slide(true, false);
    case PieceType::Queen: return slide(true, true);
    case PieceType::Minister: return slide(false, true) || std::abs(df * dr) == 2;
    case PieceType::Pawn: return std::abs(df) == 1 && dr == (p.color == Color::White ? 1 : -1);
    default: return false;
  }
}

std::uint32_t parse_number(std::string_view s) {
  std::uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + std::uint32_t(c - '0');
  }
  return v;
}

template <class G>
void replay(RefGame& g) {
  const game::GameRecord& rec = g.record;
  FenProblems errors;
  auto start = position_from_fen<G>(rec.start_fen.empty() ? info(rec.variant).start_fen : rec.start_fen,
                                    rec.variant, errors);
  ASSERT_TRUE(start) << join_reasons(errors);
  Position<G> pos = *start;
  // Which promotion (index into g.promotions) stands on each square; -1: none.
  std::array<int, G::squares> promoted;
  promoted.fill(-1);
  for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
    const Move m = rec.main_line[i];
    g.keys.push_back(position_key(write_fen(pos)));
    g.uci.push_back(write_uci<G>(m));
    g.san.push_back(write_san(pos, m));
    const Color us = pos.side_to_move();
    const Square captured = m.kind() == MoveKind::EnPassant
                                ? make_square<G>(file_of<G>(m.to()), rank_of<G>(m.from()))
                            : m.kind() == MoveKind::Castling || m.kind() == MoveKind::BishopSwap ? kNoSquare
                                                                                                 : m.to();
    if (captured != kNoSquare && !pos.piece_on(captured).empty() && promoted[captured] >= 0) {
      g.promotions[std::size_t(promoted[captured])].captured_later = true;
      promoted[captured] = -1;
    }
    if (m.kind() == MoveKind::Castling) {
      // The rook comes from the corner and lands on the square the king crossed.
      const bool kingside = m.to() > m.from();
      const Square rook_from = make_square<G>(kingside ? G::width - 1 : 0, rank_of<G>(m.from()));
      const Square rook_to = kingside ? Square(m.to() - 1) : Square(m.to() + 1);
      promoted[rook_to] = promoted[rook_from];
      if (rook_from != rook_to) promoted[rook_from] = -1;
    }
    const int moving = promoted[m.from()];
    promoted[m.from()] = m.kind() == MoveKind::BishopSwap ? promoted[m.to()] : -1;
    promoted[m.to()] = moving;
    if (m.kind() == MoveKind::Promotion) {
      promoted[m.to()] = int(g.promotions.size());
      g.promotions.push_back({std::uint32_t(i + 1), us, m.promotion(), file_of<G>(m.to()), false, false});
    }
    pos.play(m);
  }
  g.keys.push_back(position_key(write_fen(pos)));
  if (legal_moves(pos).empty()) {
    const Color loser = pos.side_to_move();
    const Square king = pos.king_square(loser);
    bool in_check = false;
    for (int s = 0; s < G::squares; ++s) {
      const Piece p = pos.piece_on(Square(s));
      if (p.empty() || p.color == loser || !attacks<G>(pos, Square(s), king)) continue;
      in_check = true;
      if (promoted[s] >= 0) g.promotions[std::size_t(promoted[s])].gave_mate = true;
    }
    g.ending = in_check ? store::Ending::Checkmate : store::Ending::Stalemate;
  }
  const std::string_view we = rec.tag("WhiteElo"), be = rec.tag("BlackElo");
  g.white_elo = we.size() <= 5 ? parse_number(we) : 0;
  g.black_elo = be.size() <= 5 ? parse_number(be) : 0;
  if (g.white_elo > 65535) g.white_elo = 0;
  if (g.black_elo > 65535) g.black_elo = 0;
  const std::string_view d = rec.tag("Date");
  if (d.size() == 10) {
    const std::uint32_t y = parse_number(d.substr(0, 4));
    std::uint32_t mo = parse_number(d.substr(5, 2)), day = parse_number(d.substr(8, 2));
    if (mo > 12) mo = 0;
    if (mo == 0 || day > 31) day = 0;
    g.date = y ? y * 10000 + mo * 100 + day : 0;
  }
}

void set_tag(game::GameRecord& r, const std::string& name, const std::string& value) {
  for (auto& t : r.tags)
    if (t.name == name) {
      t.value = value;
      return;
    }
  r.tags.push_back({name, value});
}

void drop_tag(game::GameRecord& r, const std::string& name) {
  std::erase_if(r.tags, [&](const game::TagPair& t) { return t.name == name; });
}

// Generated games, with tags varied so that every grouping has work to do.
std::vector<game::GameRecord> test_games() {
  std::vector<game::GameRecord> out;
  for (auto [variant, seed, count] :
       {std::tuple{Variant::Virrey, 11u, 600}, std::tuple{Variant::Standard, 5u, 300},
        std::tuple{Variant::Modern, 17u, 240}}) {
    generate::GeneratorOptions o;
    o.variant = variant;
    o.seed = seed;
    generate::GameGenerator gen(o);
    for (int i = 0; i < count; ++i) out.push_back(gen.game(std::uint64_t(i)).record);
  }
  static const char* kEco[] = {"B90", "b90", "C42", "A00", "E97"};
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto& r = out[i];
    if (i % 7 == 3) drop_tag(r, "WhiteElo");
    if (i % 9 == 4) drop_tag(r, "BlackElo");
    if (i % 11 == 5) set_tag(r, "Date", "????.??.??");
    if (i % 13 == 6) set_tag(r, "Date", "2019.??.??");
    if (i % 5 != 0) set_tag(r, "ECO", kEco[i % 5]);
    if (i % 17 == 2) drop_tag(r, "Event");
    if (i % 19 == 1) {  // the same event, spelt otherwise
      std::string e(r.tag("Event"));
      for (char& c : e) c = char(std::toupper(static_cast<unsigned char>(c)));
      set_tag(r, "Event", "  " + e);
    }
    if (i % 23 == 7) {
      r.result = GameResult::Unknown;
      set_tag(r, "Result", "*");
    }
    if (i % 29 == 8) drop_tag(r, "Black");
    if (i % 31 == 9) {  // both players unknown
      drop_tag(r, "White");
      set_tag(r, "Black", "?");
    }
    if (i % 37 == 10) {  // one player on both sides, spelt otherwise
      std::string w(r.tag("White"));
      for (char& c : w) c = char(std::toupper(static_cast<unsigned char>(c)));
      set_tag(r, "Black", w);
    }
  }
  // Endings the generator rarely makes.
  static const char* kHandmade[] = {
      // Stalemate (S. Loyd), in both variants.
      "[White \"Loyd\"]\n[Black \"Stalemate\"]\n[Result \"1/2-1/2\"]\n\n1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 "
      "4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2\n",
      "[White \"Loyd\"]\n[Black \"Stalemate\"]\n[Result \"1/2-1/2\"]\n[Variant \"Virrey\"]\n\n1. e3 a5 2. "
      "Qh5 "
      "Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 "
      "1/2-1/2\n",
      // A viceroy made by capture mates at once.
      "[White \"Viceroy\"]\n[Black \"Mated\"]\n[Result \"1-0\"]\n[Variant \"Virrey\"]\n[SetUp \"1\"]\n"
      "[FEN \"4rk2/3P1ppB/3N4/8/8/8/8/1K6 w - - 0 1\"]\n\n1. dxe8=V# 1-0\n",
      // A viceroy taken by the king.
      "[White \"Viceroy\"]\n[Black \"King\"]\n[Result \"1/2-1/2\"]\n[Variant \"Virrey\"]\n[SetUp \"1\"]\n"
      "[FEN \"8/3kP3/8/8/8/8/8/7K w - - 0 1\"]\n\n1. e8=V+ Kxe8 1/2-1/2\n",
      // Modern chess: a minister made on the c-file mates at once, as a knight.
      "[White \"Minister\"]\n[Black \"Mated\"]\n[Result \"1-0\"]\n[Variant \"Modern\"]\n[SetUp \"1\"]\n"
      "[FEN \"9/k1P6/1N7/4B4/9/9/9/9/4K4 w - - 0 1\"]\n\n1. c9=M# 1-0\n",
  };
  validate::GameChecker checker;
  for (const char* pgn : kHandmade) {
    validate::CheckedGame g = checker.check(pgn, 1, {});
    EXPECT_FALSE(g.has_error) << pgn << (g.findings.empty() ? "" : g.findings.front().message);
    out.push_back(std::move(g.record));
  }
  return out;
}

}  // namespace

std::unique_ptr<Collection> build() {
  std::unique_ptr<Collection> c(new Collection());
  std::string templ = (fs::temp_directory_path() / "virrey-stats-test-XXXXXX").string();
  if (!::mkdtemp(templ.data())) std::abort();
  c->dir_ = templ;
  const auto records = test_games();
  // Table files instead of a write-ahead log that every reader would replay.
  virrey::testing::store_records(c->db_path(), records, /*compact=*/true);
  auto db = store::Database::open(c->db_path(), {store::OpenMode::Read});
  if (!db) std::abort();
  c->db = std::move(*db);
  Status s = c->db->for_each_game(
      [&](store::GameId id, const game::GameRecord& rec) {
        RefGame g;
        g.id = id;
        g.record = rec;
        with_geometry(rec.variant, [&](auto geometry) { replay<decltype(geometry)>(g); });
        c->games.push_back(std::move(g));
        return true;
      },
      store::kDecodeTags | store::kDecodeMainLine);
  EXPECT_TRUE(s) << s.error().message;
  EXPECT_EQ(c->games.size(), records.size());
  return c;
}

Collection::~Collection() {
  db.reset();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

Collection& Collection::shared() {
  static std::unique_ptr<Collection> c = build();
  return *c;
}

}  // namespace virrey::stats_test
