#include "identities.hpp"

#include <fmt/format.h>
#include <rocksdb/write_batch.h>

#include "virrey/base/log.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

Result<std::uint64_t> update_identities(Database::Impl& d) {
  if (d.identity_format >= kIdentityFormat) return 0;
  const game::IdentityRule before_rule = identity_rule_of_format(d.identity_format);
  std::uint64_t rewritten = 0;
  rocksdb::WriteBatch batch;
  Status failure;
  Status s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
    const GameId id = game_key_id(key);
    auto tags = decode_game(value, kDecodeTags);
    if (tags && !game::identity_rules_differ(*tags, before_rule)) return true;
    auto rec = tags ? decode_game(value, kDecodeTags | kDecodeMainLine) : tags;
    if (!rec) {
      // Left as it is: `db check` names the record; the rest is brought up to date.
      log::warn("{}: game {} does not read ({}): its duplicate detection is left as it was", d.path, id,
                rec.error().message);
      return true;
    }
    const auto after = identity_key(rec->variant, game::game_identity(*rec), id);
    // The keys of both older rules go: a merge copies shards of either
    // into a destination it then marks as the older of them.
    for (const game::IdentityRule older : {game::IdentityRule::AsRead, game::IdentityRule::RosterAsBytes}) {
      const auto before = identity_key(rec->variant, game::game_identity(*rec, older), id);
      if (before != after) batch.Delete(d.cf(Family::Identities), view(before)).PermitUncheckedError();
    }
    batch.Put(d.cf(Family::Identities), view(after), {}).PermitUncheckedError();
    if (++rewritten % 65536 == 0) {
      if (failure = d.write(batch); !failure) return false;
      batch.Clear();
    }
    return true;
  });
  if (!s) return s.error();
  if (!failure) return failure.error();
  d.put_meta_u32(batch, MetaKey::IdentityFormat, kIdentityFormat);
  if (Status w = d.write(batch); !w) return w.error();
  d.identity_format = kIdentityFormat;
  if (rewritten > 0)
    log::info(
        "{}: duplicate detection of {} game{} without the whole Seven Tag Roster or with tags not in UTF-8 "
        "brought up to date",
        d.path, rewritten, rewritten == 1 ? "" : "s");
  return rewritten;
}

}  // namespace virrey::store
