// FeatureConditions against a game summary and a record's tags.
#include "virrey/query/game_features.hpp"

#include "virrey/store/keys.hpp"

namespace virrey::query {

namespace {

bool elo_passes(const EloCondition& c, const store::GameSummary& s) {
  auto in = [&](std::uint16_t elo) { return elo != 0 && c.range.contains(elo); };
  switch (c.of) {
    case EloOf::Both: return in(s.white_elo) && in(s.black_elo);
    case EloOf::Either: return in(s.white_elo) || in(s.black_elo);
    case EloOf::Average: {
      const auto avg = average_elo(s);
      return avg && c.range.contains(*avg);
    }
  }
  return false;
}

}  // namespace

std::optional<std::uint32_t> average_elo(const store::GameSummary& s) {
  if (s.white_elo == 0 || s.black_elo == 0) return std::nullopt;
  return (std::uint32_t(s.white_elo) + s.black_elo) / 2;
}

bool summary_passes(const FeatureConditions& c, const store::GameSummary& s) {
  if (c.ending && s.ending != *c.ending) return false;
  if (c.mate_by != 0) {
    if (s.ending != store::Ending::Checkmate) return false;
    if (s.features && !(s.mate_by & c.mate_by)) return false;
  }
  if (!c.plies.contains(s.plies)) return false;
  if (c.elo && !elo_passes(*c.elo, s)) return false;
  if (c.time_control && c.time_control->time_class && s.features &&
      s.time_class != *c.time_control->time_class)
    return false;
  return true;
}

bool tags_needed(const FeatureConditions& c, const store::GameSummary& s) {
  return c.termination || (c.time_control && (!c.time_control->time_class || !s.features));
}

bool replay_needed(const FeatureConditions& c, const store::GameSummary& s) {
  return c.mate_by != 0 && !s.features && s.ending == store::Ending::Checkmate;
}

bool tags_pass(const FeatureConditions& c, const game::GameRecord& rec) {
  if (c.termination) {
    const std::string v = store::normalize_tag_value(rec.tag("Termination"));
    if (v.empty() || v == "?" || v == "-" || v != *c.termination) return false;  // unknown: no value
  }
  if (c.time_control) {
    const std::string_view tag = rec.tag("TimeControl");
    if (c.time_control->time_class) return game::time_class(tag) == *c.time_control->time_class;
    const std::string v = store::normalize_tag_value(tag);
    if (v.empty() || v == "?" || v != c.time_control->value) return false;
  }
  return true;
}

}  // namespace virrey::query
