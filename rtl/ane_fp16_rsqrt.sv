// SPDX-License-Identifier: Apache-2.0
// ane_fp16_rsqrt: the planar post-processor's reciprocal square root (NUMERICS N-1, N-4.1,
// N-4.2; docs/planar.md). y = RNE_fp16(1 / sqrt(x)) after N-1: rsqrt(+0) = +inf (-0 enters as
// +0), rsqrt(+inf) = +0, a negative value (or -inf) gives +0. The result is always normal.
//
// Datapath: x = m * 2^e, m normalized to 11 bits and doubled when e is odd (m2, 11 or 12
// bits, e2 = e rounded down to even); t = floor(2^34 / m2) by restoring division (24 quotient
// bits), s = isqrt(t) by the digit recurrence (12 bits, bit 11 always set);
// floor(sqrt(2^34 / m2)) = isqrt(t), and y = {biased exponent 9 - e2/2, s[10:1]} + s[0].
// Why no sticky bit: an exact midpoint would need sqrt(2^34 / m2) = s + 1/2, i.e.
// m2 * (2s + 1)^2 = 2^36 with 2s + 1 odd and > 1: impossible, so the guard bit s[0] alone
// rounds. m2 = 2^10 (x a power of 4, the one exact case with s = 2^12) is kept in 12 bits by
// a division whose remainder may equal the divisor (r <= m2): it gives t = 2^24 - 1,
// s = 0xFFF, which rounds up to exactly 2^12.
//
// Pipe = 0: combinational (the stage test). Pipe = 1: nine registers (enable en_i), latency 9,
// one input per cycle. A restoring step costs about 1.3 ns on OSU 0.18um, so a segment holds at
// most three; the division and the square root run as a wavefront, each root bit one segment
// behind the quotient bits it consumes:
//   0  N-1, normalize, m2, exponent, specials; quotient bit 23
//   1  quotient bits 22..20
//   2  quotient bits 19..17;  root bits 11 (always 1), 10   (t[23:20])
//   3  quotient bits 16..14;  root bit 9                    (t[19:18])
//   4  quotient bits 13..11;  root bits 8, 7                (t[17:14])
//   5  quotient bits 10..8;   root bit 6                    (t[13:12])
//   6  quotient bits 7..5;    root bits 5, 4                (t[11:8])
//   7  quotient bits 4..2;    root bit 3                    (t[7:6])
//   8  quotient bits 1..0;    root bits 2, 1                (t[5:2])
//   9  root bit 0 (t[1:0]); round, specials: y_o
// Each register holds only the bits still needed: divisor and remainder until the last
// quotient bit, the quotient bits not yet consumed, the root remainder and the root bits under
// the leading one, exponent and specials.
`default_nettype none

module ane_fp16_rsqrt #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [15:0] x_i,
  output      logic [15:0] y_o
);

  // ---- front (segment 0): N-1, normalize, m2, exponent, specials
  logic [15:0] b;
  logic [20:0] nm;
  logic signed [9:0] e;
  logic [11:0] m2;
  logic [4:0]  a_ex;
  logic [1:0]  a_sp;  // {special, special is +inf}

  always_comb begin
    b    = ane_pkg::fp16_boundary(x_i);
    nm   = ane_pkg::fp16_normalize(b);
    e    = $signed(nm[20:11]);
    m2   = e[0] ? {nm[10:0], 1'b0} : {1'b0, nm[10:0]};
    a_ex = 5'(10'sd9 - (e >>> 1));
    a_sp = {(b[14:0] == 15'd0) || b[15] || ane_pkg::fp16_is_infnan(b), b[14:0] == 15'd0};
  end

  logic [11:0] s1_m2;
  logic [11:0] s1_r;
  logic [11:0] n0_r;
  logic [0:0] s1_t;
  logic [0:0] n0_t;
  logic [4:0] s1_ex;
  logic [1:0] s1_sp;
  logic [11:0] s2_m2;
  logic [11:0] s2_r;
  logic [11:0] n1_r;
  logic [3:0] s2_t;
  logic [3:0] n1_t;
  logic [4:0] s2_ex;
  logic [1:0] s2_sp;
  logic [11:0] s3_m2;
  logic [11:0] s3_r;
  logic [11:0] n2_r;
  logic [2:0] s3_t;
  logic [2:0] n2_t;
  logic [2:0] s3_rem;
  logic [2:0] n2_rem;
  logic [0:0] s3_root;
  logic [0:0] n2_root;
  logic [4:0] s3_ex;
  logic [1:0] s3_sp;
  logic [11:0] s4_m2;
  logic [11:0] s4_r;
  logic [11:0] n3_r;
  logic [3:0] s4_t;
  logic [3:0] n3_t;
  logic [3:0] s4_rem;
  logic [3:0] n3_rem;
  logic [1:0] s4_root;
  logic [1:0] n3_root;
  logic [4:0] s4_ex;
  logic [1:0] s4_sp;
  logic [11:0] s5_m2;
  logic [11:0] s5_r;
  logic [11:0] n4_r;
  logic [2:0] s5_t;
  logic [2:0] n4_t;
  logic [5:0] s5_rem;
  logic [5:0] n4_rem;
  logic [3:0] s5_root;
  logic [3:0] n4_root;
  logic [4:0] s5_ex;
  logic [1:0] s5_sp;
  logic [11:0] s6_m2;
  logic [11:0] s6_r;
  logic [11:0] n5_r;
  logic [3:0] s6_t;
  logic [3:0] n5_t;
  logic [6:0] s6_rem;
  logic [6:0] n5_rem;
  logic [4:0] s6_root;
  logic [4:0] n5_root;
  logic [4:0] s6_ex;
  logic [1:0] s6_sp;
  logic [11:0] s7_m2;
  logic [11:0] s7_r;
  logic [11:0] n6_r;
  logic [2:0] s7_t;
  logic [2:0] n6_t;
  logic [8:0] s7_rem;
  logic [8:0] n6_rem;
  logic [6:0] s7_root;
  logic [6:0] n6_root;
  logic [4:0] s7_ex;
  logic [1:0] s7_sp;
  logic [11:0] s8_m2;
  logic [11:0] s8_r;
  logic [11:0] n7_r;
  logic [3:0] s8_t;
  logic [3:0] n7_t;
  logic [9:0] s8_rem;
  logic [9:0] n7_rem;
  logic [7:0] s8_root;
  logic [7:0] n7_root;
  logic [4:0] s8_ex;
  logic [1:0] s8_sp;
  logic [1:0] s9_t;
  logic [1:0] n8_t;
  logic [11:0] s9_rem;
  logic [11:0] n8_rem;
  logic [9:0] s9_root;
  logic [9:0] n8_root;
  logic [4:0] s9_ex;
  logic [1:0] s9_sp;

  // ---- segment 0: quotient bit 23
  always_comb begin
    logic [23:23] t;
    logic [12:0] dv;
    logic [11:0] r;
    r = 12'd1024;
    dv = ane_pkg::div_step(r, m2);
    t[23] = dv[12];
    r = dv[11:0];
    n0_r = r;
    n0_t = t[23:23];
  end

  // ---- segment 1: quotient bits 22..20
  always_comb begin
    logic [23:20] t;
    logic [12:0] dv;
    logic [11:0] r;
    t[23:23] = s1_t;
    r = s1_r;
    dv = ane_pkg::div_step(r, s1_m2);
    t[22] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s1_m2);
    t[21] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s1_m2);
    t[20] = dv[12];
    r = dv[11:0];
    n1_r = r;
    n1_t = t[23:20];
  end

  // ---- segment 2: quotient bits 19..17, root bits 11..10
  always_comb begin
    logic [23:17] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[23:20] = s2_t;
    r = s2_r;
    dv = ane_pkg::div_step(r, s2_m2);
    t[19] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s2_m2);
    t[18] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s2_m2);
    t[17] = dv[12];
    r = dv[11:0];
    rem = {11'd0, 2'(t[23:22] - 2'd1)};
    root = 12'd1;
    q = ane_pkg::isqrt_step(rem, root, t[21:20], 2);
    root = q[24:13];
    rem = q[12:0];
    n2_r = r;
    n2_t = t[19:17];
    n2_rem = rem[2:0];
    n2_root = root[0:0];
  end

  // ---- segment 3: quotient bits 16..14, root bit 9
  always_comb begin
    logic [19:14] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[19:17] = s3_t;
    r = s3_r;
    dv = ane_pkg::div_step(r, s3_m2);
    t[16] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s3_m2);
    t[15] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s3_m2);
    t[14] = dv[12];
    r = dv[11:0];
    rem = 13'(s3_rem);
    root = {10'd0, 1'b1, s3_root};
    q = ane_pkg::isqrt_step(rem, root, t[19:18], 3);
    root = q[24:13];
    rem = q[12:0];
    n3_r = r;
    n3_t = t[17:14];
    n3_rem = rem[3:0];
    n3_root = root[1:0];
  end

  // ---- segment 4: quotient bits 13..11, root bits 8..7
  always_comb begin
    logic [17:11] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[17:14] = s4_t;
    r = s4_r;
    dv = ane_pkg::div_step(r, s4_m2);
    t[13] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s4_m2);
    t[12] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s4_m2);
    t[11] = dv[12];
    r = dv[11:0];
    rem = 13'(s4_rem);
    root = {9'd0, 1'b1, s4_root};
    q = ane_pkg::isqrt_step(rem, root, t[17:16], 4);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, t[15:14], 5);
    root = q[24:13];
    rem = q[12:0];
    n4_r = r;
    n4_t = t[13:11];
    n4_rem = rem[5:0];
    n4_root = root[3:0];
  end

  // ---- segment 5: quotient bits 10..8, root bit 6
  always_comb begin
    logic [13:8] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[13:11] = s5_t;
    r = s5_r;
    dv = ane_pkg::div_step(r, s5_m2);
    t[10] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s5_m2);
    t[9] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s5_m2);
    t[8] = dv[12];
    r = dv[11:0];
    rem = 13'(s5_rem);
    root = {7'd0, 1'b1, s5_root};
    q = ane_pkg::isqrt_step(rem, root, t[13:12], 6);
    root = q[24:13];
    rem = q[12:0];
    n5_r = r;
    n5_t = t[11:8];
    n5_rem = rem[6:0];
    n5_root = root[4:0];
  end

  // ---- segment 6: quotient bits 7..5, root bits 5..4
  always_comb begin
    logic [11:5] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[11:8] = s6_t;
    r = s6_r;
    dv = ane_pkg::div_step(r, s6_m2);
    t[7] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s6_m2);
    t[6] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s6_m2);
    t[5] = dv[12];
    r = dv[11:0];
    rem = 13'(s6_rem);
    root = {6'd0, 1'b1, s6_root};
    q = ane_pkg::isqrt_step(rem, root, t[11:10], 7);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, t[9:8], 8);
    root = q[24:13];
    rem = q[12:0];
    n6_r = r;
    n6_t = t[7:5];
    n6_rem = rem[8:0];
    n6_root = root[6:0];
  end

  // ---- segment 7: quotient bits 4..2, root bit 3
  always_comb begin
    logic [7:2] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[7:5] = s7_t;
    r = s7_r;
    dv = ane_pkg::div_step(r, s7_m2);
    t[4] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s7_m2);
    t[3] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s7_m2);
    t[2] = dv[12];
    r = dv[11:0];
    rem = 13'(s7_rem);
    root = {4'd0, 1'b1, s7_root};
    q = ane_pkg::isqrt_step(rem, root, t[7:6], 9);
    root = q[24:13];
    rem = q[12:0];
    n7_r = r;
    n7_t = t[5:2];
    n7_rem = rem[9:0];
    n7_root = root[7:0];
  end

  // ---- segment 8: quotient bits 1..0, root bits 2..1
  always_comb begin
    logic [5:0] t;
    logic [12:0] dv;
    logic [11:0] r;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[5:2] = s8_t;
    r = s8_r;
    dv = ane_pkg::div_step(r, s8_m2);
    t[1] = dv[12];
    r = dv[11:0];
    dv = ane_pkg::div_step(r, s8_m2);
    t[0] = dv[12];
    r = dv[11:0];
    rem = 13'(s8_rem);
    root = {3'd0, 1'b1, s8_root};
    q = ane_pkg::isqrt_step(rem, root, t[5:4], 10);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, t[3:2], 11);
    root = q[24:13];
    rem = q[12:0];
    n8_t = t[1:0];
    n8_rem = rem[11:0];
    n8_root = root[9:0];
  end

  // ---- segment 9: root bit 0, round
  always_comb begin
    logic [1:0] t;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[1:0] = s9_t;
    rem = 13'(s9_rem);
    root = {1'd0, 1'b1, s9_root};
    q = ane_pkg::isqrt_step(rem, root, t[1:0], 12);
    root = q[24:13];
    rem = q[12:0];
    if (s9_sp[1]) y_o = s9_sp[0] ? 16'h7C00 : 16'h0000;
    else         y_o = {1'b0, s9_ex, root[10:1]} + {15'd0, root[0]};
  end

  // ------------------------------------------------------------------ registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({s1_m2, s1_r, s1_t, s1_ex, s1_sp})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({m2, n0_r, n0_t, a_ex, a_sp}),
    .q_o({s1_m2, s1_r, s1_t, s1_ex, s1_sp})
  );
  ane_pipe_reg #(.W($bits({s2_m2, s2_r, s2_t, s2_ex, s2_sp})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({s1_m2, n1_r, n1_t, s1_ex, s1_sp}),
    .q_o({s2_m2, s2_r, s2_t, s2_ex, s2_sp})
  );
  ane_pipe_reg #(.W($bits({s3_m2, s3_r, s3_t, s3_rem, s3_root, s3_ex, s3_sp})), .Pipe(Pipe)) u_s3 (
    .clk_i, .en_i, .d_i({s2_m2, n2_r, n2_t, n2_rem, n2_root, s2_ex, s2_sp}),
    .q_o({s3_m2, s3_r, s3_t, s3_rem, s3_root, s3_ex, s3_sp})
  );
  ane_pipe_reg #(.W($bits({s4_m2, s4_r, s4_t, s4_rem, s4_root, s4_ex, s4_sp})), .Pipe(Pipe)) u_s4 (
    .clk_i, .en_i, .d_i({s3_m2, n3_r, n3_t, n3_rem, n3_root, s3_ex, s3_sp}),
    .q_o({s4_m2, s4_r, s4_t, s4_rem, s4_root, s4_ex, s4_sp})
  );
  ane_pipe_reg #(.W($bits({s5_m2, s5_r, s5_t, s5_rem, s5_root, s5_ex, s5_sp})), .Pipe(Pipe)) u_s5 (
    .clk_i, .en_i, .d_i({s4_m2, n4_r, n4_t, n4_rem, n4_root, s4_ex, s4_sp}),
    .q_o({s5_m2, s5_r, s5_t, s5_rem, s5_root, s5_ex, s5_sp})
  );
  ane_pipe_reg #(.W($bits({s6_m2, s6_r, s6_t, s6_rem, s6_root, s6_ex, s6_sp})), .Pipe(Pipe)) u_s6 (
    .clk_i, .en_i, .d_i({s5_m2, n5_r, n5_t, n5_rem, n5_root, s5_ex, s5_sp}),
    .q_o({s6_m2, s6_r, s6_t, s6_rem, s6_root, s6_ex, s6_sp})
  );
  ane_pipe_reg #(.W($bits({s7_m2, s7_r, s7_t, s7_rem, s7_root, s7_ex, s7_sp})), .Pipe(Pipe)) u_s7 (
    .clk_i, .en_i, .d_i({s6_m2, n6_r, n6_t, n6_rem, n6_root, s6_ex, s6_sp}),
    .q_o({s7_m2, s7_r, s7_t, s7_rem, s7_root, s7_ex, s7_sp})
  );
  ane_pipe_reg #(.W($bits({s8_m2, s8_r, s8_t, s8_rem, s8_root, s8_ex, s8_sp})), .Pipe(Pipe)) u_s8 (
    .clk_i, .en_i, .d_i({s7_m2, n7_r, n7_t, n7_rem, n7_root, s7_ex, s7_sp}),
    .q_o({s8_m2, s8_r, s8_t, s8_rem, s8_root, s8_ex, s8_sp})
  );
  ane_pipe_reg #(.W($bits({s9_t, s9_rem, s9_root, s9_ex, s9_sp})), .Pipe(Pipe)) u_s9 (
    .clk_i, .en_i, .d_i({n8_t, n8_rem, n8_root, s8_ex, s8_sp}),
    .q_o({s9_t, s9_rem, s9_root, s9_ex, s9_sp})
  );


endmodule
