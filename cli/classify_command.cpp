#include "classify_command.hpp"

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "db_command.hpp"
#include "exit_codes.hpp"
#include "progress.hpp"
#include "text_table.hpp"
#include "virrey/query/classify.hpp"

namespace virrey::cli {

std::optional<query::OpeningBook> read_opening_book(const std::string& path, int& exit_code) {
  auto book = query::load_opening_book(path);
  if (!book) {
    log::error("{}", book.error().message);
    exit_code = book.error().kind == ErrorKind::InvalidArgument ? kExitUsage : kExitIo;
    return std::nullopt;
  }
  log::debug("{}: {} positions named", book->source, book->positions.size());
  return std::move(*book);
}

int classify_and_report(store::Database& db, const query::OpeningBook& book, store::GameId first,
                        Format format, bool quiet) {
  Progress progress;
  auto totals =
      query::classify_games(db, book, first, [&](std::uint64_t games) { progress.update(games, 0); });
  progress.finish();
  if (!totals) {
    log_store_error(totals.error());
    return kExitIo;
  }
  if (quiet) {
    log::info("openings: {} of {} games named from {}", totals->classified, totals->games, book.source);
  } else if (format == Format::Json) {
    fmt::print("{}\n", json(Members{{"path", Value::string(db.path())},
                                    {"openings", Value::string(book.source)},
                                    {"games", Value::integer(totals->games)},
                                    {"classified", Value::integer(totals->classified)}}));
  } else {
    fmt::print("{}: {} games, {} openings named from {}, {} games without a named position\n",
               terminal_text(db.path()), totals->games, totals->classified, terminal_text(book.source),
               totals->games - totals->classified);
  }
  return kExitOk;
}

}  // namespace virrey::cli
