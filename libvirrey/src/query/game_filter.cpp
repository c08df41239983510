// Running a GameFilter over a database: sources (index ranges), the plan
// that picks which of them drive, and the verifier that checks the rest of a
// candidate from its summary or record. The plan is described in
// game_filter.hpp.
#include "virrey/query/game_filter.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "virrey/game/calendar.hpp"
#include "virrey/query/pattern_squares.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/promotion.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::query {

namespace {

using store::Database;
using store::TagField;
using store::TagMatch;

// PlanOptions::probe_cap: a source whose index entries are no more than this
// is read whole and intersected; above it, it may only drive (in id order)
// or be verified. PlanOptions::first_window: entries per run in the first
// round when a source drives, small so that a page of 50 costs little; later
// rounds grow to kMaxWindow.
constexpr std::size_t kMaxWindow = std::size_t(1) << 22;  // rounds reread their runs: grow fast
constexpr GameId kNoBound = std::numeric_limits<GameId>::max();
// Plies decoded first when only an opening position is to be confirmed.
constexpr std::uint32_t kOpeningPlies = 10;

// The men on a position's board.
int men(const PositionTarget& t) {
  int n = 0;
  for (const Piece& p : t.setup.board) n += !p.empty();
  return n;
}

// A position with at most half the start's men, where most games are
// already past it: worth a look at the men a game ends with.
bool endgame_like(const PositionTarget& t) { return men(t) <= 2 * t.setup.width(); }

// A position with all but a few of the start's men: where most searched
// positions are reached, in the first plies of a game.
bool opening_like(const PositionTarget& t) { return men(t) >= 4 * t.setup.width() - 4; }

// Every condition of a filter.
enum class Cond : std::uint8_t {
  Position,
  Promotion,
  White,
  Black,
  Player,
  Event,
  Site,
  Round,
  Result,
  Date,
  Eco,
  Variant,
  Material,
  Pattern,  // the material a pattern needs: candidates only, never proven
  Squares,  // the pattern from the square index: proven
};
constexpr int kCondCount = 15;
constexpr std::array<std::string_view, kCondCount> kCondNames = {
    "position", "promotion", "white",   "black",    "player",           "event", "site", "round", "result",
    "date",     "eco",       "variant", "material", "pattern material", "square"};
std::string_view name(Cond c) { return kCondNames[std::size_t(c)]; }

class CondSet {
 public:
  void add(Cond c) { bits_ |= 1u << unsigned(c); }
  bool has(Cond c) const { return bits_ >> unsigned(c) & 1; }
  bool empty() const { return bits_ == 0; }

