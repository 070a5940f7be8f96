// SPDX-License-Identifier: Apache-2.0
// ane_td_kdma: the kernel DMA of a compiled program (docs/td.md, assumption A8). It reads the
// raw kernels of a layer from K kernel DMA channels and writes, to a staging region, the pass
// directory and one compressed kernel group per pass (NUMERICS N-6, the dense fp16 / raw8
// formats of tb/oracle/kernel_codec.cc) that the neural-engine core reads (docs/core.md).
//
// Raw kernels (A8): output channel co's kernel (steps values, fp16 2 bytes or int8 1 byte each,
// in step order) is block co div K of channel co mod K; a block is kbytes = ceil(steps eb / 64)
// 64 bytes. Kernel DMA channel c starts at chan_base_i[32c +: 32] (64-byte aligned).
//
// What it writes, from stage_i (64-byte aligned): pass p (0 .. passes-1) computes the nk output
// channels co = gi per + pg nk_full + k (gi = p / ppg, pg = p % ppg, nk = nk_last when
// pg = ppg - 1 else nk_full); co runs 0 .. Cout-1 in pass order, so co, co mod K and co div K
// are stepped, never divided.
//   directory entry p: the 64-bit beat at stage + 8 p = group byte address | group beats << 32;
//   group p: at stage + 8 passes, the groups back to back, each:
//     word 0 (32 bits): format (0 fp16, 3 raw8) | params << 6 | (nk - 1) << 11;
//     if params_i: nk records {scale_i zero-extended to 32 bits, bias_i};
//     the values step-major, kernel-minor (for s: for k), 16 or 8 bits each, LSB-first;
//     zeros to a whole 64-bit beat.
// A per-element pass (nchan_i = 0) reads nothing: every value is the unit (0x3C00 or 0x01).
// bias_i (NE.MACCfg.BiasMode 1, assumption A19; fp16 kernels): each kernel's block starts with its
// channel's fp16 bias, the values after it; steps_i then counts the bias too (value 0 of a row).
// The bias column is read with the block's first beat and goes into the kernel's parameter
// record (fp32, exact) instead of the values; err_o (sticky until the next start) says that a
// bias was not finite (inf or NaN).
//
// How: a row is one kernel; rows 0 .. nk-1 of a pass are read a beat at a time, block by block
// (block q: beat q of every row, i.e. steps 4q .. 4q+3 fp16 or 8q .. 8q+7 int8, since every row
// starts 64-byte aligned). Reads run ahead through the passes; their answers wait in an answer
// buffer (Depth beats; a read is issued only with a free entry: credits), fill the next-block
// rows (nxt), which move at once into the current-block rows (cur) when cur is used up. cur
// shifts out one column per cycle: the nk values of one step, which are the next nk values of
// the group (for s: for k). A packer (24 bytes) appends the header word, the parameter records
// and the columns at byte granularity and hands out one 64-bit beat per cycle. Every 32-bit
// address and offset is stepped by adders; there is no multiplier or divider.
//
// Cycle figures, with the memory always ready at a fixed read latency L <= Depth - 3 (5 at the
// default Depth 8) and the write port always ready; W = 4 (fp16) or 8 (int8) steps per beat,
// eb = 2 or 1 bytes per value, lc = nk eb bytes per column:
//   rates: one column (the nk values of one step) a cycle, at most one beat written and one beat
//     read a cycle: min(nk, 4) fp16 or min(nk, 8) int8 values a cycle within a pass;
//   a pass's columns and last beats take V cycles: lc <= 8: steps + 1, or steps + 2 when
//     (4 + (steps - 1) lc) mod 8 + lc > 8; lc > 8 (fp16, nk >= 5: one beat a cycle):
//     ceil((4 + 8 params + steps lc) / 8) + 1 - params;
//   a job: E = (5 + L + nk of pass 0) + V + the sum over the other passes of (1 + nk params + V),
//     + 3 (the last directory entry, done_o); a per-element pass starts with 2 + nk params
//     instead of 5 + L + nk. Cycle 0 takes start_i, cycle 1 the first header word, the reads
//     start in cycle 2, the first column is taken in cycle 5 + L + nk; each directory entry goes
//     out in the cycle of the next pass's header word; done_o is high in cycle E - 1, one
//     cycle after the last write is taken;
//   E is exact when every pass has the same nk and steps is a multiple of W. Otherwise the
//     reads can bound a job: R = the sum over passes of nk ceil(steps / W) beats, one a cycle
//     (a kernel shorter than nk W steps reads more beats than it writes), and a block of few
//     columns followed by a block of many rows waits while those rows move in, one a cycle.
//     Measured over random layers: max(E, R + L + 8) <= cycles <= that + (sum of nk) / 2.
//   A longer latency lowers the rates (about 8 / (L + 3) of them for nk = 8).
// tb/tests/rtl_td_kdma_test.cc measures and checks every figure above.
//
// Ports: inputs are sampled at start_i when busy_o is low and held. Memory read port as
// rtl/ane_td_fetch.sv: 64-bit beats at 8-byte aligned addresses, answers in order at least one
// cycle after the request is taken, without back-pressure. Memory write port: whole 64-bit beats
// (no strobes), address 8-byte aligned, held while wr_valid_o && !wr_ready_i.
`default_nettype none

module ane_td_kdma #(
  parameter int unsigned Depth = 8   // answer buffer entries (a power of two, >= 2)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // control, sampled at start_i
  input  wire logic              start_i,      // taken while busy_o is low
  input  wire logic [31:0]       stage_i,      // staging region = the core's kernel base (64-aligned)
  input  wire logic [16*32-1:0]  chan_base_i,  // channel c's byte address at [32c +: 32] (64-aligned)
  input  wire logic [4:0]        nchan_i,      // K, 1 .. 16; 0: per-element pass (unit weights)
  input  wire logic [15:0]       steps_i,      // steps per kernel, 1 .. 50127
  input  wire logic              fp16_i,       // 1 fp16 kernels, 0 int8 (raw8)
  input  wire logic [9:0]        per_i,        // output channels per group (checked only)
  input  wire logic [3:0]        nk_full_i,    // min(8, per)
  input  wire logic [9:0]        ppg_i,        // passes per group, ceil(per / nk_full)
  input  wire logic [3:0]        nk_last_i,    // per - (ppg - 1) nk_full
  input  wire logic [10:0]       passes_i,     // groups x ppg, 1 .. 1023
  input  wire logic              params_i,     // the groups carry per-kernel parameter records
  input  wire logic [15:0]       scale_i,      // fp16, every kernel's
  input  wire logic [31:0]       bias_i,       // fp32 bits, every kernel's (bias_in_i 0)
  input  wire logic              bias_in_i,    // each block starts with its kernel's fp16 bias
  output      logic              busy_o,
  output      logic              err_o,        // a bias in a block is inf or NaN
  output      logic              done_o,       // pulse: the last write has been taken
  // memory read port
  output      logic              rd_valid_o,
  input  wire logic              rd_ready_i,
  output      logic [31:0]       rd_addr_o,    // 8-byte aligned
  input  wire logic              rs_valid_i,
  input  wire logic [63:0]       rs_data_i,
  // memory write port
  output      logic              wr_valid_o,
  input  wire logic              wr_ready_i,
  output      logic [31:0]       wr_addr_o,    // 8-byte aligned
  output      logic [63:0]       wr_data_o
);

  localparam int unsigned AW = $clog2(Depth);

  // ---------------- the job (sampled at start) ----------------
  logic              run_q;
  logic [16*26-1:0]  chan_q;      // channel bases in 64-byte units
  logic [3:0]        kmax_q;      // K - 1
  logic              unit_q;      // per-element pass
  logic              fp16_q;
  logic [15:0]       smax_q;      // steps - 1
  logic [13:0]       nqm1_q;      // beats per kernel - 1
  logic [10:0]       kunits_q;    // kbytes / 64
  logic [2:0]        nkf_q, nkl_q;  // nk_full - 1, nk_last - 1
  logic [9:0]        ppgm1_q;     // ppg - 1
  logic [10:0]       pm1_q;       // passes - 1
  logic              par_q;
  logic [15:0]       scale_q;
  logic [31:0]       bias_q;
  logic              bin_q;       // the bias leads each block

  logic start;
  assign busy_o = run_q;
  assign start  = start_i && !run_q;

  logic [15:0] steps_m1;
  logic [16:0] ku_add;
  assign steps_m1 = steps_i - 16'd1;
  assign ku_add   = {1'b0, steps_i} + (fp16_i ? 17'd31 : 17'd63);

  always_ff @(posedge clk_i) begin
    if (start) begin
      for (int c = 0; c < 16; c++) chan_q[26 * c +: 26] <= chan_base_i[32 * c + 6 +: 26];
      kmax_q   <= 4'(nchan_i - 5'd1);
      unit_q   <= nchan_i == 5'd0;
      fp16_q   <= fp16_i;
      smax_q   <= steps_m1;
      nqm1_q   <= fp16_i ? 14'(steps_m1 >> 2) : 14'(steps_m1 >> 3);
      kunits_q <= fp16_i ? 11'(ku_add >> 5) : 11'(ku_add >> 6);
      nkf_q    <= 3'(nk_full_i - 4'd1);
      nkl_q    <= 3'(nk_last_i - 4'd1);
      ppgm1_q  <= ppg_i - 10'd1;
      pm1_q    <= passes_i - 11'd1;
      par_q    <= params_i;
      scale_q  <= scale_i;
      bias_q   <= bias_i;
      bin_q    <= bias_in_i;
    end
  end

  // ---------------- read side: pass, block q, row k ----------------
  typedef enum logic [1:0] {
    RIdle = 2'd0,
    RPrep = 2'd1,   // the first row's base
    RRun  = 2'd2,
    RDone = 2'd3    // every read issued (or none to make)
  } rd_e;
  rd_e          r_state_q;
  logic [10:0]  r_p_q;          // pass
  logic [9:0]   r_pg_q;         // pass in its group
  logic [2:0]   r_nk_q;         // its nk - 1
  logic [13:0]  r_q_q;          // block (beat of every row)
  logic [2:0]   r_k_q;          // row
  // the co walk: nb_q is the base of the next row to start; cw_c_q, cw_off_q (co mod K and
  // (co div K) kbytes, 64-byte units) those of the row after it
  logic [3:0]   cw_c_q;
  logic [25:0]  cw_off_q, nb_q;
  logic [25:0]  cw_base_q;      // channel cw_c_q's base, chosen a step ahead (off the adder's path)
  logic [8*29-1:0] ra_q;        // each row's next beat address (q >= 1)
  logic         rd_v_q;
  logic [28:0]  rd_a_q;
  // answer buffer: credits reserved at issue, freed when the beat moves to nxt
  logic [Depth*64-1:0] fm_q;
  logic [Depth-1:0]    ft_q;    // the beat is its block's last row
  logic [AW-1:0]       tp_q, ap_q, hp_q;  // tag write (issue), data write (answer), head
  logic [AW:0]         cnt_q, resv_q;     // beats held, entries reserved

  logic        r_load, r_lastk, r_lastq, r_lastp, pop, ans, cw_wrap, cw_step;
  logic [28:0] r_addr;
  logic [3:0]  cw_next;
  logic [9:0]  r_pg_next;

  assign ans     = rs_valid_i && run_q;
  assign r_lastk = r_k_q == r_nk_q;
  assign r_lastq = r_q_q == nqm1_q;
  assign r_lastp = r_p_q == pm1_q;
  assign r_load  = (r_state_q == RRun) && (!rd_v_q || rd_ready_i) && (resv_q != (AW + 1)'(Depth));
  assign r_addr  = (r_q_q == '0) ? {nb_q, 3'b000} : ra_q[29 * r_k_q +: 29];
  assign cw_wrap = cw_c_q == kmax_q;
  assign cw_next = cw_wrap ? '0 : cw_c_q + 4'd1;
  assign cw_step = (r_state_q == RPrep) || (r_load && r_q_q == '0);
  assign r_pg_next = (r_pg_q == ppgm1_q) ? '0 : r_pg_q + 10'd1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_state_q <= RIdle;
      rd_v_q <= 1'b0;
    end else begin
      if (r_load) rd_v_q <= 1'b1;
      else if (rd_ready_i) rd_v_q <= 1'b0;
      if (start) begin
        r_state_q <= (nchan_i == 5'd0) ? RDone : RPrep;
      end else begin
        unique case (r_state_q)
          RPrep: r_state_q <= RRun;
          RRun: if (r_load && r_lastk && r_lastq && r_lastp) r_state_q <= RDone;
          RDone: if (!run_q) r_state_q <= RIdle;
          RIdle: ;
          default: r_state_q <= RIdle;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      r_p_q <= '0;
      r_pg_q <= '0;
      r_nk_q <= 3'((ppg_i == 10'd1) ? nk_last_i - 4'd1 : nk_full_i - 4'd1);
      r_q_q <= '0;
      r_k_q <= '0;
      cw_c_q <= '0;
      cw_base_q <= chan_base_i[6 +: 26];
      cw_off_q <= '0;
    end else begin
      if (cw_step) begin
        nb_q <= cw_base_q + cw_off_q;
        cw_c_q <= cw_next;
        cw_base_q <= chan_q[26 * cw_next +: 26];
        if (cw_wrap) cw_off_q <= cw_off_q + 26'(kunits_q);
      end
      if (r_load) begin
        rd_a_q <= r_addr;
        if (r_lastk) begin
          r_k_q <= '0;
          if (r_lastq) begin
            r_q_q <= '0;
            r_p_q <= r_p_q + 11'd1;
            r_pg_q <= r_pg_next;
            r_nk_q <= (r_pg_next == ppgm1_q) ? nkl_q : nkf_q;
          end else begin
            r_q_q <= r_q_q + 14'd1;
          end
        end else begin
          r_k_q <= r_k_q + 3'd1;
        end
      end
    end
  end

  for (genvar k = 0; k < 8; k++) begin : g_row_addr
    always_ff @(posedge clk_i) begin
      if (r_load && r_k_q == 3'(k)) ra_q[29 * k +: 29] <= r_addr + 29'd1;
    end
  end

  assign rd_valid_o = rd_v_q;
  assign rd_addr_o  = {rd_a_q, 3'b000};

  for (genvar e = 0; e < Depth; e++) begin : g_answer
    always_ff @(posedge clk_i) begin
      if (r_load && tp_q == AW'(e)) ft_q[e] <= r_lastk;
      if (ans && ap_q == AW'(e)) fm_q[64 * e +: 64] <= rs_data_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      tp_q <= '0; ap_q <= '0; hp_q <= '0; cnt_q <= '0; resv_q <= '0;
    end else begin
      if (r_load) tp_q <= tp_q + AW'(1);
      if (ans) ap_q <= ap_q + AW'(1);
      if (pop) hp_q <= hp_q + AW'(1);
      cnt_q <= cnt_q + (AW + 1)'(ans) - (AW + 1)'(pop);
      resv_q <= resv_q + (AW + 1)'(r_load) - (AW + 1)'(pop);
    end
  end

  // ---------------- block rows: nxt (filling) and cur (emitting) ----------------
  logic [8*64-1:0] nxt_q, cur_q;
  logic [2:0]      nr_q;          // nxt row the next beat goes to
  logic            nxt_full_q, cur_v_q;
  logic [63:0]     head;
  logic            head_last, nxt_full, xfer;

  assign head      = fm_q[64 * hp_q +: 64];
  assign head_last = ft_q[hp_q];
  assign nxt_full  = unit_q || nxt_full_q;   // a per-element pass: every block is there
  assign pop       = run_q && (cnt_q != '0) && (!nxt_full_q || xfer);

  for (genvar k = 0; k < 8; k++) begin : g_nxt
    always_ff @(posedge clk_i) begin
      if (pop && nr_q == 3'(k)) nxt_q[64 * k +: 64] <= head;
    end
  end

  // ---------------- emit side: header, parameter records, values, per pass ----------------
  typedef enum logic [2:0] {
    EIdle  = 3'd0,
    EHdr   = 3'd1,   // the header word
    EPar   = 3'd2,   // nk parameter records
    EVal   = 3'd3,   // steps columns
    EFlush = 3'd4,   // the group's last beat
    EDone  = 3'd5    // the last directory entry
  } emit_e;
  emit_e        e_state_q;
  logic [10:0]  e_p_q;
  logic [9:0]   e_pg_q;
  logic [2:0]   e_nk_q;       // nk - 1
  logic [2:0]   e_r_q;        // parameter record
  logic [15:0]  e_s_q;        // step (column)
  // packer: s_q holds f_q bytes (bytes at f_q and up are zero)
  logic [191:0] s_q;
  logic [4:0]   f_q;
  // write port and directory
  logic         o_v_q;
  logic [28:0]  o_a_q;
  logic [63:0]  o_d_q;
  logic         dir_q;        // a directory entry waits
  logic [28:0]  dptr_q, gptr_q, gaddr_q;
  logic [16:0]  gbeats_q;
  logic         done_q;

  logic         out_free, emit, dir_w, can_acc, acc, acc_val, last_col, grp_done, finish, drop;
  logic [15:0]  rec_b16;      // record e_r_q's bias from its block (bias_in_i)
  logic [31:0]  rec_bias;
  logic [127:0] vchunk, chunk;
  logic [4:0]   clen, f1;
  logic [191:0] s1, sh;
  logic [9:0]   e_pg_next;
  logic [31:0]  hdr;

  assign out_free = !o_v_q || wr_ready_i;
  assign dir_w    = dir_q && out_free;
  assign emit     = run_q && !dir_q && out_free &&
                    (f_q[4:3] != 2'b00 || (e_state_q == EFlush && f_q != '0));
  // a chunk lands below byte 8 of what stays after this cycle's beat: at byte f_q[2:0]
  assign can_acc  = f_q[4:3] == 2'b00 || (f_q[4:3] == 2'b01 && emit);
  assign acc_val  = (e_state_q == EVal) && cur_v_q && can_acc;
  // a record with the bias from its block waits for the pass's first block
  assign acc      = (e_state_q == EHdr) ? can_acc :
                    (e_state_q == EPar) ? can_acc && (!bin_q || cur_v_q) : acc_val;
  // after the last record, the bias column (column 0 of every row) is dropped: the values start
  // at column 1 (never a block's last column: a block holds 4 fp16 columns, steps_i >= 2)
  assign drop     = bin_q && (e_state_q == EPar) && acc && (e_r_q == e_nk_q);
  assign rec_b16  = cur_q[64 * e_r_q +: 16];
  assign rec_bias = bin_q ? ane_pkg::fp16_to_fp32(rec_b16) : bias_q;
  assign last_col = (fp16_q ? e_s_q[1:0] == 2'b11 : e_s_q[2:0] == 3'b111) || e_s_q == smax_q;
  assign xfer     = run_q && nxt_full && (!cur_v_q || (acc_val && last_col));
  assign grp_done = (e_state_q == EFlush) && !dir_q && (f_q == '0 || (emit && f_q[4:3] == 2'b00) ||
                                                         (emit && f_q == 5'd8));
  assign finish   = (e_state_q == EDone) && !dir_q && o_v_q && wr_ready_i;
  assign e_pg_next = (e_pg_q == ppgm1_q) ? '0 : e_pg_q + 10'd1;

  // one column: value k of the step at [16k +: 16] (fp16) or [8k +: 8] (int8), k <= nk - 1
  always_comb begin
    vchunk = '0;
    for (int k = 0; k < 8; k++) begin
      if (3'(k) <= e_nk_q) begin
        if (fp16_q) vchunk[16 * k +: 16] = unit_q ? ane_pkg::Fp16One : cur_q[64 * k +: 16];
        else        vchunk[8 * k +: 8]   = unit_q ? 8'h01 : cur_q[64 * k +: 8];
      end
    end
  end

  assign hdr = {18'd0, e_nk_q, 4'd0, par_q, 3'd0, fp16_q ? 3'd0 : 3'd3};

  always_comb begin
    unique case (e_state_q)
      EHdr: begin
        chunk = {96'd0, hdr};
        clen  = 5'd4;
      end
      EPar: begin
        chunk = {64'd0, rec_bias, 16'd0, scale_q};
        clen  = 5'd8;
      end
      default: begin
        chunk = vchunk;
        clen  = fp16_q ? {1'b0, 4'(e_nk_q) + 4'd1} << 1 : {2'b0, 3'(e_nk_q)} + 5'd1;
      end
    endcase
  end

  assign s1 = emit ? {64'd0, s_q[191:64]} : s_q;
  assign f1 = emit ? (f_q[4:3] != 2'b00 ? f_q - 5'd8 : 5'd0) : f_q;
  assign sh = {64'd0, chunk} << {f_q[2:0], 3'b000};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
      e_state_q <= EIdle;
      o_v_q <= 1'b0;
      dir_q <= 1'b0;
      done_q <= 1'b0;
      f_q <= '0;
      err_o <= 1'b0;
    end else begin
      done_q <= finish;
      if (start) err_o <= 1'b0;
      else if (bin_q && e_state_q == EPar && acc && ane_pkg::fp16_is_infnan(rec_b16)) err_o <= 1'b1;
      if (start) begin
        run_q <= 1'b1;
        e_state_q <= EHdr;
        dir_q <= 1'b0;
        f_q <= '0;
      end else begin
        if (finish) run_q <= 1'b0;
        f_q <= acc ? f1 + clen : f1;
        if (dir_w || emit) o_v_q <= 1'b1;
        else if (wr_ready_i) o_v_q <= 1'b0;
        if (grp_done) dir_q <= 1'b1;
        else if (dir_w) dir_q <= 1'b0;
        unique case (e_state_q)
          EHdr: if (acc) e_state_q <= par_q ? EPar : EVal;
          EPar: if (acc && e_r_q == e_nk_q) e_state_q <= EVal;
          EVal: if (acc && e_s_q == smax_q) e_state_q <= EFlush;
          EFlush: if (grp_done) e_state_q <= (e_p_q == pm1_q) ? EDone : EHdr;
          EDone: if (finish) e_state_q <= EIdle;
          EIdle: ;
          default: e_state_q <= EIdle;
        endcase
      end
    end
  end

  // the emit side's counters, the packer's bytes, the rows and the write port's payload (set at
  // start: no reset)
  always_ff @(posedge clk_i) begin
    if (start) begin
      e_p_q <= '0;
      e_pg_q <= '0;
      e_nk_q <= 3'((ppg_i == 10'd1) ? nk_last_i - 4'd1 : nk_full_i - 4'd1);
      e_r_q <= '0;
      e_s_q <= '0;
      s_q <= '0;
      nr_q <= '0;
      nxt_full_q <= 1'b0;
      cur_v_q <= 1'b0;
      dptr_q <= stage_i[31:3];
      gptr_q <= stage_i[31:3] + 29'(passes_i);
      gaddr_q <= stage_i[31:3] + 29'(passes_i);
      gbeats_q <= '0;
    end else begin
      s_q <= acc ? (s1 | sh) : s1;
      if (e_state_q == EPar && acc) e_r_q <= (e_r_q == e_nk_q) ? '0 : e_r_q + 3'd1;
      if (acc_val) e_s_q <= (e_s_q == smax_q) ? '0 : e_s_q + 16'd1;
      else if (drop) e_s_q <= 16'd1;
      if (grp_done) begin
        e_p_q <= e_p_q + 11'd1;
        e_pg_q <= e_pg_next;
        e_nk_q <= (e_pg_next == ppgm1_q) ? nkl_q : nkf_q;
      end
      // nxt: filled a beat at a time, emptied into cur at once
      if (pop) nr_q <= head_last ? '0 : nr_q + 3'd1;
      nxt_full_q <= (nxt_full_q && !xfer) || (pop && head_last);
      // cur: one column out per value chunk
      if (xfer) cur_v_q <= 1'b1;
      else if (acc_val && last_col) cur_v_q <= 1'b0;
      if (xfer) begin
        cur_q <= nxt_q;
      end else if (acc_val || drop) begin
        for (int k = 0; k < 8; k++) begin
          cur_q[64 * k +: 64] <= fp16_q ? {16'd0, cur_q[64 * k + 16 +: 48]} : {8'd0, cur_q[64 * k + 8 +: 56]};
        end
      end
      // the write port: a directory entry first, else the packer's next beat
      if (dir_w) begin
        o_a_q <= dptr_q;
        o_d_q <= {15'd0, gbeats_q, gaddr_q, 3'b000};
        dptr_q <= dptr_q + 29'd1;
        gaddr_q <= gptr_q;
        gbeats_q <= '0;
      end else if (emit) begin
        o_a_q <= gptr_q;
        o_d_q <= s_q[63:0];
        gptr_q <= gptr_q + 29'd1;
        gbeats_q <= gbeats_q + 17'd1;
      end
    end
  end

  assign wr_valid_o = o_v_q;
  assign wr_addr_o  = {o_a_q, 3'b000};
  assign wr_data_o  = o_d_q;
  assign done_o     = done_q;

  logic unused;
  assign unused = ^{stage_i[2:0], chan_base_i};  // the low address bits are zero (aligned)

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (start_i) assert (!busy_o);
      if (start) begin
        assert (nchan_i <= 5'd16);
        assert (steps_i != '0);
        assert (nk_full_i >= 4'd1 && nk_full_i <= 4'd8);
        assert (nk_last_i >= 4'd1 && nk_last_i <= nk_full_i);
        assert (ppg_i != '0 && passes_i != '0 && passes_i <= 11'd1023);
        assert (32'(per_i) == (32'(ppg_i) - 32'd1) * 32'(nk_full_i) + 32'(nk_last_i));
        assert (stage_i[5:0] == 6'd0);
        assert (!bias_in_i || (fp16_i && params_i && nchan_i != 5'd0 && steps_i >= 16'd2));
      end
      if (ans) assert (cnt_q != (AW + 1)'(Depth));
      if (pop) assert (cnt_q != '0 && !unit_q);
      if (acc) assert (f1 < 5'd8);
      assert (f_q <= 5'd24);
      if (acc_val) assert (cur_v_q);
    end
  end
`endif

endmodule

`default_nettype wire
