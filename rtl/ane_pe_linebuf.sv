// SPDX-License-Identifier: Apache-2.0
// ane_pe_linebuf: the planar engine's line buffer for reductions across lines (NUMERICS N-4.4;
// docs/planar.md): over the columns of a plane (the lines are its rows) or across channels
// (the lines are the channels' planes, cut into stretches of positions). It feeds the
// reduction tree (ane_pe_reduce, wired in ane_pe_vreduce) and keeps every column's running
// result between the tree's patches.
//
// One job reduces N lines of the same length L (1 .. MaxW) column by column: result j is the
// oracle's ReduceList over element j of lines 0, 1, .., N - 1, in that order. The oracle cuts
// that list into patches of 64 (tree input i takes line 64 p + i), so the unit works in blocks
// of 64 lines:
//
//   writer     a line arrives as ceil(L / NumLanes) beats of NumLanes elements (element j in
//              lane j mod NumLanes of beat j / NumLanes; lanes past L are ignored). Line r goes
//              to row r mod 64 of the write half; after the 64th line of a block, or the job's
//              last line, the half is full and the writer moves to the other half (two halves:
//              the next block is written while this one is read).
//   reader     for j = 0 .. L - 1, one column per cycle: rows 0 .. 63 of column j form a patch
//              (mask: the block's rows), offered to the tree with the job's operator. The
//              column's tag (j, first block, last block, op) enters a FIFO that follows the
//              tree in order (32 deep: more than the tree's latency, 22).
//   retention  a tree result for column j of the first block is the column's running value;
//              for a later block it combines as node(running, tree) (the running register of
//              N-4.4, one per column: MaxW fp32 words). On the job's last block the combined
//              value leaves instead: fp32 and its fp16 store (RNE16, plain fp16 range).
//              The node has three stages (ane_pe_node with Pipe = 1, R1-R3) before the running
//              value or the result register: a result leaves 4 cycles after the tree's. A
//              result whose column an earlier result in R1-R3 still writes waits for it.
//
// Results leave in column order, one per beat. The tree sees first = last = 1 on every patch
// (its own register passes the tree's value through). The reader needs L cycles per block and
// the writer 64 ceil(L / NumLanes) (fewer for a job's last block), so with MaxW <= 64 NumLanes
// the writer waits for the reader only on jobs of fewer than 64 lines.
// The configuration of the next job is taken the cycle after a job's last beat (one idle
// cycle between jobs); results of a job may still be in flight.
`default_nettype none

module ane_pe_linebuf #(
  parameter int NumLanes = 16,
  parameter int MaxW     = 64,   // the longest line; a multiple of NumLanes
  parameter int CntW     = 16    // N up to 2^CntW - 1 lines
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // one job
  input  wire logic                   cfg_valid_i,
  output      logic                   cfg_ready_o,
  input  wire ane_pkg::pe_tree_op_e   cfg_op_i,
  input  wire logic [CntW-1:0]        cfg_n_i,     // lines, >= 1
  input  wire logic [$clog2(MaxW+1)-1:0] cfg_len_i, // elements per line, 1 .. MaxW
  // the lines
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  // to the tree
  output      logic                   p_valid_o,
  input  wire logic                   p_ready_i,
  output      logic [1:0]             p_op_o,
  output      logic [63:0]            p_mask_o,
  output      logic [64*16-1:0]       p_data_o,
  // from the tree
  input  wire logic                   r_valid_i,
  output      logic                   r_ready_o,
  input  wire logic [31:0]            r_fp32_i,
  // the results
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [31:0]            out_fp32_o,
  output      logic [15:0]            out_fp16_o,
  output      logic                   busy_o       // a job being written, read or in flight
);

  localparam int LenW   = $clog2(MaxW + 1);
  localparam int ColW   = (MaxW > 1) ? $clog2(MaxW) : 1;
  localparam int Beats  = MaxW / NumLanes;          // beats of the longest line
  localparam int BeatW  = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int TagW   = ColW + 4;                 // col, first, last, op
  localparam int Depth  = 32;                       // > the tree's latency (22)
  localparam int PtrW   = $clog2(Depth);

`ifndef SYNTHESIS
  initial begin
    assert (MaxW % NumLanes == 0);
    assert (MaxW <= 64 * NumLanes);
  end
