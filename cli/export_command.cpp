#include "export_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "db_command.hpp"
#include "exit_codes.hpp"
#include "json_text.hpp"
#include "virrey/game/pgn_writer.hpp"

namespace virrey::cli {

namespace {

// One game as a JSON object: id, variant, tags, start FEN, result and the
// main line in SAN.
std::string json_game(store::GameId id, const game::GameRecord& rec) {
  std::string tags, moves;
  for (const auto& t : rec.tags)
    tags += fmt::format("{}{}:{}", tags.empty() ? "" : ",", json_string(t.name), json_string(t.value));
  int depth = 0;
  for (const auto& item : rec.movetext) {
    if (item.kind == game::ItemKind::BeginVariation) ++depth;
    else if (item.kind == game::ItemKind::EndVariation) --depth;
    else if (item.kind == game::ItemKind::Move && depth == 0)
      append_json_item(moves, json_string(item.text));
  }
  return fmt::format("{{\"id\":{},\"variant\":{},\"tags\":{{{}}},\"fen\":{},\"result\":{},\"moves\":[{}]}}\n",
                     id, json_string(info(rec.variant).cli_name), tags,
                     rec.start_fen.empty() ? "null" : json_string(rec.start_fen),
                     json_string(result_text(rec.result)), moves);
}

}  // namespace

int run_export(const ExportOptions& o) {
  std::optional<Variant> variant;
  if (!o.variant.empty()) {
    variant = resolve_variant(o.variant);
    if (!variant) {
      spdlog::error("unknown variant '{}' (standard, virrey or modern)", o.variant);
      return kExitUsage;
    }
  }
  auto db = open_database(o.db, store::OpenMode::Read);
  if (!db) return kExitIo;

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  std::FILE* out = stdout;
  if (!o.output.empty()) {
    file.reset(std::fopen(o.output.c_str(), "wb"));
    if (!file) {
      spdlog::error("cannot write {}: {}", o.output, std::strerror(errno));
      return kExitIo;
    }
    out = file.get();
  }

  std::uint64_t written = 0;
  Status s = db->for_each_game([&](store::GameId id, const game::GameRecord& rec) {
    if (variant && rec.variant != *variant) return true;
    const std::string text = o.format == "jsonl" ? json_game(id, rec) : game::write_pgn(rec);
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) return false;
    return o.limit == 0 || ++written < o.limit;
  });
  if (!s) {
    log_store_error(s.error());
    return kExitIo;
  }
  if (std::fflush(out) != 0 || std::ferror(out)) {
    spdlog::error("cannot write {}", o.output.empty() ? "standard output" : o.output);
    return kExitIo;
  }
  return kExitOk;
}

}  // namespace virrey::cli
