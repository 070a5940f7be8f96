// SPDX-License-Identifier: Apache-2.0
// ane_pe_linebuf_cov: functional-coverage bins of the planar line buffer ane_pe_linebuf
// (NUMERICS N-4.4 reductions across lines: over columns or across channels, MODE.KIND 2;
// N-4.2 inf - inf in its running node): every operator, a job of one line, lines of one
// element, of the full width and ending inside a beat, lists of one element, lists that end
// inside a block of 64 lines (a tree patch) and exactly at a block's end, later blocks that
// combine with the running value, a result that waits for its column's earlier block, the
// writer waiting for the reader, and the fp16 store's range. Bins read the job handshake
// (cfg_valid_i && cfg_ready_o), the patch handshake to the tree (p_fire), the retention node's
// entry (R1 valid, advancing) or the output handshake. The axis (columns or channels) is not
// known here: ane_planar_cov crosses it with the operator.
// Bound to every ane_pe_linebuf only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_linebuf_cov #(
  parameter int NumLanes = 16,
  parameter int MaxW     = 64,
  parameter int CntW     = 16
) (
  input wire logic                        clk_i,
  input wire logic                        rst_ni,
  input wire logic                        cfg_valid_i,
  input wire logic                        cfg_ready_o,
  input wire ane_pkg::pe_tree_op_e        cfg_op_i,
  input wire logic [CntW-1:0]             cfg_n_i,
  input wire logic [$clog2(MaxW+1)-1:0]   cfg_len_i,
  input wire logic                        in_valid_i,
  input wire logic                        r_valid_i,
  input wire logic                        out_valid_o,
  input wire logic                        out_ready_i,
  input wire logic [31:0]                 out_fp32_o,
  input wire logic [15:0]                 out_fp16_o,
  input wire logic                        busy_o,
  // the unit's own signals: the writer, the read half's block, the retention node's stage R1
  input wire logic                        wbusy_q,
  input wire logic                        wh_q,
  input wire logic [1:0]                  full_q,
  input wire logic                        rh_q,
  input wire logic [1:0]                  hfirst_q,
  input wire logic [1:0]                  hlast_q,
  input wire logic [6:0]                  r_rows,
  input wire logic                        p_fire,
  input wire logic                        en_r,
  input wire logic                        hazard,
  input wire logic [3:1]                  rv_q,
  input wire logic [3:1]                  rfirst_q,
  input wire logic [1:0]                  rop1_q,
  input wire logic [31:0]                 rrun1_q,
  input wire logic [31:0]                 rt1_q
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  localparam int LenW = $clog2(MaxW + 1);

  logic cfire, ofire, hfirst, hlast, r1_in;
  assign cfire  = live_q && cfg_valid_i && cfg_ready_o;
  assign ofire  = live_q && out_valid_o && out_ready_i;
  assign hfirst = hfirst_q[rh_q];
  assign hlast  = hlast_q[rh_q];
  // a later block's tree result meets its column's running value in the node (R1 advancing)
  assign r1_in  = live_q && en_r && rv_q[1] && !rfirst_q[1];

  logic        run_ii;
  logic [30:0] omag;
  assign run_ii = rop1_q == ane_pkg::PeTreeSum && rrun1_q[30:0] == 31'h7F80_0000 &&
                  rt1_q[30:0] == 31'h7F80_0000 && rrun1_q[31] != rt1_q[31];
  assign omag   = out_fp32_o[30:0];

  // (the ports' bits no bin reads)
  logic unused;
  assign unused = ^{out_fp32_o[31], out_fp16_o[15], rv_q[3:2], rfirst_q[3:2]};

  // N-4.4: every operator of a job.
  if (1) begin : g_op_0
    always_ff @(posedge clk_i) begin
      N4_4_line_op_0: cover (cfire && cfg_op_i == 2'(0));
    end
  end
  if (1) begin : g_op_1
    always_ff @(posedge clk_i) begin
      N4_4_line_op_1: cover (cfire && cfg_op_i == 2'(1));
    end
  end
  if (1) begin : g_op_2
    always_ff @(posedge clk_i) begin
      N4_4_line_op_2: cover (cfire && cfg_op_i == 2'(2));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.4: jobs, lines and blocks ----
    N4_4_line_one_line:          cover (cfire && cfg_n_i == CntW'(1));
    N4_4_line_three_blocks:      cover (cfire && cfg_n_i > CntW'(128));
    N4_4_line_len_one:           cover (cfire && cfg_len_i == LenW'(1));
    N4_4_line_len_max:           cover (cfire && cfg_len_i == LenW'(MaxW));
    N4_4_line_len_partial_beat:  cover (cfire && (32'(cfg_len_i) % NumLanes) != 0);
    N4_4_line_cfg_while_busy:    cover (cfire && busy_o);
    N4_4_line_one_element_list:  cover (live_q && p_fire && hfirst && hlast && r_rows == 7'd1);
    N4_4_line_end_inside_block:  cover (live_q && p_fire && hlast && r_rows != 7'd64);
    N4_4_line_end_at_block_end:  cover (live_q && p_fire && hlast && r_rows == 7'd64);
    N4_4_line_later_block:       cover (live_q && p_fire && !hfirst);
    N4_4_line_retention_waits:   cover (live_q && r_valid_i && en_r && hazard);
    N4_4_line_writer_waits:      cover (live_q && in_valid_i && wbusy_q && full_q[wh_q]);
    // ---- N-4.2: inf - inf = +0 in the running node ----
    N4_2_line_inf_minus_inf:     cover (r1_in && run_ii);
    // ---- N-4.4: the fp16 store, plain range ----
    N4_4_line_store_rounds_to_max: cover (ofire && omag > 31'h477F_E000 && omag < 31'h477F_F000);
    N4_4_line_store_overflow_inf:  cover (ofire && omag >= 31'h477F_F000 && omag < 31'h7F80_0000);
    N4_4_line_store_subnormal:     cover (ofire && out_fp16_o[14:10] == 5'd0 && out_fp16_o[9:0] != 10'd0);
    N4_4_line_back_pressure:       cover (live_q && out_valid_o && !out_ready_i);
  end

endmodule

bind ane_pe_linebuf ane_pe_linebuf_cov #(.NumLanes(NumLanes), .MaxW(MaxW), .CntW(CntW)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
