// Key layouts (golden), their order, and tag normalisation.
#include <gtest/gtest.h>

#include "store_test_util.hpp"
#include "virrey/rules/material.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {
namespace {

using test::hex;

TEST(Keys, GoldenLayouts) {
  EXPECT_EQ(hex(view(game_key(0x01020304))), "01020304");
  // The bucket is the hash's top 14 bits: 0x1122 >> 2.
  EXPECT_EQ(hex(view(position_key(Variant::Virrey, 0x1122334455667788ULL, 7))),
            "01"
            "0448"
            "00000007");
  EXPECT_EQ(hex(view(position_prefix(Variant::Virrey, 0x1122334455667788ULL))),
            "01"
            "0448");
  const Move e7e8v(52, 60, MoveKind::Promotion, PieceType::Viceroy);
  // The hash's top 7 bytes.
  EXPECT_EQ(hex(view(tree_key(Variant::Standard, 0x1122334455667788ULL, e7e8v))),
            "00"
            "11223344556677"
            "343c17");
  EXPECT_EQ(hex(view(tree_prefix(Variant::Virrey, 0xffULL))),
            "01"
            "00000000000000");
  EXPECT_EQ(hex(tag_key(TagField::White, "ana", 258)),
            "01"
            "616e61"
            "00"
            "00000102");
  EXPECT_EQ(hex(view(promotion_key(Variant::Virrey, PieceType::Viceroy, Color::Black, 4, 9, 301))),
            "01"
            "07"
            "01"
            "04"
            "00000009"
            "012d");
  EXPECT_EQ(hex(view(identity_key(Variant::Modern, 5, 6))),
            "02"
            "0000000000000005"
            "00000006");
  EXPECT_EQ(hex(view(meta_key(MetaKey::Games, Variant::Virrey))), "0501");
  // KVR-KR: White's counts in the low 32 bits, a nibble per type P N B R Q K V M
  // from the lowest; in search order, one nibble per count from the top:
  // V V M M Q Q R R B B N N P P K K, White's first.
  Material kvr_kr;
  for (PieceType t : {PieceType::King, PieceType::Viceroy, PieceType::Rook}) kvr_kr.set(Color::White, t, 1);
  for (PieceType t : {PieceType::King, PieceType::Rook}) kvr_kr.set(Color::Black, t, 1);
  EXPECT_EQ(hex(view(material_dictionary_key(Variant::Virrey, kvr_kr.key()))),
            "00"
            "01"
            "0010100001101000");
  EXPECT_EQ(hex(view(material_ordered_key(Variant::Virrey, kvr_kr.key()))),
            "03"
            "01"
            "1000001100000011");
  EXPECT_EQ(material_from_search_order(material_search_order(kvr_kr.key())), kvr_kr.key());
  auto parsed = parse_material_key(view(material_ordered_key(Variant::Virrey, kvr_kr.key())));
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->ordered);
  EXPECT_FALSE(parsed->postings);
  EXPECT_EQ(parsed->material, kvr_kr.key());
  // Postings: kind 5 in search order, kind 1 (before it) by balance; the first game last.
  EXPECT_EQ(hex(view(material_postings_key(Variant::Virrey, kvr_kr.key(), 0x010203))),
            "05"
            "01"
            "1000001100000011"
            "00010203");
  EXPECT_EQ(hex(view(material_old_postings_key(Variant::Virrey, kvr_kr.key(), 7))),
            "01"
            "01"
            "0010100001101000"
            "00000007");
  for (const auto& key : {material_postings_key(Variant::Virrey, kvr_kr.key(), 7),
                          material_old_postings_key(Variant::Virrey, kvr_kr.key(), 7)}) {
    auto postings = parse_material_key(view(key));
    ASSERT_TRUE(postings);
    EXPECT_TRUE(postings->postings);
    EXPECT_EQ(postings->ordered, key[0] == 5);
    EXPECT_EQ(postings->variant, Variant::Virrey);
    EXPECT_EQ(postings->material, kvr_kr.key());
    EXPECT_EQ(postings->first, 7u);
  }
}