 private:
  unsigned bits_ = 0;
};

// One index entry: a game, and for positions and promotions where.
struct Entry {
  GameId game = 0;
  std::uint32_t ply = 0;
  Color colour = Color::White;
  Variant variant = Variant::Standard;
  bool has_variant = false;
  std::uint64_t material = 0;  // material entries: the balance and its plies
  std::uint32_t plies = 0;
};

// A game that passed the index conditions so far.
struct Candidate {
  GameId id = 0;
  std::optional<Variant> variant = std::nullopt;
  std::optional<std::uint32_t> promotion_ply = std::nullopt;  // the promotion condition, proven here
  std::optional<std::uint32_t> material_ply = std::nullopt;   // the material condition, proven here
  std::optional<store::GameSummary> summary = std::nullopt;   // when already read
  std::optional<std::uint32_t> pattern_ply = std::nullopt;    // the pattern, proven by the square index
};

// The ply a candidate's proven conditions name: the pattern's first.
std::optional<std::uint32_t> proven_ply(const Candidate& c) {
  return c.pattern_ply ? c.pattern_ply : c.promotion_ply ? c.promotion_ply : c.material_ply;
}

// One range of one index, read by a callback: `sorted` runs give entries in
// game id order and may be stopped; other runs (prefix and range scans of
// tags) give them by value. A run may skip the games below the id it is
// given (a streaming round's first), or give them all.
using RunScan = std::function<Status(GameId from, const store::Visit<const Entry&>&)>;

struct Source {
  Cond cond;
  bool sorted = true;  // every run is in game id order
  std::vector<RunScan> runs = {};
};

// The days a Date may stand for, as yyyymmdd: "2020.05.??" is
// 20200501..20200531, "2020" and "2020.??.??" the whole year. Only a Date as
// PGN writes it ("yyyy", "yyyy.mm" or "yyyy.mm.dd", a month 01..12 or a day
// 01..31 "??" when unknown) stands for any day: "unknown", "2020-05-05" or
// "????" are in no date range.
std::optional<std::pair<int, int>> date_span(std::string_view d) {
  if (d.size() != 4 && d.size() != 7 && d.size() != 10) return std::nullopt;
  // A number of `n` digits at `from`, -1 when it is not one.
  auto number = [&](std::size_t from, std::size_t n) {
    int v = 0;
    for (std::size_t i = from; i < from + n; ++i) {
      if (d[i] < '0' || d[i] > '9') return -1;
      v = v * 10 + (d[i] - '0');
    }
    return v;
  };
  // A month or a day after its '.': 0 when "??", -1 when out of 1..most.
  auto part = [&](std::size_t from, int most) {
    if (d[from - 1] != '.') return -1;
    if (d.substr(from, 2) == "??") return 0;
    const int n = number(from, 2);
    return n >= 1 && n <= most ? n : -1;
  };
  const int year = number(0, 4);
  const int month = d.size() >= 7 ? part(5, 12) : 0;
  const int day = d.size() >= 10 ? part(8, 31) : 0;
  if (year < 0 || month < 0 || day < 0) return std::nullopt;
  const int known_day = month ? day : 0;
  // A month's unknown day is any of its days (30 in April, 28 or 29 in February).
  const int last_day = month ? int(game::days_in_month(std::uint32_t(year), std::uint32_t(month))) : 31;
  return std::pair{year * 10000 + (month ? month : 1) * 100 + (known_day ? known_day : 1),
                   year * 10000 + (month ? month : 12) * 100 + (known_day ? known_day : last_day)};
}

// The date rule of TagConditions: a game is in the range when every day its
// Date may stand for is (so "2020.??.??" is in 2020 and in --date-to 2020.12,
// not in --date-from 2020.06); bounds are whole years, months or days.
bool date_in_range(std::string_view d, std::string_view from, std::string_view to) {
  const auto span = date_span(d);
  if (!span) return false;
  if (!from.empty() && span->first < date_span(from).value_or(std::pair{0, 0}).first) return false;
  if (!to.empty() && span->second > date_span(to).value_or(std::pair{99999999, 99999999}).second)
    return false;
  return true;
}

// The pieces a pawn can become in a variant, with the files it can happen on.
std::vector<std::pair<PieceType, int>> promotion_combos(Variant v, const PromotionCondition& p) {
  std::vector<std::pair<PieceType, int>> out;
  const int width = info(v).width;
  auto add = [&](PieceType piece, int file) {
    if (p.piece && *p.piece != piece) return;
    if (p.file && *p.file != file) return;
    out.emplace_back(piece, file);
  };
  if (info(v).promotion_rule == PromotionRule::FixedByFile) {
    for (int f = 0; f < width; ++f) add(fixed_promotion_on_file(v, f), f);
    return out;
  }
  for (PieceType piece : promotion_choices(v))
    for (int f = 0; f < width; ++f) add(piece, f);
  return out;
}

// The promotion condition over the passing promotions of one game (sorted
// by ply): the ply where one side reaches min_count, if any.
std::optional<std::uint32_t> promotion_verdict(const PromotionCondition& p, std::vector<Entry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.ply < b.ply; });
  std::uint32_t count[2] = {0, 0};
  for (const Entry& e : entries) {
    if (p.by && *p.by != e.colour) continue;
    if (!p.plies.contains(e.ply)) continue;
    if (++count[index(e.colour)] >= std::max<std::uint32_t>(p.min_count, 1)) return e.ply;
  }
  return std::nullopt;
}

std::vector<Variant> variants_of(const GameFilter& f) {
  std::vector<Variant> out;
  for (const VariantInfo& vi : kVariants)
    if ((!f.tags.variant || *f.tags.variant == vi.variant)) out.push_back(vi.variant);
  return out;
}

// --- sources ------------------------------------------------------------------

RunScan tag_run(const Database& db, TagField field, std::string value, TagMatch match) {
  return [&db, field, value = std::move(value), match](GameId, const store::Visit<const Entry&>& visit) {
    return db.for_each_tag(field, value, match,
                           [&](GameId id, std::string_view) { return visit(Entry{id}); });
  };
}

// The material index: one run per balance the condition matches, from the
// exact balance, or one pass over the balances within the spec's box.
Source material_source(const Database& db, const GameFilter& f, const MaterialCondition& c, Cond cond) {
  Source s{cond};
  // An exact balance streams in id order (a page stops early); the many
  // balances of a range are read once each, whole, rather than round by round.
  s.sorted = c.spec.exact().has_value();
  for (Variant v : variants_of(f)) {
    if (auto exact = c.spec.exact()) {
      std::vector<std::uint64_t> balances{exact->key()};
      if (c.either_colour && exact->flipped() != *exact) balances.push_back(exact->flipped().key());
      std::sort(balances.begin(), balances.end());
      for (std::uint64_t key : balances)
        s.runs.push_back([&db, v, key](GameId, const store::Visit<const Entry&>& visit) {
          return db.for_each_material_game(v, key, [&](const store::MaterialHit& h) {
            return visit(Entry{h.game, h.first_ply, Color::White, v, true, key, h.plies});
          });
        });
      continue;
    }
    // The balances within the spec's box that the spec matches, then those
    // within its mirror (not met in the box) that match it mirrored.
    s.runs.push_back([&db, v, c](GameId, const store::Visit<const Entry&>& visit) {
      const MaterialBounds box = c.spec.bounds();
      auto entry = [&](std::uint64_t key, const store::MaterialHit& h) {
        return visit(Entry{h.game, h.first_ply, Color::White, v, true, key, h.plies});
      };
      bool stopped = false;
      Status st = db.for_each_material_games_within(
          v, box, [&](std::uint64_t key) { return material_matches(c, Material(key)); },
          [&](std::uint64_t key, const store::MaterialHit& h) { return !(stopped = !entry(key, h)); });
      if (!st || stopped || !c.either_colour) return st;
      return db.for_each_material_games_within(
          v, box.flipped(),
          [&](std::uint64_t key) {
            return !box.contains(Material(key)) && material_matches(c, Material(key));
          },
          entry);
    });
  }
  return s;
}

