// SPDX-License-Identifier: Apache-2.0
// ane_planar_pool: the planar engine's pooling path (NUMERICS N-4.5, N-4.4; docs/planar.md,
// "The engine"): the format converter's transposes around the pooling unit (ane_pe_pool), so
// that a pooling reads and writes [C][H][W] tensors row by row like every other task.
//
// The engine reads a pooling by channel groups of NumLanes channels: for each group, row y and
// chunk j of NumLanes positions (x = j NumLanes ..), one beat per channel of the group (its
// chunk of the row, lanes = positions). Here:
//   transpose in   the group's beats of one chunk are the rows of a NumLanes x NumLanes patch
//                  (ane_pe_transpose); a group of fewer channels (the last) is completed with
//                  zero rows. Its columns are positions, lanes = channels; the columns past the
//                  row's end (a partial chunk) are dropped, the others go to the pooling unit.
//   pooling        ane_pe_pool: one plane of NumLanes channels per group, one position per beat
//                  in raster order, one output position per beat out.
//   transpose out  the outputs of a chunk of NumLanes output positions of a row (the last chunk
//                  of a row completed with zero rows) are transposed back: one beat per channel,
//                  lanes = output positions.
//   descriptors    for each such beat, in the same order, the write descriptor: result
//                  [g NumLanes + ci, oy, j NumLanes ..] at dbase + channel dplane + oy drow +
//                  j NumLanes eb, with the chunk's count, or 0 for a channel past C (the writer
//                  drops that beat). A walker (ane_planar_walk) makes them; orun_o is high
//                  until the last is taken, busy_o until the last beat (a dropped one too)
//                  has left.
// hwc_i (channels last, MODE.AXIS of a KIND 3 task): no pooling. The transposed columns (one per
// position (y, x) in raster order, lanes = the group's channels) are the result beats, each
// written at dbase + g NumLanes eb + y drow + x dplane with the group's count of channels: the
// [C][H][W] source as [H][W][C] (dplane is then the stride between positions). The pooling unit
// and the output transpose stay idle; the window and output size are not read.
// start_i begins a task whose configuration inputs hold until it ends. NumLanes is a power of
// two; the output width is at most PoolW.
`default_nettype none

module ane_planar_pool #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned PoolW    = 64,
  localparam int unsigned NW      = $clog2(NumLanes + 1),
  localparam int unsigned LB      = NumLanes * 16,
  localparam int unsigned LL      = $clog2(NumLanes)
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          start_i,
  input  wire logic          hwc_i,
  input  wire ane_pkg::pe_tree_op_e op_i,
  input  wire logic [13:0]   c_i,
  input  wire logic [13:0]   h_i,
  input  wire logic [13:0]   w_i,
  input  wire logic [13:0]   oh_i,
  input  wire logic [13:0]   ow_i,
  input  wire logic [3:0]    kh_i,
  input  wire logic [3:0]    kw_i,
  input  wire logic [3:0]    sy_i,
  input  wire logic [3:0]    sx_i,
  input  wire logic [2:0]    pt_i,
  input  wire logic [2:0]    pl_i,
  input  wire logic [31:0]   dbase_i,
  input  wire logic [31:0]   drow_i,
  input  wire logic [31:0]   dplane_i,
  input  wire logic          d_int8_i,
  // input beats: one channel's chunk of a row, its count of positions, the group's last channel
  input  wire logic          in_valid_i,
  output      logic          in_ready_o,
  input  wire logic [LB-1:0] in_data_i,
  input  wire logic [NW-1:0] in_n_i,
  input  wire logic          in_clast_i,
  // result beats: one channel's chunk of an output row
  output      logic          out_valid_o,
  input  wire logic          out_ready_i,
  output      logic [LB-1:0] out_data_o,
  // their descriptors
  output      logic          d_valid_o,
  input  wire logic          d_ready_i,
  output      logic [31:0]   d_addr_o,
  output      logic [NW-1:0] d_n_o,
  output      logic          orun_o,
  output      logic          busy_o     // a beat, a patch or a descriptor of the task still here
);

  // channel groups and the last group's channels
  logic [13:0] ng, cl;
  assign ng = 14'((15'(c_i) + 15'(NumLanes - 1)) >> LL);
  assign cl = 14'(((c_i - 14'd1) & 14'(NumLanes - 1)) + 14'd1);

  // ---------------------------------------------------------------- transpose in
  logic [NW-1:0] r_q;                 // rows of the patch being filled
  logic          pad_q;               // zero rows complete a short group
  logic          ti_valid, ti_ready, last_row;
  logic          cn_in_ready, cn_valid, cn_pop;
  logic [NW-1:0] cn_n;
  logic [2:0]    cn_count;
  assign last_row   = r_q == NW'(NumLanes - 1);
  assign ti_valid   = pad_q || (in_valid_i && (r_q != '0 || cn_in_ready));
  assign in_ready_o = !pad_q && ti_ready && (r_q != '0 || cn_in_ready);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_q   <= '0;
      pad_q <= 1'b0;
    end else if (ti_valid && ti_ready) begin
      r_q <= last_row ? '0 : r_q + NW'(1);
      if (pad_q && last_row) pad_q <= 1'b0;
      else if (!pad_q && in_clast_i && !last_row) pad_q <= 1'b1;
    end
  end
  // each patch's count of positions, from its first row to its last column
  ane_fifo #(.Width(NW), .Depth(4)) u_cn (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i && in_ready_o && r_q == '0), .in_ready_o(cn_in_ready),
    .in_data_i(in_n_i), .out_valid_o(cn_valid), .out_ready_i(cn_pop), .out_data_o(cn_n), .count_o(cn_count)
  );

  logic          to_valid, to_ready, keep, pi_ready;
  logic [LB-1:0] to_col;
  logic [NW-1:0] k_q;                 // the column leaving
  ane_pe_transpose #(.N(NumLanes)) u_tin (
    .clk_i, .rst_ni, .in_valid_i(ti_valid), .in_ready_o(ti_ready), .in_row_i(pad_q ? '0 : in_data_i),
    .out_valid_o(to_valid), .out_ready_i(to_ready), .out_col_o(to_col)
  );
  assign keep     = k_q < cn_n;
  assign to_ready = cn_valid && (!keep || (hwc_i ? out_ready_i : pi_ready));
  assign cn_pop   = to_valid && to_ready && k_q == NW'(NumLanes - 1);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) k_q <= '0;
    else if (to_valid && to_ready) k_q <= k_q == NW'(NumLanes - 1) ? '0 : k_q + NW'(1);
  end

  // ---------------------------------------------------------------- the pooling unit
  logic [13:0]   glft_q;              // planes still to configure
  logic          pc_ready, po_valid, po_ready, p_busy;
  logic [LB-1:0] po_data;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) glft_q <= '0;
    else if (start_i) glft_q <= hwc_i ? 14'd0 : ng;
    else if (glft_q != '0 && pc_ready) glft_q <= glft_q - 14'd1;
  end
  ane_pe_pool #(.NumLanes(NumLanes), .MaxOutW(PoolW), .CntW(14)) u_pool (
    .clk_i, .rst_ni,
    .cfg_valid_i(glft_q != '0), .cfg_ready_o(pc_ready), .cfg_op_i(op_i),
    .cfg_h_i(h_i), .cfg_w_i(w_i), .cfg_oh_i(oh_i), .cfg_ow_i(ow_i), .cfg_kh_i(kh_i), .cfg_kw_i(kw_i),
    .cfg_sy_i(sy_i), .cfg_sx_i(sx_i), .cfg_pt_i(pt_i), .cfg_pl_i(pl_i),
    .in_valid_i(to_valid && cn_valid && keep && !hwc_i), .in_ready_o(pi_ready), .in_data_i(to_col),
    .out_valid_o(po_valid), .out_ready_i(po_ready), .out_data_o(po_data), .busy_o(p_busy)
  );

  // ---------------------------------------------------------------- transpose out
  logic [NW-1:0] q_q;                 // rows of the output patch being filled
  logic [13:0]   ox_q;                // the output position's column
  logic          opad_q, tq_valid, tq_ready, olast_row;
  assign olast_row = q_q == NW'(NumLanes - 1);
  assign tq_valid  = opad_q || po_valid;
  assign po_ready  = !opad_q && tq_ready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q    <= '0;
      ox_q   <= '0;
      opad_q <= 1'b0;
    end else if (tq_valid && tq_ready) begin
      q_q <= olast_row ? '0 : q_q + NW'(1);
      if (opad_q) begin
        if (olast_row) opad_q <= 1'b0;
      end else begin
        ox_q <= ox_q == ow_i - 14'd1 ? '0 : ox_q + 14'd1;
        if (ox_q == ow_i - 14'd1 && !olast_row) opad_q <= 1'b1;
      end
    end
  end
  logic          tout_valid;
  logic [LB-1:0] tout_col;
  ane_pe_transpose #(.N(NumLanes)) u_tout (
    .clk_i, .rst_ni, .in_valid_i(tq_valid), .in_ready_o(tq_ready), .in_row_i(opad_q ? '0 : po_data),
    .out_valid_o(tout_valid), .out_ready_i(out_ready_i && !hwc_i), .out_col_o(tout_col)
  );
  // the result beats: the output transpose's columns, or (hwc_i) the input transpose's kept ones
  assign out_valid_o = hwc_i ? (to_valid && cn_valid && keep) : tout_valid;
  assign out_data_o  = hwc_i ? to_col : tout_col;

  // ---------------------------------------------------------------- descriptors
  logic [13:0] oj, oci;
  logic        olasts, ulast0, ulast1, ulast2;
  logic [13:0] unused_is, unused_i0, orest;
  logic [31:0] deb;
  assign deb = d_int8_i ? 32'(NumLanes) : 32'(2 * NumLanes);
  // pooling: (group, oy, chunk of NumLanes output positions, channel of the group);
  // hwc_i: (group, y, x), one descriptor per position
  logic [13:0] ochunks;   // chunks of an output row
  assign ochunks = 14'((15'(ow_i) + 15'(NumLanes - 1)) >> LL);
  ane_planar_walk #(.NP(1)) u_ow (
    .clk_i, .rst_ni, .start_i, .step_i(d_ready_i),
    .ns_i(ng), .n0_i(hwc_i ? h_i : oh_i), .n1_i(hwc_i ? w_i : ochunks),
    .n2_i(hwc_i ? 14'd1 : 14'(NumLanes)), .n2_last_i(hwc_i ? 14'd1 : 14'(NumLanes)),
    .base_i(dbase_i), .ss_i(hwc_i ? deb : dplane_i << LL), .s0_i(drow_i), .s1_i(hwc_i ? dplane_i : deb),
    .s2_i(hwc_i ? 32'd0 : dplane_i),
    .run_o(orun_o), .is_o(unused_is), .i0_o(unused_i0), .i1_o(oj), .i2_o(oci),
    .lasts_o(olasts), .last0_o(ulast0), .last1_o(ulast1), .last2_o(ulast2), .p_o(d_addr_o)
  );
  assign orest     = ow_i - (oj << LL);
  assign d_valid_o = orun_o;
  assign d_n_o     = hwc_i ? (olasts ? NW'(cl) : NW'(NumLanes)) :
                     (olasts && oci >= cl) ? '0 : (orest >= 14'(NumLanes) ? NW'(NumLanes) : NW'(orest));

  // busy until the last beat (a dropped one too) has left
  assign busy_o = orun_o || r_q != '0 || pad_q || to_valid || cn_valid || p_busy || q_q != '0 || opad_q ||
                  out_valid_o;

  logic unused;
  assign unused = ^{cn_count, unused_is, unused_i0, ulast0, ulast1, ulast2};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && start_i) assert (hwc_i || (ow_i != '0 && 32'(ow_i) <= PoolW && oh_i != '0));
  end
`endif

endmodule

`default_nettype wire
