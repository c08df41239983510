// --ending, --mate-by, --plies, --elo, --elo-of, --time-control and
// --termination as query::FeatureConditions.
#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "filter_options.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::cli {

namespace {

// The parsed value, or an error naming the option and the value.
template <class T>
Result<T> option(std::string_view name, const std::string& text, Result<T> parsed) {
  if (parsed) return parsed;
  return Error{ErrorKind::InvalidArgument, fmt::format("{} '{}': {}", name, text, parsed.error().message)};
}

}  // namespace

Result<query::FeatureConditions> feature_conditions(const FeatureOptions& o) {
  query::FeatureConditions c;
  if (!o.ending.empty()) {
    auto e = option("--ending", o.ending, query::parse_ending(o.ending));
    if (!e) return e.error();
    c.ending = *e;
  }
  if (!o.mate_by.empty()) {
    auto m = option("--mate-by", o.mate_by, query::parse_mate_by(o.mate_by));
    if (!m) return m.error();
    if (c.ending && *c.ending != store::Ending::Checkmate)
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("--mate-by needs --ending checkmate (or none), not "
                               "'{}'",
                               o.ending)};
    c.mate_by = *m;
  }
  if (!o.plies.empty()) {
    auto r = option("--plies", o.plies, query::parse_range(o.plies, "ply"));
    if (!r) return r.error();
    c.plies = *r;
  }
  if (!o.elo.empty()) {
    auto r = option("--elo", o.elo, query::parse_range(o.elo, "rating"));
    if (!r) return r.error();
    query::EloCondition e{*r, query::EloOf::Both};
    if (!o.elo_of.empty()) {
      auto of = option("--elo-of", o.elo_of, query::parse_elo_of(o.elo_of));
      if (!of) return of.error();
      e.of = *of;
    }
    c.elo = e;
  } else if (!o.elo_of.empty()) {
    return Error{ErrorKind::InvalidArgument, "--elo-of needs --elo"};
  }
  if (!o.time_control.empty()) {
    auto t = option("--time-control", o.time_control, query::parse_time_control(o.time_control));
    if (!t) return t.error();
    c.time_control = std::move(*t);
  }
  if (!o.termination.empty()) {
    c.termination = store::normalize_tag_value(o.termination);
    if (c.termination->empty()) return Error{ErrorKind::InvalidArgument, "--termination: the text is empty"};
  }
  return c;
}

void note_feature_scan(const query::GameFilter& filter, const store::Database& db) {
  const query::FeatureConditions& c = filter.features;
  if ((c.mate_by != 0 || (c.time_control && c.time_control->time_class)) && !db.has_summary_features())
    log::warn(
        "{} has game summaries without mates and time controls (`virrey db upgrade` rewrites them): reading "
        "those games' records",
        db.path());
}

}  // namespace virrey::cli
