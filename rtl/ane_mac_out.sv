// SPDX-License-Identifier: Apache-2.0
// ane_mac_out: the output port of a MAC slot (NUMERICS N-2.6, N-2.3, N-2.7). Combinational.
//   r = RNE_fp16(acc) with the plain fp16 range (overflow to inf when |acc| >= 65520);
//   m1: |r| < 2^-14 (an fp16 denormal) leaves as +0; every zero result is +0;
//   an fp32 NaN (only a loaded value can hold one) acts as +inf (N-1.1).
// The 32768 ceiling is applied in the accumulator (ane_mac_acc_add), not here.
//
// In the fp16 normal range the rounding is one 15-bit increment of {exponent, fraction}: a carry
// out of the fraction steps the exponent, and out of 2^15 - 2^4 it lands on the inf code. Below
// it, m1 keeps only what rounds up to 2^-14; m5 shifts the significand onto the denormal grid.
`default_nettype none

module ane_mac_out #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic [31:0] acc_i,
  output      logic [15:0] fp16_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb;

  logic [7:0]  e8;
  logic [22:0] f;
  logic        sign, nan, big, normal, inc;
  logic [14:0] rn, rd;  // normal range; denormal range (before the m1 flush)
  logic [14:0] r;

  always_comb begin
    e8     = acc_i[30:23];
    f      = acc_i[22:0];
    sign   = acc_i[31];
    nan    = (e8 == 8'hFF) && (f != 23'd0);
    big    = e8 >= 8'd143;   // |acc| >= 2^16 (or inf): beyond fp16
    normal = e8 >= 8'd113;   // |acc| >= 2^-14
    // normal range: fp16 exponent e8 - 112, fraction f[22:13], guard f[12], sticky f[11:0]
    inc    = f[12] && ((f[11:0] != 12'd0) || f[13]);
    rn     = {5'(e8 - 8'd112), f[22:13]} + {14'd0, inc};
    r      = big ? 15'h7C00 : rn;
  end

  if (Gen == ane_pkg::GenM1) begin : g_m1
    // Below 2^-14 only [2^-14 - 2^-25, 2^-14) survives: it rounds up to 2^-14 (the half-way
    // value is a tie that rounds to the even 1024 x 2^-24).
    assign rd = ((e8 == 8'd112) && (f[22:13] == 10'h3FF)) ? 15'h0400 : 15'd0;
  end else begin : g_m5
    // The denormal grid 2^-24: sig24 >> (126 - e8) for e8 in [102, 112] (smaller values round
    // to 0), guard and sticky below it; a carry into bit 10 gives 2^-14 (the normal code 0x0400).
    logic [4:0]  sh;
    logic [47:0] wide;
    logic        g, st;
    logic        unused_wide;
    assign unused_wide = ^wide[47:34];  // zero after a shift of 14 or more
    always_comb begin
      sh   = 5'(8'd126 - e8);
      wide = {1'b1, f, 24'd0} >> ((e8 >= 8'd102) ? sh : 5'd31);
      g    = wide[23];
      st   = wide[22:0] != 23'd0;
      rd   = 15'(wide[33:24]) + {14'd0, (e8 >= 8'd102) && g && (st || wide[24])};
    end
  end

  always_comb begin
    fp16_o = {sign, normal ? r : rd};
    if (nan) fp16_o = 16'h7C00;                          // N-1.1
    if (fp16_o[14:0] == 15'd0) fp16_o = 16'h0000;        // N-2.7
    if ((Gen == ane_pkg::GenM1) && (fp16_o[EH:EL] == 5'd0)) fp16_o = 16'h0000;  // N-2.3
  end

endmodule

`default_nettype wire
