// SPDX-License-Identifier: Apache-2.0
// ane_shifter_cov: functional-coverage bins of the input buffer and shifter ane_shifter
// (NUMERICS N-2's convolution walk: "The reduction order", the section before N-2.1, which
// has no number of its own, labelled N2_0 here; N-2.1 the data operands; docs/shifter.md):
// lanes whose window leaves the patch at the top, bottom, left and right (zeros produced) and
// at the four corners, a step whose every active lane reads padding, padding at the tile's
// last column and row, every stride and dilation 1 .. 4 and both above 1 together, the tile's
// boundaries (a full tile, one column, one row, positions past the tile, outputs past the
// work unit's oh x ow), 16-bit and 8-bit elements and the int8 sign extension, the two-kernel
// mode, work units over several banks, the ring's wrap, releases back to back and a no-data
// release, the ports' waits (a request for a bank not yet loaded, or whose release is still in
// the pipeline: the work unit after next). Lane bins repeat the shifter's window test per lane from the
// lane table and stage B's step terms (stage B valid and advancing: vb_q && en, a request
// that delivers a vector); request and load bins read their handshakes; output bins the
// output handshake.
// Bound to every ane_shifter only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_shifter_cov #(
  parameter int unsigned NumLanes  = 256,
  parameter int unsigned BankBytes = 512,
  parameter int unsigned NumBanks  = 2
) (
  input wire logic                          clk_i,
  input wire logic                          rst_ni,
  input wire logic                          ld_valid_i,
  input wire logic                          ld_ready_o,
  input wire logic                          ld_last_i,
  input wire logic                          rq_valid_i,
  input wire logic                          rq_ready_o,
  input wire logic                          rq_release_i,
  input wire logic                          rq_nodata_i,
  input wire logic                          out_valid_o,
  input wire logic                          out_ready_i,
  input wire logic [NumLanes*16-1:0]        out_data_o,
  input wire logic [NumLanes-1:0]           out_mask_o,
  // the unit's own signals: the configuration, the lane table, the ring, stage B
  input wire logic [2:0]                    sy_q,
  input wire logic [2:0]                    sx_q,
  input wire logic [2:0]                    dy_q,
  input wire logic [2:0]                    dx_q,
  input wire logic                          elem16_q,
  input wire logic                          two_kernel_q,
  input wire logic [8:0]                    tile_w_q,
  input wire logic [8:0]                    tile_h_q,
  input wire logic [$clog2(NumLanes+1)-1:0] positions,
  input wire logic [NumLanes*53-1:0]        table_q,
  input wire logic                          ld_take,
  input wire logic [$clog2(NumBanks)-1:0]   ld_bank_q,
  input wire logic                          rq_take,
  input wire logic [$clog2(NumBanks)-1:0]   rd_bank_q,
  input wire logic [NumBanks-1:0]           full_q,
  input wire logic [NumBanks-1:0]           rel_q,
  input wire logic                          en,
  input wire logic                          vb_q,
  input wire logic                          b_nodata_q,
  input wire logic [$clog2(NumBanks)-1:0]   b_bank_q,
  input wire logic [16-$clog2(BankBytes):0] b_crel_q,
  input wire logic [13:0]                   b_ry_q,
  input wire logic [13:0]                   b_rx_q,
  input wire logic [9:0]                    b_ph,
  input wire logic [9:0]                    b_pw,
  input wire logic [8:0]                    b_oh,
  input wire logic [8:0]                    b_ow,
  input wire logic [NumBanks*$clog2(NumBanks)-1:0] bank_nb
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  localparam int unsigned EntryW = 53;   // ane_shifter's lane-table entry
  localparam int unsigned BkW    = $clog2(NumBanks);

  logic bfire, ofire;
  assign bfire = live_q && en && vb_q && !b_nodata_q;
  assign ofire = live_q && out_valid_o && out_ready_i;

  // Stage B's window test per lane (as ane_shifter's lanes make it), OR-ed over the lanes.
  logic pad_t, pad_b, pad_l, pad_r, c_tl, c_tr, c_bl, c_br, any_act, any_in, idle, past;
  logic edge_r, edge_b;
  always_comb begin
    {pad_t, pad_b, pad_l, pad_r, c_tl, c_tr, c_bl, c_br, any_act, any_in, idle, past} = '0;
    {edge_r, edge_b} = '0;
    for (int p = 0; p < int'(NumLanes); p++) begin
      logic [EntryW-1:16] e;   // valid, oy, ox, oy sy, ox sx (not the address term)
      logic [7:0]  oy, ox;
      logic [13:0] y, x;
      logic        act, t, b, l, r;
      e   = table_q[p*EntryW + 16 +: EntryW - 16];
      oy  = e[51:44];
      ox  = e[43:36];
      y   = {4'd0, e[35:26]} + b_ry_q;
      x   = {4'd0, e[25:16]} + b_rx_q;
      act = e[52] && ({1'b0, oy} < b_oh) && ({1'b0, ox} < b_ow);
      t   = act && y[13];
      b   = act && !y[13] && (y[12:0] >= {3'd0, b_ph});
      l   = act && x[13];
      r   = act && !x[13] && (x[12:0] >= {3'd0, b_pw});
      pad_t   |= t;
      pad_b   |= b;
      pad_l   |= l;
      pad_r   |= r;
      c_tl    |= t && l;
      c_tr    |= t && r;
      c_bl    |= b && l;
      c_br    |= b && r;
      any_act |= act;
      any_in  |= act && !(t || b || l || r);
      idle    |= e[52] && !act;
      past    |= !e[52];
      edge_r  |= r && ({1'b0, ox} + 9'd1 == tile_w_q);
      edge_b  |= b && ({1'b0, oy} + 9'd1 == tile_h_q);
    end
  end

  // The output: an 8-bit element that is negative (sign-extended to 16 bits).
  logic neg8;
  always_comb begin
    neg8 = 1'b0;
    for (int p = 0; p < int'(NumLanes); p++) neg8 |= out_mask_o[p] && out_data_o[16*p + 15];
  end

  logic full_tile;
  assign full_tile = {9'd0, tile_w_q} * {9'd0, tile_h_q} == 18'(positions);

  // A release taken in the cycle before (a helper register of this module).
  logic rel_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rel_prev_q <= 1'b0;
    else         rel_prev_q <= rq_take && rq_release_i;
  end

  // (the ports' bits no bin reads: the lane table's address terms)
  logic unused;
  always_comb begin
    unused = 1'b0;
    for (int p = 0; p < int'(NumLanes); p++) unused ^= ^table_q[p*EntryW +: 16];
  end

  // Every stride and dilation the shifter takes (1 .. 4).
  if (1) begin : g_sd_1
    always_ff @(posedge clk_i) begin
      N2_0_stride_y_1:   cover (bfire && sy_q == 3'(1));
      N2_0_stride_x_1:   cover (bfire && sx_q == 3'(1));
      N2_0_dilation_y_1: cover (bfire && dy_q == 3'(1));
      N2_0_dilation_x_1: cover (bfire && dx_q == 3'(1));
    end
  end
  if (1) begin : g_sd_2
    always_ff @(posedge clk_i) begin
      N2_0_stride_y_2:   cover (bfire && sy_q == 3'(2));
      N2_0_stride_x_2:   cover (bfire && sx_q == 3'(2));
      N2_0_dilation_y_2: cover (bfire && dy_q == 3'(2));
      N2_0_dilation_x_2: cover (bfire && dx_q == 3'(2));
    end
  end
  if (1) begin : g_sd_3
    always_ff @(posedge clk_i) begin
      N2_0_stride_y_3:   cover (bfire && sy_q == 3'(3));
      N2_0_stride_x_3:   cover (bfire && sx_q == 3'(3));
      N2_0_dilation_y_3: cover (bfire && dy_q == 3'(3));
      N2_0_dilation_x_3: cover (bfire && dx_q == 3'(3));
    end
  end
  if (1) begin : g_sd_4
    always_ff @(posedge clk_i) begin
      N2_0_stride_y_4:   cover (bfire && sy_q == 3'(4));
      N2_0_stride_x_4:   cover (bfire && sx_q == 3'(4));
      N2_0_dilation_y_4: cover (bfire && dy_q == 3'(4));
      N2_0_dilation_x_4: cover (bfire && dx_q == 3'(4));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- zero padding: the window leaves the patch ----
    N2_0_pad_top:                 cover (bfire && pad_t);
    N2_0_pad_bottom:              cover (bfire && pad_b);
    N2_0_pad_left:                cover (bfire && pad_l);
    N2_0_pad_right:               cover (bfire && pad_r);
    N2_0_corner_top_left:         cover (bfire && c_tl);
    N2_0_corner_top_right:        cover (bfire && c_tr);
    N2_0_corner_bottom_left:      cover (bfire && c_bl);
    N2_0_corner_bottom_right:     cover (bfire && c_br);
    N2_0_every_lane_padded:       cover (bfire && any_act && !any_in);
    N2_0_pad_right_tile_last_col: cover (bfire && edge_r);
    N2_0_pad_bottom_tile_last_row: cover (bfire && edge_b);
    // ---- stride and dilation together ----
    N2_0_stride_dilation_y:       cover (bfire && sy_q > 3'd1 && dy_q > 3'd1);
    N2_0_stride_dilation_x:       cover (bfire && sx_q > 3'd1 && dx_q > 3'd1);
    // ---- the tile's boundaries ----
    N2_0_tile_full:               cover (bfire && full_tile);
    N2_0_tile_one_column:         cover (bfire && tile_w_q == 9'd1 && tile_h_q > 9'd1);
    N2_0_tile_one_row:            cover (bfire && tile_h_q == 9'd1 && tile_w_q > 9'd1);
    N2_0_positions_past_tile:     cover (bfire && past);
    N2_0_outputs_past_work_unit:  cover (bfire && idle);
    // ---- N-2.1: the data operands ----
    N2_1_elem16:                  cover (bfire && elem16_q);
    N2_1_elem8:                   cover (bfire && !elem16_q);
    N2_1_elem8_negative:          cover (ofire && !elem16_q && neg8);
    N2_1_two_kernel:              cover (bfire && two_kernel_q);
    // ---- work units, banks and the ports ----
    N2_0_work_unit_several_banks: cover (bfire && bank_nb[b_bank_q*BkW +: BkW] != '0);
    N2_0_step_reads_later_bank:   cover (bfire && b_crel_q != '0);
    N2_0_ring_wrap:               cover (live_q && ld_take && ld_last_i && ld_bank_q == BkW'(NumBanks - 1));
    N2_0_release:                 cover (live_q && rq_take && rq_release_i);
    N2_0_release_back_to_back:    cover (live_q && rq_take && rel_prev_q);
    N2_0_nodata_release:          cover (live_q && rq_take && rq_nodata_i && rq_release_i);
    N2_0_load_waits_for_bank:     cover (live_q && ld_valid_i && !ld_ready_o);
    N2_0_request_waits:           cover (live_q && rq_valid_i && !rq_ready_o && en);
    N2_0_request_waits_for_load:  cover (live_q && rq_valid_i && en && !full_q[rd_bank_q]);
    N2_0_request_waits_release:   cover (live_q && rq_valid_i && en && full_q[rd_bank_q] && rel_q[rd_bank_q]);
    N2_0_back_pressure:           cover (live_q && out_valid_o && !out_ready_i);
  end

endmodule

bind ane_shifter ane_shifter_cov #(.NumLanes(NumLanes), .BankBytes(BankBytes), .NumBanks(NumBanks)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
