#include "match/field_value.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(FieldValueTest, TypesCapturedText) {
  struct Case {
    FieldType type;
    const char* text;
    double expected;
  } cases[] = {
      {FieldType::kInteger, "500", 500},
      {FieldType::kNumber, "0.75", 0.75},
      {FieldType::kPercent, "95%", 95},
      {FieldType::kPercent, "94.5", 94.5},
      {FieldType::kBytes, "17394683904/16.2gb", 17394683904.0},
      {FieldType::kBytes, "1kb", 1024},
      {FieldType::kBytes, "16.2gb", 17394617549.0},
      {FieldType::kBytes, "0b", 0},
      {FieldType::kBytes, "512", 512},
      {FieldType::kBytes, "15702M", 15702.0 * 1024 * 1024},  // the JVM GC log's units
      {FieldType::kBytes, "512K", 512 * 1024},
      {FieldType::kDuration, "3.2s", 3.2},
      {FieldType::kDuration, "650ms", 0.65},
      {FieldType::kDuration, "1.4m", 84},
  };
  for (const Case& c : cases) {
    auto value = ParseFieldValue(c.type, c.text);
    ASSERT_TRUE(value.has_value()) << c.text;
    EXPECT_DOUBLE_EQ(*value, c.expected) << c.text;
  }
}

TEST(FieldValueTest, RefusesTextOfAnotherType) {
  EXPECT_FALSE(ParseFieldValue(FieldType::kInteger, "5.5").has_value());
  EXPECT_FALSE(ParseFieldValue(FieldType::kInteger, "500 contexts").has_value());
  EXPECT_FALSE(ParseFieldValue(FieldType::kBytes, "16.2 furlongs").has_value());
  EXPECT_FALSE(ParseFieldValue(FieldType::kDuration, "3.2").has_value());
  EXPECT_FALSE(ParseFieldValue(FieldType::kString, "anything").has_value());
}

}  // namespace
}  // namespace foreshock
