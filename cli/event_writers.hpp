// The writers of `virrey event`: a tournament's standings and crosstable as
// aligned text, JSON (a stable interface, README "virrey event"), CSV
// standings, and one self-contained HTML page.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "virrey/tournament/event.hpp"

namespace virrey::cli {

// A tournament with its standings and the tie-breaks they were ranked by.
struct EventReport {
  const tournament::Tournament* tournament = nullptr;
  std::string label;  // its Event, told from others of the name (split_label_suffixes)
  std::vector<tournament::TieBreak> order;
  std::vector<tournament::Standing> standings;
  std::vector<tournament::GameSummary> const* summaries = nullptr;
};

// Each writes the reports to `out` as it makes them (a tournament of many
// players and rounds is never held whole in memory); false when some of it
// could not be written.
bool write_event_text(const std::vector<EventReport>& reports, std::FILE* out);
bool write_event_json(const std::vector<EventReport>& reports, std::FILE* out);
bool write_event_csv(const std::vector<EventReport>& reports, std::FILE* out);
bool write_event_html(const std::vector<EventReport>& reports, std::FILE* out);

}  // namespace virrey::cli
