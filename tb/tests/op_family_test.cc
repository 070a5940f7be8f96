// SPDX-License-Identifier: Apache-2.0
// The operation registry of the `ane` command (op_family.h, tb/cli/ops/families.def): every
// family is whole, findable by its name, documented, and listed by `ane help ops`. The list
// of operations the tests expect is docs/cli.md's (the `op` row of "Operation files" and one
// "## name" section each), not the registry's own.
#include "tb/cli/op_family.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tb/tests/cli_fixture.h"

namespace ane::cli {
namespace {

using test::CliTest;
using test::Lines;
using test::Result;

std::vector<std::string> RegistryNames() {
  std::vector<std::string> names;
  for (const OpFamily* f : OpFamilies()) names.push_back(f->name);
  return names;
}

std::string CliDoc() {
  std::ifstream in(std::string(ANE_SOURCE_DIR) + "/docs/cli.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The operations docs/cli.md's field table names in its `op` row, in order.
std::vector<std::string> DocumentedOps() {
  std::vector<std::string> ops;
  for (const std::string& line : Lines(CliDoc())) {
    if (line.rfind("| `op` |", 0) != 0) continue;
    const std::regex name("`([a-z0-9_]+)`");
    for (std::sregex_iterator it(line.begin(), line.end(), name), end; it != end; ++it) {
      if ((*it)[1] != "op") ops.push_back((*it)[1]);
    }
  }
  return ops;
}

TEST(OpFamily, TheRegistryIsTheDocumentedListOfOperations) {
  const std::vector<std::string> documented = DocumentedOps();
  ASSERT_GE(documented.size(), 7u) << "docs/cli.md: no `op` row found";
  EXPECT_EQ(RegistryNames(), documented);
  const std::string doc = CliDoc();
  for (const std::string& name : RegistryNames()) {
    EXPECT_NE(doc.find("\n## " + name + "\n"), std::string::npos) << "docs/cli.md has no section ## " << name;
  }
}

TEST(OpFamily, EveryFamilyIsWholeAndFoundByItsName) {
  std::set<std::string> seen;
  for (const OpFamily* f : OpFamilies()) {
    SCOPED_TRACE(f->name);
    EXPECT_TRUE(seen.insert(f->name).second) << "two families named " << f->name;
    EXPECT_EQ(FindOpFamily(f->name), f);
    EXPECT_NE(std::string(f->summary), "");
    ASSERT_NE(f->fields, nullptr);
    EXPECT_NE(f->fields(), "");
    ASSERT_NE(f->inputs, nullptr);
    EXPECT_FALSE(f->inputs(Operation{}).empty());
    EXPECT_NE(f->infer, nullptr);
    EXPECT_NE(f->describe, nullptr);
    EXPECT_NE(f->rtl_check, nullptr);
    EXPECT_NE(f->evaluate, nullptr);  // the main build has the engines (ANE_CLI_NO_ENGINES unset)
    EXPECT_NE(f->print_rtl, nullptr);
    EXPECT_NE(f->reference, nullptr);
    EXPECT_EQ(f->read_after == nullptr, f->late_fields.empty());
  }
  EXPECT_EQ(FindOpFamily("matmull"), nullptr);
  EXPECT_EQ(FindOpFamily(""), nullptr);
  Operation bad;
  bad.op = "nope";
  EXPECT_THROW(FamilyOf(bad), std::logic_error);
}

TEST_F(CliTest, HelpOpsListsEveryOperationWithItsFields) {
  const Result r = Ane({"help", "ops"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const std::string& name : DocumentedOps())
    EXPECT_NE(r.out.find("\n  " + name + "\n"), std::string::npos) << name;
  EXPECT_NE(r.out.find("function: sum, max, min; axis:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("multiply_add (a, b, c)"), std::string::npos) << r.out;
  for (const std::string& line : Lines(r.out)) EXPECT_LE(line.size(), 96u) << line;
  const Result bad = Ane({"help", "opz"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "ane: error: no help for 'opz' (commands: run, regress, td, compile; the operations: ops)\n");
}

TEST_F(CliTest, UnknownOperationNamesTheDocumentedOnes) {
  Write("op.yaml", "{op: frobnicate, inputs: {}}\n");
  std::string list;
  for (const std::string& name : DocumentedOps()) list += (list.empty() ? "" : ", ") + name;
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "op",
                   "unknown operation 'frobnicate' (supported: " + list + ")");
}

}  // namespace
}  // namespace ane::cli
