// SPDX-License-Identifier: Apache-2.0
// ane_pe_transpose: transposes N x N patches of 16-bit elements (the format converter's patch
// transpose; docs/planar.md). Rows enter one per cycle (element j of row i at [16 j +: 16]),
// columns leave one per cycle (element i of column j at [16 i +: 16]): output beat j of a patch
// is column j, i.e. out[j][i] = in[i][j].
//
// Two banks alternate: rows fill one while the columns of the other leave, so a stream of
// patches moves at one beat per cycle in and out. A patch's first column is valid the cycle
// after its last row is accepted (latency N beats). valid/ready on both sides.
`default_nettype none

module ane_pe_transpose #(
  parameter int unsigned N = 8
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            in_valid_i,
  output      logic            in_ready_o,
  input  wire logic [N*16-1:0] in_row_i,
  output      logic            out_valid_o,
  input  wire logic            out_ready_i,
  output      logic [N*16-1:0] out_col_o
);

  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;

  logic [N*N*16-1:0] bank0_q, bank1_q;   // element (i, j) at [16 (N i + j) +: 16]
  logic [1:0]        full_q;              // bank b holds a whole patch not yet read out
  logic              wb_q, rb_q;          // bank being written, bank being read
  logic [IdxW-1:0]   wrow_q, rcol_q;

  logic in_fire, out_fire;
  assign in_ready_o  = !full_q[wb_q];
  assign in_fire     = in_valid_i && in_ready_o;
  assign out_valid_o = full_q[rb_q];
  assign out_fire    = out_valid_o && out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 2'b00;
      wb_q   <= 1'b0;
      rb_q   <= 1'b0;
      wrow_q <= '0;
      rcol_q <= '0;
    end else begin
      if (in_fire) begin
        if (wrow_q == IdxW'(N - 1)) begin
          wrow_q <= '0;
          wb_q   <= !wb_q;
        end else begin
          wrow_q <= wrow_q + IdxW'(1);
        end
      end
      if (out_fire) begin
        if (rcol_q == IdxW'(N - 1)) begin
          rcol_q <= '0;
          rb_q   <= !rb_q;
        end else begin
          rcol_q <= rcol_q + IdxW'(1);
        end
      end
      // a bank fills with its last row and empties with its last column (never the same bank
      // in one cycle: the written bank is not full, the read bank is)
      for (int b = 0; b < 2; b++) begin
        if (in_fire && wrow_q == IdxW'(N - 1) && wb_q == b[0]) full_q[b] <= 1'b1;
        if (out_fire && rcol_q == IdxW'(N - 1) && rb_q == b[0]) full_q[b] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_fire && !wb_q) bank0_q[16*N*wrow_q +: 16*N] <= in_row_i;
    if (in_fire && wb_q)  bank1_q[16*N*wrow_q +: 16*N] <= in_row_i;
  end

  // The read select, gated with out_valid_o: a gate between the select flops and the N x 16
  // multiplexers they steer, so the mapping's buffer pass builds a tree for that fanout (it does
  // not buffer flop outputs). While no column is valid, column 0 of bank 0 shows.
  logic              rsel_b;
  logic [IdxW-1:0]   rsel_c;
  assign rsel_b = out_valid_o && rb_q;
  assign rsel_c = out_valid_o ? rcol_q : '0;

  logic [N*N*16-1:0] rbank;
  assign rbank = rsel_b ? bank1_q : bank0_q;
  for (genvar i = 0; i < N; i++) begin : g_col
    logic [16*N-1:0] row;  // row i of the bank being read
    assign row = rbank[16*N*i +: 16*N];
    assign out_col_o[16*i +: 16] = row[16*rsel_c +: 16];
  end

endmodule
