// --material, --material-plies and --either-colour as a query::MaterialCondition.
#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "filter_options.hpp"

namespace virrey::cli {

Result<std::optional<query::MaterialCondition>> material_condition(const MaterialOptions& o) {
  using Out = std::optional<query::MaterialCondition>;
  if (o.spec.empty()) {
    if (o.plies) return Error{ErrorKind::InvalidArgument, "--material-plies needs --material"};
    return Out{};
  }
  auto spec = query::parse_material_spec(o.spec);
  if (!spec)
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("--material '{}': {}", o.spec, spec.error().message)};
  const long plies = o.plies.value_or(1);
  if (plies < 1 || plies > 100000)
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("--material-plies {} is out of range (1 to 100000)", plies)};
  query::MaterialCondition c{*spec, o.either_colour, std::uint32_t(plies)};
  return Out{std::move(c)};
}

void note_material_replay(const store::Database& db) {
  if (!db.has_material_index())
    log::warn("{} has no material index (`virrey db upgrade` builds it): replaying every game", db.path());
}

void note_material_scan(const query::GameFilter& filter, const store::Database& db) {
  if (filter.material) note_material_replay(db);
}

}  // namespace virrey::cli
