#include "virrey/game/identity.hpp"

#include <array>

#include "virrey/base/utf8.hpp"
#include "virrey/game/roster.hpp"

namespace virrey::game {

namespace {

// The identity's bytes (frozen: their hash is stored in `identities`):
// numbers as 8 bytes little-endian, text as its length then its bytes.
class IdentityBytes {
 public:
  explicit IdentityBytes(std::string& out) : out_(out) {}
  void bytes(std::string_view s) { out_ += s; }
  void field(std::string_view s) {
    number(s.size());
    bytes(s);
  }
  void number(std::uint64_t v) {
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = char(v >> (8 * i) & 0xff);
    out_.append(b, 8);
  }

 private:
  std::string& out_;
};

std::string_view tag_value(const GameRecord& rec, const RosterTag& tag, IdentityRule rule) {
  return rule == IdentityRule::AsRead ? rec.tag(tag.name) : roster_value(rec, tag);
}

}  // namespace

std::string identity_bytes(const GameRecord& rec, IdentityRule rule) {
  std::array<std::string_view, kSevenTagRoster.size()> roster;
  std::array<std::string, kSevenTagRoster.size()> as_read;  // values stored as older versions read them
  std::size_t size = 3 * 8 + rec.start_fen.size() + 3 * rec.main_line.size();
  for (std::size_t i = 0; i < roster.size(); ++i) {
    roster[i] = tag_value(rec, kSevenTagRoster[i], rule);
    if (rule == IdentityRule::Roster && !is_text_as_read(roster[i]))
      roster[i] = as_read[i] = text_as_read(roster[i]);
    size += 8 + roster[i].size();
  }
  std::string out;
  out.reserve(size);
  IdentityBytes b(out);
  b.number(std::uint64_t(rec.variant));
  b.field(rec.start_fen);
  b.number(rec.main_line.size());
  // Each move as move_bytes writes it (in place: one append per move cost
  // more than the rest).
  const std::size_t moves_at = out.size();
  out.resize(moves_at + 3 * rec.main_line.size());
  char* k = out.data() + moves_at;
  for (Move m : rec.main_line) {
    const auto bytes = move_bytes(m);
    *k++ = bytes[0];
    *k++ = bytes[1];
    *k++ = bytes[2];
  }
  for (std::string_view value : roster) b.field(value);
  return out;
}

std::uint64_t identity_hash(std::string_view bytes) {
  // FNV-1a, then a final avalanche.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

std::uint64_t game_identity(const GameRecord& rec, IdentityRule rule) {
  return identity_hash(identity_bytes(rec, rule));
}

bool identity_rules_differ(const GameRecord& rec, IdentityRule before) {
  if (before == IdentityRule::Roster) return false;
  for (const RosterTag& tag : kSevenTagRoster) {
    const std::string_view value = roster_value(rec, tag);
    if (!is_text_as_read(value) || (before == IdentityRule::AsRead && value != rec.tag(tag.name)))
      return true;
  }
  return false;
}

bool same_game(const GameRecord& a, const GameRecord& b) { return identity_bytes(a) == identity_bytes(b); }

}  // namespace virrey::game
