// SPDX-License-Identifier: Apache-2.0
// ane_fp16_unpack: decode one fp16 operand as it enters the MAC datapath.
//   N-1.1  any NaN becomes +inf
//   N-1.2  -0 becomes +0
//   N-2.3  m1: a denormal operand is treated as +0 inside the MAC; m5: kept
// Combinational. The decoded value is (-1)^sign * sig * 2^(exp - 25).
`default_nettype none

module ane_fp16_unpack #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1). A plain logic so tools can set it.
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic [15:0]            fp16_i,
  output ane_pkg::fp16_unpacked_t     op_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb, FH = ane_pkg::Fp16ManMsb;

  logic [4:0] biased_exp;
  logic [9:0] frac;
  logic       is_nan, is_inf, is_denorm, is_zero;

  always_comb begin
    biased_exp = fp16_i[EH:EL];
    frac       = fp16_i[FH:0];
    is_nan     = (biased_exp == ane_pkg::Fp16ExpMax) && (frac != 10'h000);
    is_inf     = (biased_exp == ane_pkg::Fp16ExpMax);  // NaN folds into +inf below
    is_denorm  = (biased_exp == 5'h00) && (frac != 10'h000);
    is_zero    = (biased_exp == 5'h00) && ((frac == 10'h000) || (Gen == ane_pkg::GenM1));

    op_o.sign    = fp16_i[15] && !is_nan && !is_zero;
    op_o.is_inf  = is_inf;
    op_o.is_zero = is_zero && !is_inf;
    op_o.exp     = (biased_exp == 5'h00) ? 5'd1 : biased_exp;
    op_o.sig     = (is_zero || is_inf) ? 11'd0 : {!is_denorm, frac};
  end

endmodule

`default_nettype wire
