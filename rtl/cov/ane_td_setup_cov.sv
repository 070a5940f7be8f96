// SPDX-License-Identifier: Apache-2.0
// ane_td_setup_cov: functional coverage of ane_td_setup, the layer set-up of the TD front end
// (rtl/ane_td_setup.sv, docs/td_ctrl.md "The layer set-up"):
//   - each error code raised (5 fixed, 1 field, 2 shape, 3 core, 4 table), and each check that
//     can set one: every condition of bad_field, bad_pe (a planar TD), bad_ne (a neural-engine
//     TD), bad_shape and bad_core at the check, and each refusal of the plan (Cin or Cout not a
//     multiple of the groups, the output size per direction, each field past its core register,
//     no tile that fits the bank) and of the configuration (a non-finite table word, a
//     non-finite bias in a kernel block); for code 5 the TD's kind and the stream (or the header)
//     of the first refused word (ane_td_rules: its per-word verdicts are covered here, where
//     they are sampled; the rules block itself is combinational and has no clock);
//   - the acceptance path: each group of checks passed, a TD of each kind past the check, each
//     step of the plan passed (the transitions), the kind of layer configured, the planar
//     operator;
//   - every state of the set-up's state machine reached and every transition taken, the waits
//     (the core's PREP, the table conversion, the kernel DMA, the core, the planar engine), the
//     TDs dropped after an error and the clear of a new walk;
//   - the kernel DMA's start with each number of channels (0: a per-element pass, 1 .. 16),
//     with the lookup table on and off;
//   - a reset in every state.
// A check's bin counts when the check refuses at the check cycle (SCheck), whether or not a check
// of higher priority refused the TD too (the code says which one won). The conditions are the
// RTL's own, read from its signals; a bin names the RTL condition it copies.
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Reset in a state: sampled at the falling edge of rst_ni from the state register itself. The
// block writes its state with nonblocking assignments, so in the time step of that edge every
// process still reads the state from before the reset (the reset's update comes later, in the
// NBA region): no race. A copy taken at posedge clk_i would hold the state of the cycle before.
// armed_q (reset with rst_ni, set by the first clock edge after its release) keeps a fall of
// rst_ni with no clock edge since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_td_setup_cov #(
  // the block's state_e, error codes and the width of its sequential unit, passed by the bind
  parameter logic [4:0] SCap = 5'd0,
  parameter logic [4:0] SCheck = 5'd1,
  parameter logic [4:0] SCg = 5'd2,
  parameter logic [4:0] SPer = 5'd3,
  parameter logic [4:0] SOh = 5'd4,
  parameter logic [4:0] SOw = 5'd5,
  parameter logic [4:0] STileH = 5'd6,
  parameter logic [4:0] SPh = 5'd7,
  parameter logic [4:0] SPw = 5'd8,
  parameter logic [4:0] SLoopMul = 5'd9,
  parameter logic [4:0] SLoopTest = 5'd10,
  parameter logic [4:0] SCpw = 5'd11,
  parameter logic [4:0] SNsl = 5'd12,
  parameter logic [4:0] SNty = 5'd13,
  parameter logic [4:0] SNtx = 5'd14,
  parameter logic [4:0] SPasses = 5'd15,
  parameter logic [4:0] SSteps1 = 5'd16,
  parameter logic [4:0] SSteps2 = 5'd17,
  parameter logic [4:0] SChs = 5'd18,
  parameter logic [4:0] SRange = 5'd19,
  parameter logic [4:0] SShifter = 5'd20,
  parameter logic [4:0] SPrep = 5'd21,
  parameter logic [4:0] SPost = 5'd22,
  parameter logic [4:0] STable = 5'd23,
  parameter logic [4:0] SCore = 5'd24,
  parameter logic [4:0] SKWait = 5'd25,
  parameter logic [4:0] SStart = 5'd26,
  parameter logic [4:0] SRun = 5'd27,
  parameter logic [4:0] SDone = 5'd28,
  parameter logic [4:0] SDrain = 5'd29,
  parameter logic [4:0] SPe = 5'd30,
  parameter logic [4:0] SPeRun = 5'd31,
  parameter int unsigned ErrField = 1,
  parameter int unsigned ErrShape = 2,
  parameter int unsigned ErrCore  = 3,
  parameter int unsigned ErrTable = 4,
  parameter int unsigned ErrFixed = 5,
  parameter int unsigned W = 20
) (
  input wire logic         clk_i,
  input wire logic         rst_ni,
  input wire logic         clear_i,
  input wire logic         take,
  input wire logic         wr_last_i,
  input wire logic         wr_header_i,
  // the state machine
  input wire logic [4:0]   st_q,
  input wire logic [4:0]   st_d,
  input wire logic         err_d,
  input wire logic [2:0]   code_d,
  // the plan
  input wire logic [W-1:0] u_q,
  input wire logic [W-1:0] cg_q,
  input wire logic [W-1:0] g_q,
  input wire logic [W-1:0] tile_h_q,
  input wire logic [W-1:0] passes_q,
  input wire logic [W-1:0] nty_q,
  input wire logic [W-1:0] ntx_q,
  input wire logic [W-1:0] ph_q,
  input wire logic [W-1:0] pw_q,
  input wire logic [W-1:0] steps_q,
  input wire logic         elem16,
  // the captured words and fields
  input wire logic         tbe,
  input wire logic         eon,
  input wire logic [4:0]   tbase,
  input wire logic [8:0]   nextsize,
  input wire logic [31:0]  h8_q,
  input wire logic [31:0]  h9_q,
  input wire logic [31:0]  sdma_q,
  input wire logic [31:0]  ddma_q,
  input wire logic [1:0]   infmt,
  input wire logic [1:0]   outfmt,
  input wire logic [1:0]   sfmt,
  input wire logic [1:0]   dfmt,
  input wire logic [1:0]   kfmt,
  input wire logic [12:0]  ngroups,
  input wire logic         sgs_nz_q,
  input wire logic         dgs_nz_q,
  input wire logic         planar,
  input wire logic         pass,
  input wire logic         int8,
  input wire logic         out8,
  input wire logic         scale_en,
  input wire logic         table_en,
  input wire logic [4:0]   nen,
  input wire logic         pe_binary,
  input wire logic [1:0]   pe_op,
  input wire logic [1:0]   s1fmt,
  input wire logic [1:0]   s1mem,
  input wire logic [15:0]  pe_scale,
  input wire logic [15:0]  pe_bias,
  input wire logic [15:0]  pe_s0scale,
  input wire logic [2:0]   active_ne,
  input wire logic [2:0]   ene,
  input wire logic [2:0]   opmode,
  input wire logic         kmode,
  input wire logic         biasmode,
  input wire logic [1:0]   nlmode,
  input wire logic [15:0]  pscale,
  input wire logic [4:0]   rshift,
  input wire logic [15:0]  ken_q,
  input wire logic [15:0]  koff_nz_q,
  input wire logic [15:0]  ksz0_q,
  input wire logic [15:0]  ksz1_q,
  input wire logic         src1_nz_q,
  input wire logic         planar_nz_q,
  input wire logic [14:0]  win,
  input wire logic [14:0]  hin,
  input wire logic [14:0]  wout,
  input wire logic [14:0]  hout,
  input wire logic [16:0]  cin,
  input wire logic [16:0]  cout,
  input wire logic [4:0]   kw,
  input wire logic [4:0]   kh,
  input wire logic [4:0]   px,
  input wire logic [4:0]   py,
  input wire logic [1:0]   sx,
  input wire logic [1:0]   sy,
  // the checks' verdicts, the fixed rules
  input wire logic         bad_fixed,
  input wire logic         bad_field,
  input wire logic         bad_shape,
  input wire logic         bad_core,
  input wire logic [1:0]   kind,
  input wire logic [74:0]  fix_at_q,
  input wire logic [2:0]   rok,
  // kernel DMA, table conversion, planar engine
  input wire logic         kd_start_o,
  input wire logic [4:0]   kd_nchan_o,
  input wire logic         tb_wr_valid_i,
  input wire logic         pe_busy_i
);

  localparam logic [1:0] FmtNone = ane_regs_pkg::TdFmtNone;
  localparam logic [1:0] FmtInt8 = ane_regs_pkg::TdFmtInt8;
  localparam logic [1:0] FmtFp16 = ane_regs_pkg::TdFmtFp16;
  localparam logic [2:0] OpConv  = ane_regs_pkg::TdOpModeConv;
  localparam logic [1:0] NlNone  = ane_regs_pkg::TdNonlinearNone;
  localparam logic [1:0] NlRelu  = ane_regs_pkg::TdNonlinearRelu;
  localparam logic [1:0] NlTable = ane_regs_pkg::TdNonlinearTable;

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  // a register address inside a stream's words
  function automatic logic in_stream(input logic [23:0] a, input int unsigned base, input int unsigned words);
    in_stream = {8'd0, a} >= base && {8'd0, a} < base + 4 * words;
  endfunction

  logic        chk;       // the check cycle
  logic        per_core;  // code 3 at the end of SPer (Cg, per or G past 1023)
  logic        range_err; // code 3 at the end of SRange
  logic        go_cfg;    // the plan is done: the kernel DMA starts, the configuration follows
  logic [24:0] fix_at;    // {header, address} of the first word the TD's kind refuses
  logic [4:0]  kbase0, rbase1;
  assign chk       = st_q == SCheck;
  assign per_core  = st_q == SPer && err_d && code_d == 3'(ErrCore);
  assign range_err = st_q == SRange && err_d;
  assign go_cfg    = st_q == SRange && st_d == SShifter;
  assign fix_at    = fix_at_q[25 * kind +: 25];
  assign kbase0    = h9_q[ane_regs_pkg::TdHeader9KBase0Lsb +: ane_regs_pkg::TdHeader9KBase0Width];
  assign rbase1    = h8_q[ane_regs_pkg::TdHeader8RBase1Lsb +: ane_regs_pkg::TdHeader8RBase1Width];

  // Functions are called here, not inside a cover: Verilator 5.006 drops a function call's body
  // inside an immediate cover's expression (the cover then reads a stale result).
  logic infmt_known, outfmt_known;  // as ane_td_setup's known_fmt: int8 or fp16
  assign infmt_known  = infmt == FmtInt8 || infmt == FmtFp16;
  assign outfmt_known = outfmt == FmtInt8 || outfmt == FmtFp16;
  logic pe_scale_nf, pe_bias_nf, pe_s0scale_nf, pscale_nf;  // not finite
  assign pe_scale_nf   = ane_pkg::fp16_is_infnan(pe_scale);
  assign pe_bias_nf    = ane_pkg::fp16_is_infnan(pe_bias);
  assign pe_s0scale_nf = ane_pkg::fp16_is_infnan(pe_s0scale);
  assign pscale_nf     = ane_pkg::fp16_is_infnan(pscale);
  // the stream of the first refused word (when it is not a header word)
  logic fix_in_kernel_dma, fix_in_common, fix_in_tile_src, fix_in_l2;
  logic fix_in_planar, fix_in_ne, fix_in_tile_dst;
  assign fix_in_kernel_dma = in_stream(fix_at[23:0], ane_regs_pkg::TdKernelDMASrcAddr,
                                                     ane_regs_pkg::TdKernelDMASrcWords);
  assign fix_in_common     = in_stream(fix_at[23:0], ane_regs_pkg::TdCommonAddr,
                                                     ane_regs_pkg::TdCommonWords);
  assign fix_in_tile_src   = in_stream(fix_at[23:0], ane_regs_pkg::TdTileDMASrcAddr,
                                                     ane_regs_pkg::TdTileDMASrcWords);
  assign fix_in_l2         = in_stream(fix_at[23:0], ane_regs_pkg::TdL2Addr,
                                                     ane_regs_pkg::TdL2Words);
  assign fix_in_planar     = in_stream(fix_at[23:0], ane_regs_pkg::TdPlanarAddr,
                                                     ane_regs_pkg::TdPlanarWords);
  assign fix_in_ne         = in_stream(fix_at[23:0], ane_regs_pkg::TdNEAddr,
                                                     ane_regs_pkg::TdNEWords);
  assign fix_in_tile_dst   = in_stream(fix_at[23:0], ane_regs_pkg::TdTileDMADstAddr,
                                                     ane_regs_pkg::TdTileDMADstWords);

  // the clocked bins: counted from the second clock edge after rst_ni rises (armed_q; a clocked
  // cover that read rst_ni would be flagged SYNCASYNCNET in the coverage build)
  always_ff @(posedge clk_i) begin
    if (armed_q) begin
      // ---------------------------------------------------------------- the codes raised
      TD_err_fixed: cover (err_d && code_d == 3'(ErrFixed));
      TD_err_field: cover (err_d && code_d == 3'(ErrField));
      TD_err_shape: cover (err_d && code_d == 3'(ErrShape));
      TD_err_core: cover (err_d && code_d == 3'(ErrCore));
      TD_err_table: cover (err_d && code_d == 3'(ErrTable));
      // ---------------------------------------------------------------- each check refusing
      // 5 (fixed): the TD's kind, and the stream (or the header) of the first refused word
      TD_setup_bad_fixed_conv: cover (chk && bad_fixed && kind == 2'(ane_regs_pkg::TdKindConv));
      TD_setup_bad_fixed_pass: cover (chk && bad_fixed && kind == 2'(ane_regs_pkg::TdKindPass));
      TD_setup_bad_fixed_planar: cover (chk && bad_fixed && kind == 2'(ane_regs_pkg::TdKindPlanar));
      TD_setup_bad_fixed_in_header: cover (chk && bad_fixed && fix_at[24]);
      TD_setup_bad_fixed_in_kernel_dma: cover (chk && bad_fixed && !fix_at[24] && fix_in_kernel_dma);
      TD_setup_bad_fixed_in_common: cover (chk && bad_fixed && !fix_at[24] && fix_in_common);
      TD_setup_bad_fixed_in_tile_src: cover (chk && bad_fixed && !fix_at[24] && fix_in_tile_src);
      TD_setup_bad_fixed_in_l2: cover (chk && bad_fixed && !fix_at[24] && fix_in_l2);
      TD_setup_bad_fixed_in_planar: cover (chk && bad_fixed && !fix_at[24] && fix_in_planar);
      TD_setup_bad_fixed_in_ne: cover (chk && bad_fixed && !fix_at[24] && fix_in_ne);
      TD_setup_bad_fixed_in_tile_dst: cover (chk && bad_fixed && !fix_at[24] && fix_in_tile_dst);
      // (the rules per word as the words pass: refused for a kind, a header word refused)
      TD_setup_rules_refuse_conv: cover (take && !rok[ane_regs_pkg::TdKindConv]);
      TD_setup_rules_refuse_pass: cover (take && !rok[ane_regs_pkg::TdKindPass]);
      TD_setup_rules_refuse_planar: cover (take && !rok[ane_regs_pkg::TdKindPlanar]);
      TD_setup_rules_refuse_header: cover (take && wr_header_i && rok != 3'b111);
      // 1 (field), either kind of TD
      TD_setup_bad_field_chain_tbe: cover (chk && tbe == eon);
      TD_setup_bad_field_chain_tbase: cover (chk && tbase != 5'd0);
      TD_setup_bad_field_chain_nextsize: cover (chk &&
                                                nextsize != (eon ? 9'd0 : 9'(ane_regs_pkg::TdBytes / 4 - 1)));
      TD_setup_bad_field_rbe0_off: cover (chk && !h8_q[ane_regs_pkg::TdHeader8RBE0Lsb]);
      TD_setup_bad_field_wbe_off: cover (chk && !h8_q[ane_regs_pkg::TdHeader8WBELsb]);
      TD_setup_bad_field_src_dma_off: cover (chk && !sdma_q[ane_regs_pkg::TdTileDMASrcDMAConfigEnLsb]);
      TD_setup_bad_field_dst_dma_off: cover (chk && !ddma_q[ane_regs_pkg::TdTileDMADstDMAConfigEnLsb]);
      TD_setup_bad_field_infmt_code: cover (chk && !infmt_known);
      TD_setup_bad_field_outfmt_code: cover (chk && !outfmt_known);
      TD_setup_bad_field_src_memfmt: cover (chk && sfmt != infmt);
      TD_setup_bad_field_dst_memfmt: cover (chk && dfmt != outfmt);
      TD_setup_bad_field_group_stride: cover (chk && ngroups > 13'd1 && (sgs_nz_q || dgs_nz_q));
      // 1 (field), a planar TD
      TD_setup_bad_pe_unary: cover (chk && planar && !pe_binary);
      TD_setup_bad_pe_no_src1: cover (chk && planar && !h8_q[ane_regs_pkg::TdHeader8RBE1Lsb]);
      TD_setup_bad_pe_infmt: cover (chk && planar && infmt != FmtFp16);
      TD_setup_bad_pe_src1_fmt: cover (chk && planar && s1fmt != FmtFp16);
      TD_setup_bad_pe_outfmt: cover (chk && planar && outfmt != FmtFp16);
      TD_setup_bad_pe_src1_memfmt: cover (chk && planar && s1mem != FmtFp16);
      TD_setup_bad_pe_scale_infnan: cover (chk && planar && pe_scale_nf);
      TD_setup_bad_pe_bias_infnan: cover (chk && planar && pe_bias_nf);
      TD_setup_bad_pe_src0_scale_infnan: cover (chk && planar && pe_s0scale_nf);
      TD_setup_bad_pe_active_ne: cover (chk && planar && active_ne != 3'd0);
      TD_setup_bad_pe_opmode: cover (chk && planar && opmode != OpConv);
      TD_setup_bad_pe_kernel_mode: cover (chk && planar && kmode);
      TD_setup_bad_pe_bias_mode: cover (chk && planar && biasmode);
      TD_setup_bad_pe_nonlinear: cover (chk && planar && nlmode != NlNone);
      TD_setup_bad_pe_kernel_fmt: cover (chk && planar && kfmt != FmtNone);
      TD_setup_bad_pe_post_scale: cover (chk && planar && pscale != 16'd0);
      TD_setup_bad_pe_right_shift: cover (chk && planar && rshift != 5'd0);
      TD_setup_bad_pe_kbe0: cover (chk && planar && h9_q[ane_regs_pkg::TdHeader9KBE0Lsb]);
      TD_setup_bad_pe_kbase0: cover (chk && planar && kbase0 != 5'd0);
      TD_setup_bad_pe_kernel_chan: cover (chk && planar && ken_q != 16'd0);
      TD_setup_bad_pe_kernel_offset: cover (chk && planar && koff_nz_q != 16'd0);
      TD_setup_bad_pe_kernel_size: cover (chk && planar && ksz0_q != 16'hffff);
      TD_setup_bad_pe_src_group_stride: cover (chk && planar && sgs_nz_q);
      TD_setup_bad_pe_dst_group_stride: cover (chk && planar && dgs_nz_q);
      // 1 (field), a neural-engine TD
      TD_setup_bad_ne_active_ne: cover (chk && !planar && active_ne + 3'd1 != ene);
      TD_setup_bad_ne_rbe1: cover (chk && !planar && h8_q[ane_regs_pkg::TdHeader8RBE1Lsb]);
      TD_setup_bad_ne_rbase1: cover (chk && !planar && rbase1 != 5'd0);
      TD_setup_bad_ne_src1_fmt: cover (chk && !planar && s1fmt != FmtNone);
      TD_setup_bad_ne_src1_word: cover (chk && !planar && src1_nz_q);
      TD_setup_bad_ne_planar_word: cover (chk && !planar && planar_nz_q);
      TD_setup_bad_ne_opmode: cover (chk && !planar && !pass && !(opmode == OpConv && !kmode));
      TD_setup_bad_ne_kernel_fmt: cover (chk && !planar && !pass && kfmt != infmt);
      TD_setup_bad_ne_pass_kernel_fmt: cover (chk && !planar && pass && kfmt != FmtNone);
      TD_setup_bad_ne_bias_pass: cover (chk && !planar && biasmode && pass);
      TD_setup_bad_ne_bias_int8: cover (chk && !planar && biasmode && int8);
      TD_setup_bad_ne_int8_scale: cover (chk && !planar && int8 && out8 && scale_en);
      TD_setup_bad_ne_fp16_right_shift: cover (chk && !planar && !int8 && rshift != 5'd0);
      TD_setup_bad_ne_fp16_out_int8: cover (chk && !planar && !int8 && outfmt != FmtFp16);
      TD_setup_bad_ne_post_scale_infnan: cover (chk && !planar && pscale_nf);
      TD_setup_bad_ne_nonlinear: cover (chk && !planar && nlmode != NlNone && nlmode != NlRelu &&
                                        nlmode != NlTable);
      TD_setup_bad_ne_kernel_chan_order: cover (chk && !planar && (ken_q & (ken_q + 16'd1)) != 16'd0);
      TD_setup_bad_ne_kernel_offset: cover (chk && !planar && (koff_nz_q & ~ken_q) != 16'd0);
      TD_setup_bad_ne_kernel_size: cover (chk && !planar && (ksz1_q | ken_q) != 16'hffff);
      TD_setup_bad_ne_kbe0: cover (chk && !planar &&
                                   h9_q[ane_regs_pkg::TdHeader9KBE0Lsb] != (ken_q != 16'd0));
      TD_setup_bad_ne_kbase0: cover (chk && !planar && ken_q == 16'd0 && kbase0 != 5'd0);
      TD_setup_bad_ne_table_no_chan: cover (chk && !planar && table_en && nen == 5'd0);
      TD_setup_bad_ne_pass_kernel_chan: cover (chk && !planar && pass && nen != {4'd0, table_en});
      TD_setup_bad_ne_conv_no_chan: cover (chk && !planar && !pass && nen <= {4'd0, table_en});
      // 2 (shape), at the check
      TD_setup_bad_shape_zero_win: cover (chk && win == 15'd0);
      TD_setup_bad_shape_zero_hin: cover (chk && hin == 15'd0);
      TD_setup_bad_shape_zero_cin: cover (chk && cin == 17'd0);
      TD_setup_bad_shape_zero_wout: cover (chk && wout == 15'd0);
      TD_setup_bad_shape_zero_hout: cover (chk && hout == 15'd0);
      TD_setup_bad_shape_zero_cout: cover (chk && cout == 17'd0);
      TD_setup_bad_shape_zero_kw: cover (chk && kw == 5'd0);
      TD_setup_bad_shape_zero_kh: cover (chk && kh == 5'd0);
      TD_setup_bad_shape_zero_sx: cover (chk && sx == 2'd0);
      TD_setup_bad_shape_zero_sy: cover (chk && sy == 2'd0);
      TD_setup_bad_shape_zero_groups: cover (chk && ngroups == 13'd0);
      TD_setup_bad_shape_pad_x: cover (chk && px >= kw);
      TD_setup_bad_shape_pad_y: cover (chk && py >= kh);
      TD_setup_bad_shape_elem_size: cover (chk && (pass || planar) &&
                                           (cin != cout || hin != hout || win != wout));
      TD_setup_bad_shape_elem_window: cover (chk && (pass || planar) &&
                                             (kw != 5'd1 || kh != 5'd1 || sx != 2'd1 || sy != 2'd1));
      TD_setup_bad_shape_planar_groups: cover (chk && planar && ngroups != 13'd1);
      // 2 (shape), in the plan: a remainder of Cin / G or Cout / G, the output size per direction
      TD_setup_bad_shape_cin_groups: cover (st_q == SCg && err_d);
      TD_setup_bad_shape_cout_groups: cover (st_q == SPer && err_d && code_d == 3'(ErrShape));
      TD_setup_bad_shape_out_h: cover (st_q == SOh && err_d);
      TD_setup_bad_shape_out_w: cover (st_q == SOw && err_d && code_d == 3'(ErrShape));
      // 3 (core), at the check
      TD_setup_bad_core_planar_win: cover (chk && planar && win > 15'd16383);
      TD_setup_bad_core_planar_hin: cover (chk && planar && hin > 15'd16383);
      TD_setup_bad_core_planar_cin: cover (chk && planar && cin > 17'd16383);
      TD_setup_bad_core_kw: cover (chk && !planar && kw > 5'd7);
      TD_setup_bad_core_kh: cover (chk && !planar && kh > 5'd7);
      TD_setup_bad_core_win: cover (chk && !planar && win > 15'd4095);
      TD_setup_bad_core_hin: cover (chk && !planar && hin > 15'd4095);
      // 3 (core), in the plan: a field past its core register, no tile that fits the bank
      TD_setup_bad_core_cg: cover (per_core && cg_q > W'(1023));
      TD_setup_bad_core_per: cover (per_core && u_q > W'(1023));
      TD_setup_bad_core_groups: cover (per_core && g_q > W'(1023));
      TD_setup_bad_core_hout: cover (st_q == SOw && err_d && code_d == 3'(ErrCore) && hout > 15'd4095);
      TD_setup_bad_core_wout: cover (st_q == SOw && err_d && code_d == 3'(ErrCore) && wout > 15'd4095);
      TD_setup_bad_core_no_tile: cover (st_q == SLoopTest && err_d);
      TD_setup_bad_core_passes: cover (range_err && passes_q > W'(1023));
      TD_setup_bad_core_nty: cover (range_err && nty_q > W'(1023));
      TD_setup_bad_core_ntx: cover (range_err && ntx_q > W'(1023));
      TD_setup_bad_core_patch_h: cover (range_err && ph_q > W'(1023));
      TD_setup_bad_core_patch_w: cover (range_err && pw_q > W'(1023));
      TD_setup_bad_core_steps: cover (range_err && steps_q > W'(16'hffff));
      TD_setup_bad_core_steps_fp16: cover (range_err && elem16 && steps_q > W'(32760));
      // 4 (table): a non-finite word of the table blob, a non-finite bias in a kernel block
      TD_setup_bad_table_knot: cover (st_q == STable && err_d);
      TD_setup_bad_table_bias: cover (st_q == SKWait && err_d);
      // ---------------------------------------------------------------- acceptance
      TD_setup_ok_fixed: cover (chk && !bad_fixed);
      TD_setup_ok_field: cover (chk && !bad_field);
      TD_setup_ok_shape: cover (chk && !bad_shape);
      TD_setup_ok_core: cover (chk && !bad_core);
      TD_setup_ok_check_conv: cover (chk && !err_d && !planar && !pass);
      TD_setup_ok_check_pass: cover (chk && !err_d && !planar && pass);
      TD_setup_ok_check_planar: cover (chk && !err_d && planar);
      // the layer configured (the plan done)
      TD_setup_run_conv_fp16: cover (go_cfg && !pass && !int8);
      TD_setup_run_conv_int8: cover (go_cfg && !pass && int8 && !out8);
      TD_setup_run_conv_int8_out8: cover (go_cfg && !pass && out8);
      TD_setup_run_pass_fp16: cover (go_cfg && pass && !int8);
      TD_setup_run_pass_int8: cover (go_cfg && pass && int8);
      TD_setup_run_bias: cover (go_cfg && biasmode);
      TD_setup_run_scale: cover (go_cfg && scale_en);
      TD_setup_run_relu: cover (go_cfg && nlmode == NlRelu);
      TD_setup_run_table: cover (go_cfg && table_en);
      TD_setup_run_groups: cover (go_cfg && !pass && ngroups > 13'd1);
      TD_setup_run_depthwise: cover (go_cfg && !pass && ngroups > 13'd1 && cg_q == W'(1));
      TD_setup_loop_less_row: cover (st_q == SLoopTest && st_d == SLoopMul && tile_h_q > W'(1));
      TD_setup_loop_less_col: cover (st_q == SLoopTest && st_d == SLoopMul && tile_h_q <= W'(1));
      // a planar TD's operator
      TD_setup_pe_op_add: cover (chk && st_d == SPe && pe_op == ane_regs_pkg::TdPlanarOpAdd);
      TD_setup_pe_op_mul: cover (chk && st_d == SPe && pe_op == ane_regs_pkg::TdPlanarOpMul);
      TD_setup_pe_op_max: cover (chk && st_d == SPe && pe_op == ane_regs_pkg::TdPlanarOpMax);
      TD_setup_pe_op_min: cover (chk && st_d == SPe && pe_op == ane_regs_pkg::TdPlanarOpMin);
      // ---------------------------------------------------------------- the kernel DMA's start
      // kd_nchan_o: the channels holding kernels (the table's channel is the last enabled one,
      // not counted). 16 with the table would take 17 enables: no bin for it.
      TD_setup_kdma_nchan_0_notable: cover (kd_start_o && kd_nchan_o == 5'd0 && !table_en);
      TD_setup_kdma_nchan_0_table: cover (kd_start_o && kd_nchan_o == 5'd0 && table_en);
      TD_setup_kdma_nchan_1_notable: cover (kd_start_o && kd_nchan_o == 5'd1 && !table_en);
      TD_setup_kdma_nchan_1_table: cover (kd_start_o && kd_nchan_o == 5'd1 && table_en);
      TD_setup_kdma_nchan_2_notable: cover (kd_start_o && kd_nchan_o == 5'd2 && !table_en);
      TD_setup_kdma_nchan_2_table: cover (kd_start_o && kd_nchan_o == 5'd2 && table_en);
      TD_setup_kdma_nchan_3_notable: cover (kd_start_o && kd_nchan_o == 5'd3 && !table_en);
      TD_setup_kdma_nchan_3_table: cover (kd_start_o && kd_nchan_o == 5'd3 && table_en);
      TD_setup_kdma_nchan_4_notable: cover (kd_start_o && kd_nchan_o == 5'd4 && !table_en);
      TD_setup_kdma_nchan_4_table: cover (kd_start_o && kd_nchan_o == 5'd4 && table_en);
      TD_setup_kdma_nchan_5_notable: cover (kd_start_o && kd_nchan_o == 5'd5 && !table_en);
      TD_setup_kdma_nchan_5_table: cover (kd_start_o && kd_nchan_o == 5'd5 && table_en);
      TD_setup_kdma_nchan_6_notable: cover (kd_start_o && kd_nchan_o == 5'd6 && !table_en);
      TD_setup_kdma_nchan_6_table: cover (kd_start_o && kd_nchan_o == 5'd6 && table_en);
      TD_setup_kdma_nchan_7_notable: cover (kd_start_o && kd_nchan_o == 5'd7 && !table_en);
      TD_setup_kdma_nchan_7_table: cover (kd_start_o && kd_nchan_o == 5'd7 && table_en);
      TD_setup_kdma_nchan_8_notable: cover (kd_start_o && kd_nchan_o == 5'd8 && !table_en);
      TD_setup_kdma_nchan_8_table: cover (kd_start_o && kd_nchan_o == 5'd8 && table_en);
      TD_setup_kdma_nchan_9_notable: cover (kd_start_o && kd_nchan_o == 5'd9 && !table_en);
      TD_setup_kdma_nchan_9_table: cover (kd_start_o && kd_nchan_o == 5'd9 && table_en);
      TD_setup_kdma_nchan_10_notable: cover (kd_start_o && kd_nchan_o == 5'd10 && !table_en);
      TD_setup_kdma_nchan_10_table: cover (kd_start_o && kd_nchan_o == 5'd10 && table_en);
      TD_setup_kdma_nchan_11_notable: cover (kd_start_o && kd_nchan_o == 5'd11 && !table_en);
      TD_setup_kdma_nchan_11_table: cover (kd_start_o && kd_nchan_o == 5'd11 && table_en);
      TD_setup_kdma_nchan_12_notable: cover (kd_start_o && kd_nchan_o == 5'd12 && !table_en);
      TD_setup_kdma_nchan_12_table: cover (kd_start_o && kd_nchan_o == 5'd12 && table_en);
      TD_setup_kdma_nchan_13_notable: cover (kd_start_o && kd_nchan_o == 5'd13 && !table_en);
      TD_setup_kdma_nchan_13_table: cover (kd_start_o && kd_nchan_o == 5'd13 && table_en);
      TD_setup_kdma_nchan_14_notable: cover (kd_start_o && kd_nchan_o == 5'd14 && !table_en);
      TD_setup_kdma_nchan_14_table: cover (kd_start_o && kd_nchan_o == 5'd14 && table_en);
      TD_setup_kdma_nchan_15_notable: cover (kd_start_o && kd_nchan_o == 5'd15 && !table_en);
      TD_setup_kdma_nchan_15_table: cover (kd_start_o && kd_nchan_o == 5'd15 && table_en);
      TD_setup_kdma_nchan_16_notable: cover (kd_start_o && kd_nchan_o == 5'd16 && !table_en);
      // ---------------------------------------------------------------- states
      TD_setup_st_cap: cover (st_q == SCap);
      TD_setup_st_check: cover (st_q == SCheck);
      TD_setup_st_cg: cover (st_q == SCg);
      TD_setup_st_per: cover (st_q == SPer);
      TD_setup_st_oh: cover (st_q == SOh);
      TD_setup_st_ow: cover (st_q == SOw);
      TD_setup_st_tileh: cover (st_q == STileH);
      TD_setup_st_ph: cover (st_q == SPh);
      TD_setup_st_pw: cover (st_q == SPw);
      TD_setup_st_loopmul: cover (st_q == SLoopMul);
      TD_setup_st_looptest: cover (st_q == SLoopTest);
      TD_setup_st_cpw: cover (st_q == SCpw);
      TD_setup_st_nsl: cover (st_q == SNsl);
      TD_setup_st_nty: cover (st_q == SNty);
      TD_setup_st_ntx: cover (st_q == SNtx);
      TD_setup_st_passes: cover (st_q == SPasses);
      TD_setup_st_steps1: cover (st_q == SSteps1);
      TD_setup_st_steps2: cover (st_q == SSteps2);
      TD_setup_st_chs: cover (st_q == SChs);
      TD_setup_st_range: cover (st_q == SRange);
      TD_setup_st_shifter: cover (st_q == SShifter);
      TD_setup_st_prep: cover (st_q == SPrep);
      TD_setup_st_post: cover (st_q == SPost);
      TD_setup_st_table: cover (st_q == STable);
      TD_setup_st_core: cover (st_q == SCore);
      TD_setup_st_kwait: cover (st_q == SKWait);
      TD_setup_st_start: cover (st_q == SStart);
      TD_setup_st_run: cover (st_q == SRun);
      TD_setup_st_done: cover (st_q == SDone);
      TD_setup_st_drain: cover (st_q == SDrain);
      TD_setup_st_pe: cover (st_q == SPe);
      TD_setup_st_perun: cover (st_q == SPeRun);
      // ---------------------------------------------------------------- transitions
      TD_setup_tr_cap_check: cover (st_q == SCap && st_d == SCheck);
      TD_setup_tr_check_cg: cover (st_q == SCheck && st_d == SCg);
      TD_setup_tr_check_pe: cover (st_q == SCheck && st_d == SPe);
      TD_setup_tr_check_drain: cover (st_q == SCheck && st_d == SDrain);
      TD_setup_tr_cg_per: cover (st_q == SCg && st_d == SPer);
      TD_setup_tr_cg_drain: cover (st_q == SCg && st_d == SDrain);
      TD_setup_tr_per_oh: cover (st_q == SPer && st_d == SOh);
      TD_setup_tr_per_drain: cover (st_q == SPer && st_d == SDrain);
      TD_setup_tr_oh_ow: cover (st_q == SOh && st_d == SOw);
      TD_setup_tr_oh_drain: cover (st_q == SOh && st_d == SDrain);
      TD_setup_tr_ow_tileh: cover (st_q == SOw && st_d == STileH);
      TD_setup_tr_ow_drain: cover (st_q == SOw && st_d == SDrain);
      TD_setup_tr_tileh_ph: cover (st_q == STileH && st_d == SPh);
      TD_setup_tr_ph_pw: cover (st_q == SPh && st_d == SPw);
      TD_setup_tr_pw_loopmul: cover (st_q == SPw && st_d == SLoopMul);
      TD_setup_tr_loopmul_looptest: cover (st_q == SLoopMul && st_d == SLoopTest);
      TD_setup_tr_looptest_cpw: cover (st_q == SLoopTest && st_d == SCpw);
      TD_setup_tr_looptest_loopmul: cover (st_q == SLoopTest && st_d == SLoopMul);
      TD_setup_tr_looptest_drain: cover (st_q == SLoopTest && st_d == SDrain);
      TD_setup_tr_cpw_nsl: cover (st_q == SCpw && st_d == SNsl);
      TD_setup_tr_nsl_nty: cover (st_q == SNsl && st_d == SNty);
      TD_setup_tr_nty_ntx: cover (st_q == SNty && st_d == SNtx);
      TD_setup_tr_ntx_passes: cover (st_q == SNtx && st_d == SPasses);
      TD_setup_tr_passes_steps1: cover (st_q == SPasses && st_d == SSteps1);
      TD_setup_tr_steps1_steps2: cover (st_q == SSteps1 && st_d == SSteps2);
      TD_setup_tr_steps2_chs: cover (st_q == SSteps2 && st_d == SChs);
      TD_setup_tr_chs_range: cover (st_q == SChs && st_d == SRange);
      TD_setup_tr_range_shifter: cover (st_q == SRange && st_d == SShifter);
      TD_setup_tr_range_drain: cover (st_q == SRange && st_d == SDrain);
      TD_setup_tr_shifter_prep: cover (st_q == SShifter && st_d == SPrep);
      TD_setup_tr_prep_post: cover (st_q == SPrep && st_d == SPost);
      TD_setup_tr_post_table: cover (st_q == SPost && st_d == STable);
      TD_setup_tr_post_core: cover (st_q == SPost && st_d == SCore);
      TD_setup_tr_table_core: cover (st_q == STable && st_d == SCore);
      TD_setup_tr_table_drain: cover (st_q == STable && st_d == SDrain);
      TD_setup_tr_core_kwait: cover (st_q == SCore && st_d == SKWait);
      TD_setup_tr_kwait_start: cover (st_q == SKWait && st_d == SStart);
      TD_setup_tr_kwait_drain: cover (st_q == SKWait && st_d == SDrain);
      TD_setup_tr_start_run: cover (st_q == SStart && st_d == SRun);
      TD_setup_tr_run_done: cover (st_q == SRun && st_d == SDone);
      TD_setup_tr_pe_perun: cover (st_q == SPe && st_d == SPeRun);
      TD_setup_tr_perun_done: cover (st_q == SPeRun && st_d == SDone);
      TD_setup_tr_done_cap: cover (st_q == SDone && st_d == SCap);
      TD_setup_tr_drain_cap: cover (st_q == SDrain && clear_i);
      // waits, the TDs after an error
      TD_setup_wait_prep: cover (st_q == SPrep && st_d == SPrep);
      TD_setup_wait_table: cover (st_q == STable && st_d == STable && !tb_wr_valid_i);
      TD_setup_table_write: cover (st_q == STable && tb_wr_valid_i);
      TD_setup_wait_kdma: cover (st_q == SKWait && st_d == SKWait);
      TD_setup_wait_core: cover (st_q == SRun && st_d == SRun);
      TD_setup_wait_pe_busy: cover (st_q == SPe && pe_busy_i);
      TD_setup_wait_pe_done: cover (st_q == SPeRun && st_d == SPeRun);
      TD_setup_drain_drop: cover (st_q == SDrain && take && wr_last_i);
    end
  end

  always @(negedge rst_ni) begin
    RST_td_setup_cap: cover (armed_q && st_q == SCap);
    RST_td_setup_check: cover (armed_q && st_q == SCheck);
    RST_td_setup_cg: cover (armed_q && st_q == SCg);
    RST_td_setup_per: cover (armed_q && st_q == SPer);
    RST_td_setup_oh: cover (armed_q && st_q == SOh);
    RST_td_setup_ow: cover (armed_q && st_q == SOw);
    RST_td_setup_tileh: cover (armed_q && st_q == STileH);
    RST_td_setup_ph: cover (armed_q && st_q == SPh);
    RST_td_setup_pw: cover (armed_q && st_q == SPw);
    RST_td_setup_loopmul: cover (armed_q && st_q == SLoopMul);
    RST_td_setup_looptest: cover (armed_q && st_q == SLoopTest);
    RST_td_setup_cpw: cover (armed_q && st_q == SCpw);
    RST_td_setup_nsl: cover (armed_q && st_q == SNsl);
    RST_td_setup_nty: cover (armed_q && st_q == SNty);
    RST_td_setup_ntx: cover (armed_q && st_q == SNtx);
    RST_td_setup_passes: cover (armed_q && st_q == SPasses);
    RST_td_setup_steps1: cover (armed_q && st_q == SSteps1);
    RST_td_setup_steps2: cover (armed_q && st_q == SSteps2);
    RST_td_setup_chs: cover (armed_q && st_q == SChs);
    RST_td_setup_range: cover (armed_q && st_q == SRange);
    RST_td_setup_shifter: cover (armed_q && st_q == SShifter);
    RST_td_setup_prep: cover (armed_q && st_q == SPrep);
    RST_td_setup_post: cover (armed_q && st_q == SPost);
    RST_td_setup_table: cover (armed_q && st_q == STable);
    RST_td_setup_core: cover (armed_q && st_q == SCore);
    RST_td_setup_kwait: cover (armed_q && st_q == SKWait);
    RST_td_setup_start: cover (armed_q && st_q == SStart);
    RST_td_setup_run: cover (armed_q && st_q == SRun);
    RST_td_setup_done: cover (armed_q && st_q == SDone);
    RST_td_setup_drain: cover (armed_q && st_q == SDrain);
    RST_td_setup_pe: cover (armed_q && st_q == SPe);
    RST_td_setup_perun: cover (armed_q && st_q == SPeRun);
  end

  logic unused;  // the captured words are read for a few bits each
  assign unused = ^{h8_q, h9_q, sdma_q, ddma_q};

endmodule

bind ane_td_setup ane_td_setup_cov #(
  .SCap(SCap), .SCheck(SCheck), .SCg(SCg), .SPer(SPer), .SOh(SOh), .SOw(SOw),
  .STileH(STileH), .SPh(SPh), .SPw(SPw), .SLoopMul(SLoopMul), .SLoopTest(SLoopTest), .SCpw(SCpw),
  .SNsl(SNsl), .SNty(SNty), .SNtx(SNtx), .SPasses(SPasses), .SSteps1(SSteps1), .SSteps2(SSteps2),
  .SChs(SChs), .SRange(SRange), .SShifter(SShifter), .SPrep(SPrep), .SPost(SPost), .STable(STable),
  .SCore(SCore), .SKWait(SKWait), .SStart(SStart), .SRun(SRun), .SDone(SDone), .SDrain(SDrain),
  .SPe(SPe), .SPeRun(SPeRun),
  .ErrField(ErrField), .ErrShape(ErrShape), .ErrCore(ErrCore), .ErrTable(ErrTable), .ErrFixed(ErrFixed), .W(W)
) u_cov (.*);

`default_nettype wire
// verilator coverage_on