std::vector<Source> make_sources(const Database& db, const GameFilter& f, bool squares_usable) {
  std::vector<Source> out;
  if (!f.positions.empty()) {
    Source s{Cond::Position};
    for (const PositionTarget& t : f.positions) {
      if (f.tags.variant && *f.tags.variant != t.variant) continue;
      s.runs.push_back([&db, t](GameId, const store::Visit<const Entry&>& visit) {
        return db.for_each_position(t.variant, t.hash, [&](const store::PositionHit& h) {
          return visit(Entry{h.game, 0, Color::White, t.variant, true});
        });
      });
    }
    out.push_back(std::move(s));  // no run: no game can match
  }
  if (f.promotion) {
    const PromotionCondition& p = *f.promotion;
    Source s{Cond::Promotion};
    for (Variant v : variants_of(f))
      for (auto [piece, file] : promotion_combos(v, p))
        for (Color c : {Color::White, Color::Black}) {
          if (p.by && *p.by != c) continue;
          store::PromotionFilter pf{v, piece, c, file};
          s.runs.push_back([&db, pf](GameId, const store::Visit<const Entry&>& visit) {
            return db.for_each_promotion(pf, [&](const store::PromotionHit& h) {
              return visit(Entry{h.game, h.ply, h.colour, h.variant, true});
            });
          });
        }
    out.push_back(std::move(s));
  }
  if (f.material && db.has_material_index())
    out.push_back(material_source(db, f, *f.material, Cond::Material));
  if (f.pattern && db.has_material_index()) {
    // Only worth a read when the pattern needs some man beyond the kings.
    const MaterialCondition implied = f.pattern->implied_material();
    bool needs = false;
    for (Color side : {Color::White, Color::Black})
      for (int t = 1; t < kPieceTypeCount; ++t)
        needs |= PieceType(t) != PieceType::King && implied.spec.min_count(side, PieceType(t)) > 0;
    if (needs) out.push_back(material_source(db, f, implied, Cond::Pattern));
  }
  if (f.pattern && squares_usable) {
    // Exact: the first position that matches, per game, without a replay.
    Source s{Cond::Squares};
    for (Variant v : variants_of(f))
      s.runs.push_back([&db, v, &c = *f.pattern](GameId from, const store::Visit<const Entry&>& visit) {
        PatternSquares matcher(c, v);
        return store::for_each_square_game(
            db, v, matcher.squares(),
            [&](const store::SquareGame& g) {
              const auto ply = matcher.first_match(g);
              return !ply || visit(Entry{g.header.id, *ply, Color::White, v, true});
            },
            from);
      });
    out.push_back(std::move(s));
  }
  const TagConditions& t = f.tags;
  auto exact = [&](Cond c, TagField field, const std::optional<std::string>& value) {
    if (value) out.push_back(Source{c, true, {tag_run(db, field, *value, TagMatch::Exact)}});
  };
  exact(Cond::White, TagField::White, t.white);
  exact(Cond::Black, TagField::Black, t.black);
  exact(Cond::Event, TagField::Event, t.event);
  exact(Cond::Site, TagField::Site, t.site);
  exact(Cond::Round, TagField::Round, t.round);
  exact(Cond::Eco, TagField::Eco, t.eco);
  if (t.result) exact(Cond::Result, TagField::Result, std::string(result_text(*t.result)));
  // The position, promotion and material indexes are keyed by variant, and
  // their sources read only the filter's: beside one of them the variant's
  // tag index narrows nothing (every game of a large collection may be of
  // that variant) and would cost a read of its index blocks; the summary
  // check verifies the variant instead.
  const bool keyed_by_variant = std::any_of(out.begin(), out.end(), [](const Source& s) {
    return s.cond == Cond::Position || s.cond == Cond::Promotion || s.cond == Cond::Material;
  });
  if (t.variant && !keyed_by_variant)
    exact(Cond::Variant, TagField::Variant, std::string(info(*t.variant).cli_name));
  if (t.player)
    out.push_back(Source{Cond::Player,
                         false,
                         {tag_run(db, TagField::White, *t.player, TagMatch::Prefix),
                          tag_run(db, TagField::Black, *t.player, TagMatch::Prefix)}});
  if (t.date_from || t.date_to) {
    const std::string from = t.date_from.value_or(""), to = t.date_to.value_or("");
    out.push_back(
        Source{Cond::Date, false, {[&db, from, to](GameId, const store::Visit<const Entry&>& visit) {
                 // The index holds Dates as written: the scan takes the bounds'
                 // whole years (a "??" sorts after the digits), the rule the rest.
                 const std::string from_year = from.substr(0, 4), to_year = to.substr(0, 4);
                 return db.for_each_tag_range(TagField::Date, from_year, to_year,
                                              [&](GameId id, std::string_view date) {
                                                return !date_in_range(date, from, to) || visit(Entry{id});
                                              });
               }}});
  }
  return out;
}

