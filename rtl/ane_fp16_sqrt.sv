// SPDX-License-Identifier: Apache-2.0
// ane_fp16_sqrt: the planar post-processor's square root (NUMERICS N-1, N-4.1, N-4.2; docs/planar.md).
// y = RNE_fp16(sqrt(x)) after N-1: sqrt(+0) = +0, sqrt(+inf) = +inf, and the square root of a
// negative value (or -inf) is +0 (N-4.2). The result is always normal.
//
// Datapath: x = m * 2^e with m normalized to 11 bits, doubled when e is odd (m2, 11 or 12
// bits, e2 = e rounded down to even); s = isqrt(m2 * 2^12) by the digit recurrence (12 bits,
// bit 11 always set); y = {biased exponent e2/2 + 20, s[10:1]} + s[0] (a carry out of the
// significand moves into the exponent). Why no sticky bit: an exact midpoint would need
// sqrt(m2 * 2^12) = s + 1/2 with s an integer, i.e. (2s + 1)^2 = m2 * 2^14: an odd number
// equal to an even one. So the guard bit s[0] alone rounds.
//
// Pipe = 0: combinational (the stage test). Pipe = 1: four registers (enable en_i), latency 4,
// one input per cycle (about 1.3 ns per digit step on OSU 0.18um, three to a segment):
//   0  N-1, normalize, m2, exponent, specials; root bits 11 (always 1), 10
//   1  root bits 9..7
//   2  root bits 6..4
//   3  root bits 3..1
//   4  root bit 0; round, specials: y_o
`default_nettype none

module ane_fp16_sqrt #(
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
    a_ex = 5'((e >>> 1) + 10'sd20);
    a_sp = {(b[14:0] == 15'd0) || b[15] || ane_pkg::fp16_is_infnan(b), !b[15] && ane_pkg::fp16_is_infnan(b)};
  end

  logic [7:0] s1_t;
  logic [7:0] n0_t;
  logic [2:0] s1_rem;
  logic [2:0] n0_rem;
  logic [0:0] s1_root;
  logic [0:0] n0_root;
  logic [4:0] s1_ex;
  logic [1:0] s1_sp;
  logic [1:0] s2_t;
  logic [1:0] n1_t;
  logic [5:0] s2_rem;
  logic [5:0] n1_rem;
  logic [3:0] s2_root;
  logic [3:0] n1_root;
  logic [4:0] s2_ex;
  logic [1:0] s2_sp;
  logic [8:0] s3_rem;
  logic [8:0] n2_rem;
  logic [6:0] s3_root;
  logic [6:0] n2_root;
  logic [4:0] s3_ex;
  logic [1:0] s3_sp;
  logic [11:0] s4_rem;
  logic [11:0] n3_rem;
  logic [9:0] s4_root;
  logic [9:0] n3_root;
  logic [4:0] s4_ex;
  logic [1:0] s4_sp;

  // ---- segment 0: root bits 11..10
  always_comb begin
    logic [23:12] t;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[23:12] = m2;
    rem = {11'd0, 2'(t[23:22] - 2'd1)};
    root = 12'd1;
    q = ane_pkg::isqrt_step(rem, root, t[21:20], 2);
    root = q[24:13];
    rem = q[12:0];
    n0_t = t[19:12];
    n0_rem = rem[2:0];
    n0_root = root[0:0];
  end

  // ---- segment 1: root bits 9..7
  always_comb begin
    logic [19:12] t;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[19:12] = s1_t;
    rem = 13'(s1_rem);
    root = {10'd0, 1'b1, s1_root};
    q = ane_pkg::isqrt_step(rem, root, t[19:18], 3);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, t[17:16], 4);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, t[15:14], 5);
    root = q[24:13];
    rem = q[12:0];
    n1_t = t[13:12];
    n1_rem = rem[5:0];
    n1_root = root[3:0];
  end

  // ---- segment 2: root bits 6..4
  always_comb begin
    logic [13:12] t;
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    t[13:12] = s2_t;
    rem = 13'(s2_rem);
    root = {7'd0, 1'b1, s2_root};
    q = ane_pkg::isqrt_step(rem, root, t[13:12], 6);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 7);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 8);
    root = q[24:13];
    rem = q[12:0];
    n2_rem = rem[8:0];
    n2_root = root[6:0];
  end

  // ---- segment 3: root bits 3..1
  always_comb begin
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    rem = 13'(s3_rem);
    root = {4'd0, 1'b1, s3_root};
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 9);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 10);
    root = q[24:13];
    rem = q[12:0];
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 11);
    root = q[24:13];
    rem = q[12:0];
    n3_rem = rem[11:0];
    n3_root = root[9:0];
  end

  // ---- segment 4: root bit 0, round
  always_comb begin
    logic [24:0] q;
    logic [12:0] rem;
    logic [11:0] root;
    rem = 13'(s4_rem);
    root = {1'd0, 1'b1, s4_root};
    q = ane_pkg::isqrt_step(rem, root, 2'b00, 12);
    root = q[24:13];
    rem = q[12:0];
    if (s4_sp[1]) y_o = s4_sp[0] ? 16'h7C00 : 16'h0000;
    else         y_o = {1'b0, s4_ex, root[10:1]} + {15'd0, root[0]};
  end

  // ------------------------------------------------------------------ registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({s1_t, s1_rem, s1_root, s1_ex, s1_sp})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({n0_t, n0_rem, n0_root, a_ex, a_sp}),
    .q_o({s1_t, s1_rem, s1_root, s1_ex, s1_sp})
  );
  ane_pipe_reg #(.W($bits({s2_t, s2_rem, s2_root, s2_ex, s2_sp})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({n1_t, n1_rem, n1_root, s1_ex, s1_sp}),
    .q_o({s2_t, s2_rem, s2_root, s2_ex, s2_sp})
  );
  ane_pipe_reg #(.W($bits({s3_rem, s3_root, s3_ex, s3_sp})), .Pipe(Pipe)) u_s3 (
    .clk_i, .en_i, .d_i({n2_rem, n2_root, s2_ex, s2_sp}),
    .q_o({s3_rem, s3_root, s3_ex, s3_sp})
  );
  ane_pipe_reg #(.W($bits({s4_rem, s4_root, s4_ex, s4_sp})), .Pipe(Pipe)) u_s4 (
    .clk_i, .en_i, .d_i({n3_rem, n3_root, s3_ex, s3_sp}),
    .q_o({s4_rem, s4_root, s4_ex, s4_sp})
  );


endmodule
