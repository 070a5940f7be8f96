// SPDX-License-Identifier: Apache-2.0
// ane_fp16_recip: the planar post-processor's reciprocal (NUMERICS N-1, N-4.1; docs/planar.md).
// y = RNE_fp16(1 / x) after N-1: 1/(+0) = +inf (-0 enters as +0), 1/(+-inf) = +-0 (IEEE
// signs), denormal results kept, overflow to inf.
//
// Datapath: x = m * 2^e with m normalized to 11 bits; q = floor(2^22 / m) by restoring
// division (12 quotient bits, bit 11 always set), 1/x = (q + f) * 2^(-22 - e), 0 < f < 1.
// The result's biased exponent is 4 - e: normal down to e = 3, then q keeps 10 bits (e = 4)
// or 9 bits (e = 5) as a subnormal; above 30 it is inf. y = {sign, exponent, kept bits} +
// guard bit, a carry moving into the exponent (up to inf). Why no sticky bit: 2^22 / m is an
// integer only for m = 2^10, so f > 0 and a guard bit of 1 always rounds up. m = 2^10 is kept
// in 12 bits by a division whose remainder may equal the divisor (r <= m): it gives
// q = 0xFFF with f > 0, which rounds up to exactly 2^12 at every kept width.
//
// Pipe = 0: combinational (the stage test). Pipe = 1: four registers (enable en_i), latency 4,
// one input per cycle (about 1.3 ns per division step on OSU 0.18um, three to a segment):
//   0  N-1, normalize, exponent, result class, specials; quotient bits 11 (always 1), 10
//   1  quotient bits 9..7
//   2  quotient bits 6..4
//   3  quotient bits 3..1
//   4  quotient bit 0; round, specials: y_o
`default_nettype none

module ane_fp16_recip #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [15:0] x_i,
  output      logic [15:0] y_o
);

  // ane_pkg::div_step on 11-bit operands: with r <= d < 2^11 the remainder keeps bit 11 zero.
  function automatic logic [11:0] div_step(logic [10:0] r, logic [10:0] d);
    logic [12:0] q;
    q        = ane_pkg::div_step({1'b0, r}, {1'b0, d});
    div_step = {q[12], 11'(q[11:0])};
  endfunction

  // ---- front (segment 0): N-1, normalize, exponent, result class, specials; quotient bit 11
  logic [15:0] b;
  logic [20:0] nm;
  logic signed [10:0] be;  // the result's biased exponent, 4 - e
  logic [9:0]  m;          // m = {1, m[9:0]}
  logic [10:0] r0;         // 2^11 - m: quotient bit 11 is always 1
  logic [4:0]  a_ex;
  logic [1:0]  a_cls;      // 0 normal, 1 subnormal with 10 bits, 2 with 9 bits, 3 special
  logic [1:0]  a_sp;       // {sign, special is inf}
  logic        unused_lead;  // nm[10], the leading one: always set
  assign unused_lead = nm[10];

  always_comb begin
    b     = ane_pkg::fp16_boundary(x_i);
    nm    = ane_pkg::fp16_normalize(b);
    m     = nm[9:0];
    r0    = 11'(12'd2048 - {2'b01, m});
    be    = 11'sd4 - $signed({nm[20], nm[20:11]});
    a_ex  = be[4:0];
    a_sp  = {b[15], (b[14:0] == 15'd0) || (be > 11'sd30 && !ane_pkg::fp16_is_infnan(b))};
    if (b[14:0] == 15'd0 || ane_pkg::fp16_is_infnan(b) || be > 11'sd30) a_cls = 2'd3;
    else if (be == 11'sd0)                                      a_cls = 2'd1;
    else if (be == -11'sd1)                                     a_cls = 2'd2;
    else                                                        a_cls = 2'd0;
  end

  logic [9:0] s1_m;
  logic [10:0] s1_r;
  logic [10:0] n0_r;
  logic [0:0] s1_t;
  logic [0:0] n0_t;
  logic [4:0] s1_ex;
  logic [1:0] s1_sp;
  logic [1:0] s1_cls;
  logic [9:0] s2_m;
  logic [10:0] s2_r;
  logic [10:0] n1_r;
  logic [3:0] s2_t;
  logic [3:0] n1_t;
  logic [4:0] s2_ex;
  logic [1:0] s2_sp;
  logic [1:0] s2_cls;
  logic [9:0] s3_m;
  logic [10:0] s3_r;
  logic [10:0] n2_r;
  logic [6:0] s3_t;
  logic [6:0] n2_t;
  logic [4:0] s3_ex;
  logic [1:0] s3_sp;
  logic [1:0] s3_cls;
  logic [9:0] s4_m;
  logic [10:0] s4_r;
  logic [10:0] n3_r;
  logic [9:0] s4_t;
  logic [9:0] n3_t;
  logic [4:0] s4_ex;
  logic [1:0] s4_sp;
  logic [1:0] s4_cls;

  // ---- segment 0: quotient bit 10
  always_comb begin
    logic [10:10] t;
    logic [11:0] dv;
    logic [10:0] r;
    r = r0;
    dv = div_step(r, {1'b1, m});
    t[10] = dv[11];
    r = dv[10:0];
    n0_r = r;
    n0_t = t[10:10];
  end

  // ---- segment 1: quotient bits 9..7
  always_comb begin
    logic [10:7] t;
    logic [11:0] dv;
    logic [10:0] r;
    t[10:10] = s1_t;
    r = s1_r;
    dv = div_step(r, {1'b1, s1_m});
    t[9] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s1_m});
    t[8] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s1_m});
    t[7] = dv[11];
    r = dv[10:0];
    n1_r = r;
    n1_t = t[10:7];
  end

  // ---- segment 2: quotient bits 6..4
  always_comb begin
    logic [10:4] t;
    logic [11:0] dv;
    logic [10:0] r;
    t[10:7] = s2_t;
    r = s2_r;
    dv = div_step(r, {1'b1, s2_m});
    t[6] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s2_m});
    t[5] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s2_m});
    t[4] = dv[11];
    r = dv[10:0];
    n2_r = r;
    n2_t = t[10:4];
  end

  // ---- segment 3: quotient bits 3..1
  always_comb begin
    logic [10:1] t;
    logic [11:0] dv;
    logic [10:0] r;
    t[10:4] = s3_t;
    r = s3_r;
    dv = div_step(r, {1'b1, s3_m});
    t[3] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s3_m});
    t[2] = dv[11];
    r = dv[10:0];
    dv = div_step(r, {1'b1, s3_m});
    t[1] = dv[11];
    r = dv[10:0];
    n3_r = r;
    n3_t = t[10:1];
  end

  // ---- segment 4: quotient bit 0, round
  always_comb begin
    logic [10:0] t;
    logic [11:0] dv;
    logic [10:0] r;
    logic [11:0] qq;
    logic [14:0] field;
    logic        g;
    t[10:1] = s4_t;
    r = s4_r;
    dv = div_step(r, {1'b1, s4_m});
    t[0] = dv[11];
    r = dv[10:0];
    qq[10:1] = t[10:1];
    qq[11] = 1'b1;
    qq[0] = t[0];
    unique case (s4_cls)
      2'd1:    begin field = {5'd0, qq[11:2]};      g = qq[1]; end
      2'd2:    begin field = {6'd0, qq[11:3]};      g = qq[2]; end
      default: begin field = {s4_ex, qq[10:1]};  g = qq[0]; end
    endcase
    if (s4_cls == 2'd3) y_o = {s4_sp[1], s4_sp[0] ? 15'h7C00 : 15'h0000};
    else               y_o = {s4_sp[1], field + {14'd0, g}};
  end

  // ------------------------------------------------------------------ registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({s1_m, s1_r, s1_t, s1_ex, s1_sp, s1_cls})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({m[9:0], n0_r, n0_t, a_ex, a_sp, a_cls}),
    .q_o({s1_m, s1_r, s1_t, s1_ex, s1_sp, s1_cls})
  );
  ane_pipe_reg #(.W($bits({s2_m, s2_r, s2_t, s2_ex, s2_sp, s2_cls})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({s1_m, n1_r, n1_t, s1_ex, s1_sp, s1_cls}),
    .q_o({s2_m, s2_r, s2_t, s2_ex, s2_sp, s2_cls})
  );
  ane_pipe_reg #(.W($bits({s3_m, s3_r, s3_t, s3_ex, s3_sp, s3_cls})), .Pipe(Pipe)) u_s3 (
    .clk_i, .en_i, .d_i({s2_m, n2_r, n2_t, s2_ex, s2_sp, s2_cls}),
    .q_o({s3_m, s3_r, s3_t, s3_ex, s3_sp, s3_cls})
  );
  ane_pipe_reg #(.W($bits({s4_m, s4_r, s4_t, s4_ex, s4_sp, s4_cls})), .Pipe(Pipe)) u_s4 (
    .clk_i, .en_i, .d_i({s3_m, n3_r, n3_t, s3_ex, s3_sp, s3_cls}),
    .q_o({s4_m, s4_r, s4_t, s4_ex, s4_sp, s4_cls})
  );


endmodule
