// SPDX-License-Identifier: Apache-2.0
// Reading and checking an operation (operation.h): the part of the `ane` command that turns an
// op file into an Operation, without the engines (operation.cc), so that it links without the
// Verilated models. What is particular to an op is in its family's file (op_family.h,
// tb/cli/ops/); this file only walks the fields every op file has and dispatches.
#include <fmt/format.h>

#include <stdexcept>

#include "tb/cli/op_family.h"
#include "tb/cli/operation.h"

namespace ane::cli {

const std::vector<const OpFamily*>& OpFamilies() {
#define ANE_OP(family) &ops::family,
  static const std::vector<const OpFamily*> families = {
#include "tb/cli/ops/families.def"
  };
#undef ANE_OP
  return families;
}

const OpFamily* FindOpFamily(const std::string& name) {
  for (const OpFamily* f : OpFamilies()) {
    if (name == f->name) return f;
  }
  return nullptr;
}

const OpFamily& FamilyOf(const Operation& op) {
  const OpFamily* f = FindOpFamily(op.op);
  if (f == nullptr) throw std::logic_error("an Operation with no family: op '" + op.op + "'");
  return *f;
}

namespace {

// `text` in lines of at most `width` characters, each after `indent`.
std::string Wrap(const std::string& text, const std::string& indent, size_t width) {
  std::string out, line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::string OpsHelp() {
  std::string text = "operations (`op:` in an op file; the schema and examples: docs/cli.md)\n";
  for (const OpFamily* f : OpFamilies()) {
    text += fmt::format("\n  {}\n", f->name) + Wrap(f->summary, "      ", 96) + Wrap(f->fields(), "      ", 96);
  }
  return text;
}

oracle::Generation ReadGeneration(const Field& f) {
  oracle::Generation g;
  if (!oracle::ParseGeneration(f.Scalar(), &g)) {
    f.Fail(fmt::format("unknown generation '{}' (expected m1 or m5)", f.Scalar()));
  }
  return g;
}

std::string Operation::Describe() const {
  const OpFamily& family = FamilyOf(*this);
  std::string in;
  if (family.inputs_by_name) {  // in the family's order: "x fp16 [..], w fp16 [..]"
    std::vector<const char*> names = family.inputs(*this);
    names.insert(names.end(), family.optional_inputs.begin(), family.optional_inputs.end());
    for (const char* name : names) {
      if (!inputs.count(name)) continue;
      const Tensor& t = inputs.at(name).tensor;
      in += fmt::format("{}{} {} {}", in.empty() ? "" : ", ", name, DTypeName(t.dtype), ShapeString(t.shape));
    }
  } else {
    for (const auto& [name, t] : inputs) {
      in += fmt::format("{}{} {}", in.empty() ? "" : " x ", DTypeName(t.tensor.dtype), ShapeString(t.tensor.shape));
    }
  }
  std::string out;
  for (const auto& [name, t] : outputs) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", DTypeName(t.dtype), ShapeString(t.shape));
  }
  return fmt::format("{}{} {} -> {}, {}", op, family.describe(*this), in, out, oracle::GenerationName(generation));
}

Operation BuildOperation(const std::string& file, const std::string& where_text, const YAML::Node& node,
                         std::map<std::string, BuiltInput> given) {
  Operation op;
  op.file = file;
  Fields fields(Field(node, file, where_text));
  const Field op_field = fields.Required("op");
  op.op = op_field.Scalar();
  const OpFamily* family = FindOpFamily(op.op);
  if (family == nullptr) throw std::logic_error("BuildOperation: no family " + op.op);
  if (const std::optional<Field> g = fields.Optional("generation")) op.generation = ReadGeneration(*g);
  if (family->read_fields) family->read_fields(fields, &op);
  std::map<std::string, Field> late;
  for (const char* name : family->late_fields) {
    if (const std::optional<Field> f = fields.Optional(name)) late.emplace(name, *f);
  }
  fields.Finish();
  std::map<std::string, Field> where;
  auto take = [&](const char* name, bool required) {
    auto it = given.find(name);
    if (it == given.end()) {
      if (required) throw std::logic_error(fmt::format("BuildOperation: {} needs input {}", op.op, name));
      return;
    }
    where.emplace(name, Field(YAML::Node(), file, it->second.where));
    op.inputs.emplace(name, std::move(it->second.tensor));
    given.erase(it);
  };
  for (const char* name : family->inputs(op)) take(name, true);
  for (const char* name : family->optional_inputs) take(name, false);
  if (!given.empty())
    throw std::logic_error(fmt::format("BuildOperation: {} has no input {}", op.op, given.begin()->first));
  InferOutputs(&op, where);
  if (family->read_after) family->read_after(&op, where, late);
  return op;
}

Operation ReadOperation(Fields& fields, const TensorOptions& options) {
  Operation op;
  op.file = fields.map().file();
  const Field op_field = fields.Required("op");
  op.op = op_field.Scalar();
  const OpFamily* family = FindOpFamily(op.op);
  if (family == nullptr) {
    std::string names;
    for (const OpFamily* f : OpFamilies()) names += std::string(names.empty() ? "" : ", ") + f->name;
    op_field.Fail(fmt::format("unknown operation '{}' (supported: {})", op.op, names));
  }
  if (const std::optional<Field> g = fields.Optional("generation")) op.generation = ReadGeneration(*g);
  if (family->read_fields) family->read_fields(fields, &op);
  std::map<std::string, Field> late;
  for (const char* name : family->late_fields) {
    if (const std::optional<Field> f = fields.Optional(name)) late.emplace(name, *f);
  }

  Fields inputs(fields.Required("inputs"));
  std::map<std::string, Field> where;
  for (const char* name : family->inputs(op)) {
    const Field f = inputs.Required(name);
    where.emplace(name, f);
    op.inputs.emplace(name, LoadTensor(f, options));
  }
  for (const char* name : family->optional_inputs) {
    if (const std::optional<Field> f = inputs.Optional(name)) {
      where.emplace(name, *f);
      op.inputs.emplace(name, LoadTensor(*f, options));
    }
  }
  inputs.Finish();
  InferOutputs(&op, where);
  // An output can be far larger than the inputs: a matmul of a [65536, 1] column by a
  // [1, 65536] row has 2^32 elements, a 1x1 conv2d with many output channels likewise. The
  // engines would fail to allocate it (exit 3) or take the machine's memory, so it is bad input
  // under the same bound as an input tensor.
  for (const auto& [name, type] : op.outputs) {
    int64_t count = 1;  // stops just past the bound, so it cannot overflow
    for (int64_t d : type.shape) {
      count = d > 0 && count > kMaxElements / d ? kMaxElements + 1 : count * d;
    }
    if (count > kMaxElements) {
      inputs.map().Fail(fmt::format("the output {} would be {} {}, more than 2^{} elements", name,
                                    DTypeName(type.dtype), ShapeString(type.shape), kMaxElementsLog2));
    }
  }
  if (family->read_after) family->read_after(&op, where, late);

  if (const std::optional<Field> outputs_field = fields.Optional("outputs")) {
    Fields outputs(*outputs_field);
    for (const auto& [name, type] : op.outputs) {
      if (const std::optional<Field> f = outputs.Optional(name)) {
        f->Path();  // checks it is a non-empty path
        op.output_fields.emplace(name, *f);
      }
    }
    outputs.Finish();
  }
  return op;
}

void InferOutputs(Operation* op, const std::map<std::string, Field>& where) { FamilyOf(*op).infer(op, where); }

}  // namespace ane::cli
