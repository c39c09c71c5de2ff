// The files in packaging/ that the build does not otherwise exercise: the Dockerfile (a lint,
// since images cannot be built here), the Kubernetes sidecar manifest, and the default config
// with the systemd unit that reads it. Every command line they hold is run through the built
// binary's --print-config, so an option renamed in the code cannot leave them stale.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "catalog/yaml_document.h"
#include "testing/subprocess.h"
#include "testing/temp_dir.h"
#include "testing/test_paths.h"

namespace foreshock {
namespace {

namespace fs = std::filesystem;

std::string PackagingFile(const std::string& name) {
  return testing::ReadFile(std::string(testing::kSourceDir) + "/packaging/" + name);
}

// Runs the built binary with `args` plus --print-config; returns the settings it printed.
std::string EffectiveSettings(std::vector<std::string> args) {
  args.push_back("--print-config");
  const auto result = testing::RunForeshock(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.out;
}

struct Instruction {
  std::string keyword;  // upper case
  std::string arguments;
};

// The Dockerfile's instructions, with comments dropped and continuation lines joined.
std::vector<Instruction> ParseDockerfile(const std::string& text) {
  std::vector<Instruction> instructions;
  std::istringstream in(text);
  std::string logical;
  for (std::string line; std::getline(in, line);) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    const bool continued = line.back() == '\\';
    logical += continued ? line.substr(0, line.size() - 1) : line;
    if (continued) continue;
    std::istringstream words(logical);
    Instruction instruction;
    words >> instruction.keyword;
    std::getline(words >> std::ws, instruction.arguments);
    instructions.push_back(instruction);
    logical.clear();
  }
  return instructions;
}

// The metrics port the README promises is the one the shipped config and manifest use.
TEST(PackagingTest, TheMetricsPortIsTheReadmesEverywhere) {
  const std::string readme = testing::ReadFile(std::string(testing::kSourceDir) + "/README.md");
  const std::string promise = "--metrics-listen 127.0.0.1:";
  const size_t at = readme.find(promise);
  ASSERT_NE(at, std::string::npos);
  const std::string port = readme.substr(at + promise.size(), readme.find_first_not_of("0123456789", at + promise.size()) -
                                                                  (at + promise.size()));
  ASSERT_FALSE(port.empty());
  EXPECT_NE(PackagingFile("foreshock.conf").find("metrics-listen = 127.0.0.1:" + port), std::string::npos) << port;
  const std::string manifest = PackagingFile("k8s/elasticsearch-with-foreshock.yaml");
  EXPECT_NE(manifest.find("--metrics-listen=0.0.0.0:" + port), std::string::npos) << port;
  EXPECT_NE(manifest.find("containerPort: " + port), std::string::npos) << port;
}

TEST(PackagingTest, DockerfileIsAMultiStageDebian12BuildThatRunsAsNonRoot) {
  const auto instructions = ParseDockerfile(PackagingFile("Dockerfile"));
  const std::set<std::string> known = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY",
                                       "ENTRYPOINT", "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD",
                                       "STOPSIGNAL", "HEALTHCHECK", "SHELL"};
  ASSERT_FALSE(instructions.empty());
  EXPECT_EQ(instructions.front().keyword, "FROM");
  const std::string ignore = PackagingFile("Dockerfile.dockerignore");
  std::set<std::string> stages;
  std::string user;
  std::vector<std::string> command;
  int from_count = 0;
  for (const Instruction& instruction : instructions) {
    EXPECT_TRUE(known.count(instruction.keyword)) << "unknown instruction " << instruction.keyword;
    std::istringstream words(instruction.arguments);
    std::vector<std::string> args{std::istream_iterator<std::string>(words), {}};
    if (instruction.keyword == "FROM") {
      ++from_count;
      EXPECT_TRUE(args[0] == "debian:12" || args[0] == "debian:12-slim") << args[0];
      if (args.size() == 3) stages.insert(args[2]);
      user.clear();
    } else if (instruction.keyword == "COPY" && args[0].starts_with("--from=")) {
      EXPECT_TRUE(stages.count(args[0].substr(7))) << "COPY from an unknown stage: " << instruction.arguments;
    } else if (instruction.keyword == "COPY") {
      for (size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == "./") continue;
        EXPECT_TRUE(fs::exists(std::string(testing::kSourceDir) + "/" + args[i])) << args[i];
        EXPECT_NE(ignore.find("!" + args[i] + "\n"), std::string::npos)
            << args[i] << " is copied but Dockerfile.dockerignore leaves it out of the context";
      }
    } else if (instruction.keyword == "USER") {
      user = args[0];
    } else if (instruction.keyword == "CMD" || instruction.keyword == "ENTRYPOINT") {
      const auto parsed = nlohmann::json::parse(instruction.arguments, nullptr, false);
      ASSERT_TRUE(parsed.is_array()) << instruction.keyword << " must be in exec form";
      if (instruction.keyword == "CMD") command = parsed.get<std::vector<std::string>>();
    }
  }
  EXPECT_GE(from_count, 2) << "a build stage and a runtime stage";
  ASSERT_FALSE(user.empty()) << "the runtime stage must name a USER";
  EXPECT_NE(user.substr(0, user.find(':')), "0");
  EXPECT_NE(user.substr(0, user.find(':')), "root");
  ASSERT_FALSE(command.empty());
  EXPECT_NE(EffectiveSettings(command).find("state-dir = /var/lib/foreshock\n"), std::string::npos);
}

