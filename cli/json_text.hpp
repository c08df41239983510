// Minimal JSON text helpers for the output writers.
#pragma once

#include <string>
#include <string_view>

namespace virrey::cli {

// The string as a quoted JSON string. Bytes that are not valid UTF-8 (Latin-1
// tag values) are written as the code point of the byte.
inline std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (c < 0x80) {
      out += char(c);
    } else {
      // Copy a well-formed UTF-8 sequence; otherwise treat the byte as Latin-1.
      int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      bool ok = len > 0 && i + len <= s.size();
      for (int k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok) {
        out.append(s.substr(i, len));
        i += len - 1;
      } else {
        out += char(0xc0 | (c >> 6));
        out += char(0x80 | (c & 0x3f));
      }
    }
  }
  out += '"';
  return out;
}

}  // namespace virrey::cli