// The material condition over the index entries of one game.
std::optional<std::uint32_t> material_entries_verdict(const MaterialCondition& c, const Entry* first,
                                                      const Entry* last) {
  std::vector<MaterialRun> runs;
  for (const Entry* e = first; e != last; ++e) runs.push_back({Material(e->material), e->ply, e->plies});
  return material_verdict(c, runs);
}

// Groups entries (sorted by game) into candidates of one source.
void to_candidates(const Source& s, const GameFilter& f, std::vector<Entry>& entries,
                   std::vector<Candidate>& out) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.game < b.game; });
  std::vector<Entry> group;
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i;
    while (j < entries.size() && entries[j].game == entries[i].game) ++j;
    Candidate c{entries[i].game};
    if (entries[i].has_variant) c.variant = entries[i].variant;
    bool keep = true;
    if (s.cond == Cond::Promotion) {
      group.assign(entries.begin() + std::ptrdiff_t(i), entries.begin() + std::ptrdiff_t(j));
      c.promotion_ply = promotion_verdict(*f.promotion, group);
      keep = c.promotion_ply.has_value();
    } else if (s.cond == Cond::Squares) {
      c.pattern_ply = entries[i].ply;
    } else if (s.cond == Cond::Material) {
      c.material_ply = material_entries_verdict(*f.material, entries.data() + i, entries.data() + j);
      keep = c.material_ply.has_value();
    }
    if (keep) out.push_back(c);
    i = j;
  }
}

// Reads a source whole if it has at most `cap` entries.
Result<std::optional<std::vector<Candidate>>> probe(const Source& s, const GameFilter& f, std::size_t cap) {
  std::vector<Entry> entries;
  bool complete = true;
  for (const RunScan& run : s.runs) {
    Status st = run(1, [&](const Entry& e) {
      if (entries.size() >= cap) {
        complete = false;
        return false;
      }
      entries.push_back(e);
      return true;
    });
    if (!st) return st.error();
    if (!complete) return std::optional<std::vector<Candidate>>{};
  }
  std::vector<Candidate> out;
  to_candidates(s, f, entries, out);
  return std::optional<std::vector<Candidate>>{std::move(out)};
}

std::vector<Candidate> intersect(const std::vector<Candidate>& a, const std::vector<Candidate>& b) {
  std::vector<Candidate> out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].id < b[j].id)
      ++i;
    else if (b[j].id < a[i].id)
      ++j;
    else {
      Candidate c = a[i];
      if (!c.variant) c.variant = b[j].variant;
      if (!c.promotion_ply) c.promotion_ply = b[j].promotion_ply;
      if (!c.material_ply) c.material_ply = b[j].material_ply;
      if (!c.pattern_ply) c.pattern_ply = b[j].pattern_ply;
      out.push_back(c);
      ++i, ++j;
    }
  }
  return out;
}

// --- verification ------------------------------------------------------------------

class Verifier {
 public:
  Verifier(const Database& db, const GameFilter& f, CondSet proven, MatchCounts* counts = nullptr)
      : db_(db), f_(f), proven_(proven), counts_(counts) {
    const TagConditions& t = f.tags;
    auto norm = [](const std::optional<std::string>& v) {
      return v ? std::optional<std::string>(store::normalize_tag_value(*v)) : std::nullopt;
    };
    white_ = norm(t.white), black_ = norm(t.black), player_ = norm(t.player);
    event_ = norm(t.event), site_ = norm(t.site), round_ = norm(t.round), eco_ = norm(t.eco);
    date_from_ = store::normalize_tag_value(t.date_from.value_or(""));
    date_to_ = store::normalize_tag_value(t.date_to.value_or(""));
    auto open = [&](Cond c, bool present) { return present && !proven.has(c); };
    check_tags_ = open(Cond::White, white_.has_value()) || open(Cond::Black, black_.has_value()) ||
                  open(Cond::Player, player_.has_value()) || open(Cond::Event, event_.has_value()) ||
                  open(Cond::Site, site_.has_value()) || open(Cond::Round, round_.has_value()) ||
                  open(Cond::Eco, eco_.has_value()) ||
                  open(Cond::Date, t.date_from.has_value() || t.date_to.has_value());
    check_promotion_ = open(Cond::Promotion, f.promotion.has_value());
    check_position_ = !f.positions.empty();  // always: the index keys are hashes
    opening_targets_ = check_position_ && std::all_of(f.positions.begin(), f.positions.end(), opening_like);
    for (const PositionTarget& t : f.positions) {
      targets_[std::size_t(t.variant)].push_back(&t);
      int& m = target_men_[std::size_t(t.variant)];
      m = std::max(m, men(t));
      fewest_target_men_ = fewest_target_men_ ? std::min(fewest_target_men_, men(t)) : men(t);
    }
    // No move adds a man. A game that ends with more men than a position has
    // never passed through it, and its summary says so without reading the
    // record: most games end with more men than an endgame position has (on
    // pgnmentor-players-01, three in four with more than ten), few with more
    // than a middlegame one has, so only endgame positions are worth the read.
    check_final_men_ = check_position_ && std::any_of(f.positions.begin(), f.positions.end(), endgame_like);
    check_material_ = open(Cond::Material, f.material.has_value());
    check_result_ = open(Cond::Result, t.result.has_value());
    check_variant_ = open(Cond::Variant, t.variant.has_value());
    check_features_ = !f.features.empty();
    check_opening_ = f.opening.has_value();
    check_pattern_ = open(Cond::Squares, f.pattern.has_value());
  }

