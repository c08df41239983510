// Small text helpers of the tournament layer.
#pragma once

#include <algorithm>
#include <cctype>
#include <string_view>

namespace virrey::tournament {

// Without leading and trailing blanks (spaces, tabs, a CR).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Whether `text` holds `word` (lower case), ignoring ASCII case.
inline bool holds_ignoring_case(std::string_view text, std::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char t, char w) {
           return std::tolower(static_cast<unsigned char>(t)) == w;
         }) != text.end();
}

// Equal ignoring ASCII case.
inline bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace virrey::tournament