TEST(Keys, RoundTrips) {
  const auto pk = parse_position_key(view(position_key(Variant::Virrey, ~0ULL, 99)));
  ASSERT_TRUE(pk);
  EXPECT_EQ(pk->variant, Variant::Virrey);
  EXPECT_EQ(pk->bucket, 0x3fffu);
  EXPECT_EQ(pk->first, 99u);
  const Move castle(4, 6, MoveKind::Castling);
  EXPECT_EQ(move_from_bytes(move_bytes(castle).data()), castle);
  const std::string tk = tag_key(TagField::Event, "world cup", 77);
  const auto t = parse_tag_key(tk);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->field, TagField::Event);
  EXPECT_EQ(t->value, "world cup");
  EXPECT_EQ(t->game, 77u);
  const auto pr =
      parse_promotion_key(view(promotion_key(Variant::Standard, PieceType::Knight, Color::White, 7, 3, 70)));
  ASSERT_TRUE(pr);
  EXPECT_EQ(pr->piece, PieceType::Knight);
  EXPECT_EQ(pr->file, 7);
  EXPECT_EQ(pr->ply, 70u);
}

TEST(Keys, ByteOrderIsNumericOrder) {
  EXPECT_LT(view(game_key(255)), view(game_key(256)));
  EXPECT_LT(view(position_key(Variant::Standard, 1ULL << 50, 0xffffffff)),
            view(position_key(Variant::Standard, 2ULL << 50, 0)));
  EXPECT_LT(view(position_key(Variant::Standard, 5, 255)), view(position_key(Variant::Standard, 5, 256)));
  // An exact tag prefix does not take longer values: "ana" | 0 sorts before "ana b".
  EXPECT_LT(tag_key(TagField::White, "ana", 0xffffffff), tag_key(TagField::White, "ana b", 0));
  EXPECT_NE(tag_key(TagField::White, "ana b", 1).rfind(tag_exact_prefix(TagField::White, "ana"), 0), 0u);
  EXPECT_EQ(tag_key(TagField::White, "ana b", 1).rfind(tag_value_prefix(TagField::White, "ana"), 0), 0u);
}

TEST(Keys, TagValuesAreNormalised) {
  EXPECT_EQ(normalize_tag_value("  Carlsen,   Magnus "), "carlsen, magnus");
  EXPECT_EQ(normalize_tag_value("PÉREZ\tÁlvaro"), "pérez álvaro");
  EXPECT_EQ(normalize_tag_value(std::string("a\0b", 3)), "ab");
  EXPECT_EQ(normalize_tag_value("ÄÖÜ×"), "äöü×");  // × (U+00D7) has no small form
  EXPECT_EQ(normalize_tag_value(""), "");
  EXPECT_EQ(normalize_tag_value(" \t\r\n "), "");
  EXPECT_EQ(normalize_tag_value("\tX  "), "x");
  EXPECT_EQ(normalize_tag_value("A\xc3"), "a\xc3");  // a lead byte cut off at the end stays
}

