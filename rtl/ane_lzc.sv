// SPDX-License-Identifier: Apache-2.0
// ane_lzc: the leading-zero count of v_i (Trailing = 1: the trailing-zero count), as a binary
// tree: node i of level l keeps "some bit set" (v<l>[i]) and its l-bit count (c<l>); it takes
// its first child's count (the upper child; the lower one when Trailing) with a 0 in front, or,
// when that child is empty, the other's with a 1 in front. W is a power of two, 2..128, so each
// level is its own vector of at most 64 bits (the Verilated lanes stay fast) and no generate
// block reads another's signals. A zero v_i gives zero_o = 1 and n_o = W - 1: a caller that
// wants another count for zero forces a one below its field. Combinational; no functions, so
// the lanes' code may use it (docs/mac_lane.md, "Simulation model").
`default_nettype none

module ane_lzc #(
  parameter int unsigned W        = 32,
  parameter bit          Trailing = 1'b0
) (
  input  wire logic [W-1:0]         v_i,
  output      logic [$clog2(W)-1:0] n_o,
  output      logic                 zero_o
);

  localparam int unsigned L = $clog2(W);
  localparam int unsigned F = Trailing ? 0 : 1;  // node i looks at child 2i + F first
  // nodes per level (a level above L keeps one unused node)
  localparam int unsigned N1 = W / 2,                      N2 = (L >= 2) ? W / 4 : 1;
  localparam int unsigned N3 = (L >= 3) ? W / 8 : 1,       N4 = (L >= 4) ? W / 16 : 1;
  localparam int unsigned N5 = (L >= 5) ? W / 32 : 1,      N6 = (L >= 6) ? W / 64 : 1;
  localparam int unsigned N7 = (L >= 7) ? W / 128 : 1;

  logic [N1-1:0] v1;  logic [N1-1:0]   c1;
  logic [N2-1:0] v2;  logic [2*N2-1:0] c2;
  logic [N3-1:0] v3;  logic [3*N3-1:0] c3;
  logic [N4-1:0] v4;  logic [4*N4-1:0] c4;
  logic [N5-1:0] v5;  logic [5*N5-1:0] c5;
  logic [N6-1:0] v6;  logic [6*N6-1:0] c6;
  logic [N7-1:0] v7;  logic [7*N7-1:0] c7;

  always_comb begin
    for (int i = 0; i < N1; i++) begin
      v1[i] = v_i[2*i+F] | v_i[2*i+1-F];
      c1[i] = !v_i[2*i+F];
    end
  end
  if (L >= 2) begin : g_l2
    always_comb begin
      for (int i = 0; i < N2; i++) begin
        v2[i]        = v1[2*i+F] | v1[2*i+1-F];
        c2[2*i +: 2] = v1[2*i+F] ? {1'b0, c1[1*(2*i+F) +: 1]} : {1'b1, c1[1*(2*i+1-F) +: 1]};
      end
    end
  end else begin : g_n2
    assign v2 = '0;
    assign c2 = '0;
  end
  if (L >= 3) begin : g_l3
    always_comb begin
      for (int i = 0; i < N3; i++) begin
        v3[i]        = v2[2*i+F] | v2[2*i+1-F];
        c3[3*i +: 3] = v2[2*i+F] ? {1'b0, c2[2*(2*i+F) +: 2]} : {1'b1, c2[2*(2*i+1-F) +: 2]};
      end
    end
  end else begin : g_n3
    assign v3 = '0;
    assign c3 = '0;
  end
  if (L >= 4) begin : g_l4
    always_comb begin
      for (int i = 0; i < N4; i++) begin
        v4[i]        = v3[2*i+F] | v3[2*i+1-F];
        c4[4*i +: 4] = v3[2*i+F] ? {1'b0, c3[3*(2*i+F) +: 3]} : {1'b1, c3[3*(2*i+1-F) +: 3]};
      end
    end
  end else begin : g_n4
    assign v4 = '0;
    assign c4 = '0;
  end
  if (L >= 5) begin : g_l5
    always_comb begin
      for (int i = 0; i < N5; i++) begin
        v5[i]        = v4[2*i+F] | v4[2*i+1-F];
        c5[5*i +: 5] = v4[2*i+F] ? {1'b0, c4[4*(2*i+F) +: 4]} : {1'b1, c4[4*(2*i+1-F) +: 4]};
      end
    end
  end else begin : g_n5
    assign v5 = '0;
    assign c5 = '0;
  end
  if (L >= 6) begin : g_l6
    always_comb begin
      for (int i = 0; i < N6; i++) begin
        v6[i]        = v5[2*i+F] | v5[2*i+1-F];
        c6[6*i +: 6] = v5[2*i+F] ? {1'b0, c5[5*(2*i+F) +: 5]} : {1'b1, c5[5*(2*i+1-F) +: 5]};
      end
    end
  end else begin : g_n6
    assign v6 = '0;
    assign c6 = '0;
  end
  if (L >= 7) begin : g_l7
    assign v7 = v6[F] | v6[1-F];
    assign c7 = v6[F] ? {1'b0, c6[6*F +: 6]} : {1'b1, c6[6*(1-F) +: 6]};
  end else begin : g_n7
    assign v7 = '0;
    assign c7 = '0;
  end

  // the root: level L
  if (L == 1) begin : g_r1
    assign n_o = c1;  assign zero_o = !v1[0];
  end else if (L == 2) begin : g_r2
    assign n_o = c2;  assign zero_o = !v2[0];
  end else if (L == 3) begin : g_r3
    assign n_o = c3;  assign zero_o = !v3[0];
  end else if (L == 4) begin : g_r4
    assign n_o = c4;  assign zero_o = !v4[0];
  end else if (L == 5) begin : g_r5
    assign n_o = c5;  assign zero_o = !v5[0];
  end else if (L == 6) begin : g_r6
    assign n_o = c6;  assign zero_o = !v6[0];
  end else begin : g_r7
    assign n_o = c7;  assign zero_o = !v7[0];
  end

  logic unused;  // the levels above L, and the lower levels' bits the next level reads anyway
  assign unused = ^{v1, v2, v3, v4, v5, v6, v7, c1, c2, c3, c4, c5, c6, c7};

`ifndef SYNTHESIS
  initial assert(W >= 2 && W <= 128 && (1 << L) == W);
`endif

endmodule

`default_nettype wire
