// SPDX-License-Identifier: Apache-2.0
// ane_networks DIR [--resolution N] [--width W] [--classes C] [--seed S] [--pool-free]: writes
// DIR/resnet18.onnx and DIR/mobilenetv2.onnx (tb/onnx/networks.h: the published layer
// structures, weights from a fixed seed) for `ane run MODEL.onnx`; with --pool-free,
// DIR/resnet18_pool_free.onnx alone (no pooling: what `ane compile` compiles).
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "tb/onnx/networks.h"

int main(int argc, char** argv) {
  ane::onnx_in::NetworkOptions o;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&](int lo, int hi) {
      if (i + 1 >= argc) return -1;
      const std::string v = argv[++i];
      if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) return -1;
      const int n = std::stoi(v);
      return n < lo || n > hi ? -1 : n;
    };
    int n = 0;
    if (a == "--resolution" && (n = number(16, 4096)) > 0) {
      o.resolution = n;
    } else if (a == "--width" && (n = number(1, 1024)) > 0) {
      o.width = n;
    } else if (a == "--classes" && (n = number(1, 100000)) > 0) {
      o.classes = n;
    } else if (a == "--seed" && (n = number(0, 1000000000)) >= 0) {
      o.seed = uint64_t(n);
    } else if (a == "--pool-free") {
      o.pool_free = true;
    } else if (dir.empty() && !a.empty() && a[0] != '-') {
      dir = a;
    } else {
      std::cerr << "usage: ane_networks DIR [--resolution 16..4096] [--width 1..1024] [--classes N] [--seed S] "
                   "[--pool-free]\n";
      return 2;
    }
  }
  if (dir.empty() || !std::filesystem::is_directory(dir)) {
    std::cerr << "ane_networks: name an existing folder to write the models into\n";
    return 2;
  }
  std::vector<std::pair<std::string, onnx::ModelProto>> models;
  if (o.pool_free) {
    models.emplace_back("resnet18_pool_free", ane::onnx_in::ResNet18(o));
  } else {
    models.emplace_back("resnet18", ane::onnx_in::ResNet18(o));
    models.emplace_back("mobilenetv2", ane::onnx_in::MobileNetV2(o));
  }
  for (const auto& [name, model] : models) {
    const std::string path = dir + "/" + name + ".onnx";
    std::ofstream f(path, std::ios::binary);
    if (!model.SerializeToOstream(&f)) {
      std::cerr << "ane_networks: cannot write " << path << "\n";
      return 2;
    }
    std::cout << "wrote " << path << " (" << model.graph().node_size() << " nodes, input [1, 3, " << o.resolution
              << ", " << o.resolution << "])\n";
  }
  return 0;
}
