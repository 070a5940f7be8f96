// ane_postproc: the post-processor of a lane group (NUMERICS N-3, N-5; docs/postproc.md).
// One lane vector (NumLanes accumulator values of one output channel, with the channel's scale
// and bias) per cycle in, one vector of fp16 codes (or sign-extended int8) per cycle out,
// valid/ready on both sides, latency 31 cycles (ane_pp_lane gives the stages). The pipeline
// advances as a whole: it stalls only while a finished vector waits at the output.
//
// Configuration port (write-only registers, written while busy_o is low):
//   0x00 CTRL    ane_pkg::pp_ctrl_t in [15:0]
//   0x01 SEED    stochastic-rounding LFSR state (nonzero)
//   0x02 TBL0    [2:0] mode, [4:3] sym, [5] cos_phase, [6] pow_split, [7] pow_negate,
//                [8] right_identity, [9] zero_en, [10] neg_en, [15:12] step_log2, [31:16] lo
//   0x03 TBL1    [15:0] k, [31:16] left
//   0x04 TBL2    [15:0] right, [31:16] at_pinf
//   0x05 TBL3    [15:0] at_ninf, [31:16] at_zero
//   0x06 TBL4    [15:0] at_neg
//   0x20 + i     segment i: [15:0] m, [31:16] c   (i = 0 .. 31)
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
  ane_pkg::pp_ctrl_t  ctrl_q;
  ane_pkg::act_desc_t desc_q;
  ane_pkg::act_segs_t seg_q;
  logic [31:0] lfsr_q, lfsr_next;
  logic [NumLanes*13-1:0] rand_all;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= '0;
      desc_q <= '0;
    end else if (cfg_we_i) begin
      unique case (cfg_addr_i)
        6'h00: ctrl_q <= cfg_wdata_i[$bits(ctrl_q)-1:0];
        6'h02: begin
          desc_q.mode           <= cfg_wdata_i[2:0];
          desc_q.sym            <= cfg_wdata_i[4:3];
          desc_q.cos_phase      <= cfg_wdata_i[5];
          desc_q.pow_split      <= cfg_wdata_i[6];
          desc_q.pow_negate     <= cfg_wdata_i[7];
          desc_q.right_identity <= cfg_wdata_i[8];
          desc_q.zero_en        <= cfg_wdata_i[9];
          desc_q.neg_en         <= cfg_wdata_i[10];
          desc_q.step_log2      <= cfg_wdata_i[15:12];
          desc_q.lo             <= cfg_wdata_i[31:16];
        end
        6'h03: begin
          desc_q.k    <= cfg_wdata_i[15:0];
          desc_q.left <= cfg_wdata_i[31:16];
        end
        6'h04: begin
          desc_q.right   <= cfg_wdata_i[15:0];
          desc_q.at_pinf <= cfg_wdata_i[31:16];
        end
        6'h05: begin
          desc_q.at_ninf <= cfg_wdata_i[15:0];
          desc_q.at_zero <= cfg_wdata_i[31:16];
        end
        6'h06: desc_q.at_neg <= cfg_wdata_i[15:0];
        default: ;
      endcase
    end
  end

  // Segment registers: no reset (only a configured table reads them).
  always_ff @(posedge clk_i) begin
    if (cfg_we_i && cfg_addr_i[5]) seg_q[{cfg_addr_i[4:0], 5'd0} +: 32] <= cfg_wdata_i;
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
    if (!rst_ni)                        lfsr_q <= 32'd1;
    else if (cfg_we_i && cfg_addr_i == 6'h01) lfsr_q <= cfg_wdata_i;
    else if (accept && ctrl_q.sr)       lfsr_q <= lfsr_next;
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
