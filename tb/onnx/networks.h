// SPDX-License-Identifier: Apache-2.0
// Whole networks for ONNX models in (docs/onnx.md "Whole networks"): models with the layer
// structure of ResNet-18 (He et al. 2015: a 7x7 stem, max pooling, four stages of two basic
// blocks with 1x1 projections, global average pooling, a fully connected classifier) and
// MobileNet-v2 (Sandler et al. 2018: a 3x3 stem, seventeen inverted residual blocks of 1x1
// expansion, 3x3 depthwise and 1x1 projection, ReLU6, a 1x1 head), each convolution followed by
// a BatchNormalization, built with the ONNX library at a chosen input resolution and width,
// their weights drawn from a fixed seed (no trained weights: the numbers, not the accuracy, are
// the point). `ane_networks DIR` writes them.
#ifndef TB_ONNX_NETWORKS_H_
#define TB_ONNX_NETWORKS_H_

#include <cstdint>
#include <string>

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace ane::onnx_in {

struct NetworkOptions {
  int resolution = 224;  // the input is [1, 3, resolution, resolution]
  int width = 64;        // ResNet-18: the first stage's channels (64 in the paper); MobileNet-v2:
                         // the stem's channels (32 in the paper), every other width scaled alike
  int classes = 1000;
  uint64_t seed = 1;
  // ResNet-18 without pooling, for `ane compile` (no task descriptor of the known programs
  // pools): a 3x3 depthwise convolution of stride 2 (+ BatchNormalization + ReLU) in the stem
  // max pool's place, and the head's global average pooling and classifier as one convolution
  // of the last feature map's size (the same linear map: each kernel the classifier's row / the
  // map's size), then Flatten.
  bool pool_free = false;
};

// Input "x" [1, 3, R, R], output "y" [1, classes] (logits). opset 13.
onnx::ModelProto ResNet18(const NetworkOptions& o);
onnx::ModelProto MobileNetV2(const NetworkOptions& o);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_NETWORKS_H_
