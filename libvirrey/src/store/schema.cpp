#include "virrey/store/schema.hpp"

#include <cctype>

namespace virrey::store {

std::string_view tag_field_name(TagField f) {
  switch (f) {
    case TagField::White: return "White";
    case TagField::Black: return "Black";
    case TagField::Event: return "Event";
    case TagField::Site: return "Site";
    case TagField::Round: return "Round";
    case TagField::Date: return "Date";
    case TagField::Result: return "Result";
    case TagField::Eco: return "ECO";
    case TagField::Variant: return "Variant";
  }
  return "";
}

std::optional<TagField> tag_field_from_name(std::string_view name) {
  for (TagField f : kTagFields) {
    const std::string_view n = tag_field_name(f);
    if (n.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < n.size() && same; ++i)
      same =
          std::tolower(static_cast<unsigned char>(n[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    if (same) return f;
  }
  return std::nullopt;
}

}  // namespace virrey::store
