// ane_fp16_ldexp: y = RNE_fp16(h * 2^n). Combinational.
// The exact scaling by a power of two followed by one round to nearest even with gradual
// underflow and overflow to inf (the post-step of the exp2 and pow tables, NUMERICS N-5.1,
// docs/activation.md). A zero or an infinity passes; a zero result is +0. h is never a NaN here
// (every operand has passed the N-1 boundary); n is saturated by the caller to -64 .. 64.
`default_nettype none

module ane_fp16_ldexp (
  input  wire logic [15:0]       h_i,
  input  wire logic signed [7:0] n_i,
  output      logic [15:0]       y_o
);

  logic [10:0]       sig;       // significand, sig[10] set after normalization
  logic signed [9:0] e;         // unbiased exponent of sig[10]
  logic signed [9:0] e_new;
  logic [5:0]        rshift;    // right shift into the denormal range
  logic [24:0]       wide, shifted;
  logic              round_bit, sticky, inc;
  logic [14:0]       packed_r;
  logic [3:0]        lz;

  always_comb begin
    // Normalize (a denormal h has fewer than 11 significant bits).
    lz = 4'd0;
    for (int b = 0; b < 10; b++) begin
      if (h_i[b]) lz = 4'(10 - b);
    end
    if (h_i[14:10] != 5'd0) begin
      sig = {1'b1, h_i[9:0]};
      e   = $signed({5'd0, h_i[14:10]}) - 10'sd15;
    end else begin
      sig = 11'({1'b0, h_i[9:0]} << lz);
      e   = -10'sd14 - $signed({6'd0, lz});
    end
    e_new = e + 10'(n_i);

    // Denormal results: shift right by -14 - e_new (capped: beyond 12 everything is sticky).
    rshift = 6'd0;
    if (e_new < -10'sd14) begin
      rshift = ((-10'sd14 - e_new) > 10'sd13) ? 6'd13 : 6'((-10'sd14) - e_new);
    end
    wide      = {sig, 14'd0};  // sig followed by guard bits
    shifted   = wide >> rshift;
    round_bit = shifted[13];
    sticky    = |shifted[12:0];  // 14 guard bits: nothing is shifted out of wide
    inc       = round_bit & (sticky | shifted[14]);

    // Pack: a normal result has exponent field e_new + 15 (sig[10] is the hidden bit); a
    // denormal result has exponent field 0 and the shifted significand. A carry out of the
    // significand moves into the exponent field by the plain addition.
    if (rshift != 6'd0) begin
      packed_r = {4'd0, shifted[24:14]} + {14'd0, inc};
    end else begin
      packed_r = {5'(e_new + 10'sd15), shifted[23:14]} + {14'd0, inc};
    end

    if (h_i[14:0] == 15'd0) begin
      y_o = 16'h0000;
    end else if (h_i[14:10] == 5'h1F) begin
      y_o = h_i;
    end else if (e_new > 10'sd15 || packed_r[14:10] == 5'h1F) begin
      y_o = {h_i[15], 15'h7C00};
    end else if (packed_r[14:0] == 15'd0) begin
      y_o = 16'h0000;
    end else begin
      y_o = {h_i[15], packed_r[14:0]};
    end
  end

endmodule
