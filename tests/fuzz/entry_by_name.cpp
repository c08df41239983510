// The fuzz entries by name, for drivers that pick one at run time.
#include "fuzz_entries.hpp"

namespace virrey::fuzz {

Entry entry_by_name(std::string_view name) {
  if (name == "pgn_reader") return &pgn_reader;
  if (name == "fen") return &fen;
  if (name == "san") return &san;
  if (name == "import") return &import;
  if (name == "trf") return &trf;
  if (name == "event_checks") return &event_checks;
  if (name == "material_spec") return &material_spec;
  if (name == "board_pattern") return &board_pattern;
  if (name == "stats_partial") return &stats_partial;
  if (name == "engine_lines") return &engine_lines;
  if (name == "square_index") return &square_index;
  if (name == "tag_value") return &tag_value;
  return nullptr;
}

}  // namespace virrey::fuzz
