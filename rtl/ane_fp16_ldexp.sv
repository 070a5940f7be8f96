// SPDX-License-Identifier: Apache-2.0
// ane_fp16_ldexp: y = RNE_fp16(h * 2^n). Combinational.
// The exact scaling by a power of two followed by one round to nearest even with gradual
// underflow and overflow to inf (the post-step of the exp2 and pow tables, NUMERICS N-5.1,
// docs/postproc.md). A zero or an infinity passes; a zero result is +0. h is never a NaN here
// (every operand has passed the N-1 boundary); n is saturated by the caller to -64 .. 64.
// Pipe = 0 (the default): combinational, clk_i and en_i unused. Pipe = 1: two stages with a
// register (enable en_i, no reset: datapath only) between them, so y_o follows h_i and n_i by
// one cycle:
//   stage 1  normalization, the new exponent
//   stage 2  the right shift into the denormal range with round and sticky bits, RNE, packing,
//            overflow
`default_nettype none

module ane_fp16_ldexp #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic              clk_i,
  input  wire logic              en_i,
  input  wire logic [15:0]       h_i,
  input  wire logic signed [7:0] n_i,
  output      logic [15:0]       y_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb, FH = ane_pkg::Fp16ManMsb;

  // ---- stage 1
  logic [10:0]       sig_d, sig;     // significand, sig[10] set after normalization
  logic signed [9:0] e;              // unbiased exponent of sig[10]
  logic signed [9:0] e_new_d, e_new;
  logic [3:0]        lz;
  logic [1:0]        cls_d, cls;     // 0 finite nonzero, 1 zero, 2 inf (h passes)
  logic              sign_d, sign;
  logic              unused_lz_none;
  // Normalize (a denormal h has fewer than 11 significant bits): the left shift that brings its
  // top bit to bit 10 (15 for a zero fraction, which no result reads).
  ane_lzc #(.W(16)) u_lz (.v_i({1'b0, h_i[FH:0], 5'd0}), .n_o(lz), .zero_o(unused_lz_none));

  always_comb begin
    if (h_i[EH:EL] != 5'd0) begin
      sig_d = {1'b1, h_i[FH:0]};
      e     = $signed({5'd0, h_i[EH:EL]}) - 10'sd15;
    end else begin
      sig_d = 11'({1'b0, h_i[FH:0]} << lz);
      e     = -10'sd14 - $signed({6'd0, lz});
    end
    e_new_d = e + 10'(n_i);

    if (h_i[14:0] == 15'd0)        cls_d = 2'd1;
    else if (h_i[EH:EL] == ane_pkg::Fp16ExpMax) cls_d = 2'd2;
    else                          cls_d = 2'd0;
    sign_d = h_i[15];
  end

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({sig, e_new, cls, sign})), .Pipe(Pipe)) u_pipe (
    .clk_i, .en_i, .d_i({sig_d, e_new_d, cls_d, sign_d}),
    .q_o({sig, e_new, cls, sign})
  );

  // ---- stage 2
  logic [3:0]        rshift;    // right shift into the denormal range, 0 .. 13
  logic [24:0]       wide, shifted;
  logic              round_bit, sticky, inc;
  logic [14:0]       packed_r;

  always_comb begin
    // Denormal results: shift right by -14 - e_new (capped: beyond 12 everything is sticky).
    rshift = 4'd0;
    if (e_new < -10'sd14) begin
      rshift = ((-10'sd14 - e_new) > 10'sd13) ? 4'd13 : 4'((-10'sd14) - e_new);
    end
    wide      = {sig, 14'd0};  // sig followed by guard bits
    shifted   = wide >> rshift;
    round_bit = shifted[13];
    sticky    = |shifted[12:0];  // 14 guard bits: nothing is shifted out of wide
    inc       = round_bit & (sticky | shifted[14]);

    // Pack: a normal result has exponent field e_new + 15 (sig[10] is the hidden bit); a
    // denormal result has exponent field 0 and the shifted significand. A carry out of the
    // significand moves into the exponent field by the plain addition.
    if (rshift != 4'd0) begin
      packed_r = {4'd0, shifted[24:14]} + {14'd0, inc};
    end else begin
      packed_r = {5'(e_new + 10'sd15), shifted[23:14]} + {14'd0, inc};
    end

    if (cls == 2'd1) begin
      y_o = 16'h0000;
    end else if (cls == 2'd2) begin
      y_o = {sign, 5'h1F, sig[9:0]};  // h itself
    end else if (e_new > 10'sd15 || packed_r[EH:EL] == ane_pkg::Fp16ExpMax) begin
      y_o = {sign, 15'h7C00};
    end else if (packed_r[14:0] == 15'd0) begin
      y_o = 16'h0000;
    end else begin
      y_o = {sign, packed_r[14:0]};
    end
  end

endmodule
