// SPDX-License-Identifier: Apache-2.0
// ane_fp16_pack: rounds an exact value to fp16 (NUMERICS N-0.3, N-4.1). Combinational.
// The value is (-1)^neg_i * (mag_i + s) * 2^lsb_exp_i, where mag_i is a nonzero integer and s,
// when sticky_i is set, a fraction strictly between 0 and 1 (a nonzero remainder below mag_i's
// last bit). y_o is RNE_fp16 of it with gradual underflow, overflow to inf, and +0 for a result
// that rounds to zero.
`default_nettype none

module ane_fp16_pack (
  input  wire logic               neg_i,
  input  wire logic [31:0]        mag_i,
  input  wire logic signed [9:0]  lsb_exp_i,
  input  wire logic               sticky_i,
  output      logic [15:0]        y_o
);

  logic [4:0]         msb;
  logic signed [10:0] e, sh;
  logic [4:0]         gi;
  logic [11:0]        kept;
  logic [31:0]        lost_mask;
  logic               guard, sticky, inc;
  logic [11:0]        sig;
  logic [5:0]         ebias;

  always_comb begin
    msb = 5'd0;
    for (int i = 0; i < 32; i++) if (mag_i[i]) msb = 5'(i);
    e  = $signed({{1{lsb_exp_i[9]}}, lsb_exp_i}) + $signed({6'd0, msb});  // exponent of the leading one
    // Keep 11 bits from the leading one, fewer below the normal range.
    sh = $signed({6'd0, msb}) - 11'sd10;
    if (e < -11'sd14) sh = sh + (-11'sd14 - e);
    if (sh > 11'sd32) sh = 11'sd32;
    gi        = 5'(sh - 11'sd1);
    lost_mask = ~(32'hFFFF_FFFF << sh);
    if (sh <= 11'sd0) begin
      kept   = 12'(mag_i << (-sh));
      guard  = 1'b0;
      sticky = sticky_i;
    end else begin
      kept   = 12'(mag_i >> sh);
      guard  = (sh <= 11'sd32) && mag_i[gi];
      sticky = ((mag_i & (lost_mask >> 1)) != 32'd0) || sticky_i;
    end
    inc   = guard && (sticky || kept[0]);
    sig   = kept + {11'd0, inc};
    ebias = (e < -11'sd14) ? 6'd0 : 6'(e + 11'sd15);
    if (sig[11]) begin  // the rounding carried into the next binade
      sig   = {1'b0, sig[11:1]};
      ebias = ebias + 6'd1;
    end else if (ebias == 6'd0 && sig[10]) begin  // a denormal rounded up to the smallest normal
      ebias = 6'd1;
    end
    if (ebias >= 6'd31 || e > 11'sd15) y_o = {neg_i, 5'h1F, 10'd0};
    else if (sig[10:0] == 11'd0)        y_o = 16'h0000;
    else                                y_o = {neg_i, ebias[4:0], sig[9:0]};
  end

endmodule
