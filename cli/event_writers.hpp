// The writers of `virrey event`: a tournament's standings and crosstable as
// aligned text, JSON (a stable interface, README "virrey event"), CSV
// standings, and one self-contained HTML page.
#pragma once

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

std::string event_text(const std::vector<EventReport>& reports);
std::string event_json(const std::vector<EventReport>& reports);
std::string event_csv(const std::vector<EventReport>& reports);
std::string event_html(const std::vector<EventReport>& reports);

}  // namespace virrey::cli