  // What verification reads, for explain_plan.
  std::string describe() const {
    std::vector<std::string> parts;
    if (check_final_men_) parts.push_back("the men each game ends with, from its summary");
    if (check_features_) {
      const FeatureConditions& c = f_.features;
      parts.push_back("game features from the summary");
      if (c.termination || (c.time_control && !c.time_control->time_class))
        parts.push_back("Termination and TimeControl tags from the record");
    }
    if (check_opening_) parts.push_back("the stored opening (else the ECO and Opening tags)");
    if (check_tags_) parts.push_back("tags from the record");
    if (check_position_ || check_promotion_ || check_material_ || check_pattern_)
      parts.push_back("replay of the main line");
    if (!check_tags_ && !check_position_ && !check_promotion_ && !check_material_ && !check_pattern_ &&
        (check_result_ || check_variant_))
      parts.push_back("summary");
    if (parts.empty()) return "nothing";
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
  }

  Result<std::optional<GameMatch>> check(const Candidate& c) {
    std::optional<GameMatch> none;
    std::optional<store::GameSummary> summary = c.summary;
    auto read_summary = [&]() -> Status {
      if (summary) return {};
      auto s = db_.summary(c.id);
      if (!s) return s.error();
      summary = *s;
      return {};
    };
    // Game features: the summary first, the record for what it lacks.
    bool feature_tags = false, mate_replay = false;
    if (check_features_) {
      if (Status st = read_summary(); !st) return st.error();
      if (!summary_passes(f_.features, *summary)) {
        if (counts_) ++counts_->ruled_out;
        return none;
      }
      feature_tags = tags_needed(f_.features, *summary);
      mate_replay = replay_needed(f_.features, *summary);
    }
    // The opening: stored by `db classify`, else from the tags.
    opening_from_tags_ = false;
    if (check_opening_) {
      auto stored = db_.opening(c.id);
      if (!stored) return stored.error();
      if (*stored && !f_.opening->matches((*stored)->eco, (*stored)->name)) return none;
      opening_from_tags_ = !*stored;
    }
    const bool need_moves =
        check_position_ || check_promotion_ || check_material_ || check_pattern_ || mate_replay;
    const bool need_tags = check_tags_ || feature_tags || opening_from_tags_;
    if (!need_tags && !need_moves) {
      GameMatch m{c.id, proven_ply(c), c.variant.value_or(Variant::Standard)};
      if (!check_result_ && !check_variant_ && c.variant) return std::optional<GameMatch>{m};
      if (Status st = read_summary(); !st) return st.error();
      if (check_result_ && summary->result != *f_.tags.result) return none;
      if (check_variant_ && summary->variant != *f_.tags.variant) return none;
      m.variant = summary->variant;
      return std::optional<GameMatch>{m};
    }
    if (check_final_men_) {
      if (Status st = read_summary(); !st) return st.error();
      const int want = target_men_[std::size_t(summary->variant)];
      // (0 at the end: not recorded, as in older databases; never above want.)
      if (want == 0 || summary->final_men > want) {
        if (counts_) ++counts_->ruled_out;
        return none;
      }
    }
    // Variant, result and start FEN come with any parts.
    const unsigned parts = (need_tags ? store::kDecodeTags : 0u) | (need_moves ? store::kDecodeMainLine : 0u);
    // An opening position alone is looked for in the first plies, then, if
    // the game goes on, in the whole line.
    const bool whole = check_promotion_ || check_material_ || check_pattern_ || mate_replay;
    const std::uint32_t plies = opening_targets_ && !whole ? kOpeningPlies : store::kWholeMainLine;
    // Nor past the first position with fewer men than any position sought.
    const int min_men = whole ? 0 : fewest_target_men_;
    auto rec = db_.game(c.id, parts, plies, min_men);
    if (!rec) return rec.error();
    auto m = check_record(c, *rec, need_tags, feature_tags, mate_replay);
    if (!m || *m || plies == store::kWholeMainLine || rec->main_line.size() < plies) return m;
    rec = db_.game(c.id, parts, store::kWholeMainLine, min_men);
    if (!rec) return rec.error();
    return check_record(c, *rec, need_tags, feature_tags, mate_replay);
  }

  Result<std::optional<GameMatch>> check_record(const Candidate& c, const game::GameRecord& rec, bool tags,
                                                bool feature_tags, bool mate_replay) {
    std::optional<GameMatch> none;
    if (check_result_ && rec.result != *f_.tags.result) return none;
    if (check_variant_ && rec.variant != *f_.tags.variant) return none;
    if (tags && check_tags_ && !tags_match(rec)) return none;
    if (opening_from_tags_ && !f_.opening->matches(rec.tag("ECO"), tagged_opening_name(rec))) return none;
    if (feature_tags && !tags_pass(f_.features, rec)) return none;
    if (mate_replay) {
      // A summary written before the mate was recorded: replay to the end.
      game::MainLineTrace trace;
      if (Status st = store::trace_main_line(rec, trace, false); !st)
        return Error{ErrorKind::Corrupt, fmt::format("game {}: {}", c.id, st.error().message)};
      if (!(trace.mate_by & f_.features.mate_by)) return none;
    }
    GameMatch m{c.id, proven_ply(c), rec.variant};
    if (!check_position_ && !check_promotion_ && !check_material_ && !check_pattern_)
      return std::optional<GameMatch>{m};
    bool ok = false;
    Status st;
    with_geometry(rec.variant, [&](auto g) { st = replay<decltype(g)>(rec, m, ok, c.pattern_ply); });
    if (!st) return st.error();
    return ok ? std::optional<GameMatch>{m} : none;
  }

