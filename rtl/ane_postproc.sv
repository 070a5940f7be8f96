// SPDX-License-Identifier: Apache-2.0
// ane_postproc: the post-processor of a lane group (NUMERICS N-3, N-5; docs/postproc.md).
// One lane vector (NumLanes accumulator values of one output channel, with the channel's scale
// and bias) per cycle in, one vector of fp16 codes (or sign-extended int8) per cycle out,
// valid/ready on both sides, latency 31 cycles (ane_pp_lane gives the stages). The pipeline
// advances as a whole: it stalls only while a finished vector waits at the output.
//
// Configuration port (write-only registers, written while busy_o is low): the POSTPROC window's
// registers CTRL, SEED, TBL0..TBL4 (the activation table's descriptor) and SEG (its 32
// segments), each read as its ane_regs_pkg::postproc_<reg>_t (rtl/regs/ane_regs.yaml; the
// table: docs/postproc.md).
// Stochastic rounding (N-3.4): a 32-bit Fibonacci LFSR, x^32 + x^22 + x^2 + x + 1; lane i of an
// accepted vector gets the low bits of the state after 16 (i + 1) steps, and the state moves on
// by 16 * NumLanes steps per vector while CTRL.sr is set.
`default_nettype none

module ane_postproc #(
  parameter int unsigned NumLanes = 16,
  parameter logic        Gen      = ane_pkg::GenM1
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // configuration
  input  wire logic                     cfg_we_i,
  input  wire logic [5:0]               cfg_addr_i,
  input  wire logic [31:0]              cfg_wdata_i,
  output      logic                     busy_o,
  // input: accumulator values of one output channel
  input  wire logic                     in_valid_i,
  output      logic                     in_ready_o,
  input  wire logic [NumLanes*32-1:0]   in_acc_i,
  input  wire logic [15:0]              in_scale_i,   // fp16 channel scale
  input  wire logic [31:0]              in_bias_i,    // fp32 channel bias
  // output
  output      logic                     out_valid_o,
  input  wire logic                     out_ready_i,
  output      logic [NumLanes*16-1:0]   out_data_o
);

  localparam int unsigned Depth = 31;

  // ---------------- configuration registers ----------------
  ane_regs_pkg::postproc_ctrl_t ctrl_q;
  ane_pkg::act_desc_t desc_q;
  ane_pkg::act_segs_t seg_q;
  logic [31:0] lfsr_q, lfsr_next;
  logic [NumLanes*13-1:0] rand_all;

  // The written word as each register's fields (rtl/regs/ane_regs.yaml, POSTPROC window).
  ane_regs_pkg::postproc_ctrl_t w_ctrl;
  ane_regs_pkg::postproc_seed_t w_seed;
  ane_regs_pkg::postproc_tbl0_t w_tbl0;
  ane_regs_pkg::postproc_tbl1_t w_tbl1;
  ane_regs_pkg::postproc_tbl2_t w_tbl2;
  ane_regs_pkg::postproc_tbl3_t w_tbl3;
  ane_regs_pkg::postproc_tbl4_t w_tbl4;
  assign w_ctrl = cfg_wdata_i[ane_regs_pkg::PostprocCtrlBits-1:0];
  assign w_seed = cfg_wdata_i[ane_regs_pkg::PostprocSeedBits-1:0];
  assign w_tbl0 = cfg_wdata_i[ane_regs_pkg::PostprocTbl0Bits-1:0];
  assign w_tbl1 = cfg_wdata_i[ane_regs_pkg::PostprocTbl1Bits-1:0];
  assign w_tbl2 = cfg_wdata_i[ane_regs_pkg::PostprocTbl2Bits-1:0];
  assign w_tbl3 = cfg_wdata_i[ane_regs_pkg::PostprocTbl3Bits-1:0];
  assign w_tbl4 = cfg_wdata_i[ane_regs_pkg::PostprocTbl4Bits-1:0];
  logic unused_rsvd;  // TBL0's reserved bit
  assign unused_rsvd = ^w_tbl0.rsvd_11_11;
  // SEG: Count registers from an address aligned to Count (segment i at SegAddr + i).
  localparam int unsigned SegIdxW = $clog2(ane_regs_pkg::PostprocSegCount);
  logic seg_we;
  assign seg_we = cfg_we_i && (cfg_addr_i >> SegIdxW) == 6'(ane_regs_pkg::PostprocSegAddr >> SegIdxW);
`ifndef SYNTHESIS
  initial assert(ane_regs_pkg::PostprocSegCount == ane_pkg::ActSegments &&
                 ane_regs_pkg::PostprocSegAddr % ane_regs_pkg::PostprocSegCount == 0 &&
                 ane_regs_pkg::PostprocSegBits == 32);
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= '0;
      desc_q <= '0;
    end else if (cfg_we_i) begin
      unique case (cfg_addr_i)
        6'(ane_regs_pkg::PostprocCtrlAddr): ctrl_q <= w_ctrl;
        6'(ane_regs_pkg::PostprocTbl0Addr): begin
          desc_q.mode           <= w_tbl0.mode;
          desc_q.sym            <= w_tbl0.sym;
          desc_q.cos_phase      <= w_tbl0.cos_phase;
          desc_q.pow_split      <= w_tbl0.pow_split;
          desc_q.pow_negate     <= w_tbl0.pow_negate;
          desc_q.right_identity <= w_tbl0.right_identity;
          desc_q.zero_en        <= w_tbl0.zero_en;
          desc_q.neg_en         <= w_tbl0.neg_en;
          desc_q.step_log2      <= w_tbl0.step_log2;
          desc_q.lo             <= w_tbl0.lo;
        end
        6'(ane_regs_pkg::PostprocTbl1Addr): begin
          desc_q.k    <= w_tbl1.k;
          desc_q.left <= w_tbl1.left;
        end
        6'(ane_regs_pkg::PostprocTbl2Addr): begin
          desc_q.right   <= w_tbl2.right;
          desc_q.at_pinf <= w_tbl2.at_pinf;
        end
        6'(ane_regs_pkg::PostprocTbl3Addr): begin
          desc_q.at_ninf <= w_tbl3.at_ninf;
          desc_q.at_zero <= w_tbl3.at_zero;
        end
        6'(ane_regs_pkg::PostprocTbl4Addr): desc_q.at_neg <= w_tbl4.at_neg;
        default: ;
      endcase
    end
  end

  // Segment registers: no reset (only a configured table reads them).
  always_ff @(posedge clk_i) begin
    if (seg_we) seg_q[{cfg_addr_i[SegIdxW-1:0], 5'd0} +: 32] <= cfg_wdata_i;
  end

  // ---------------- pipeline control ----------------
  logic [Depth-1:0] valid_q;
  logic             en, accept;

  assign en          = !valid_q[Depth-1] || out_ready_i;
  assign in_ready_o  = en;
  assign accept      = in_valid_i && en;
  assign out_valid_o = valid_q[Depth-1];
  assign busy_o      = (|valid_q) || in_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else if (en) valid_q <= {valid_q[Depth-2:0], in_valid_i};
  end

  // ---------------- stochastic-rounding LFSR ----------------
  // One step: {s[30:0], s[31] ^ s[21] ^ s[1] ^ s[0]}, linear over GF(2). Lane i's value is the
  // state 16 (i + 1) steps on (N-3, lane order), lfsr_next the state 16 NumLanes steps on. Each
  // of their bits is a fixed XOR of state bits: the masks below, made at elaboration by
  // stepping 32 one-hot states (mask column j: the steps applied to state bit j alone), so
  // every bit is a balanced XOR of at most 32 bits whatever the lane count (written as the
  // steps one after another, lane i's bits were a chain of about 16 i XOR gates).
  function automatic logic [NumLanes*13*32+32*32-1:0] lfsr_masks();
    logic [32*32-1:0] m;  // m[32 j +: 32]: state bit j as a mask of the starting state's bits
    logic [31:0] nb;
    logic [NumLanes*13*32+32*32-1:0] r;
    // (every bit of r is written below: 13 masks per lane, then the 32 of the next state)
    for (int j = 0; j < 32; j++) m[32*j +: 32] = 32'd1 << j;
    for (int lane = 0; lane < NumLanes; lane++) begin
      for (int s = 0; s < 16; s++) begin
        nb = m[32*31 +: 32] ^ m[32*21 +: 32] ^ m[32*1 +: 32] ^ m[0 +: 32];
        m  = {m[32*31-1:0], nb};
      end
      for (int b = 0; b < 13; b++) r[(lane*13 + b)*32 +: 32] = m[32*b +: 32];
    end
    r[NumLanes*13*32 +: 32*32] = m;
    lfsr_masks = r;
  endfunction
  localparam logic [NumLanes*13*32+32*32-1:0] LfsrMasks = lfsr_masks();

  always_comb begin
    for (int k = 0; k < NumLanes*13; k++) rand_all[k] = ^(lfsr_q & LfsrMasks[k*32 +: 32]);
  end
  for (genvar j = 0; j < 32; j++) begin : g_next
    assign lfsr_next[j] = ^(lfsr_q & LfsrMasks[NumLanes*13*32 + j*32 +: 32]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        lfsr_q <= 32'd1;
    else if (cfg_we_i && cfg_addr_i == 6'(ane_regs_pkg::PostprocSeedAddr)) lfsr_q <= w_seed.state;
    else if (accept && ctrl_q.sr) lfsr_q <= lfsr_next;
  end

  // ---------------- per-vector channel parameters ----------------
  // The scale goes with the lanes' stage 3 (the end of the rounding), the bias with stage 6
  // (the end of the scale multiply). The bias is rounded to fp16 in stage 2, from its 32-bit
  // register of stage 1 (the rounding after the parameter queue's read was one stage's time).
  logic [31:0] bi1;
  logic [15:0] bias16, sc1, sc2, sc3, bi2, bi3, bi4, bi5, bi6;
  ane_mac_out #(.Gen(ane_pkg::GenM5)) u_bias_round (.acc_i(bi1), .fp16_o(bias16));
  always_ff @(posedge clk_i) begin
    if (en) begin
      sc1 <= in_scale_i;
      sc2 <= sc1;
      sc3 <= sc2;
      bi1 <= in_bias_i;
      bi2 <= bias16;
      bi3 <= bi2;
      bi4 <= bi3;
      bi5 <= bi4;
      bi6 <= bi5;
    end
  end

  // ---------------- lanes ----------------
  for (genvar lane = 0; lane < NumLanes; lane++) begin : g_lane
    ane_pp_lane #(.Gen(Gen)) u_lane (
      .clk_i     (clk_i),
      .en_i      (en),
      .ctrl_i    (ctrl_q),
      .desc_i    (desc_q),
      .seg_i     (seg_q),
      .acc_i     (in_acc_i[lane*32 +: 32]),
      .rand_i    (rand_all[lane*13 +: 13]),
      .scale_s1_i(sc3),
      .bias_s2_i (bi6),
      .y_o       (out_data_o[lane*16 +: 16])
    );
  end

`ifndef SYNTHESIS
  // Protocol: the configuration changes only while nothing is in flight.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else if (cfg_we_i) begin
      assert (!busy_o);
    end
  end
  // An offered vector stays offered, unchanged, until it is taken.
  logic                   held_q;
  logic [NumLanes*32-1:0] held_acc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= 1'b0;
    end else begin
      if (held_q) assert (in_valid_i && in_acc_i == held_acc_q);
      held_q     <= in_valid_i && !in_ready_o;
      held_acc_q <= in_acc_i;
    end
  end
`endif

endmodule
