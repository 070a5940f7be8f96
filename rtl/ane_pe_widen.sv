// SPDX-License-Identifier: Apache-2.0
// ane_pe_widen: a planar reduction input (NUMERICS N-4.4 with N-1). Combinational.
// y = the fp16 value x after N-1 (NaN -> +inf, -0 -> +0) as an exact fp32 value when valid_i,
// otherwise the identity of the operator op_i: +0 (sum), -inf (max), +inf (min).
`default_nettype none

module ane_pe_widen (
  input  wire ane_pkg::pe_tree_op_e op_i,
  input  wire logic                 valid_i,
  input  wire logic [15:0]          x_i,
  output      logic [31:0]          y_o
);

  assign y_o = valid_i ? ane_pkg::fp16_to_fp32(ane_pkg::fp16_boundary(x_i))
                       : ane_pkg::pe_tree_identity(op_i);

endmodule