YamlNode FindContainer(const YamlNode& containers, const std::string& name) {
  for (const YamlNode& container : containers.items()) {
    if (container["name"].Scalar() == name) return container;
  }
  return YamlNode();
}

TEST(PackagingTest, KubernetesSidecarReadsTheElasticsearchLogVolumeReadOnlyAsNonRoot) {
  YamlError error;
  const std::optional<YamlNode> manifest = YamlNode::Parse(
      testing::ReadFile(std::string(testing::kSourceDir) + "/packaging/k8s/elasticsearch-with-foreshock.yaml"), &error);
  ASSERT_TRUE(manifest) << error.line << ":" << error.column << ": " << error.message;
  const YamlNode& pod = (*manifest)["spec"]["template"]["spec"];
  const YamlNode elasticsearch = FindContainer(pod["containers"], "elasticsearch");
  const YamlNode foreshock = FindContainer(pod["containers"], "foreshock");
  ASSERT_TRUE(elasticsearch && foreshock);

  std::map<std::string, YamlNode> es_mounts, fs_mounts;
  for (const YamlNode& mount : elasticsearch["volumeMounts"].items()) es_mounts.emplace(mount["name"].Scalar(), mount);
  for (const YamlNode& mount : foreshock["volumeMounts"].items()) fs_mounts.emplace(mount["name"].Scalar(), mount);
  ASSERT_TRUE(es_mounts.count("es-logs") && fs_mounts.count("es-logs"));
  EXPECT_EQ(es_mounts["es-logs"]["mountPath"].Scalar(), "/usr/share/elasticsearch/logs")
      << "where the Elasticsearch image writes its log files";
  EXPECT_EQ(fs_mounts["es-logs"]["readOnly"].Scalar(), "true");
  const std::string log_dir = fs_mounts["es-logs"]["mountPath"].Scalar();

  std::vector<std::string> args;
  for (const YamlNode& arg : foreshock["args"].items()) args.push_back(arg.Scalar());
  EXPECT_NE(std::find_if(args.begin(), args.end(), [&](const std::string& arg) {
              return arg.starts_with(log_dir + "/");
            }),
            args.end())
      << "foreshock must watch the shared log volume";
  const std::string settings = EffectiveSettings(args);
  const size_t state = settings.find("\nstate-dir = ");
  ASSERT_NE(state, std::string::npos);
  const std::string state_dir = settings.substr(state + 13, settings.find('\n', state + 1) - state - 13);
  EXPECT_TRUE(fs_mounts.count("foreshock-state") && fs_mounts["foreshock-state"]["mountPath"].Scalar() == state_dir)
      << "the root file system is read-only, so the state needs a volume";

  const YamlNode& security = foreshock["securityContext"];
  EXPECT_EQ(security["runAsNonRoot"].Scalar(), "true");
  ASSERT_TRUE(security["runAsUser"].IsScalar());
  EXPECT_NE(std::stoi(security["runAsUser"].Scalar()), 0);
  EXPECT_EQ(security["readOnlyRootFilesystem"].Scalar(), "true");
  EXPECT_EQ(security["allowPrivilegeEscalation"].Scalar(), "false");
  ASSERT_FALSE(security["capabilities"]["drop"].items().empty());
  EXPECT_EQ(security["capabilities"]["drop"].items()[0].Scalar(), "ALL");
  EXPECT_TRUE(foreshock["resources"]["limits"]["memory"]) << "a memory limit";
  // The probes ask the endpoints --metrics-listen serves, on its port.
  EXPECT_EQ(foreshock["livenessProbe"]["httpGet"]["path"].Scalar(), "/healthz");
  EXPECT_EQ(foreshock["readinessProbe"]["httpGet"]["path"].Scalar(), "/ready");
  EXPECT_EQ(foreshock["readinessProbe"]["httpGet"]["port"].Scalar(), foreshock["ports"].items()[0]["name"].Scalar());
}

// The value of `key=` in the unit file (the last one wins, as in systemd).
std::string UnitValue(const std::string& unit, const std::string& key) {
  std::istringstream in(unit);
  std::string value;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(key + "=")) value = line.substr(key.size() + 1);
  }
  return value;
}

TEST(PackagingTest, TheServiceRunsTheShippedConfigWithItsStateAndLogPathsAllowed) {
  const std::string unit = PackagingFile("foreshock.service");
  std::istringstream exec_start(UnitValue(unit, "ExecStart"));
  std::vector<std::string> args{std::istream_iterator<std::string>(exec_start), {}};
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[0], "/usr/bin/foreshock");
  args.erase(args.begin());
  const std::string config = std::string(testing::kSourceDir) + "/packaging/foreshock.conf";
  for (auto& arg : args) {
    if (arg == "/etc/foreshock/foreshock.conf") arg = config;
  }
  const std::string settings = EffectiveSettings(args);
  EXPECT_NE(settings.find("\nstate-dir = /var/lib/" + UnitValue(unit, "StateDirectory") + "\n"), std::string::npos)
      << settings;
  const std::string log_dir = UnitValue(unit, "ReadOnlyPaths");
  EXPECT_NE(settings.find("\ninput = " + log_dir + "/"), std::string::npos) << settings;
  EXPECT_EQ(UnitValue(unit, "DynamicUser"), "yes");
  EXPECT_EQ(UnitValue(unit, "ProtectSystem"), "strict");
  EXPECT_EQ(UnitValue(unit, "NoNewPrivileges"), "yes");
}

}  // namespace
}  // namespace foreshock
