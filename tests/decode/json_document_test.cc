#include "decode/json_document.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "base/json_path.h"

namespace foreshock {
namespace {

using Type = JsonDocument::Value::Type;

TEST(JsonDocumentTest, FindsDottedKeysFlatFirstThenNested) {
  JsonDocument document;
  ASSERT_TRUE(document.Parse(R"({"log.level":"WARN","log":{"level":"INFO","logger":"x"},"n":3,"a":[1]})"));
  EXPECT_EQ(document.Find("log.level").string, "WARN");   // the flat key wins
  EXPECT_EQ(document.Find("log.logger").string, "x");     // only nested
  EXPECT_EQ(document.Find("n").type, Type::kOther);
  EXPECT_EQ(document.Find("a").type, Type::kArray);
  EXPECT_FALSE(document.Find("log.level.deeper").present());
  EXPECT_FALSE(document.Find("missing").present());
}

TEST(JsonDocumentTest, ReadsWhatNlohmannJsonReads) {
  JsonDocument document;
  // The last of duplicate keys wins.
  ASSERT_TRUE(document.Parse(R"({"message":"first","message":"last"})"));
  EXPECT_EQ(document.Find("message").string, "last");
  // simdjson alone refuses these two; nlohmann::json reads them.
  ASSERT_TRUE(document.Parse(R"({"bytes":123456789012345678901234567890,"message":"big"})"));
  EXPECT_EQ(document.Find("message").string, "big");
  ASSERT_TRUE(document.Parse("\xEF\xBB\xBF{\"message\":\"after a byte-order mark\"}"));
  EXPECT_EQ(document.Find("message").string, "after a byte-order mark");
  // Escapes are decoded.
  ASSERT_TRUE(document.Parse(R"({"message":"line\nnext \"q\" \u00e9"})"));
  EXPECT_EQ(document.Find("message").string, "line\nnext \"q\" \xC3\xA9");
  // Neither reads these.
  for (const char* broken : {"", "{", R"({"message":"cut)", "[1,2]", R"({"m":"\ud800"})", R"({"m":1e400})",
                             "{\"m\":\"\xFF\"}", R"({"a":1} {"b":2})"}) {
    EXPECT_FALSE(document.Parse(broken)) << broken;
    EXPECT_TRUE(nlohmann::json::parse(broken, nullptr, false).is_discarded() ||
                !nlohmann::json::parse(broken, nullptr, false).is_object())
        << broken;
  }
}

// After a record far larger than most, the parser lets its buffers go before the next
// small one (watch runs for months): every record still reads right.
TEST(JsonDocumentTest, ReadsSmallRecordsAfterAHugeOne) {
  JsonDocument document;
  const std::string huge = R"({"message":")" + std::string(300000, 'x') + R"(","n":1})";
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(document.Parse(huge));
    EXPECT_EQ(document.Find("message").string.size(), 300000u);
    ASSERT_TRUE(document.Parse(R"({"message":"small","log":{"level":"WARN"}})"));
    EXPECT_EQ(document.Find("message").string, "small");
    EXPECT_EQ(document.Find("log.level").string, "WARN");
  }
}

TEST(JsonDocumentTest, VisitsTheStringsOfAnArray) {
  JsonDocument document;
  ASSERT_TRUE(document.Parse(R"({"stacktrace":["at a",7,"at b"],"s":"x"})"));
  std::vector<std::string> frames;
  document.ForEachStringIn("stacktrace", [&](std::string_view frame) { frames.emplace_back(frame); });
  EXPECT_EQ(frames, (std::vector<std::string>{"at a", "at b"}));
  frames.clear();
  document.ForEachStringIn("s", [&](std::string_view frame) { frames.emplace_back(frame); });
  EXPECT_TRUE(frames.empty());
}

// The same answers as nlohmann::json with FindDotted on random records made of the keys,
// nesting and value types log shippers write.
TEST(JsonDocumentTest, AgreesWithNlohmannJsonOnRandomRecords) {
  std::mt19937 random(20261201);
  const std::vector<std::string> keys = {"message", "log.level", "log", "level", "error.type", "a.b"};
  const auto value = [&](int depth, auto& self) -> nlohmann::json {
    switch (random() % (depth > 2 ? 4 : 6)) {
      case 0: {
        std::string text = "s";  // built up, not by operator+ (GCC 12's -Wrestrict misfires on that at -O3)
        text += std::to_string(random() % 100);
        return text;
      }
      case 1: return static_cast<int64_t>(random() % 1000) - 500;
      case 2: return nullptr;
      case 3: return random() % 2 == 0;
      case 4: {
        nlohmann::json array = nlohmann::json::array();
        for (unsigned i = random() % 3; i > 0; --i) array.push_back(self(depth + 1, self));
        return array;
      }
      default: {
        nlohmann::json object = nlohmann::json::object();
        for (unsigned i = random() % 4; i > 0; --i) object[keys[random() % keys.size()]] = self(depth + 1, self);
        return object;
      }
    }
  };
  JsonDocument document;
  for (int round = 0; round < 500; ++round) {
    nlohmann::json record = nlohmann::json::object();
    for (unsigned i = random() % 6; i > 0; --i) record[keys[random() % keys.size()]] = value(0, value);
    std::string text = record.dump();
    if (round % 3 == 0) {  // a key again at the end: the last one wins, as in nlohmann::json
      text.pop_back();
      text += std::string(record.empty() ? "" : ",") + "\"" + keys[random() % keys.size()] + "\":\"again\"}";
      record = nlohmann::json::parse(text);
    }
    ASSERT_TRUE(document.Parse(text)) << text;
    for (const char* key : {"message", "log.level", "log", "error.type", "a.b", "a.b.message", "none"}) {
      const nlohmann::json* expected = FindDotted(record, key);
      const JsonDocument::Value found = document.Find(key);
      ASSERT_EQ(found.present(), expected != nullptr) << text << " " << key;
      if (expected == nullptr) continue;
      EXPECT_EQ(found.is_string(), expected->is_string()) << text << " " << key;
      EXPECT_EQ(found.type == Type::kArray, expected->is_array()) << text << " " << key;
      if (expected->is_string()) {
        EXPECT_EQ(found.string, expected->get<std::string>()) << text << " " << key;
      }
    }
  }
}

}  // namespace
}  // namespace foreshock