// Capitals and small letters as Unicode's charts pair them, written out here
// letter by letter (Polish, Czech, Croatian, Hungarian, Romanian, Turkish,
// Latvian, Vietnamese, Welsh, Greek, Russian, Ukrainian, Serbian, Armenian).
TEST(Keys, TagValuesAreLowerCasedBeyondLatin1) {
  EXPECT_EQ(normalize_tag_value("ŁÓDŹ ŻÓŁW ŚĆŃĘĄ"), "łódź żółw śćńęą");
  EXPECT_EQ(normalize_tag_value("ČEŠTINA ŘŮŽĎŤŇĚ"), "čeština řůžďťňě");
  EXPECT_EQ(normalize_tag_value("ĐURĐEVIĆ"), "đurđević");
  EXPECT_EQ(normalize_tag_value("ŐRSÉG ŰR"), "őrség űr");
  EXPECT_EQ(normalize_tag_value("ȘTEFAN ȚEPEȘ ŞT ŢE"), "ștefan țepeș şt ţe");
  EXPECT_EQ(normalize_tag_value("ĞÜŞ"), "ğüş");
  EXPECT_EQ(normalize_tag_value("ĶĒĻĀ ŅŖ"), "ķēļā ņŗ");
  EXPECT_EQ(normalize_tag_value("NGUYỄN ĐỨC HOÀ ƠƯ"), "nguyễn đức hoà ơư");
  EXPECT_EQ(normalize_tag_value("ŴŶ ẀẂẄ"), "ŵŷ ẁẃẅ");
  EXPECT_EQ(normalize_tag_value("ΆΈΉΊΌΎΏ ΑΒΓΔΩ ΪΫ"), "άέήίόύώ αβγδω ϊϋ");
  EXPECT_EQ(normalize_tag_value("ΟΔΥΣΣΕΥΣ Οδυσσεύς"), "οδυσσευσ οδυσσεύσ");  // final sigma as sigma
  EXPECT_EQ(normalize_tag_value("КАРПОВ, АНАТОЛИЙ ЁЖ"), "карпов, анатолий ёж");
  EXPECT_EQ(normalize_tag_value("ҐЄІЇ ЂЉЊЋЏЈЅ Ѣ ӁӐ"), "ґєії ђљњћџјѕ ѣ ӂӑ");
  EXPECT_EQ(normalize_tag_value("ԱՐՈՆՅԱՆ"), "արոնյան");
  EXPECT_EQ(normalize_tag_value("Ÿ"), "ÿ");
  EXPECT_EQ(normalize_tag_value("MƏMMƏDYAROV ǄURIĆ ǅ ǇǈǊǋǱǲ"),
            "məmmədyarov ǆurić ǆ ǉǉǌǌǳǳ");                           // Azerbaijani, digraphs
  EXPECT_EQ(normalize_tag_value("ἈΘΗΝᾶ Ἀθηνᾶ ᾼ"), "ἀθηνᾶ ἀθηνᾶ ᾳ");  // polytonic Greek
  EXPECT_EQ(normalize_tag_value("ƁƐƆȻ ⱭⱮ ＡＢ"), "ɓɛɔȼ ɑɱ ａｂ");
  EXPECT_EQ(normalize_tag_value("ᲐᲑ Ⴀ"), "აბ ⴀ");  // Georgian Mtavruli and Asomtavruli
  EXPECT_EQ(normalize_tag_value("ȺȾ"), "ȺȾ");            // their small forms are longer in UTF-8
  // Left as they are: the dotted capital I, the capital sharp s, the
  // dotless small i, letters without case, and text that is not UTF-8.
  EXPECT_EQ(normalize_tag_value("İSTANBUL ıi ẞ"), "İstanbul ıi ẞ");
  EXPECT_EQ(normalize_tag_value("中国 ١٢٣"), "中国 ١٢٣");
  EXPECT_EQ(normalize_tag_value("\xc5\x41\xd0"),
            "\xc5"
            "a\xd0");
}

TEST(Keys, TagKeyFormsAreTheCapitalsKeysWrittenBeforeMayHold) {
  EXPECT_EQ(tag_key_forms("carlsen, magnus").forms, (std::vector<std::string>{"carlsen, magnus"}));
  EXPECT_EQ(tag_key_forms("pérez").forms, (std::vector<std::string>{"pérez"}));  // Latin-1: folded before too
  EXPECT_EQ(tag_key_forms("łódź").forms, (std::vector<std::string>{"łódź", "łódŹ", "Łódź", "ŁódŹ"}));
  EXPECT_EQ(tag_key_forms("ÿσ").forms, (std::vector<std::string>{"ÿσ", "ÿΣ", "ÿς", "Ÿσ", "ŸΣ", "Ÿς"}));
  EXPECT_EQ(tag_key_forms("ǆ").forms, (std::vector<std::string>{"ǆ", "Ǆ", "ǅ"}));
  const TagKeyForms whole = tag_key_forms("иван");
  EXPECT_EQ(whole.forms.size(), 16u);
  EXPECT_FALSE(whole.cut);
  // Past kMaxTagKeyForms (ten letters of two forms each), the beginning.
  const TagKeyForms cut = tag_key_forms("абвгдежзий клм");
  EXPECT_EQ(cut.forms.size(), kMaxTagKeyForms);
  EXPECT_TRUE(cut.cut);
  for (const std::string& form : cut.forms) EXPECT_EQ(normalize_tag_value(form), "абвгдежзий") << form;
}

}  // namespace
}  // namespace virrey::store
