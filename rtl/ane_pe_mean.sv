// ane_pe_mean: the edge-correct mean of a pooling window (NUMERICS N-4.5; docs/planar.md):
// y = RNE16(sum / n), the fp32 tree sum divided exactly by the number n (1..64) of real
// elements, one rounding to fp16 (gradual underflow, overflow to inf, zero results +0).
// Combinational. The sum is a sum of fp16 values (the tree's output), so it is inf, +0, or a
// normal fp32 value of at least 2^-24 in magnitude.
//
// Datapath: q = floor(m * 2^8 / n) and a sticky remainder, m the 24-bit significand (q has 26 to
// 32 bits); then ane_fp16_pack rounds q * 2^(e - 8) to fp16 like any wide value: leading one,
// exponent, 11 bits, guard, sticky.
`default_nettype none

module ane_pe_mean (
  input  wire logic [31:0] sum_i,
  input  wire logic [6:0]  n_i,
  output      logic [15:0] y_o
);

  logic [23:0] m;
  logic [31:0] num, q;
  logic [6:0]  r;
  logic signed [9:0] lsb;    // exponent of q's last bit
  logic [15:0] packed_y;

  always_comb begin
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
    // value = q * 2^(exp - 127 - 23 - 8)
    lsb = $signed({2'd0, sum_i[30:23]}) - 10'sd158;
  end

  ane_fp16_pack u_pack (.neg_i(sum_i[31]), .mag_i(q), .lsb_exp_i(lsb), .sticky_i(r != 7'd0), .y_o(packed_y));

  always_comb begin
    if (sum_i[30:23] == 8'hFF) y_o = {sum_i[31] && sum_i[22:0] == 23'd0, 5'h1F, 10'd0};  // +-inf (NaN: +inf)
    else if (sum_i[30:0] == 31'd0) y_o = 16'h0000;
    else y_o = packed_y;
  end

endmodule
