// ane_fp16_sqrt: the planar post-processor's square root (NUMERICS N-1, N-4.1, N-4.2; docs/planar.md).
// Combinational. y = RNE_fp16(sqrt(x)) after N-1: sqrt(+0) = +0, sqrt(+inf) = +inf, and the
// square root of a negative value (or -inf) is +0 (N-4.2).
//
// Datapath: x = m * 2^e with m normalized to 11 bits, made even in e (m doubled when e is odd);
// s = isqrt(m * 2^20) by the digit recurrence (16 result bits), sticky when a remainder is
// left; y = ane_fp16_pack(s * 2^((e - 20) / 2)). The result is always a normal fp16 value.
`default_nettype none

module ane_fp16_sqrt (
  input  wire logic [15:0] x_i,
  output      logic [15:0] y_o
);

  logic [15:0] b;
  logic [20:0] nm;
  logic signed [9:0] e, e2;
  logic [11:0] m2;
  logic [31:0] x;
  logic [17:0] rem;
  logic [15:0] root;
  logic [15:0] packed_y;
  logic signed [9:0] lsb;

  always_comb begin
    b  = ane_pkg::fp16_boundary(x_i);
    nm = ane_pkg::fp16_normalize(b);
    e  = $signed(nm[20:11]);
    m2 = e[0] ? {nm[10:0], 1'b0} : {1'b0, nm[10:0]};
    e2 = e[0] ? e - 10'sd1 : e;
    x  = {m2, 20'd0};
    rem  = 18'd0;
    root = 16'd0;
    for (int i = 15; i >= 0; i--) begin
      logic [17:0] trial, r;
      r     = {rem[15:0], x[2*i+1 -: 2]};
      trial = {root, 2'b01};
      if (r >= trial) begin
        rem  = r - trial;
        root = {root[14:0], 1'b1};
      end else begin
        rem  = r;
        root = {root[14:0], 1'b0};
      end
    end
    lsb = (e2 - 10'sd20) >>> 1;
  end

  ane_fp16_pack u_pack (.neg_i(1'b0), .mag_i({16'd0, root}), .lsb_exp_i(lsb), .sticky_i(rem != 18'd0),
                        .y_o(packed_y));

  always_comb begin
    if (b[14:0] == 15'd0)      y_o = 16'h0000;  // +0 (and -0 after N-1)
    else if (b[15])            y_o = 16'h0000;  // negative, -inf: N-4.2
    else if (b[14:10] == 5'h1F) y_o = 16'h7C00;  // +inf
    else                       y_o = packed_y;
  end

endmodule
