#include "virrey/store/schema.hpp"

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

}  // namespace virrey::store
