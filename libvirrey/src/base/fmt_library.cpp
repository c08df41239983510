// fmt's out-of-line part, compiled once here rather than in every file that
// formats (fmt header-only costs each such file seconds of compile time, most
// of a sanitizer build). Debian ships fmt only as a shared library; the
// virrey binary is linked statically, so the definitions live in virrey_base.
#include <fmt/format-inl.h>

#include <locale>

FMT_BEGIN_NAMESPACE
namespace detail {

// The templates fmt's headers declare and define only in format-inl.h.
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
