// Fuzz entry: a tag value as search and the tag index lower-case it. The
// normalised value is never longer, normalises to itself, has no NUL, no
// blank at either end and no two blanks in a row; every form keys written
// before may hold it in normalises back to it (or, when the forms are cut,
// to its beginning), and the forms are distinct and few.
#include <set>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::fuzz {

void tag_value(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string n = store::normalize_tag_value(text);
  VIRREY_FUZZ_CHECK(n.size() <= text.size(), "the normalised value is longer");
  VIRREY_FUZZ_CHECK(store::normalize_tag_value(n) == n, "normalising twice changes the value: " + n);
  VIRREY_FUZZ_CHECK(n.find('\0') == std::string::npos, "a NUL byte kept");
  VIRREY_FUZZ_CHECK(n.empty() || (n.front() != ' ' && n.back() != ' '), "a blank at an end");
  VIRREY_FUZZ_CHECK(n.find("  ") == std::string::npos, "two blanks in a row");
  const store::TagKeyForms forms = store::tag_key_forms(n);
  VIRREY_FUZZ_CHECK(!forms.forms.empty() && forms.forms.size() <= store::kMaxTagKeyForms,
                    "no form, or too many");
  const std::set<std::string> distinct(forms.forms.begin(), forms.forms.end());
  VIRREY_FUZZ_CHECK(distinct.size() == forms.forms.size(), "a form twice");
  for (const std::string& form : forms.forms) {
    const std::string back = store::normalize_tag_value(form);
    if (forms.cut)
      VIRREY_FUZZ_CHECK(back.size() < n.size() && n.compare(0, back.size(), back) == 0,
                        "a cut form that is not the value's beginning: " + form);
    else
      VIRREY_FUZZ_CHECK(back == n, "a form that does not normalise back: " + form);
  }
}

}  // namespace virrey::fuzz
