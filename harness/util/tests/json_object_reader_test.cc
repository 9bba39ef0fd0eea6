// JsonObjectReader: typed access to one config object, with errors that name
// the full field path and what is allowed.
#include "harness/util/json_object_reader.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/tests/mentions.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench {
namespace {

using nlohmann::json;

// The ConfigError message of `read` on a reader of `document` at `path`.
std::string ErrorOf(const json& document, const std::string& path,
                    const std::function<void(JsonObjectReader&)>& read) {
  try {
    JsonObjectReader reader(document, path);
    read(reader);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(JsonObjectReader, UnsignedReadsPresentValuesAndKeepsFallbacks) {
  const json document = {{"n", 7}, {"low", 1}, {"high", 10}};
  JsonObjectReader reader(document, "t");
  EXPECT_EQ(reader.Unsigned("n", 3, 0, 100), 7u);
  EXPECT_EQ(reader.Unsigned("absent", 3, 0, 100), 3u);
  EXPECT_EQ(reader.Unsigned("low", 0, 1, 10), 1u);  // bounds are inclusive
  EXPECT_EQ(reader.Unsigned("high", 0, 1, 10), 10u);
  EXPECT_NO_THROW(reader.RejectUnknownKeys());
}

// JSON reads 1e9 and 4.0 as doubles; a whole one is the integer it names.
TEST(JsonObjectReader, UnsignedTakesAWholeNumberWrittenAsADouble) {
  const json document =
      json::parse(R"({"billion": 1e9, "four": 4.0, "exact": 9007199254740992.0})");
  JsonObjectReader reader(document, "t");
  EXPECT_EQ(reader.Unsigned("billion", 0, 1, uint64_t{1} << 40), 1'000'000'000u);
  EXPECT_EQ(reader.Unsigned("four", 0, 1, 10), 4u);
  EXPECT_EQ(reader.Unsigned("exact", 0, 0, UINT64_MAX), uint64_t{1} << 53);
  auto read = [](JsonObjectReader& r) { r.Unsigned("n", 0, 1, 10); };
  EXPECT_EQ(ErrorOf(json::parse(R"({"n": 1e3})"), "workload", read),
            "workload.n: must be an integer in [1, 10], got 1000.0");
  EXPECT_EQ(ErrorOf(json::parse(R"({"n": -0.0})"), "workload", read),
            "workload.n: must be an integer in [1, 10], got -0.0");
  // Past 2^53 a double may stand for an integer other than the one typed.
  auto any = [](JsonObjectReader& r) { r.Unsigned("n", 0, 0, UINT64_MAX); };
  EXPECT_EQ(ErrorOf(json::parse(R"({"n": 1e19})"), "workload", any),
            "workload.n: must be an integer in [0, 18446744073709551615], got 1e+19");
}

TEST(JsonObjectReader, UnsignedErrorsNameThePathAndTheRange) {
  auto read = [](JsonObjectReader& r) { r.Unsigned("n", 0, 1, 10); };
  EXPECT_EQ(ErrorOf({{"n", 11}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got 11");
  EXPECT_EQ(ErrorOf({{"n", 0}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got 0");
  EXPECT_EQ(ErrorOf({{"n", -3}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got -3");
  EXPECT_EQ(ErrorOf({{"n", 2.5}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got 2.5");
  EXPECT_EQ(ErrorOf({{"n", "5"}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got \"5\"");
  EXPECT_EQ(ErrorOf({{"n", true}}, "topology", read),
            "topology.n: must be an integer in [1, 10], got true");
  // Without a path the key stands alone.
  EXPECT_EQ(ErrorOf({{"n", 11}}, "", read), "n: must be an integer in [1, 10], got 11");
}

TEST(JsonObjectReader, NumberAcceptsIntegersAndFractions) {
  const json document = {{"whole", 3}, {"fraction", 0.25}, {"negative", -2.5}};
  JsonObjectReader reader(document, "p");
  EXPECT_EQ(reader.Number("whole", 0, 0, 10), 3.0);
  EXPECT_EQ(reader.Number("fraction", 0, 0, 1), 0.25);
  EXPECT_EQ(reader.Number("negative", 0, -5, 0), -2.5);
  EXPECT_EQ(reader.Number("absent", 1.5, 0, 10), 1.5);
}

TEST(JsonObjectReader, NumberErrorsNameThePathAndTheRange) {
  auto read = [](JsonObjectReader& r) { r.Number("x", 0, 0.5, 2); };
  EXPECT_EQ(ErrorOf({{"x", 3}}, "a.b", read), "a.b.x: must be a number in [0.5, 2], got 3");
  EXPECT_EQ(ErrorOf({{"x", 0.25}}, "a.b", read), "a.b.x: must be a number in [0.5, 2], got 0.25");
  EXPECT_EQ(ErrorOf({{"x", "1"}}, "a.b", read), "a.b.x: must be a number in [0.5, 2], got \"1\"");
  EXPECT_EQ(ErrorOf({{"x", nullptr}}, "a.b", read),
            "a.b.x: must be a number in [0.5, 2], got null");
}

TEST(JsonObjectReader, RequiredNumberNamesTheMissingFieldAndRange) {
  EXPECT_EQ(ErrorOf(json::object(), "p", [](JsonObjectReader& r) { r.RequiredNumber("v", 0, 1); }),
            "p.v: is required: a number in [0, 1]");
  const json document = {{"v", 0.5}};
  JsonObjectReader reader(document, "p");
  EXPECT_EQ(reader.RequiredNumber("v", 0, 1), 0.5);
}

TEST(JsonObjectReader, BoolReadsAndRejectsOtherTypes) {
  const json document = {{"on", true}, {"off", false}};
  JsonObjectReader reader(document, "t");
  EXPECT_TRUE(reader.Bool("on", false));
  EXPECT_FALSE(reader.Bool("off", true));
  EXPECT_TRUE(reader.Bool("absent", true));
  EXPECT_EQ(ErrorOf({{"on", 1}}, "t", [](JsonObjectReader& r) { r.Bool("on", false); }),
            "t.on: must be true or false, got 1");
  EXPECT_EQ(ErrorOf({{"on", "true"}}, "t", [](JsonObjectReader& r) { r.Bool("on", false); }),
            "t.on: must be true or false, got \"true\"");
}

TEST(JsonObjectReader, StringReadsAndRejectsEmptyOrOtherTypes) {
  const json document = {{"name", "cx5"}};
  JsonObjectReader reader(document, "");
  EXPECT_EQ(reader.String("name", "x"), "cx5");
  EXPECT_EQ(reader.String("absent", "fallback"), "fallback");
  EXPECT_EQ(reader.RequiredString("name"), "cx5");
  EXPECT_EQ(ErrorOf({{"name", ""}}, "nic", [](JsonObjectReader& r) { r.String("name", "x"); }),
            "nic.name: must be a non-empty string, got \"\"");
  EXPECT_EQ(ErrorOf({{"name", 5}}, "nic", [](JsonObjectReader& r) { r.RequiredString("name"); }),
            "nic.name: must be a non-empty string, got 5");
  EXPECT_EQ(ErrorOf(json::object(), "nic", [](JsonObjectReader& r) { r.RequiredString("name"); }),
            "nic.name: is required: a string");
}

TEST(JsonObjectReader, ChoiceAcceptsAllowedValuesAndTheFallback) {
  const json document = {{"order", "random"}};
  JsonObjectReader reader(document, "p");
  EXPECT_EQ(reader.Choice("order", "ascending", {"ascending", "random"}), "random");
  EXPECT_EQ(reader.Choice("absent", "ascending", {"ascending", "random"}), "ascending");
}

TEST(JsonObjectReader, ChoiceListsTheAllowedValues) {
  EXPECT_EQ(ErrorOf({{"order", "sideways"}}, "p.dma",
                    [](JsonObjectReader& r) {
                      r.Choice("order", "a", {"a", "b", "c"});
                    }),
            "p.dma.order: must be one of {a, b, c}, got \"sideways\"");
}

// The contract is that errors say what is allowed; for a choice that is the
// list of values, whatever the wrong value's type.
TEST(JsonObjectReader, ChoiceOfTheWrongTypeListsTheAllowedValues) {
  auto read = [](JsonObjectReader& r) { r.Choice("order", "a", {"a", "b", "c"}); };
  EXPECT_TRUE(Mentions(ErrorOf({{"order", 3}}, "p", read), "{a, b, c}"));
  EXPECT_TRUE(Mentions(ErrorOf({{"order", ""}}, "p", read), "{a, b, c}"));
}

TEST(JsonObjectReader, ObjectNestsThePath) {
  const json document = {{"outer", {{"inner", {{"x", 99}}}}}};
  JsonObjectReader reader(document, "config");
  JsonObjectReader outer = reader.Object("outer");
  JsonObjectReader inner = outer.Object("inner");
  EXPECT_EQ(inner.FieldPath("x"), "config.outer.inner.x");
  EXPECT_EQ(ErrorOf(document, "config",
                    [](JsonObjectReader& r) {
                      JsonObjectReader o = r.Object("outer");
                      JsonObjectReader i = o.Object("inner");
                      i.Unsigned("x", 0, 0, 10);
                    }),
            "config.outer.inner.x: must be an integer in [0, 10], got 99");
}

TEST(JsonObjectReader, ObjectMustBePresentAndAnObject) {
  EXPECT_EQ(ErrorOf(json::object(), "cfg", [](JsonObjectReader& r) { r.Object("sub"); }),
            "cfg.sub: is required: an object");
  EXPECT_EQ(ErrorOf({{"sub", 5}}, "cfg", [](JsonObjectReader& r) { r.Object("sub"); }),
            "cfg.sub: must be a JSON object, got 5");
  EXPECT_EQ(ErrorOf(json::array({1}), "", [](JsonObjectReader&) {}),
            "the document: must be a JSON object, got [1]");
}

TEST(JsonObjectReader, LongValuesAreAbbreviatedInErrors) {
  const std::string long_text(100, 'z');
  const std::string error =
      ErrorOf({{"n", long_text}}, "t", [](JsonObjectReader& r) { r.Unsigned("n", 0, 0, 1); });
  EXPECT_TRUE(Mentions(error, "got \"" + std::string(56, 'z') + "..."));
  EXPECT_FALSE(Mentions(error, std::string(60, 'z')));
}

TEST(JsonObjectReader, RejectUnknownKeysNamesTheKeyAndListsTheAllowedOnes) {
  const json document = {{"alpha", 1}, {"beta", true}, {"gamma", 2}};
  const std::string error = ErrorOf(document, "section", [](JsonObjectReader& r) {
    r.Unsigned("alpha", 0, 0, 10);
    r.Bool("beta", false);
    r.String("delta", "absent keys that were asked for are allowed too");
    r.RejectUnknownKeys();
  });
  EXPECT_EQ(error, "unknown key section.gamma (allowed here: alpha, beta, delta)");
}

TEST(JsonObjectReader, RejectUnknownKeysAcceptsKeysReadAsObjects) {
  const json document = {{"sub", {{"x", 1}}}};
  JsonObjectReader reader(document, "");
  JsonObjectReader sub = reader.Object("sub");
  sub.Unsigned("x", 0, 0, 1);
  EXPECT_NO_THROW(sub.RejectUnknownKeys());
  EXPECT_NO_THROW(reader.RejectUnknownKeys());
  EXPECT_TRUE(reader.Has("sub"));
  EXPECT_FALSE(reader.Has("x"));
}

TEST(ReadJsonFile, ParsesAndIgnoresComments) {
  const std::string path = WriteScratchFile("ok.json", "// a comment\n{\"a\": 1 /* inline */}\n");
  EXPECT_EQ(ReadJsonFile(path), (json{{"a", 1}}));
}

TEST(ReadJsonFile, MissingFileIsNamed) {
  const std::string path = ScratchPath("absent.json");
  try {
    ReadJsonFile(path);
    FAIL() << "read a missing file";
  } catch (const ConfigError& error) {
    EXPECT_EQ(std::string(error.what()), "cannot open " + path);
  }
}

TEST(ReadJsonFile, InvalidJsonNamesTheFileAndTheParseError) {
  const std::string path = WriteScratchFile("bad.json", "{\"a\": 1,}");
  try {
    ReadJsonFile(path);
    FAIL() << "parsed invalid JSON";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), path + ": not valid JSON: "));
    EXPECT_TRUE(Mentions(error.what(), "parse error"));
  }
}

// Found by `dmbench fuzz`: the library's internal prefix and a "last read"
// of a whole line leaked into the message.
TEST(ReadJsonFile, ParseErrorsAreShortAndFreeOfLibraryInternals) {
  const std::string path =
      WriteScratchFile("last-read.json", "{\"a\": \"" + std::string(100000, 'x') + "\\u00zz\"}");
  try {
    ReadJsonFile(path);
    FAIL() << "parsed invalid JSON";
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    EXPECT_TRUE(Mentions(message, path + ": not valid JSON: parse error at line 1, column "));
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
    EXPECT_LT(message.size(), 500u) << message;
  }
}

// Found by `dmbench fuzz`: nesting deep enough to overflow the stack when
// the document is copied or printed is refused while parsing.
TEST(ReadJsonFile, NestingDeeperThanAnyInputIsRefused) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_THROW(ParseJson(deep, "deep"), ConfigError);
  try {
    ParseJson(deep, "deep.json");
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "deep.json: JSON nested deeper than 256 levels"));
  }
  const std::string fine = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(ParseJson(fine, "fine"));
}

// Found by `dmbench fuzz`: a number beyond a double escaped as the
// library's out_of_range.
TEST(ReadJsonFile, NumberTooLargeIsAParseError) {
  try {
    ParseJson("{\"a\": 1e999}", "big.json");
    FAIL() << "parsed 1e999";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "big.json: not valid JSON: number overflow"));
  }
}

TEST(ReadJsonFile, DirectoryIsNamed) {
  EXPECT_THROW(ReadJsonFile(::testing::TempDir()), ConfigError);
}

// Found by `dmbench fuzz`: a key of 100 KB and bytes that are not UTF-8
// were quoted whole into the message.
TEST(JsonObjectReader, UnknownKeysAreQuotedShortAndPrintable) {
  const std::string key = std::string(100000, 'k') + "\xff";
  const std::string message = ErrorOf({{"known", 1}, {"x\x01", 2}}, "t", [](JsonObjectReader& r) {
    r.Unsigned("known", 0, 0, 9);
    r.RejectUnknownKeys();
  });
  EXPECT_TRUE(Mentions(message, "unknown key t.x\\x01 (allowed here: known)"));
  const std::string long_message =
      ErrorOf({{key, 1}}, "t", [](JsonObjectReader& r) { r.RejectUnknownKeys(); });
  EXPECT_LT(long_message.size(), 300u);
  EXPECT_EQ(Printable("a\nb\xff"), "a\\x0ab\\xff");
  EXPECT_EQ(Printable(std::string(100, 'a'), 10), std::string(10, 'a') + "...");
}

}  // namespace
}  // namespace dmbench
