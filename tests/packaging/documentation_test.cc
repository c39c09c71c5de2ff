// The README and docs/ as a new user reads them: every foreshock command in their shell
// blocks runs (its verb exists, its options exist and their values parse: the command with
// --print-config exits 0), the README stays a front door (under 12,000 characters) and
// every page it links to exists.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/command_words.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> DocumentationFiles() {
  const std::string root = testing::kSourceDir;
  std::vector<std::string> files = {root + "/README.md", root + "/patterns/README.md"};
  for (const auto& entry : fs::directory_iterator(root + "/docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path().string());
  }
  return files;
}

// "foreshock ..." segments of the lines of ```sh blocks (continuations joined, comments and
// what is piped into foreshock left out).
std::vector<std::string> ForeshockCommands(const std::string& markdown) {
  std::vector<std::string> commands;
  static const std::regex kBlock("```sh\n([\\s\\S]*?)```");
  for (auto it = std::sregex_iterator(markdown.begin(), markdown.end(), kBlock); it != std::sregex_iterator(); ++it) {
    const std::string block = std::regex_replace((*it)[1].str(), std::regex("\\\\\n"), " ");
    std::istringstream lines(block);
    for (std::string line; std::getline(lines, line);) {
      if (const size_t comment = line.find(" #"); comment != std::string::npos) line.erase(comment);
      std::istringstream segments(line);
      for (std::string segment; std::getline(segments, segment, '|');) {
        segment.erase(0, segment.find_first_not_of(' '));
        if (segment.starts_with("foreshock ") || segment.starts_with("./build/foreshock ")) commands.push_back(segment);
      }
    }
  }
  return commands;
}

TEST(DocumentationTest, EveryForeshockCommandInTheReadmeAndDocsRuns) {
  size_t checked = 0;
  for (const std::string& file : DocumentationFiles()) {
    for (const std::string& command : ForeshockCommands(testing::ReadFile(file))) {
      auto words = CommandWords(command);
      ASSERT_TRUE(words.ok()) << file << ": " << command << ": " << words.status().message();
      std::vector<std::string> args(words->begin() + 1, words->end());
      args.push_back("--print-config");
      const auto result = testing::RunForeshock(args);
      EXPECT_EQ(result.exit_code, 0) << file << ": `" << command << "`: " << result.err;
      ++checked;
    }
  }
  EXPECT_GE(checked, 25u) << "the documentation shows the commands people use";
}

TEST(DocumentationTest, TheReadmeIsAFrontDoorAndItsLinksLeadSomewhere) {
  const std::string readme = testing::ReadFile(std::string(testing::kSourceDir) + "/README.md");
  EXPECT_LT(readme.size(), 12000u);
  for (const char* heading : {"## Two commands", "## Three ways to use it", "## The alert, in short"}) {
    EXPECT_NE(readme.find(heading), std::string::npos) << heading;
  }
  static const std::regex kLink("\\]\\(([^)#]+\\.md)(#[a-z-]+)?\\)");
  size_t links = 0;
  for (const std::string& file : DocumentationFiles()) {
    const std::string text = testing::ReadFile(file);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kLink); it != std::sregex_iterator(); ++it) {
      const fs::path target = fs::path(file).parent_path() / (*it)[1].str();
      EXPECT_TRUE(fs::exists(target)) << file << " links to " << (*it)[1].str();
      if ((*it)[2].matched) {
        const std::string anchor = (*it)[2].str().substr(1);
        const std::string page = testing::ReadFile(target.string());
        std::string heading;
        bool found = false;
        std::istringstream lines(page);
        for (std::string line; std::getline(lines, line);) {
          if (!line.starts_with("#")) continue;
          std::string slug;
          for (char c : line.substr(line.find(' ') + 1)) {
            if (std::isalnum(static_cast<unsigned char>(c))) slug += static_cast<char>(std::tolower(c));
            if (c == ' ' || c == '-') slug += '-';
          }
          found = found || slug == anchor;
        }
        EXPECT_TRUE(found) << file << " links to " << (*it)[1].str() << "#" << anchor << ", a heading it lacks";
      }
      ++links;
    }
  }
  EXPECT_GE(links, 8u);
}

}  // namespace
}  // namespace foreshock
