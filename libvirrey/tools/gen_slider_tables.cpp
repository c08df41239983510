// Writes the 8x8 slider attack tables as C++ constants (slider_tables.hpp):
//   gen_slider_tables OUTPUT.cpp
// Run by the build. Exits 1 if the file cannot be written.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "magics8.hpp"
#include "slider_magics.hpp"

namespace {

using namespace virrey::detail;

bool write_kind(std::FILE* out, const char* name, const int (*dirs)[2],
                const std::array<std::uint64_t, 64>& known) {
  std::vector<std::uint64_t> storage(slider::table_entries(dirs), 0);
  std::array<Magic, 64> magics{};
  slider::init_magics(magics, storage.data(), dirs, known);
  std::fprintf(out, "const SliderSquare k%sSquares[64] = {\n", name);
  for (const Magic& m : magics)
    std::fprintf(out, "    {0x%016" PRIx64 "ULL, 0x%016" PRIx64 "ULL, %zu, %u},\n", m.mask, m.magic,
                 std::size_t(m.table - storage.data()), m.shift);
  std::fprintf(out, "};\n\nconst std::uint64_t k%sAttacks[%zu] = {\n", name, storage.size());
  for (std::size_t i = 0; i < storage.size(); ++i)
    std::fprintf(out, "%s0x%" PRIx64 "ULL,%s", i % 6 == 0 ? "    " : " ", storage[i], i % 6 == 5 ? "\n" : "");
  std::fprintf(out, "\n};\n\n");
  return !std::ferror(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_slider_tables OUTPUT.cpp\n");
    return 2;
  }
  const std::string tmp = std::string(argv[1]) + ".tmp";
  std::FILE* out = std::fopen(tmp.c_str(), "w");
  if (!out) {
    std::perror(tmp.c_str());
    return 1;
  }
  std::fprintf(out,
               "// Made by libvirrey/tools/gen_slider_tables.cpp when virrey is built: do not edit.\n"
               "#include \"slider_tables.hpp\"\n\nnamespace virrey::detail {\n\n");
  bool ok = write_kind(out, "Bishop", slider::kBishopDirs, kBishopMagics) &&
            write_kind(out, "Rook", slider::kRookDirs, kRookMagics);
  std::fprintf(out, "}  // namespace virrey::detail\n");
  ok = std::fclose(out) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), argv[1]) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