`endif

  // ---------------------------------------------------------------- the two halves
  // Row i of the line buffer holds element (half h, column j) at bits 16 (h MaxW + j); per
  // half: full, the block's rows (1 .. 64), first / last block of its job, op, L.
  logic [1:0]        full_q;
  logic [13:0]       hrows_q;
  logic [1:0]        hfirst_q, hlast_q;
  logic [3:0]        hop_q;
  logic [2*LenW-1:0] hlen_q;

  // ---------------------------------------------------------------- writer
  logic            wbusy_q, wh_q;
  logic [1:0]      op_q;
  logic [CntW-1:0] n_q, r_q;                        // lines of the job, lines written
  logic [LenW-1:0] len_q;
  logic [5:0]      row_q;                           // r mod 64
  logic [BeatW-1:0] beat_q;                         // beat within the line
  logic            first_blk_q;                     // the block is the job's first
  logic            in_fire, line_end, blk_end, job_end;

  assign cfg_ready_o = !wbusy_q;
  assign in_ready_o  = wbusy_q && !full_q[wh_q];
  assign in_fire     = in_valid_i && in_ready_o;
  assign line_end    = (32'(beat_q) + 1) * NumLanes >= 32'(len_q);
  assign job_end     = line_end && (r_q + 1'b1 == n_q);
  assign blk_end     = line_end && (row_q == 6'd63 || r_q + 1'b1 == n_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbusy_q     <= 1'b0;
      wh_q        <= 1'b0;
      op_q        <= '0;
      n_q         <= '0;
      r_q         <= '0;
      len_q       <= '0;
      row_q       <= '0;
      beat_q      <= '0;
      first_blk_q <= 1'b0;
    end else if (!wbusy_q) begin
      if (cfg_valid_i) begin
        wbusy_q     <= 1'b1;
        op_q        <= cfg_op_i;
        n_q         <= cfg_n_i;
        len_q       <= cfg_len_i;
        r_q         <= '0;
        row_q       <= '0;
        beat_q      <= '0;
        first_blk_q <= 1'b1;
      end
    end else if (in_fire) begin
      if (!line_end) begin
        beat_q <= beat_q + 1'b1;
      end else begin
        beat_q <= '0;
        r_q    <= r_q + 1'b1;
        row_q  <= row_q + 1'b1;
        if (blk_end) begin
          wh_q        <= !wh_q;
          first_blk_q <= 1'b0;
        end
        if (job_end) wbusy_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- reader
  logic            rh_q;
  logic [ColW-1:0] col_q;
  logic [PtrW:0]   cnt_q;                           // tags in the FIFO
  logic            p_fire, r_fire, col_end;

  logic [6:0]      r_rows;
  logic [LenW-1:0] r_len;
  assign r_rows    = hrows_q[7 * rh_q +: 7];
  assign r_len     = hlen_q[LenW * rh_q +: LenW];
  assign p_valid_o = full_q[rh_q] && (cnt_q < (PtrW+1)'(Depth));
  assign p_fire    = p_valid_o && p_ready_i;
  assign col_end   = 32'(col_q) + 1 == 32'(r_len);
  assign p_op_o    = hop_q[2 * rh_q +: 2];

  // The read select, gated with the half's full bit. This puts a gate between the select flops
  // and the 64 rows' multiplexers (64 x 16 loads per bit), so the mapping's buffer pass builds
  // a tree for that fanout (it does not buffer flop outputs: ungated, the select measured
  // 70 ns in OSU 0.18). While the half is not full no patch is offered and row 0 is read.
  logic [ColW:0] rsel;
  assign rsel = full_q[rh_q] ? {rh_q, col_q} : '0;

  // Row i: the line-buffer row (written when line r has r mod 64 = i, column j from lane
  // j mod NumLanes of beat j / NumLanes), and its element of the patch being read.
  for (genvar i = 0; i < 64; i++) begin : g_row
    logic [2*MaxW*16-1:0] buf_q;
    always_ff @(posedge clk_i) begin
      for (int j = 0; j < MaxW; j++) begin
        if (in_fire && row_q == 6'(i) && 32'(beat_q) == j / NumLanes) begin
          if (wh_q) buf_q[16 * (MaxW + j) +: 16] <= in_data_i[16 * (j % NumLanes) +: 16];
          else      buf_q[16 * j +: 16]          <= in_data_i[16 * (j % NumLanes) +: 16];
        end
      end
    end
    assign p_mask_o[i]          = 7'(i) < r_rows;
    assign p_data_o[16*i +: 16] = buf_q[16 * (32'(rsel[ColW]) * MaxW + 32'(rsel[ColW-1:0])) +: 16];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q   <= '0;
      rh_q     <= 1'b0;
      col_q    <= '0;
      hfirst_q <= '0;
      hlast_q  <= '0;
      hrows_q  <= '0;
      hop_q    <= '0;
      hlen_q   <= '0;
    end else begin
      if (in_fire && blk_end) begin
        full_q[wh_q]   <= 1'b1;
        hrows_q[7 * wh_q +: 7]       <= 7'(row_q) + 7'd1;
        hfirst_q[wh_q]               <= first_blk_q;
        hlast_q[wh_q]                <= job_end;
        hop_q[2 * wh_q +: 2]         <= op_q;
        hlen_q[LenW * wh_q +: LenW]  <= len_q;
      end
      if (p_fire) begin
        if (col_end) begin
          col_q        <= '0;
          full_q[rh_q] <= 1'b0;
          rh_q         <= !rh_q;
        end else begin
          col_q <= col_q + 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- the tag FIFO
  logic [Depth*TagW-1:0] tag_q;
  logic [PtrW-1:0]       wp_q, rp_q;
  logic [TagW-1:0]       tag_in, tag_out;
  logic [ColW-1:0]       t_col;
  logic                  t_first, t_last;
  logic [1:0]            t_op;

  assign tag_in  = {col_q, hfirst_q[rh_q], hlast_q[rh_q], p_op_o};
  assign tag_out = tag_q[TagW * rp_q +: TagW];
  assign {t_col, t_first, t_last, t_op} = tag_out;

  always_ff @(posedge clk_i) begin
    if (p_fire) tag_q[TagW * wp_q +: TagW] <= tag_in;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (p_fire) wp_q <= wp_q + 1'b1;
      if (r_fire) rp_q <= rp_q + 1'b1;
      cnt_q <= cnt_q + (PtrW+1)'(p_fire) - (PtrW+1)'(r_fire);
    end
  end

  // ---------------------------------------------------------------- retention and the result
  // Three stages after a tree result is taken (R1, R2, R3: the node's stages, ane_pe_node with
  // Pipe = 1), then the running value or the result register. R1 holds the tree value, the
  // column's running value (read when the result is taken) and the tag. A result is taken only
  // when no earlier result still in R1 .. R3 will write its column's running value (a later
  // block's result needs that value); the stages advance together and stall while a result
  // waits at the output.
  logic [MaxW*32-1:0] run_q;                        // each column's running value
  logic [31:0]        run_node, run_next;
  logic               en_r, hazard;
  logic [3:1]         rv_q, rlast_q;                // R1 .. R3
  logic [3:1]         rfirst_q;
  logic [3*ColW-1:0]  rcol_q;
  logic [1:0]         rop1_q;
  logic [31:0]        rt1_q, rt2_q, rt3_q, rrun1_q;

  assign en_r = !out_valid_o || out_ready_i;
  always_comb begin
    hazard = 1'b0;
    for (int k = 0; k < 3; k++) begin
      if (rv_q[k + 1] && !rlast_q[k + 1] && rcol_q[ColW * k +: ColW] == t_col) hazard = 1'b1;
    end
    hazard = hazard && !t_first;
  end
  assign r_ready_o = en_r && !hazard;
  assign r_fire    = r_valid_i && r_ready_o;

  ane_pe_node #(.Pipe(1'b1)) u_run (.clk_i(clk_i), .en_i(en_r), .op_i(rop1_q), .a_i(rrun1_q),
                                    .b_i(rt1_q), .y_o(run_node));
  assign run_next = rfirst_q[3] ? rt3_q : run_node;

  always_ff @(posedge clk_i) begin
    if (en_r) begin
      rop1_q   <= t_op;
      rt1_q    <= r_fp32_i;
      rrun1_q  <= run_q[32 * t_col +: 32];
      rt2_q    <= rt1_q;
      rt3_q    <= rt2_q;
      rcol_q   <= {rcol_q[2*ColW-1:0], t_col};
      rfirst_q <= {rfirst_q[2:1], t_first};
      rlast_q  <= {rlast_q[2:1], t_last};
      if (rv_q[3] && !rlast_q[3]) run_q[32 * rcol_q[2*ColW +: ColW] +: 32] <= run_next;
      if (rv_q[3] && rlast_q[3]) out_fp32_o <= run_next;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv_q        <= '0;
      out_valid_o <= 1'b0;
    end else if (en_r) begin
      rv_q        <= {rv_q[2:1], r_fire};
      out_valid_o <= rv_q[3] && rlast_q[3];
    end
  end

  ane_mac_out #(.Gen(ane_pkg::GenM5)) u_store (.acc_i(out_fp32_o), .fp16_o(out_fp16_o));

  assign busy_o = wbusy_q || (|full_q) || (cnt_q != '0) || (rv_q != '0) || out_valid_o;

`ifndef SYNTHESIS
  // Legal jobs only; a tree result always has its tag.
  logic chk_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_q <= 1'b0;
    end else begin
      chk_q <= 1'b1;
      if (cfg_valid_i && cfg_ready_o) begin
        assert (cfg_n_i != '0);
        assert (cfg_len_i != '0 && 32'(cfg_len_i) <= MaxW);
      end
      if (chk_q && r_valid_i) assert (cnt_q != '0);
    end
  end
`endif

endmodule
