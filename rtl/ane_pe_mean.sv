// ane_pe_mean: the edge-correct mean of a pooling window (NUMERICS N-4.5; docs/planar.md):
// y = RNE16(sum / n), the fp32 tree sum divided exactly by the number n (1..64) of real
// elements, one rounding to fp16 (gradual underflow, overflow to inf, zero results +0).
// Combinational. The sum is a sum of fp16 values (the tree's output), so it is inf, +0, or a
// normal fp32 value of at least 2^-24 in magnitude.
//
// Datapath: q = floor(m * 2^8 / n) and a sticky remainder, m the 24-bit significand (q has 26 to
// 32 bits); then q * 2^(e - 8) is rounded to fp16 like any wide value: leading one, exponent,
// 11 bits, guard, sticky.
`default_nettype none

module ane_pe_mean (
  input  wire logic [31:0] sum_i,
  input  wire logic [6:0]  n_i,
  output      logic [15:0] y_o
);

  logic        neg;
  logic [23:0] m;
  logic [31:0] num, q;
  logic [6:0]  r;
  logic        rem_nz;
  logic [4:0]  msb;
  logic signed [10:0] e;     // unbiased exponent of q's leading one
  logic signed [10:0] sh;    // right shift that leaves 11 significant bits (more when denormal)
  logic [11:0] kept;
  logic [31:0] lost_mask;
  logic [4:0]  gi;
  logic        guard, sticky, inc;
  logic [11:0] sig;
  logic [5:0]  ebias;

  always_comb begin
    neg = sum_i[31];
    m   = {1'b1, sum_i[22:0]};
    num = {m, 8'd0};
    // Restoring division of a 32-bit numerator by n, one quotient bit per step.
    r = 7'd0;
    q = 32'd0;
    for (int i = 31; i >= 0; i--) begin
      logic [7:0] t;
      t = {r, num[i]};
      if (t >= {1'b0, n_i}) begin
        r    = 7'(t - {1'b0, n_i});
        q[i] = 1'b1;
      end else begin
        r = t[6:0];
      end
    end
    rem_nz = r != 7'd0;
    msb = 5'd0;
    for (int i = 0; i < 32; i++) if (q[i]) msb = 5'(i);
    // value = q * 2^(exp - 127 - 23 - 8); the leading one of q is worth 2^e.
    e = $signed({3'd0, sum_i[30:23]}) - 11'sd158 + $signed({6'd0, msb});
    // fp16 keeps 11 bits below and at the leading one when e >= -14, fewer below that.
    sh = $signed({6'd0, msb}) - 11'sd10;
    if (e < -11'sd14) sh = sh + (-11'sd14 - e);
    if (sh > 11'sd32) sh = 11'sd32;
    gi        = 5'(sh - 11'sd1);
    lost_mask = ~(32'hFFFF_FFFF << sh);
    if (sh <= 11'sd0) begin
      kept   = 12'(q << (-sh));
      guard  = 1'b0;
      sticky = rem_nz;
    end else begin
      kept   = 12'(q >> sh);
      guard  = q[gi];
      sticky = ((q & (lost_mask >> 1)) != 32'd0) || rem_nz;
    end
    inc = guard && (sticky || kept[0]);
    sig = kept + {11'd0, inc};
    // Biased exponent of the result: normal when the rounded significand has its bit 10 set.
    ebias = (e < -11'sd14) ? 6'd0 : 6'(e + 11'sd15);
    if (sig[11]) begin  // rounding carried into a new binade
      sig   = {1'b0, sig[11:1]};
      ebias = ebias + 6'd1;
    end else if (ebias == 6'd0 && sig[10]) begin  // a denormal rounded up to the smallest normal
      ebias = 6'd1;
    end

    if (sum_i[30:23] == 8'hFF) begin
      y_o = {neg && sum_i[22:0] == 23'd0, 5'h1F, 10'd0};  // +-inf (a NaN counts as +inf)
    end else if (sum_i[30:0] == 31'd0) begin
      y_o = 16'h0000;
    end else if (ebias >= 6'd31) begin
      y_o = {neg, 5'h1F, 10'd0};
    end else if (sig[10:0] == 11'd0) begin
      y_o = 16'h0000;
    end else begin
      y_o = {neg, ebias[4:0], sig[9:0]};
    end
  end

endmodule
