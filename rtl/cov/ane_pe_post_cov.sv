// SPDX-License-Identifier: Apache-2.0
// ane_pe_post_cov: functional-coverage bins of the planar post-processor ane_pe_post (NUMERICS
// N-4.1 exact sqrt, recip, rsqrt; N-4.2 their indeterminate and special inputs; N-1 at its
// boundary): every POST operation code, sqrt and rsqrt of a negative value and of -inf (+0),
// the reciprocal of a zero and of an infinity (the divisor halves of 0/0 and inf/inf, which
// the engine forms as a multiply by a reciprocal), the reciprocal's overflow and subnormal
// results, and the pass-through of NaN and -0. Bins read the input handshake (in_valid_i &&
// in_ready_o: the vector and operation accepted) or the output handshake.
// Bound to every ane_pe_post only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_post_cov #(
  parameter int NumLanes = 4
) (
  input wire logic                   clk_i,
  input wire logic                   rst_ni,
  input wire logic                   in_valid_i,
  input wire logic                   in_ready_o,
  input wire ane_pkg::pe_post_op_e   in_op_i,
  input wire logic [NumLanes*16-1:0] in_data_i,
  input wire logic                   out_valid_o,
  input wire logic                   out_ready_i,
  input wire logic [NumLanes*16-1:0] out_data_o
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  logic fire, ofire;
  assign fire  = live_q && in_valid_i && in_ready_o;
  assign ofire = live_q && out_valid_o && out_ready_i;

  // Per-lane classes of the accepted vector (raw code x, boundary value b = N-1 of x),
  // OR-ed over the lanes.
  logic neg_fin, neg_inf, zero_any, inf_any, nan_any, negz_any, sub_pos, sub_ovf, sub_fin, big;
  logic pos_inf, res_sub, res_inf, res_negz;
  always_comb begin
    {neg_fin, neg_inf, zero_any, inf_any, nan_any, negz_any, sub_pos, sub_ovf, sub_fin, big} = '0;
    {pos_inf, res_sub, res_inf, res_negz} = '0;
    for (int l = 0; l < NumLanes; l++) begin
      logic [15:0] x, b, y;
      x = in_data_i[16*l +: 16];
      b = ane_pkg::fp16_boundary(x);
      y = out_data_o[16*l +: 16];
      neg_fin  |= b[15] && b[14:10] != 5'h1F && b[14:0] != 15'd0;   // negative, finite, nonzero
      neg_inf  |= x == 16'hFC00;
      zero_any |= b[14:0] == 15'd0;                                  // +0 or -0 (-0 enters as +0)
      inf_any  |= b[14:10] == 5'h1F;                                 // +-inf, or NaN (+inf)
      nan_any  |= ane_pkg::fp16_is_nan(x);
      negz_any |= x == ane_pkg::Fp16NegZero;
      pos_inf  |= b == ane_pkg::Fp16PosInf;
      sub_pos  |= !b[15] && b[14:10] == 5'd0 && b[9:0] != 10'd0;
      // 1 / x of a subnormal x = f 2^-24 overflows to inf for f <= 256 (1 / 2^-16 = 65536)
      sub_ovf  |= b[14:10] == 5'd0 && b[9:0] != 10'd0 && b[9:0] <= 10'h100;
      sub_fin  |= b[14:10] == 5'd0 && b[9:0] > 10'h100;
      // 1 / x is subnormal for |x| >= 2^15 (finite)
      big      |= b[14:10] >= 5'd30 && b[14:10] != 5'h1F;
      res_sub  |= y[14:10] == 5'd0 && y[9:0] != 10'd0;
      res_inf  |= y[14:0] == 15'h7C00;
      res_negz |= y == ane_pkg::Fp16NegZero;
    end
  end

  // N-4.1: one bin per POST operation code (0 pass, 1 sqrt, 2 recip, 3 rsqrt).
  if (1) begin : g_op_0
    always_ff @(posedge clk_i) begin
      N4_1_postop_0: cover (fire && in_op_i == 2'(0));
    end
  end
  if (1) begin : g_op_1
    always_ff @(posedge clk_i) begin
      N4_1_postop_1: cover (fire && in_op_i == 2'(1));
    end
  end
  if (1) begin : g_op_2
    always_ff @(posedge clk_i) begin
      N4_1_postop_2: cover (fire && in_op_i == 2'(2));
    end
  end
  if (1) begin : g_op_3
    always_ff @(posedge clk_i) begin
      N4_1_postop_3: cover (fire && in_op_i == 2'(3));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.2 ----
    N4_2_sqrt_negative:        cover (fire && in_op_i == ane_pkg::PePostSqrt && neg_fin);
    N4_2_sqrt_neg_inf:         cover (fire && in_op_i == ane_pkg::PePostSqrt && neg_inf);
    N4_2_rsqrt_negative:       cover (fire && in_op_i == ane_pkg::PePostRsqrt && neg_fin);
    N4_2_rsqrt_neg_inf:        cover (fire && in_op_i == ane_pkg::PePostRsqrt && neg_inf);
    N4_2_recip_of_zero:        cover (fire && in_op_i == ane_pkg::PePostRecip && zero_any);
    N4_2_recip_of_inf:         cover (fire && in_op_i == ane_pkg::PePostRecip && inf_any);
    // ---- N-4.1 / N-1 ----
    N4_1_sqrt_neg_zero:        cover (fire && in_op_i == ane_pkg::PePostSqrt && negz_any);
    N4_1_sqrt_pos_inf:         cover (fire && in_op_i == ane_pkg::PePostSqrt && pos_inf);
    N4_1_sqrt_subnormal:       cover (fire && in_op_i == ane_pkg::PePostSqrt && sub_pos);
    N4_1_rsqrt_of_zero:        cover (fire && in_op_i == ane_pkg::PePostRsqrt && zero_any);
    N4_1_rsqrt_pos_inf:        cover (fire && in_op_i == ane_pkg::PePostRsqrt && pos_inf);
    N4_1_rsqrt_subnormal:      cover (fire && in_op_i == ane_pkg::PePostRsqrt && sub_pos);
    N4_1_recip_subnormal_inf:  cover (fire && in_op_i == ane_pkg::PePostRecip && sub_ovf);
    N4_1_recip_subnormal_fin:  cover (fire && in_op_i == ane_pkg::PePostRecip && sub_fin);
    N4_1_recip_to_subnormal:   cover (fire && in_op_i == ane_pkg::PePostRecip && big);
    N4_1_nan_input:            cover (fire && in_op_i != ane_pkg::PePostPass && nan_any);
    N4_1_pass_nan:             cover (fire && in_op_i == ane_pkg::PePostPass && nan_any);
    N4_1_pass_neg_zero:        cover (fire && in_op_i == ane_pkg::PePostPass && negz_any);
    N4_1_result_subnormal:     cover (ofire && res_sub);
    N4_1_result_inf:           cover (ofire && res_inf);
    N4_1_result_neg_zero:      cover (ofire && res_negz);
    N4_1_back_pressure:        cover (live_q && out_valid_o && !out_ready_i);
  end

endmodule

bind ane_pe_post ane_pe_post_cov #(.NumLanes(NumLanes)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
