// SPDX-License-Identifier: Apache-2.0
// ane_td_table: the TD front end's lookup-table conversion (docs/td.md, assumption A11;
// NUMERICS N-5.1). Reads a program's table blob from memory and writes the post-processor's
// table registers (rtl/ane_postproc.sv, docs/postproc.md) exactly as tb/td/program.cc
// TableFromBlob and tb/harness/postproc_driver.h TableWrites do.
//
// The blob: little-endian 16-bit words from base_i: word 2 `left` (the value below the domain),
// word 3 `right` (above it), words 4..36 the 33 knots y[0..32] (fp16 codes) at x = -8 + i/2.
// The block reads bytes 0..79 (10 beats), checks that left, right and every knot are finite
// (exponent field not all ones) and then writes, in this order, the POSTPROC window's registers
// (ane_regs_pkg, rtl/regs/ane_regs.yaml; fields not named are 0):
//   TBL0: mode direct, no symmetry, STEP_LOG2 -1, LO = -8 (0xC800), no flags
//   TBL1: LEFT = left, K = 0x3C00 (ActTable's default 1.0: TableFromBlob leaves it)
//   TBL2: RIGHT = AT_PINF = right
//   TBL3: AT_NINF = left, AT_ZERO = 0
//   TBL4: AT_NEG = 0
//   SEG + s: M = m[s], C = c[s] for the segments s = 0 .. 31
// with, per segment (h = 1/2, xbar = -8 + (s + 1/2) h = (2 s - 31) / 4),
//   m = RNE16(2 (y[s+1] - y[s])),   c = RNE16((y[s] + y[s+1]) / 2 - m xbar),
// each ONE round to nearest even of the exact value (gradual underflow, overflow to inf; a
// zero result, exact or rounded, is always +0): tb/oracle DoubleToFp16 on ActSegmentsFromKnots'
// doubles, which are exact (differences and sums of fp16 values, an 11 x 5 bit product).
// An infinite m (a knot step beyond 65504 / 2) makes c infinite: -(sign of m xbar) inf.
// A non-finite word: error_o with err_word_o = the first such word (2 .. 36), and no write.
//
// Datapath: exact fixed point. A knot is Y = y 2^24 (41 bits signed); D = Y1 - Y0 and
// S = Y0 + Y1 (42 bits); m's exact value is D 2^-23; c's is (2 S - Mi (2 s - 31)) 2^-26 with
// Mi = m 2^24 = msig 2^msh, computed as (msig |2 s - 31|) << msh (an 11 x 5 bit product and a
// shift; 47 bits signed with the sum). Two rounders, one description (|v|, normalize, RNE).
// Two units run in step over a slot of 6 cycles: in slot t the m unit reads knot t and makes
// m[t-1], the c unit makes c[t-2] (from m[t-2] and S of the slot before); 34 slots.
//   phase 0  m unit: unpack the knot (sign, significand, shift)   c unit: msig x |2 s - 31|
//         1          Y = sig << shift; Y0 <= Y1                         << msh
//         2          D, S                                                2 S -+ P
//         3  both rounders: |v|
//         4                 leading zeros of |v| (clamped at the subnormal range), shift left
//         5                 round, pack; the c unit's {c, m} goes to the write port
// No path holds more than one wide adder, or one normalize shift, between flops.
//
// Ports: start_i is taken while busy_o is low (base_i: the blob's byte address, 8-byte aligned;
// the TD gives 64). Memory read port as ane_td_fetch's: 64-bit beats at 8-byte aligned
// addresses, answers in order at least one cycle after the request is taken, never
// back-pressured (the block stores every beat it asks for: 10). Write port: valid/ready, the
// address and data held while wr_valid_o && !wr_ready_i; wr_addr_o the post-processor's
// configuration register address. done_o pulses the cycle after the last write is taken, or,
// after a non-finite word, the cycle after the last beat's answer, together with error_o
// (sticky until the next start) and err_word_o; busy_o falls in the same cycle. wr_ready_i low
// holds the slots at phase 5 (nothing is lost or recomputed). rst_ni (asynchronous) drops a
// conversion, its pending write included; the memory is to drop the block's reads in flight.
//
// Cycles (start_i in cycle 0; read latency 1, rd_ready_i and wr_ready_i always high): reads in
// cycles 1 .. 10, the first write (TBL0) in cycle 13, TBL0..TBL4 in cycles 13 .. 17, segment s
// in cycle 30 + 6 s (one write per 6 cycles), done_o in cycle 217 (37 writes). With a
// non-finite word: done_o and error_o in cycle 12. Each extra cycle of read latency adds one.
`default_nettype none

module ane_td_table (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // control
  input  wire logic        start_i,     // taken while busy_o is low
  input  wire logic [31:0] base_i,      // byte address of the blob (8-aligned)
  output      logic        busy_o,
  output      logic        done_o,      // pulse: the last write was taken, or the error is known
  output      logic        error_o,     // a non-finite word; sticky until the next start
  output      logic [5:0]  err_word_o,  // the first non-finite word (2 .. 36), with error_o
  // memory read port
  output      logic        rd_valid_o,
  input  wire logic        rd_ready_i,
  output      logic [31:0] rd_addr_o,   // 8-byte aligned
  input  wire logic        rs_valid_i,
  input  wire logic [63:0] rs_data_i,
  // post-processor register writes
  output      logic        wr_valid_o,
  input  wire logic        wr_ready_i,
  output      logic [5:0]  wr_addr_o,
  output      logic [31:0] wr_data_o
);

  localparam int unsigned Beats = 10;        // bytes 0 .. 79: words 0 .. 39
  localparam int unsigned Knots = 33;
  localparam int unsigned Slots = 34;        // slot t: knot t in, m[t-1], c[t-2] out
  localparam int unsigned Hdrs  = 5;         // TBL0 .. TBL4
  localparam logic [2:0]  PhFetch = 3'd0, PhShift = 3'd1, PhAdd = 3'd2, PhAbs = 3'd3,
                          PhNorm = 3'd4, PhRound = 3'd5;
  localparam logic [15:0] TableLo = 16'hC800;  // -8
  localparam logic [3:0]  StepLog2 = 4'd15;    // -1: segments of 1/2
  localparam logic [15:0] FpOne = ane_pkg::Fp16One;    // ActTable::k's default

  // The header writes (TBL0 .. TBL4).
  function automatic logic [31:0] hdr_word(input logic [2:0] i, input logic [15:0] left,
                                           input logic [15:0] right);
    unique case (i)  // TBL0 .. TBL4, the fields not named 0
      3'd0:    hdr_word = 32'(TableLo) << ane_regs_pkg::PostprocTbl0LoLsb |
                          32'(StepLog2) << ane_regs_pkg::PostprocTbl0StepLog2Lsb;
      3'd1:    hdr_word = 32'(left) << ane_regs_pkg::PostprocTbl1LeftLsb | 32'(FpOne) << ane_regs_pkg::PostprocTbl1KLsb;
      3'd2:    hdr_word = 32'(right) << ane_regs_pkg::PostprocTbl2RightLsb |
                          32'(right) << ane_regs_pkg::PostprocTbl2AtPinfLsb;
      3'd3:    hdr_word = 32'(left) << ane_regs_pkg::PostprocTbl3AtNinfLsb;
      default: hdr_word = 32'h0000_0000;
    endcase
  endfunction

  // ---------------- control ----------------
  typedef enum logic [1:0] {
    SIdle = 2'd0,
    SRead = 2'd1,  // the 10 reads and their answers
    SRun  = 2'd2   // the header writes and the 34 slots
  } st_e;

  st_e         st_q;
  logic [3:0]  ri_q;          // reads issued
  logic [3:0]  ak_q;          // answers taken
  logic [28:0] ra_q;          // next beat address
  logic        bad_q;         // a non-finite word among the answers so far
  logic [5:0]  bw_q;          // the first one
  logic [2:0]  ph_q;          // phase in the slot
  logic [5:0]  sl_q;          // slot
  logic [4:0]  cs_q;          // the c unit's segment: slot - 2 (mod 32)
  logic [2:0]  hdr_q;         // header writes loaded
  logic        o_v_q, o_last_q;
  logic [5:0]  o_addr_q;
  logic [31:0] o_data_q;
  logic        done_q, err_q;
  logic [5:0]  err_word_q;

  logic start, rd_fire, ans, last_ans, o_free, o_fire, last_fire, step, seg_out, ld_hdr, ld_seg;
  assign busy_o     = st_q != SIdle;
  assign start      = start_i && !busy_o;
  assign rd_valid_o = (st_q == SRead) && (ri_q != 4'(Beats));
  assign rd_addr_o  = {ra_q, 3'b000};
  assign rd_fire    = rd_valid_o && rd_ready_i;
  assign ans        = rs_valid_i && (st_q == SRead);
  assign last_ans   = ans && (ak_q == 4'(Beats - 1));
  assign o_free     = !o_v_q || wr_ready_i;
  assign o_fire     = o_v_q && wr_ready_i;
  assign last_fire  = o_fire && o_last_q;
  // a slot's phase 5 hands {c, m} to the write port (slots 2 .. 33): it waits for the header
  // writes and for the output register
  assign seg_out    = sl_q >= 6'd2;
  assign step       = (st_q == SRun) && (sl_q != 6'(Slots)) &&
                      !((ph_q == PhRound) && seg_out && !((hdr_q == 3'(Hdrs)) && o_free));
  assign ld_hdr     = (st_q == SRun) && (hdr_q != 3'(Hdrs)) && o_free;
  assign ld_seg     = step && (ph_q == PhRound) && seg_out;

  // the answer's words 2 .. 36 (beat 0: words 2, 3; beat 9: word 36) that are not finite
  logic [3:0] lane_used, lane_bad;
  logic [1:0] bad_lane;
  assign lane_used = (ak_q == 4'd0) ? 4'b1100 : (ak_q == 4'(Beats - 1)) ? 4'b0001 : 4'b1111;
  for (genvar l = 0; l < 4; l++) begin : g_lane
    assign lane_bad[l] = lane_used[l] && ane_pkg::fp16_is_infnan(rs_data_i[16 * l +: 16]);
  end
  assign bad_lane = lane_bad[0] ? 2'd0 : lane_bad[1] ? 2'd1 : lane_bad[2] ? 2'd2 : 2'd3;

  logic any_bad;
  assign any_bad = bad_q || (lane_bad != 4'b0000);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle;
      ri_q <= '0;
      ak_q <= '0;
      bad_q <= 1'b0;
      ph_q <= '0;
      sl_q <= '0;
      cs_q <= 5'd30;
      hdr_q <= '0;
    end else if (start) begin
      st_q <= SRead;
      ri_q <= '0;
      ak_q <= '0;
      bad_q <= 1'b0;
      ph_q <= '0;
      sl_q <= '0;
      cs_q <= 5'd30;
      hdr_q <= '0;
    end else begin
      if (rd_fire) ri_q <= ri_q + 4'd1;
      if (ans) begin
        ak_q <= ak_q + 4'd1;
        if (lane_bad != 4'b0000) bad_q <= 1'b1;
      end
      if (last_ans) st_q <= any_bad ? SIdle : SRun;
      if (ld_hdr) hdr_q <= hdr_q + 3'd1;
      if (step) begin
        ph_q <= (ph_q == PhRound) ? PhFetch : ph_q + 3'd1;
        if (ph_q == PhRound) begin
          sl_q <= sl_q + 6'd1;
          cs_q <= cs_q + 5'd1;
        end
      end
      if (last_fire) st_q <= SIdle;
    end
  end

  // read address; the first bad word (no reset: set at start, or before use)
  always_ff @(posedge clk_i) begin
    if (start) ra_q <= base_i[31:3];
    else if (rd_fire) ra_q <= ra_q + 29'd1;
    if (ans && !bad_q) bw_q <= {ak_q, bad_lane};
  end

  // results
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q <= 1'b0;
      err_q <= 1'b0;
      err_word_q <= '0;
    end else begin
      done_q <= (last_ans && any_bad) || last_fire;
      if (start) begin
        err_q <= 1'b0;
        err_word_q <= '0;
      end else if (last_ans && any_bad) begin
        err_q <= 1'b1;
        err_word_q <= bad_q ? bw_q : {ak_q, bad_lane};
      end
    end
  end

  assign done_o     = done_q;
  assign error_o    = err_q;
  assign err_word_o = err_word_q;

  // ---------------- the blob ----------------
  // left and right (beat 0), and the knots in a shift register: knot t is at the head in slot t.
  logic [15:0]        left_q, right_q;
  logic [16*Knots-1:0] kn_q;

  always_ff @(posedge clk_i) begin
    if (ans && ak_q == 4'd0) begin
      left_q <= rs_data_i[47:32];
      right_q <= rs_data_i[63:48];
    end
  end

  // knot i is word 4 + i: beat 1 + i / 4, lane i % 4
  for (genvar i = 0; i < Knots; i++) begin : g_knot
    logic [15:0] next;
    if (i == Knots - 1) begin : g_top
      assign next = 16'h0000;
    end else begin : g_mid
      assign next = kn_q[16 * (i + 1) +: 16];
    end
    always_ff @(posedge clk_i) begin
      if (ans && ak_q == 4'(1 + i / 4)) kn_q[16 * i +: 16] <= rs_data_i[16 * (i % 4) +: 16];
      else if (step && ph_q == PhFetch) kn_q[16 * i +: 16] <= next;
    end
  end

  // ---------------- m unit ----------------
  // phase 0: the head knot unpacked: value = val 2^(sh - 24), val the signed significand
  logic [15:0] kh;
  logic [10:0] k_sig;
  assign kh    = kn_q[15:0];
  assign k_sig = ane_pkg::fp16_sig(kh);

  logic [11:0] u_val_q;   // signed
  logic [4:0]  u_sh_q;
  logic [40:0] y0_q, y1_q;  // signed, units of 2^-24
  logic [41:0] d_q, s_q;    // signed: D = Y1 - Y0, S = Y0 + Y1
  logic [15:0] m_q;         // m of the segment before the m unit's

  always_ff @(posedge clk_i) begin
    if (step) begin
      unique case (ph_q)
        PhFetch: begin
          u_val_q <= kh[15] ? 12'd0 - {1'b0, k_sig} : {1'b0, k_sig};
          u_sh_q <= ane_pkg::fp16_scale(kh) - 5'd1;
        end
        PhShift: begin
          y1_q <= {{29{u_val_q[11]}}, u_val_q} << u_sh_q;
          y0_q <= y1_q;
        end
        PhAdd: begin
          d_q <= {y1_q[40], y1_q} - {y0_q[40], y0_q};
          s_q <= {y1_q[40], y1_q} + {y0_q[40], y0_q};
        end
        default: ;
      endcase
    end
  end

  // ---------------- c unit ----------------
  // segment cs = slot - 2; xbar = (2 cs - 31) / 4: |2 cs - 31| = {cs[4] ? cs[3:0] : ~cs[3:0], 1},
  // negative for cs < 16
  logic [4:0]  cs;
  logic [4:0]  k_abs;
  logic [10:0] m_sig;
  assign cs    = cs_q;
  assign k_abs = {cs[4] ? cs[3:0] : ~cs[3:0], 1'b1};
  assign m_sig = ane_pkg::fp16_sig(m_q);

  logic [15:0] p_prod_q;  // msig |2 cs - 31|
  logic [4:0]  p_sh_q;
  logic        p_neg_q;   // m xbar < 0
  logic        p_inf_q;   // m is infinite
  logic [44:0] p_mag_q;   // |m xbar| 2^26
  logic [46:0] c_acc_q;   // signed: (ybar - m xbar) 2^26

  always_ff @(posedge clk_i) begin
    if (step) begin
      unique case (ph_q)
        PhFetch: begin
          p_prod_q <= {5'd0, m_sig} * {11'd0, k_abs};
          p_sh_q <= ane_pkg::fp16_scale(m_q) - 5'd1;
          p_neg_q <= m_q[15] ^ !cs[4];
          p_inf_q <= ane_pkg::fp16_is_infnan(m_q);
        end
        PhShift: p_mag_q <= {29'd0, p_prod_q} << p_sh_q;
        // 2 S - P = 2 S + (P < 0 ? |P| : -|P|)
        PhAdd: c_acc_q <= {{4{s_q[41]}}, s_q, 1'b0} + ({2'b00, p_mag_q} ^ {47{!p_neg_q}}) +
                          47'(!p_neg_q);
        default: ;
      endcase
    end
  end

  // ---------------- the two rounders: 0 for m, 1 for c ----------------
  // v (47 bits signed, value v 2^-(26 + K)) -> RNE fp16; m's v is 32 D (K = 2: no redundant
  // sign bits), c's 2 S -+ P (K = 0, |v| < 2^46). The leading one at bit p moves to bit 45
  // (shift 45 - p), but never further than the subnormal quantum 2^-24 (bit 2 + K) moves to
  // bit 35: shift min(45 - p, 33 - K). Then the significand is bits 45:35, the round bit 34,
  // the sticky bits 33:0, and the biased exponent 33 - K - shift plus the leading bit (a carry
  // of the rounding lands in the exponent field by itself). A zero result is +0.
  logic [2*47-1:0] rnd_in;
  logic [2*16-1:0] rnd_out;
  assign rnd_in = {c_acc_q, d_q, 5'b00000};

  for (genvar g = 0; g < 2; g++) begin : g_rnd
    localparam int unsigned K = (g == 0) ? 2 : 0;
    logic [46:0] v;
    logic        neg1_q, neg2_q;
    logic [45:0] mag_q, w_q;
    logic [5:0]  base_q;
    assign v = rnd_in[47 * g +: 47];

    // The shift: the leading zeros of {mag[45:13+K], 1} (at most 33 - K), counted by ane_lzc in
    // a 64-bit field; mag moves by each power of two of the count.
    logic [63:1] lz_in;
    logic        z5, z4, z3, z2, z1, z0;
    logic        unused_lz_none;  // (the forced one: never zero)
    logic [45:0] x1, x2, x3, x4, x5, x6;
    assign lz_in = 63'({mag_q[45:13+K], 1'b1}) << (29 + K);
    ane_lzc #(.W(64)) u_lz (.v_i({lz_in, 1'b0}), .n_o({z5, z4, z3, z2, z1, z0}), .zero_o(unused_lz_none));
    assign x1   = z5 ? {mag_q[13:0], 32'd0} : mag_q;
    assign x2   = z4 ? {x1[29:0], 16'd0} : x1;
    assign x3   = z3 ? {x2[37:0], 8'd0} : x2;
    assign x4   = z2 ? {x3[41:0], 4'd0} : x3;
    assign x5   = z1 ? {x4[43:0], 2'd0} : x4;
    assign x6   = z0 ? {x5[44:0], 1'b0} : x5;

    always_ff @(posedge clk_i) begin
      if (step && ph_q == PhAbs) begin
        neg1_q <= v[46];
        mag_q <= v[46] ? 46'(47'd0 - v) : v[45:0];
      end
      if (step && ph_q == PhNorm) begin
        neg2_q <= neg1_q;
        w_q <= x6;
        base_q <= 6'(33 - K) - {z5, z4, z3, z2, z1, z0};
      end
    end

    // phase 5: round to nearest even, pack
    logic        rnd_up;
    logic [15:0] r;
    assign rnd_up = w_q[34] && (w_q[35] || (w_q[33:0] != 34'd0));
    assign r = {base_q, 10'd0} + {5'd0, w_q[45:35]} + 16'(rnd_up);
    assign rnd_out[16 * g +: 16] = (r[15:10] >= 6'd31) ? {neg2_q, 15'h7C00} :
                                   (r == 16'd0) ? 16'h0000 : {neg2_q, r[14:0]};
  end

  logic [15:0] c_code;
  assign c_code = p_inf_q ? (p_neg_q ? 16'h7C00 : 16'hFC00) : rnd_out[31:16];

  always_ff @(posedge clk_i) begin
    if (step && ph_q == PhRound) m_q <= rnd_out[15:0];
  end

  // ---------------- write port ----------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_v_q <= 1'b0;
    end else if (start) begin
      o_v_q <= 1'b0;
    end else if (ld_hdr || ld_seg) begin
      o_v_q <= 1'b1;
    end else if (wr_ready_i) begin
      o_v_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (ld_hdr) begin
      o_addr_q <= 6'(ane_regs_pkg::PostprocTbl0Addr) + {3'd0, hdr_q};  // TBL0 .. TBL4 in a row
      o_data_q <= hdr_word(hdr_q, left_q, right_q);
      o_last_q <= 1'b0;
    end else if (ld_seg) begin
      o_addr_q <= 6'(ane_regs_pkg::PostprocSegAddr) + 6'(cs);
      o_data_q <= 32'(c_code) << ane_regs_pkg::PostprocSegCLsb | 32'(m_q) << ane_regs_pkg::PostprocSegMLsb;
      o_last_q <= sl_q == 6'(Slots - 1);
    end
  end

  assign wr_valid_o = o_v_q;
  assign wr_addr_o  = o_addr_q;
  assign wr_data_o  = o_data_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (start_i && !busy_o) assert (base_i[2:0] == 3'b000);
      if (rs_valid_i && st_q == SRead) assert (ak_q < ri_q);  // an answer to a taken read
      assert (!(ld_hdr && ld_seg));
      if (ld_seg) assert (!o_v_q || wr_ready_i);
      if (st_q == SRun) assert (cs_q == 5'(sl_q - 6'd2));
    end
  end
  // the header writes address TBL0 + i
  initial assert(ane_regs_pkg::PostprocTbl1Addr == ane_regs_pkg::PostprocTbl0Addr + 1 &&
                 ane_regs_pkg::PostprocTbl2Addr == ane_regs_pkg::PostprocTbl0Addr + 2 &&
                 ane_regs_pkg::PostprocTbl3Addr == ane_regs_pkg::PostprocTbl0Addr + 3 &&
                 ane_regs_pkg::PostprocTbl4Addr == ane_regs_pkg::PostprocTbl0Addr + 4);
`endif

endmodule

`default_nettype wire
