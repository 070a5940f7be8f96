// SPDX-License-Identifier: Apache-2.0
// The engine half of operation.h: the engines, the fp64 reference and the comparisons, by way of
// each operation's family (op_family.h, tb/cli/ops/).
#include "tb/cli/operation.h"

#include <fmt/format.h>

#include <cstdlib>

#include "tb/cli/op_family.h"

namespace ane::cli {

std::optional<Engine> ParseEngine(const std::string& text) {
  if (text == "oracle") return Engine::kOracle;
  if (text == "rtl") return Engine::kRtl;
  if (text == "both") return Engine::kBoth;
  return std::nullopt;
}

const char* EngineName(Engine e) {
  switch (e) {
    case Engine::kOracle: return "oracle";
    case Engine::kRtl: return "rtl";
    case Engine::kBoth: return "both";
  }
  return "?";
}

void CheckEngine(Engine engine, const Operation& op) {
  if (engine == Engine::kOracle) return;
  const OpFamily& family = FamilyOf(op);
  if (family.rtl_check == nullptr) {
    throw CliError(
        fmt::format("--engine {}: there is no RTL engine for {} yet; use --engine oracle", EngineName(engine), op.op));
  }
  const std::string bad = family.rtl_check(op);
  if (!bad.empty()) throw CliError(fmt::format("{}: --engine {}: {}", op.file, EngineName(engine), bad));
}

harness::DataFault FaultFromEnvironment() {
  const char* env = std::getenv("ANE_FAULT");
  if (env == nullptr) return {};
  const std::string text(env);
  const size_t comma = text.find(',');
  const auto number = [](const std::string& s) {
    return !s.empty() && s.size() < 12 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (comma == std::string::npos || !number(text.substr(0, comma)) || !number(text.substr(comma + 1))) {
    throw CliError(fmt::format("ANE_FAULT={}: expected ROW,K (two non-negative integers)", text));
  }
  return {std::stoll(text.substr(0, comma)), std::stoll(text.substr(comma + 1))};
}

std::string ValueText(uint32_t bits, DType dtype) {
  return dtype == DType::kFp16 ? fmt::format("{} (0x{:04x})", FormatValue(bits, dtype), bits)
                               : FormatValue(bits, dtype);
}

std::string ElementName(const std::string& output, int64_t index, const Tensor& t) {
  return t.bits.size() == 1 ? output : output + IndexString(index, t.shape);
}

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault& fault) {
  return FamilyOf(op).evaluate(op, engine, fault);
}

void PrintRtlSummary(const Operation& op, const RtlRun& rtl) {
  const OpFamily& family = FamilyOf(op);
  if (family.print_rtl) family.print_rtl(op, rtl);
}

std::string ReferenceNote(const Operation& op) {
  const OpFamily& family = FamilyOf(op);
  return family.reference_note ? family.reference_note(op) : "";
}

TensorMap Reference(const Operation& op) { return FamilyOf(op).reference(op); }

Difference Compare(const Tensor& got, const Tensor& want) {
  Difference d;
  for (size_t i = 0; i < got.bits.size(); ++i) {
    const int64_t diff = std::llabs(OrderedValue(got.bits[i], got.dtype) - OrderedValue(want.bits[i], want.dtype));
    if (diff == 0) continue;
    ++d.count;
    if (diff > d.max) {
      d.max = diff;
      d.worst = int64_t(i);
    }
  }
  return d;
}

}  // namespace ane::cli
