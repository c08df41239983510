// `virrey search`: finds games by position, promotion and tags.
#pragma once

#include <string>

#include "filter_options.hpp"

#include "output.hpp"

namespace virrey::cli {

struct SearchOptions {
  std::string db;  // empty: $VIRREY_DB, else ./virrey.db
  FilterOptions filter;
  // Paging and output.
  long limit = 50;  // 0: no limit
  long offset = 0;
  std::string sort = "id";  // id, date
  bool count = false;
  bool show = false;
  Format format = Format::Text;  // text, pgn, json, jsonl, csv
  bool fail_empty = false;
  bool explain = false;  // log the query plan on stderr
};

int run_search(const SearchOptions& options);

}  // namespace virrey::cli
