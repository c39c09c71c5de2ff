#include "catalog/yaml_document.h"

#include <gtest/gtest.h>

#include <string>

namespace foreshock {
namespace {

YamlNode MustParse(const std::string& text) {
  YamlError error;
  std::optional<YamlNode> node = YamlNode::Parse(text, &error);
  EXPECT_TRUE(node.has_value()) << error.line << ":" << error.column << ": " << error.message;
  return node.value_or(YamlNode());
}

YamlError MustFail(const std::string& text) {
  YamlError error;
  EXPECT_FALSE(YamlNode::Parse(text, &error).has_value()) << text;
  EXPECT_FALSE(error.message.empty());
  return error;
}

TEST(YamlDocumentTest, ReadsMapsSequencesAndScalarsWithWhereEachStarts) {
  const YamlNode root = MustParse(
      "patterns:\n"
      "  - id: es.a\n"
      "    regex: 'x (y)'\n"
      "    runbook: |\n"
      "      line one\n"
      "      line two\n"
      "    versions: [\"7\", 8]\n");
  ASSERT_TRUE(root.IsMap());
  EXPECT_EQ(root.line(), 1);
  const YamlNode& patterns = root["patterns"];
  ASSERT_TRUE(patterns.IsSequence());
  ASSERT_EQ(patterns.size(), 1u);
  const YamlNode& pattern = patterns.items()[0];
  EXPECT_EQ(pattern.line(), 2);
  EXPECT_EQ(pattern.column(), 5);
  EXPECT_EQ(pattern["regex"].Scalar(), "x (y)");
  EXPECT_EQ(pattern["regex"].line(), 3);
  EXPECT_EQ(pattern["regex"].column(), 12);
  EXPECT_EQ(pattern["runbook"].Scalar(), "line one\nline two\n");
  ASSERT_EQ(pattern["versions"].size(), 2u);
  EXPECT_EQ(pattern["versions"].items()[1].Scalar(), "8");
  // Keys in file order, with their own positions.
  ASSERT_EQ(pattern.entries().size(), 4u);
  EXPECT_EQ(pattern.entries()[3].first.Scalar(), "versions");
  EXPECT_EQ(pattern.entries()[3].first.line(), 7);
  EXPECT_EQ(pattern.entries()[3].first.column(), 5);
}

TEST(YamlDocumentTest, AbsentKeysAreUndefinedAndPlainNullsAreNull) {
  const YamlNode root = MustParse("a:\nb: ~\nc: null\nd: 'null'\ne: \"\"\n");
  EXPECT_FALSE(root["missing"]);
  EXPECT_FALSE(root["a"]["deeper"]);  // not a map: nothing under it, no exception
  for (const char* key : {"a", "b", "c"}) {
    EXPECT_TRUE(root[key]) << key;
    EXPECT_TRUE(root[key].IsNull()) << key;
  }
  EXPECT_TRUE(root["d"].IsScalar());  // quoted: the text "null"
  EXPECT_EQ(root["d"].Scalar(), "null");
  EXPECT_TRUE(root["e"].IsScalar());
  EXPECT_EQ(root["e"].Scalar(), "");
  EXPECT_TRUE(MustParse("").IsNull());
  EXPECT_TRUE(MustParse("# only a comment\n").IsNull());
}

TEST(YamlDocumentTest, AnAliasIsItsAnchorsNodeAndAnUnknownOneIsAnError) {
  const YamlNode root = MustParse("base: &b {severity: warning}\ncopy: *b\n");
  EXPECT_EQ(root["copy"]["severity"].Scalar(), "warning");
  EXPECT_EQ(MustFail("a: *nowhere\n").line, 1);
}

TEST(YamlDocumentTest, AliasesThatWouldExpandPastTheBoundAreRefusedWhereTheyCrossIt) {
  // Aliases are shared, not copied, so parsing stays small; but whatever reads the tree
  // copies scalars out, so a nest of aliases ("billion laughs") is refused where it
  // crosses 16 MiB, while a modest one parses.
  std::string laughs = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 12; ++i) {
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, wrongly) about "l" + string.
    const std::string name = std::string("l").append(std::to_string(i));
    const std::string prev = std::string("*l").append(std::to_string(i - 1));
    laughs.append(name).append(": &").append(name).append(" [").append(prev);
    for (int j = 1; j < 10; ++j) laughs.append(", ").append(prev);
    laughs += "]\n";
  }
  const YamlError laughed = MustFail(laughs);
  EXPECT_EQ(laughed.line, 8) << "l7 stands for 100 MB of x: " << laughed.message;
  EXPECT_NE(laughed.message.find("with its aliases expanded, grows past 16 MiB"), std::string::npos);
  const std::string modest = laughs.substr(0, laughs.find("l6:"));
  EXPECT_EQ(MustParse(modest)["l5"].size(), 10u);

  // The probe's catalog: one 1 MB runbook, anchored once and aliased by 2,999 patterns.
  std::string runbooks = "patterns:\n  - id: p0\n    runbook: &book \"" + std::string(1 << 20, 'r') + "\"\n";
  for (int i = 1; i < 3000; ++i) runbooks += "  - id: p" + std::to_string(i) + "\n    runbook: *book\n";
  const YamlError amplified = MustFail(runbooks);
  EXPECT_EQ(amplified.line, 2 + 2 * 15) << "the pattern with the 15th alias crosses 16 MiB: " << amplified.message;
}

TEST(YamlDocumentTest, SyntaxErrorsAndDeepNestingAreErrorsWithAPosition) {
  const YamlError unclosed = MustFail("patterns:\n  - id: [unclosed\n");
  EXPECT_EQ(unclosed.line, 3);
  const YamlError tab = MustFail("a:\n\tb: 1\n");
  EXPECT_EQ(tab.line, 2);
  std::string deep(YamlNode::kMaxDepth, '[');
  deep += std::string(YamlNode::kMaxDepth, ']');
  EXPECT_TRUE(MustParse(deep).IsSequence());
  const YamlError too_deep = MustFail(std::string(100000, '['));
  EXPECT_NE(too_deep.message.find("nested deeper"), std::string::npos) << too_deep.message;
}

TEST(YamlDocumentTest, OnlyTheFirstDocumentIsRead) {
  const YamlNode root = MustParse("a: 1\n---\nb: 2\n");
  EXPECT_EQ(root["a"].Scalar(), "1");
  EXPECT_FALSE(root["b"]);
}

}  // namespace
}  // namespace foreshock
