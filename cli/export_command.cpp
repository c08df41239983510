#include "export_command.hpp"

#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "common_options.hpp"
#include "db_command.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "virrey/game/pgn_writer.hpp"

namespace virrey::cli {

namespace {

// One game as a JSON object: id, variant, the tags the PGN export writes,
// start FEN, result, the main line in SAN and the whole movetext.
std::string json_game(store::GameId id, const game::GameRecord& rec) {
  Members tags;
  for (const game::ExportTag& t : game::export_tags(rec))
    tags.push_back({std::string(t.name), Value::string(t.value)});
  std::vector<Value> moves;
  int depth = 0;
  for (const auto& item : rec.movetext) {
    if (item.kind == game::ItemKind::BeginVariation)
      ++depth;
    else if (item.kind == game::ItemKind::EndVariation)
      --depth;
    else if (item.kind == game::ItemKind::Move && depth == 0)
      moves.push_back(Value::string(item.text));
  }
  const Members game = {{"id", Value::integer(id)},
                        {"variant", Value::string(info(rec.variant).cli_name)},
                        {"tags", Value::object(std::move(tags))},
                        {"fen", Value::string_or_null(rec.start_fen)},
                        {"result", Value::string(result_text(rec.result))},
                        {"moves", Value::list(std::move(moves))},
                        {"movetext", Value::string(game::write_movetext(rec))}};
  return json(game) + '\n';
}

}  // namespace

int run_export(const ExportOptions& o) {
  std::optional<Variant> variant;
  if (!set_variant_option(o.variant, variant)) return kExitUsage;
  auto db = open_database(o.db, store::OpenMode::Read);
  if (!db) return kExitIo;

  // --output is written beside its place and put there at the end: an
  // export that fails leaves the file before as it was.
  StagedFile file;
  std::FILE* out = stdout;
  if (!o.output.empty()) {
    if (!output_allowed("--output", o.output, {})) return kExitUsage;
    if (is_in_database(o.output, db->path())) {
      log::error("--output {} is inside the database {}", o.output, db->path());
      return kExitUsage;
    }
    if (!file.open(o.output)) return kExitIo;
    out = file.get();
  }

  std::uint64_t written = 0;
  int write_errno = 0;  // as the failed write left it
  Status s = db->for_each_game([&](store::GameId id, const game::GameRecord& rec) {
    if (variant && rec.variant != *variant) return true;
    const std::string text = o.format == Format::Jsonl ? json_game(id, rec) : game::write_pgn(rec);
    if (!write_text(out, text, write_errno)) return false;
    return o.limit == 0 || ++written < o.limit;
  });
  if (!s) {
    log_store_error(s.error());
    return kExitIo;
  }
  if (const auto why = flush_failure(out, write_errno)) {
    log::error("cannot write {}{}", o.output.empty() ? "standard output" : o.output, *why);
    return kExitIo;
  }
  if (!o.output.empty() && !file.commit(true)) return kExitIo;
  return kExitOk;
}

}  // namespace virrey::cli