 private:
  bool tags_match(const game::GameRecord& rec) const {
    auto value = [&](TagField field) {
      std::string v = store::normalize_tag_value(rec.tag(store::tag_field_name(field)));
      if (store::is_placeholder_tag_value(field, v)) v.clear();
      return v;
    };
    auto exact = [&](Cond c, TagField field, const std::optional<std::string>& want) {
      if (!want || proven_.has(c)) return true;
      const std::string v = value(field);
      return !v.empty() && v == *want;
    };
    if (!exact(Cond::White, TagField::White, white_) || !exact(Cond::Black, TagField::Black, black_) ||
        !exact(Cond::Event, TagField::Event, event_) || !exact(Cond::Site, TagField::Site, site_) ||
        !exact(Cond::Round, TagField::Round, round_) || !exact(Cond::Eco, TagField::Eco, eco_))
      return false;
    if (player_ && !proven_.has(Cond::Player)) {
      const std::string w = value(TagField::White), b = value(TagField::Black);
      auto starts = [&](const std::string& v) {
        return !v.empty() && v.compare(0, player_->size(), *player_) == 0;
      };
      if (!starts(w) && !starts(b)) return false;
    }
    if ((f_.tags.date_from || f_.tags.date_to) && !proven_.has(Cond::Date)) {
      const std::string d = value(TagField::Date);
      if (d.empty() || !date_in_range(d, date_from_, date_to_)) return false;
    }
    return true;
  }

  // The start position of a record.
  template <class G>
  std::optional<Position<G>> start_of(const game::GameRecord& rec) {
    if (rec.start_fen.empty()) return variant_start<G>(rec.variant);
    FenProblems errors;
    return position_from_fen<G>(rec.start_fen, rec.variant, errors);
  }

  // Replays the main line: the first ply of the exact position, and the
  // promotions when the index did not prove them.
  template <class G>
  // `known_pattern_ply`: the pattern's, proven by the square index.
  Status replay(const game::GameRecord& rec, GameMatch& m, bool& ok,
                std::optional<std::uint32_t> known_pattern_ply) {
    ok = false;
    const std::optional<Position<G>> start = start_of<G>(rec);
    if (!start) return Error{ErrorKind::Corrupt, fmt::format("game {}: bad start FEN", m.id)};
    // The positions sought in this game's variant (two forms of one
    // position when an en-passant right is of no use: filter_parse.cpp).
    const std::vector<const PositionTarget*>& targets = targets_[std::size_t(rec.variant)];
    if (check_position_ && targets.empty()) return {};
    const bool target = check_position_;
    auto at_target = [&](const Position<G>& p) {
      for (const PositionTarget* t : targets)
        if (p.hash() == t->hash && same_position(p, *t)) return true;
      return false;
    };
    Position<G> pos = *start;
    std::optional<std::uint32_t> pos_ply;
    if (target && at_target(pos)) pos_ply = 0;
    std::uint32_t count[2] = {0, 0};
    std::optional<std::uint32_t> promo_ply;
    const std::uint32_t need = std::max<std::uint32_t>(f_.promotion ? f_.promotion->min_count : 1, 1);
    std::vector<MaterialRun> runs;
    if (check_material_) runs.push_back({material_of(pos), 0, 1});
    std::optional<std::uint32_t> pattern_ply = check_pattern_ ? std::nullopt : known_pattern_ply;
    const PatternCondition* pattern = check_pattern_ ? &*f_.pattern : nullptr;
    if (pattern) {
      board_text_of(pos, board_);
      if (pattern->plies.contains(0) && pattern->matches(board_)) pattern_ply = 0;
    }
    for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
      if ((!target || pos_ply) && (!check_promotion_ || promo_ply) && !check_material_ &&
          (!pattern || pattern_ply))
        break;
      const Move mv = rec.main_line[i];
      const auto ply = std::uint32_t(i + 1);
      if (check_promotion_ && !promo_ply && mv.kind() == MoveKind::Promotion) {
        const PromotionCondition& p = *f_.promotion;
        const Color us = pos.side_to_move();
        if ((!p.piece || *p.piece == mv.promotion()) && (!p.by || *p.by == us) &&
            (!p.file || *p.file == file_of<G>(mv.to())) && p.plies.contains(ply) &&
            ++count[index(us)] >= need)
          promo_ply = ply;
      }
      const bool changes =
          check_material_ && (mv.kind() == MoveKind::Promotion || mv.kind() == MoveKind::EnPassant ||
                              (mv.kind() == MoveKind::Normal && !pos.piece_on(mv.to()).empty()));
      pos.play(mv);
      if (target && !pos_ply && at_target(pos)) pos_ply = ply;
      if (pattern && !pattern_ply) {
        update_board_text(pos, mv, board_);
        if (pattern->plies.contains(ply) && pattern->matches(board_)) pattern_ply = ply;
      }
      if (changes)
        runs.push_back({material_of(pos), ply, 1});
      else if (check_material_)
        ++runs.back().plies;
    }
    if (target && !pos_ply) return {};
    if (check_promotion_ && !promo_ply) return {};
    if (pattern && !pattern_ply) return {};
    std::optional<std::uint32_t> material_ply;
    if (check_material_ && !(material_ply = material_verdict(*f_.material, runs))) return {};
    ok = true;
    m.ply = pos_ply        ? pos_ply
            : pattern_ply  ? pattern_ply
            : promo_ply    ? promo_ply
            : material_ply ? material_ply
                           : m.ply;
    return {};
  }

  const Database& db_;
  const GameFilter& f_;
  CondSet proven_;
  std::optional<std::string> white_, black_, player_, event_, site_, round_, eco_;
  std::string date_from_, date_to_;
  bool check_tags_ = false, check_promotion_ = false, check_position_ = false;
  bool opening_targets_ = false;  // every position sought has all but a few men
  bool check_final_men_ = false;
  bool check_material_ = false;                  // not proven by the material index
  std::array<std::vector<const PositionTarget*>, kVariantCount> targets_;  // into f_.positions
  std::array<int, kVariantCount> target_men_{};  // men of the positions sought per variant; 0: none
  int fewest_target_men_ = 0;                    // of every position sought; 0: none
  MatchCounts* counts_ = nullptr;
  bool check_result_ = false, check_variant_ = false;
  bool check_features_ = false;  // game features (summary, some tags)
  bool check_opening_ = false;
  bool opening_from_tags_ = false;  // the candidate being checked has no stored opening
  bool check_pattern_ = false;
  BoardText board_;  // the replayed position, as the pattern reads it
};

