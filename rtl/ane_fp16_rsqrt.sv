// ane_fp16_rsqrt: the planar post-processor's reciprocal square root (NUMERICS N-1, N-4.1,
// N-4.2; docs/planar.md). Combinational. y = RNE_fp16(1 / sqrt(x)) after N-1:
// rsqrt(+0) = +inf (-0 enters as +0), rsqrt(+inf) = +0, a negative value (or -inf) gives +0.
//
// Datapath: x = m * 2^e, m normalized to 11 bits and doubled when e is odd; t = floor(2^40 / m)
// by restoring division, s = isqrt(t) by the digit recurrence; floor(sqrt(2^40 / m)) = isqrt(t),
// and it is exact only when both remainders are zero (sticky otherwise);
// y = ane_fp16_pack(s * 2^(-20 - e/2)). The result is always a normal fp16 value.
`default_nettype none

module ane_fp16_rsqrt (
  input  wire logic [15:0] x_i,
  output      logic [15:0] y_o
);

  logic [15:0] b;
  logic [20:0] nm;
  logic signed [9:0] e, e2;
  logic [11:0] m2;
  logic [40:0] t;
  logic [12:0] r;
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
    // t = floor(2^40 / m2): restoring division, one quotient bit per step.
    r = 13'd0;
    t = 41'd0;
    for (int i = 40; i >= 0; i--) begin
      logic [12:0] d;
      d = {r[11:0], (i == 40) ? 1'b1 : 1'b0};
      if (d >= {1'b0, m2}) begin
        r    = d - {1'b0, m2};
        t[i] = 1'b1;
      end else begin
        r = d;
      end
    end
    // s = isqrt(t); t < 2^31 here (m2 >= 2^10), so 16 result bits.
    rem  = 18'd0;
    root = 16'd0;
    for (int i = 15; i >= 0; i--) begin
      logic [17:0] trial, rr;
      rr    = {rem[15:0], t[2*i+1 -: 2]};
      trial = {root, 2'b01};
      if (rr >= trial) begin
        rem  = rr - trial;
        root = {root[14:0], 1'b1};
      end else begin
        rem  = rr;
        root = {root[14:0], 1'b0};
      end
    end
    lsb = -10'sd20 - (e2 >>> 1);
  end

  ane_fp16_pack u_pack (.neg_i(1'b0), .mag_i({16'd0, root}), .lsb_exp_i(lsb),
                        .sticky_i(r != 13'd0 || rem != 18'd0), .y_o(packed_y));

  always_comb begin
    if (b[14:0] == 15'd0)       y_o = 16'h7C00;  // rsqrt(+0) = +inf
    else if (b[15])             y_o = 16'h0000;  // negative, -inf: N-4.2
    else if (b[14:10] == 5'h1F) y_o = 16'h0000;  // rsqrt(+inf) = +0
    else                        y_o = packed_y;
  end

endmodule
