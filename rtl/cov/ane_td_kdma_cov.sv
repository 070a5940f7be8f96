// SPDX-License-Identifier: Apache-2.0
// ane_td_kdma_cov: functional coverage of ane_td_kdma, the kernel DMA of the TD front end
// (rtl/ane_td_kdma.sv, docs/td_ctrl.md): every state of its read side (RIdle, RPrep, RRun,
// RDone) and of its emit side (EIdle, EHdr, EPar, EVal, EFlush, EDone) reached and every
// transition taken; each number of kernel DMA channels a job starts with (0: a per-element pass,
// 1 .. 16), each pass size nk (1 .. 8), the job's options (fp16 / int8, parameter records, the
// bias in the blocks, several passes per group, a short last pass); the error (a bias in a block
// infinite or NaN) and the bias values; credits, read and write back-pressure, the directory
// writes; and a reset in every state of both sides.
// (Whether a lookup table rides along is the set-up's: ane_td_setup_cov covers each channel
// count with the table on and off.)
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Reset in a state: sampled at the falling edge of rst_ni from the state registers themselves.
// The block writes them with nonblocking assignments, so in the time step of that edge every
// process still reads the state from before the reset (the reset's update comes later, in the
// NBA region): no race. A copy taken at posedge clk_i would hold the state of the cycle before.
// armed_q (reset with rst_ni, set by the first clock edge after its release) keeps a fall of
// rst_ni with no clock edge since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_td_kdma_cov #(
  // the block's rd_e and emit_e, and its answer buffer, passed by the bind
  parameter logic [1:0]  RIdle  = 2'd0,
  parameter logic [1:0]  RPrep  = 2'd1,
  parameter logic [1:0]  RRun   = 2'd2,
  parameter logic [1:0]  RDone  = 2'd3,
  parameter logic [2:0]  EIdle  = 3'd0,
  parameter logic [2:0]  EHdr   = 3'd1,
  parameter logic [2:0]  EPar   = 3'd2,
  parameter logic [2:0]  EVal   = 3'd3,
  parameter logic [2:0]  EFlush = 3'd4,
  parameter logic [2:0]  EDone  = 3'd5,
  parameter int unsigned Depth  = 8,
  parameter int unsigned AW     = 3
) (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        start,
  input wire logic [4:0]  nchan_i,
  input wire logic        fp16_i,
  input wire logic        params_i,
  input wire logic        bias_in_i,
  input wire logic [9:0]  ppg_i,
  input wire logic [3:0]  nk_full_i,
  input wire logic [3:0]  nk_last_i,
  input wire logic [1:0]  r_state_q,
  input wire logic [2:0]  e_state_q,
  input wire logic [2:0]  e_nk_q,
  input wire logic        bin_q,
  input wire logic        acc,
  input wire logic [15:0] rec_b16,
  input wire logic        finish,
  input wire logic        err_o,
  input wire logic [AW:0] resv_q,
  input wire logic        dir_w,
  input wire logic        rd_valid_o,
  input wire logic        rd_ready_i,
  input wire logic        wr_valid_o,
  input wire logic        wr_ready_i
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end
  logic [1:0] r_p_q;  // the states in the cycle before (with armed_q)
  logic [2:0] e_p_q;
  always_ff @(posedge clk_i) begin
    r_p_q <= r_state_q;
    e_p_q <= e_state_q;
  end

  // a parameter record taking its bias from the pass's first block (bias_in_i)
  logic rec_bias;
  assign rec_bias = bin_q && e_state_q == EPar && acc;
  logic bias_infnan, bias_sub;
  assign bias_infnan = rec_b16[14:10] == 5'h1f;
  assign bias_sub    = rec_b16[14:10] == 5'd0 && rec_b16[9:0] != 10'd0;

  // the clocked bins: counted from the second clock edge after rst_ni rises (armed_q; a clocked
  // cover that read rst_ni would be flagged SYNCASYNCNET in the coverage build)
  always_ff @(posedge clk_i) begin
    if (armed_q) begin
      // states
      TD_kdma_r_idle: cover (r_state_q == RIdle);
      TD_kdma_r_prep: cover (r_state_q == RPrep);
      TD_kdma_r_run: cover (r_state_q == RRun);
      TD_kdma_r_done: cover (r_state_q == RDone);
      TD_kdma_e_idle: cover (e_state_q == EIdle);
      TD_kdma_e_hdr: cover (e_state_q == EHdr);
      TD_kdma_e_par: cover (e_state_q == EPar);
      TD_kdma_e_val: cover (e_state_q == EVal);
      TD_kdma_e_flush: cover (e_state_q == EFlush);
      TD_kdma_e_done: cover (e_state_q == EDone);
      // read side transitions: start (reads, or none for a per-element pass), the last read,
      // the job's end, a start right after it
      TD_kdma_tr_r_idle_prep: cover (r_p_q == RIdle && r_state_q == RPrep);
      TD_kdma_tr_r_idle_done: cover (r_p_q == RIdle && r_state_q == RDone);
      TD_kdma_tr_r_prep_run: cover (r_p_q == RPrep && r_state_q == RRun);
      TD_kdma_tr_r_run_done: cover (r_p_q == RRun && r_state_q == RDone);
      TD_kdma_tr_r_done_idle: cover (r_p_q == RDone && r_state_q == RIdle);
      TD_kdma_tr_r_done_prep: cover (r_p_q == RDone && r_state_q == RPrep);
      // emit side transitions: start, header into records or values, records into values, the
      // last column, the next pass, the last pass, the last directory entry
      TD_kdma_tr_e_idle_hdr: cover (e_p_q == EIdle && e_state_q == EHdr);
      TD_kdma_tr_e_hdr_par: cover (e_p_q == EHdr && e_state_q == EPar);
      TD_kdma_tr_e_hdr_val: cover (e_p_q == EHdr && e_state_q == EVal);
      TD_kdma_tr_e_par_val: cover (e_p_q == EPar && e_state_q == EVal);
      TD_kdma_tr_e_val_flush: cover (e_p_q == EVal && e_state_q == EFlush);
      TD_kdma_tr_e_flush_hdr: cover (e_p_q == EFlush && e_state_q == EHdr);
      TD_kdma_tr_e_flush_done: cover (e_p_q == EFlush && e_state_q == EDone);
      TD_kdma_tr_e_done_idle: cover (e_p_q == EDone && e_state_q == EIdle);
      // a job's start: each number of kernel DMA channels (0: a per-element pass)
      TD_kdma_nchan_0: cover (start && nchan_i == 5'd0);
      TD_kdma_nchan_1: cover (start && nchan_i == 5'd1);
      TD_kdma_nchan_2: cover (start && nchan_i == 5'd2);
      TD_kdma_nchan_3: cover (start && nchan_i == 5'd3);
      TD_kdma_nchan_4: cover (start && nchan_i == 5'd4);
      TD_kdma_nchan_5: cover (start && nchan_i == 5'd5);
      TD_kdma_nchan_6: cover (start && nchan_i == 5'd6);
      TD_kdma_nchan_7: cover (start && nchan_i == 5'd7);
      TD_kdma_nchan_8: cover (start && nchan_i == 5'd8);
      TD_kdma_nchan_9: cover (start && nchan_i == 5'd9);
      TD_kdma_nchan_10: cover (start && nchan_i == 5'd10);
      TD_kdma_nchan_11: cover (start && nchan_i == 5'd11);
      TD_kdma_nchan_12: cover (start && nchan_i == 5'd12);
      TD_kdma_nchan_13: cover (start && nchan_i == 5'd13);
      TD_kdma_nchan_14: cover (start && nchan_i == 5'd14);
      TD_kdma_nchan_15: cover (start && nchan_i == 5'd15);
      TD_kdma_nchan_16: cover (start && nchan_i == 5'd16);
      // a job's options
      TD_kdma_fp16: cover (start && fp16_i);
      TD_kdma_int8: cover (start && !fp16_i);
      TD_kdma_params: cover (start && params_i);
      TD_kdma_bias_in: cover (start && bias_in_i);
      TD_kdma_ppg_many: cover (start && ppg_i > 10'd1);
      TD_kdma_nk_last_short: cover (start && ppg_i > 10'd1 && nk_last_i != nk_full_i);
      // each pass size
      TD_kdma_nk_1: cover (e_state_q == EHdr && acc && e_nk_q == 3'd0);
      TD_kdma_nk_2: cover (e_state_q == EHdr && acc && e_nk_q == 3'd1);
      TD_kdma_nk_3: cover (e_state_q == EHdr && acc && e_nk_q == 3'd2);
      TD_kdma_nk_4: cover (e_state_q == EHdr && acc && e_nk_q == 3'd3);
      TD_kdma_nk_5: cover (e_state_q == EHdr && acc && e_nk_q == 3'd4);
      TD_kdma_nk_6: cover (e_state_q == EHdr && acc && e_nk_q == 3'd5);
      TD_kdma_nk_7: cover (e_state_q == EHdr && acc && e_nk_q == 3'd6);
      TD_kdma_nk_8: cover (e_state_q == EHdr && acc && e_nk_q == 3'd7);
      // the biases in the blocks: finite (negative, subnormal), and the error (inf, NaN)
      TD_kdma_bias_negative: cover (rec_bias && rec_b16[15] && !bias_infnan);
      TD_kdma_bias_subnormal: cover (rec_bias && bias_sub);
      TD_kdma_err_bias_inf: cover (rec_bias && bias_infnan && rec_b16[9:0] == 10'd0);
      TD_kdma_err_bias_nan: cover (rec_bias && bias_infnan && rec_b16[9:0] != 10'd0);
      TD_kdma_err_at_end: cover (finish && err_o);
      TD_kdma_done: cover (finish);
      // credits and traffic
      TD_kdma_credit_stall: cover (r_state_q == RRun && resv_q == (AW + 1)'(Depth));
      TD_kdma_rd_stall: cover (rd_valid_o && !rd_ready_i);
      TD_kdma_wr_stall: cover (wr_valid_o && !wr_ready_i);
      TD_kdma_dir_write: cover (dir_w);
    end
  end

  always @(negedge rst_ni) begin
    RST_td_kdma_r_idle: cover (armed_q && r_state_q == RIdle);
    RST_td_kdma_r_prep: cover (armed_q && r_state_q == RPrep);
    RST_td_kdma_r_run: cover (armed_q && r_state_q == RRun);
    RST_td_kdma_r_done: cover (armed_q && r_state_q == RDone);
    RST_td_kdma_e_idle: cover (armed_q && e_state_q == EIdle);
    RST_td_kdma_e_hdr: cover (armed_q && e_state_q == EHdr);
    RST_td_kdma_e_par: cover (armed_q && e_state_q == EPar);
    RST_td_kdma_e_val: cover (armed_q && e_state_q == EVal);
    RST_td_kdma_e_flush: cover (armed_q && e_state_q == EFlush);
    RST_td_kdma_e_done: cover (armed_q && e_state_q == EDone);
  end

endmodule

bind ane_td_kdma ane_td_kdma_cov #(
  .RIdle(RIdle), .RPrep(RPrep), .RRun(RRun), .RDone(RDone),
  .EIdle(EIdle), .EHdr(EHdr), .EPar(EPar), .EVal(EVal), .EFlush(EFlush), .EDone(EDone),
  .Depth(Depth), .AW(AW)
) u_cov (.*);

`default_nettype wire
// verilator coverage_on
