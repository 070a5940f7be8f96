// SPDX-License-Identifier: Apache-2.0
// ane_pe_pool_cov: functional-coverage bins of the planar pooling unit ane_pe_pool (NUMERICS
// N-4.5 pooling, with N-4.4's tree and N-4.2 inf - inf in a mean's sum): max, min and mean;
// every window height and width, stride and top / left padding the unit takes; windows that
// hang over the top, bottom, left and right edge and the four corners; the edge-correct mean
// (the count of real elements below the window's size: the contract's equivalent of excluding
// the padding, there is no count_include_pad), a mean of one element and of the whole 8 x 8
// window; stride larger than the window; the widest output row (MaxOutW); an 8-row window
// across the line buffer's bank wrap; padding positions walked without a beat. Window bins
// read the walker at a window's last position (step && hend && row_out: the position is taken
// and a window ends there); row bins read stage S1 (v_q[1] with the enable); configuration
// bins the configuration handshake.
// Bound to every ane_pe_pool only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_pool_cov #(
  parameter int NumLanes = 4,
  parameter int MaxOutW  = 16,
  parameter int CntW     = 12
) (
  input wire logic                   clk_i,
  input wire logic                   rst_ni,
  input wire logic                   cfg_valid_i,
  input wire logic                   cfg_ready_o,
  input wire logic [3:0]             cfg_kh_i,
  input wire logic [3:0]             cfg_kw_i,
  input wire logic [3:0]             cfg_sy_i,
  input wire logic [3:0]             cfg_sx_i,
  input wire logic [2:0]             cfg_pt_i,
  input wire logic [2:0]             cfg_pl_i,
  input wire logic                   out_valid_o,
  input wire logic                   out_ready_i,
  // the unit's own signals: the walker, the window's element count, stage S1
  input wire logic                   en,
  input wire logic                   step,
  input wire logic                   hend,
  input wire logic                   row_out,
  input wire logic                   real_pos,
  input wire logic [1:0]             op_q,
  input wire logic [CntW+1:0]        y_q,
  input wire logic [CntW+1:0]        x_q,
  input wire logic [CntW-1:0]        h_q,
  input wire logic [CntW-1:0]        w_q,
  input wire logic [CntW-1:0]        ow_q,
  input wire logic [CntW-1:0]        ox_q,
  input wire logic [3:0]             kh_q,
  input wire logic [3:0]             kw_q,
  input wire logic [3:0]             sy_q,
  input wire logic [3:0]             sx_q,
  input wire logic [3:0]             ncols,
  input wire logic [3:0]             nrows,
  input wire logic [27:1]            v_q,
  input wire logic [8*NumLanes*16-1:0] s1_win_q,
  input wire logic [7:0]             s1_cmask_q,
  input wire logic [1:0]             op1,
  input wire logic [8*NumLanes*32-1:0] s12_q,
  input wire logic [1:0]             op12
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  localparam int PW  = CntW + 2;
  localparam int L16 = NumLanes * 16;

  logic cfire, wfire, s1, s12;
  assign cfire = live_q && cfg_valid_i && cfg_ready_o;
  // a window's last position is taken: its window ends here
  assign wfire = live_q && step && hend && row_out;
  // stage S1 (a window row) advances
  assign s1    = live_q && en && v_q[1];
  // stage S12 (a window's row partials, the second filter's inputs) advances
  assign s12   = live_q && en && v_q[12];

  // The window ending at (y_q, x_q): rows y_q - KH + 1 .. y_q, columns x_q - KW + 1 .. x_q.
  logic pad_t, pad_b, pad_l, pad_r, is_mean;
  logic [6:0] n_real, n_win;
  assign pad_t   = y_q + PW'(1) < PW'(kh_q);
  assign pad_b   = y_q >= PW'(h_q);
  assign pad_l   = x_q + PW'(1) < PW'(kw_q);
  assign pad_r   = x_q >= PW'(w_q);
  assign is_mean = op_q == ane_pkg::PeTreeSum;
  assign n_real  = 7'(ncols * nrows);
  assign n_win   = 7'(kh_q * kw_q);

  // Stage S1's window row: a masked +inf (or NaN) and a masked -inf in one lane; a NaN.
  logic row_ii, row_nan;
  always_comb begin
    row_ii  = 1'b0;
    row_nan = 1'b0;
    for (int l = 0; l < NumLanes; l++) begin
      logic p, n;
      p = 1'b0;
      n = 1'b0;
      for (int k = 0; k < 8; k++) begin
        logic [15:0] x;
        x = s1_win_q[k*L16 + l*16 +: 16];
        if (s1_cmask_q[k]) begin
          p       |= ane_pkg::fp16_boundary(x) == ane_pkg::Fp16PosInf;
          n       |= x == 16'hFC00;
          row_nan |= ane_pkg::fp16_is_nan(x);
        end
      end
      row_ii |= p && n;
    end
  end

  // Stage S12's row partials (fp32; rows outside the plane are the identity): +inf and -inf
  // in one lane's window.
  logic win_ii;
  always_comb begin
    win_ii = 1'b0;
    for (int l = 0; l < NumLanes; l++) begin
      logic p, n;
      p = 1'b0;
      n = 1'b0;
      for (int k = 0; k < 8; k++) begin
        p |= s12_q[(l*8 + k)*32 +: 32] == 32'h7F80_0000;
        n |= s12_q[(l*8 + k)*32 +: 32] == 32'hFF80_0000;
      end
      win_ii |= p && n;
    end
  end

  // N-4.5: the operators (0 mean, 1 max, 2 min) at a window's end.
  if (1) begin : g_op_0
    always_ff @(posedge clk_i) begin
      N4_5_pool_op_0: cover (wfire && op_q == 2'(0));
    end
  end
  if (1) begin : g_op_1
    always_ff @(posedge clk_i) begin
      N4_5_pool_op_1: cover (wfire && op_q == 2'(1));
    end
  end
  if (1) begin : g_op_2
    always_ff @(posedge clk_i) begin
      N4_5_pool_op_2: cover (wfire && op_q == 2'(2));
    end
  end
  // Every window size, stride and top / left padding the unit takes.
  if (1) begin : g_k_1
    always_ff @(posedge clk_i) begin
      N4_5_kh_1: cover (cfire && cfg_kh_i == 4'(1));
      N4_5_kw_1: cover (cfire && cfg_kw_i == 4'(1));
      N4_5_sy_1: cover (cfire && cfg_sy_i == 4'(1));
      N4_5_sx_1: cover (cfire && cfg_sx_i == 4'(1));
    end
  end
  if (1) begin : g_k_2
    always_ff @(posedge clk_i) begin
      N4_5_kh_2: cover (cfire && cfg_kh_i == 4'(2));
      N4_5_kw_2: cover (cfire && cfg_kw_i == 4'(2));
      N4_5_sy_2: cover (cfire && cfg_sy_i == 4'(2));
      N4_5_sx_2: cover (cfire && cfg_sx_i == 4'(2));
    end
  end
  if (1) begin : g_k_3
    always_ff @(posedge clk_i) begin
      N4_5_kh_3: cover (cfire && cfg_kh_i == 4'(3));
      N4_5_kw_3: cover (cfire && cfg_kw_i == 4'(3));
      N4_5_sy_3: cover (cfire && cfg_sy_i == 4'(3));
      N4_5_sx_3: cover (cfire && cfg_sx_i == 4'(3));
    end
  end
  if (1) begin : g_k_4
    always_ff @(posedge clk_i) begin
      N4_5_kh_4: cover (cfire && cfg_kh_i == 4'(4));
      N4_5_kw_4: cover (cfire && cfg_kw_i == 4'(4));
      N4_5_sy_4: cover (cfire && cfg_sy_i == 4'(4));
      N4_5_sx_4: cover (cfire && cfg_sx_i == 4'(4));
    end
  end
  if (1) begin : g_k_5
    always_ff @(posedge clk_i) begin
      N4_5_kh_5: cover (cfire && cfg_kh_i == 4'(5));
      N4_5_kw_5: cover (cfire && cfg_kw_i == 4'(5));
      N4_5_sy_5: cover (cfire && cfg_sy_i == 4'(5));
      N4_5_sx_5: cover (cfire && cfg_sx_i == 4'(5));
    end
  end
  if (1) begin : g_k_6
    always_ff @(posedge clk_i) begin
      N4_5_kh_6: cover (cfire && cfg_kh_i == 4'(6));
      N4_5_kw_6: cover (cfire && cfg_kw_i == 4'(6));
      N4_5_sy_6: cover (cfire && cfg_sy_i == 4'(6));
      N4_5_sx_6: cover (cfire && cfg_sx_i == 4'(6));
    end
  end
  if (1) begin : g_k_7
    always_ff @(posedge clk_i) begin
      N4_5_kh_7: cover (cfire && cfg_kh_i == 4'(7));
      N4_5_kw_7: cover (cfire && cfg_kw_i == 4'(7));
      N4_5_sy_7: cover (cfire && cfg_sy_i == 4'(7));
      N4_5_sx_7: cover (cfire && cfg_sx_i == 4'(7));
    end
  end
  if (1) begin : g_k_8
    always_ff @(posedge clk_i) begin
      N4_5_kh_8: cover (cfire && cfg_kh_i == 4'(8));
      N4_5_kw_8: cover (cfire && cfg_kw_i == 4'(8));
      N4_5_sy_8: cover (cfire && cfg_sy_i == 4'(8));
      N4_5_sx_8: cover (cfire && cfg_sx_i == 4'(8));
    end
  end
  if (1) begin : g_p_0
    always_ff @(posedge clk_i) begin
      N4_5_pt_0: cover (cfire && cfg_pt_i == 3'(0));
      N4_5_pl_0: cover (cfire && cfg_pl_i == 3'(0));
    end
  end
  if (1) begin : g_p_1
    always_ff @(posedge clk_i) begin
      N4_5_pt_1: cover (cfire && cfg_pt_i == 3'(1));
      N4_5_pl_1: cover (cfire && cfg_pl_i == 3'(1));
    end
  end
  if (1) begin : g_p_2
    always_ff @(posedge clk_i) begin
      N4_5_pt_2: cover (cfire && cfg_pt_i == 3'(2));
      N4_5_pl_2: cover (cfire && cfg_pl_i == 3'(2));
    end
  end
  if (1) begin : g_p_3
    always_ff @(posedge clk_i) begin
      N4_5_pt_3: cover (cfire && cfg_pt_i == 3'(3));
      N4_5_pl_3: cover (cfire && cfg_pl_i == 3'(3));
    end
  end
  if (1) begin : g_p_4
    always_ff @(posedge clk_i) begin
      N4_5_pt_4: cover (cfire && cfg_pt_i == 3'(4));
      N4_5_pl_4: cover (cfire && cfg_pl_i == 3'(4));
    end
  end
  if (1) begin : g_p_5
    always_ff @(posedge clk_i) begin
      N4_5_pt_5: cover (cfire && cfg_pt_i == 3'(5));
      N4_5_pl_5: cover (cfire && cfg_pl_i == 3'(5));
    end
  end
  if (1) begin : g_p_6
    always_ff @(posedge clk_i) begin
      N4_5_pt_6: cover (cfire && cfg_pt_i == 3'(6));
      N4_5_pl_6: cover (cfire && cfg_pl_i == 3'(6));
    end
  end
  if (1) begin : g_p_7
    always_ff @(posedge clk_i) begin
      N4_5_pt_7: cover (cfire && cfg_pt_i == 3'(7));
      N4_5_pl_7: cover (cfire && cfg_pl_i == 3'(7));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.5: windows over the edges ----
    N4_5_pad_top:             cover (wfire && pad_t);
    N4_5_pad_bottom:          cover (wfire && pad_b);
    N4_5_pad_left:            cover (wfire && pad_l);
    N4_5_pad_right:           cover (wfire && pad_r);
    N4_5_corner_top_left:     cover (wfire && pad_t && pad_l);
    N4_5_corner_top_right:    cover (wfire && pad_t && pad_r);
    N4_5_corner_bottom_left:  cover (wfire && pad_b && pad_l);
    N4_5_corner_bottom_right: cover (wfire && pad_b && pad_r);
    N4_5_pad_top_and_bottom:  cover (wfire && pad_t && pad_b);
    N4_5_pad_left_and_right:  cover (wfire && pad_l && pad_r);
    // ---- N-4.5: the edge-correct mean ----
    N4_5_mean_edge_count:     cover (wfire && is_mean && n_real < n_win);
    N4_5_mean_count_one:      cover (wfire && is_mean && n_real == 7'd1 && n_win > 7'd1);
    N4_5_mean_full_8x8:       cover (wfire && is_mean && n_real == 7'd64);
    N4_5_max_edge_window:     cover (wfire && op_q == ane_pkg::PeTreeMax && n_real < n_win);
    N4_5_min_edge_window:     cover (wfire && op_q == ane_pkg::PeTreeMin && n_real < n_win);
    // ---- N-4.5: geometry ----
    N4_5_window_1x1:          cover (wfire && kh_q == 4'd1 && kw_q == 4'd1);
    N4_5_stride_gt_window_x:  cover (wfire && sx_q > kw_q);
    N4_5_stride_gt_window_y:  cover (wfire && sy_q > kh_q);
    N4_5_overlap_x:           cover (wfire && sx_q < kw_q);
    N4_5_overlap_y:           cover (wfire && sy_q < kh_q);
    N4_5_widest_row:          cover (wfire && ow_q == CntW'(MaxOutW) && ox_q == CntW'(MaxOutW - 1));
    N4_5_kh8_bank_wrap:       cover (wfire && kh_q == 4'd8 && y_q >= PW'(8));
    N4_5_pad_position:        cover (live_q && step && !real_pos);
    N4_5_cfg_while_results:   cover (cfire && v_q != '0);
    N4_5_back_pressure:       cover (live_q && out_valid_o && !out_ready_i);
    // ---- N-4.2 in a mean's sum (within a window row: filter 1; across rows: filter 2), N-1
    // NaN in max / min ----
    N4_2_pool_inf_minus_inf:  cover (s1 && op1 == ane_pkg::PeTreeSum && row_ii);
    N4_2_pool_rows_inf_minus_inf: cover (s12 && op12 == ane_pkg::PeTreeSum && win_ii);
    N4_5_max_nan:             cover (s1 && op1 == ane_pkg::PeTreeMax && row_nan);
    N4_5_min_nan:             cover (s1 && op1 == ane_pkg::PeTreeMin && row_nan);
  end

endmodule

bind ane_pe_pool ane_pe_pool_cov #(.NumLanes(NumLanes), .MaxOutW(MaxOutW), .CntW(CntW)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
