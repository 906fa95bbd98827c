// The parts of the Paje importer on their own: the %EventDef header parser
// on a few header lines, and what the first pass gathers ahead (link ends,
// value kinds) and colours.
#include "interop/paje/paje_defs.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "interop/paje/paje_builder.h"

namespace plx::interop::paje {
namespace {

// Feeds `header` (lines without their '%') to `defs`, numbering the lines
// from 1; the first error, or OK.
Status ReadHeader(Definitions& defs, const std::vector<std::string>& header) {
  LineFields fields({.quotes = "\"'"});
  Where where{"t.paje", 0};
  for (const std::string& line : header) {
    ++where.line;
    EXPECT_EQ(fields.Split(line), LineFields::Result::kOk) << line;
    PLX_RETURN_IF_ERROR(defs.HeaderLine(fields, where));
  }
  return Status::Ok();
}

TEST(PajeDefsTest, ReadsADefinitionWithOldNamesAndExtraFields) {
  Definitions defs;
  ASSERT_TRUE(
      ReadHeader(defs, {"EventDef PajeSetState 7", "  Time date", "  EntityType string",
                        "  Container string", "  Comment string", "  Value string", "EndEventDef"})
          .ok());
  EXPECT_FALSE(defs.open());
  const EventDef* d = defs.Find("7");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->kind, Kind::kSetState);
  ASSERT_EQ(d->fields.size(), 5u);
  EXPECT_EQ(d->at[kTime], 0);
  EXPECT_EQ(d->at[kType], 1);  // EntityType is the old name of Type
  EXPECT_EQ(d->at[kContainer], 2);
  EXPECT_EQ(d->fields[3].role, kExtra);
  EXPECT_EQ(d->at[kValue], 4);
  EXPECT_EQ(d->at[kAlias], -1);
  EXPECT_EQ(d->NameOf(kType), "EntityType");
  EXPECT_EQ(d->fields[0].type, FieldType::kDate);

  // An event line's fields, after the id, by role.
  LineFields line({.quotes = "\"'"});
  ASSERT_EQ(line.Split("7 1.5 ST c1 \"a comment\" run"), LineFields::Result::kOk);
  line.DropFirst();
  EXPECT_EQ(d->Of(line, kContainer), "c1");
  EXPECT_EQ(d->Of(line, kValue), "run");
  EXPECT_EQ(d->Of(line, kAlias), "");

  EXPECT_EQ(defs.Find("8"), nullptr);
  EXPECT_EQ(defs.Find("x"), nullptr);
  EXPECT_EQ(defs.Find("+7"), d);  // ids are read as C's scanf reads them
}

TEST(PajeDefsTest, ADefinitionCountsOnlyOnceItIsClosed) {
  Definitions defs;
  ASSERT_TRUE(ReadHeader(defs, {"EventDef PajePopState 3", "Time date"}).ok());
  EXPECT_TRUE(defs.open());
  EXPECT_EQ(defs.Find("3"), nullptr);
}

// The message of the first error of `header`, "" when it reads.
std::string ErrorOf(const std::vector<std::string>& header) {
  Definitions defs;
  return ReadHeader(defs, header).message();
}

TEST(PajeDefsTest, NamesLineAndFieldOfEachError) {
  EXPECT_EQ(ErrorOf({"EventDef PajeSetState 1", "Time date", "Container string", "Type string",
                     "EndEventDef"}),
            "t.paje:5: Value: missing from the event definition");
  EXPECT_EQ(ErrorOf({"EventDef PajeFrobnicate 1"}),
            "t.paje:1: %EventDef: unknown event PajeFrobnicate");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState 65536"}), "t.paje:1: %EventDef: bad event id 65536");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState"}),
            "t.paje:1: %EventDef: needs an event name and an id");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState 1", "EventDef PajePopState 2"}),
            "t.paje:2: %EventDef: inside another %EventDef");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState 1", "Time date", "Time date"}),
            "t.paje:3: Time: defined twice");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState 1", "Time moment"}),
            "t.paje:2: Time: unknown field type moment");
  EXPECT_EQ(ErrorOf({"EventDef PajePopState 1", "Time"}),
            "t.paje:2: %field: needs a name and a type");
  EXPECT_EQ(ErrorOf({"EndEventDef"}), "t.paje:1: %EndEventDef: without %EventDef");
  const std::vector<std::string> pop = {"EventDef PajePopState 1", "Time date", "Container string",
                                        "Type string", "EndEventDef"};
  std::vector<std::string> twice = pop;
  twice.insert(twice.end(), pop.begin(), pop.end());
  EXPECT_EQ(ErrorOf(twice), "t.paje:6: %EventDef: event id 1 defined twice");
  // Lines outside a definition are comments.
  EXPECT_EQ(ErrorOf({"a comment with \"quotes\"", "Time date"}), "");
}

TEST(PajeLookaheadTest, NumbersLinksPerKeyInFileOrder) {
  Lookahead ahead;
  ahead.Link(true, "k1", "a");
  ahead.Link(false, "k1", "b");
  ahead.Link(true, "k2", "c");
  ahead.Link(true, "k1", "a");
  ahead.Link(false, "k2", "a");
  ahead.Finish();
  Lookahead::KeyLinks* k1 = ahead.LinksOf("k1");
  Lookahead::KeyLinks* k2 = ahead.LinksOf("k2");
  ASSERT_NE(k1, nullptr);
  ASSERT_NE(k2, nullptr);
  EXPECT_EQ(ahead.LinksOf("k3"), nullptr);
  ASSERT_EQ(k1->starts.size(), 2u);
  ASSERT_EQ(k1->ends.size(), 1u);
  EXPECT_EQ(ahead.Token(k1->starts[1]), "a");
  EXPECT_EQ(ahead.Token(k1->ends[0]), "b");
  EXPECT_EQ(k1->starts[0], k2->ends[0]);  // one token per container name
  EXPECT_EQ(k1->base, 0u);
  EXPECT_EQ(k2->base, 2u);  // after k1's two links
}

TEST(PajeLookaheadTest, ClassifiesTheValuesOfEachType) {
  Lookahead ahead;
  ahead.Value("ints", "1");
  ahead.Value("ints", "+2");
  ahead.Value("reals", "1");
  ahead.Value("reals", "2.5");
  ahead.Value("words", "3");
  ahead.Value("words", "three");
  EXPECT_EQ(ahead.ValueFlags("ints"), 0);
  EXPECT_EQ(ahead.ValueFlags("reals"), Lookahead::kNotInt);
  EXPECT_EQ(ahead.ValueFlags("words"), Lookahead::kNotInt | Lookahead::kNotNumber);
  EXPECT_EQ(ahead.ValueFlags("unseen"), 0);
}

TEST(PajeColorTest, ReadsThreeFractions) {
  EXPECT_EQ(ParseColor("1 0 0"), 0x1ff0000u);
  EXPECT_EQ(ParseColor(" 0.0\t0.5 1.0 "), 0x10080ffu);
  EXPECT_EQ(ParseColor("0 0 0"), 0x1000000u);  // black is a colour
  EXPECT_EQ(ParseColor("1 0"), 0u);
  EXPECT_EQ(ParseColor("1 0 2"), 0u);
  EXPECT_EQ(ParseColor("red"), 0u);
}

}  // namespace
}  // namespace plx::interop::paje