// --- the plan ---------------------------------------------------------------------

struct Plan {
  bool impossible = false;                           // a condition no game can meet
  std::optional<std::vector<Candidate>> candidates;  // intersected complete sources
  std::optional<std::size_t> driver;                 // else: this source streams, in id order
  std::vector<Source> sources;
  CondSet proven;  // conditions the index settles exactly
  std::string description;
};

Result<Plan> make_plan(const Database& db, const GameFilter& f, const PlanOptions& po) {
  Plan plan;
  // The square index answers a pattern exactly, when it covers every game.
  bool squares_usable = false;
  if (f.pattern) {
    auto complete = store::square_index_complete(db);
    if (!complete) return complete.error();
    squares_usable = *complete;
  }
  plan.sources = make_sources(db, f, squares_usable);
  std::vector<std::string> notes;
  for (const Source& s : plan.sources)
    if (s.runs.empty()) {
      plan.impossible = true;
      plan.description = fmt::format("no game can match: no {} index range fits the filter", name(s.cond));
      return plan;
    }
  if (f.tags.variant && variants_of(f).empty()) {
    plan.impossible = true;
    plan.description = "no game can match: the variant has no rules";
    return plan;
  }

  // Probe every source when there are several; a lone source drives (or is
  // read whole, if it cannot stream).
  // The material a pattern needs narrows the games only when few enough
  // have it; past half the collection's size every game is replayed instead.
  std::uint64_t games = 0;
  for (const store::VariantCounts& c : db.counts()) games += c.games;
  // With the square index, which reads a game in a thirtieth of a replay
  // (a hundredth when the pattern pins its squares down), a thirty-second of
  // the games.
  const std::size_t pattern_cap = po.pattern_cap ? po.pattern_cap
                                  : squares_usable
                                      ? std::max<std::size_t>(64, std::size_t(games / 32))
                                      : std::max<std::size_t>(po.probe_cap, std::size_t(games / 2));
  bool pattern_narrowed = false;  // the pattern's material leaves few games: replay them
  const bool several = plan.sources.size() > 1;
  std::vector<bool> dropped(plan.sources.size(), false);
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const Source& s = plan.sources[i];
    const bool pattern = s.cond == Cond::Pattern;
    if (s.cond == Cond::Squares && pattern_narrowed) {
      dropped[i] = true;
      continue;
    }
    if (!several && s.sorted && !pattern) break;
    const std::size_t cap = pattern   ? pattern_cap
                            : several ? po.probe_cap
                                      : std::numeric_limits<std::size_t>::max();
    auto set = probe(s, f, cap);
    if (!set) return set.error();
    if (!*set) {
      notes.push_back(fmt::format("{}: over {} entries", name(s.cond), cap));
      dropped[i] = pattern;
      continue;
    }
    pattern_narrowed |= pattern;
    notes.push_back(fmt::format("{}: {} games", name(s.cond), (*set)->size()));
    if (s.cond != Cond::Position && !pattern) plan.proven.add(s.cond);
    plan.candidates = plan.candidates ? intersect(*plan.candidates, **set) : std::move(**set);
  }
  for (std::size_t i = plan.sources.size(); i-- > 0;)
    if (dropped[i]) plan.sources.erase(plan.sources.begin() + std::ptrdiff_t(i));
  if (plan.candidates) {
    plan.description = fmt::format("intersect complete index sets ({} candidates)", plan.candidates->size());
  } else {
    // The most selective streaming source by kind; none: every game.
    for (Cond c : {Cond::Position, Cond::Promotion, Cond::Material, Cond::White, Cond::Black, Cond::Event,
                   Cond::Eco, Cond::Site, Cond::Round, Cond::Squares, Cond::Variant, Cond::Result})
      for (std::size_t i = 0; i < plan.sources.size() && !plan.driver; ++i)
        if (plan.sources[i].cond == c && plan.sources[i].sorted) plan.driver = i;
    if (plan.driver) {
      const Source& s = plan.sources[*plan.driver];
      if (s.cond != Cond::Position) plan.proven.add(s.cond);
      plan.description = fmt::format("stream the {} index in id order", name(s.cond));
    } else if (!plan.sources.empty()) {
      // Only prefix and range scans, all large: read the first one whole.
      const Source& s = plan.sources.front();
      auto set = probe(s, f, std::numeric_limits<std::size_t>::max());
      if (!set) return set.error();
      plan.proven.add(s.cond);
      plan.candidates = std::move(**set);
      plan.description =
          fmt::format("read the {} index whole ({} candidates)", name(s.cond), plan.candidates->size());
    } else {
      // The summary scan checks variant and result itself.
      plan.proven.add(Cond::Variant);
      plan.proven.add(Cond::Result);
      plan.description = "scan every game summary in id order";
    }
  }
  for (const auto& n : notes) plan.description += "; " + n;
  return plan;
}

