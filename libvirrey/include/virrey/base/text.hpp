// Small text helpers every layer may use.
#pragma once

#include <cctype>
#include <string_view>

namespace virrey {

// Without the white space (isspace: blanks and line breaks) at its ends.
inline std::string_view trim_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace virrey