// Streams a sorted source in windows of game ids: each round reads every run
// up to `window` entries past the last id done, then handles the games up to
// the smallest id a run stopped at (complete in every run).
Status stream(const Source& s, const GameFilter& f, std::size_t first_window,
              const std::function<bool(const Candidate&, Status&)>& handle) {
  GameId done = 0;
  std::size_t window = std::max<std::size_t>(first_window, 1);
  std::vector<Entry> entries;
  std::vector<Candidate> candidates;
  while (true) {
    entries.clear();
    GameId bound = kNoBound;
    for (const RunScan& run : s.runs) {
      std::size_t taken = 0;
      GameId last = 0;
      bool cut = false;
      Status st = run(done + 1, [&](const Entry& e) {
        if (e.game <= done) return true;
        if (e.game > bound) return false;  // another run already stopped below
        if (taken >= window && e.game != last) {
          cut = true;
          return false;
        }
        entries.push_back(e);
        ++taken;
        last = e.game;
        return true;
      });
      if (!st) return st;
      if (cut) bound = std::min(bound, last);
    }
    if (bound != kNoBound)
      entries.erase(
          std::remove_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.game > bound; }),
          entries.end());
    candidates.clear();
    to_candidates(s, f, entries, candidates);
    for (const Candidate& c : candidates) {
      Status st;
      if (!handle(c, st)) return st;
    }
    if (bound == kNoBound) return {};
    done = bound;
    window = std::min(window * 4, kMaxWindow);
  }
}

}  // namespace

bool TagConditions::empty() const {
  return !white && !black && !player && !event && !site && !round && !result && !date_from && !date_to &&
         !eco && !variant;
}

Status for_each_match(const Database& db, const GameFilter& f, const store::Visit<const GameMatch&>& visit,
                      const PlanOptions& po) {
  auto plan = make_plan(db, f, po);
  if (!plan) return plan.error();
  if (plan->impossible) return {};
  Verifier verifier(db, f, plan->proven, po.counts);

  // Checks one candidate; false stops (the visitor asked, or st failed).
  auto handle = [&](const Candidate& c, Status& st) {
    auto m = verifier.check(c);
    if (!m) {
      st = m.error();
      return false;
    }
    if (po.counts) {
      ++po.counts->checked;
      if (*m) ++po.counts->matched;
    }
    return !*m || visit(**m);
  };

  if (plan->candidates) {
    for (const Candidate& c : *plan->candidates) {
      Status st;
      if (!handle(c, st)) return st;
    }
    return {};
  }
  if (plan->driver) return stream(plan->sources[*plan->driver], f, po.first_window, handle);

  // Every game, from the summaries (the variant comes with them).
  Status result;
  Status st = db.for_each_summary([&](GameId id, const store::GameSummary& s) {
    if (f.tags.variant && s.variant != *f.tags.variant) return true;
    if (f.tags.result && s.result != *f.tags.result) return true;
    return handle(Candidate{id, s.variant, std::nullopt, std::nullopt, s}, result);
  });
  return st ? result : st;
}

Result<std::vector<GameMatch>> find_matches(const Database& db, const GameFilter& f, const PlanOptions& po) {
  std::vector<GameMatch> out;
  Status st = for_each_match(
      db, f,
      [&](const GameMatch& m) {
        out.push_back(m);
        return true;
      },
      po);
  if (!st) return st.error();
  return out;
}

Result<std::string> explain_plan(const Database& db, const GameFilter& f, const PlanOptions& po) {
  auto plan = make_plan(db, f, po);
  if (!plan) return plan.error();
  if (plan->impossible) return plan->description;
  Verifier verifier(db, f, plan->proven);
  return fmt::format("{}; verify: {}", plan->description, verifier.describe());
}

}  // namespace virrey::query
