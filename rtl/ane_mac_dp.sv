// SPDX-License-Identifier: Apache-2.0
// ane_mac_dp: the datapath of one MAC lane (NUMERICS N-2): products, the 8 slots' pending quads
// and accumulators, the result and read ports. It has no control of its own: ane_mac_ctrl tells
// it, stage by stage, what to do (ane_pkg::mac_ctl_t), so one control unit drives all the lanes
// of an array. Pipeline (docs/mac_lane.md): register k feeds stage Lk.
//
//   reg 0   the decoded operands (ane_mac_mul decodes them as the operation enters)   N-1, N-2.1-2.3
//   L0, L1  ane_mac_mul: the split 11 x 11 multiplier, the product sum               N-2.2, N-2.8
//   L1      m1: the slot's pending quad is read for L2
//   L2      integer: four lanes add the products to the slots' pending quads; a completed
//           quad enters the accumulator path (m1: add12's stage-b register; m5: p3)  N-2.8
//   L2..L5  m1: ane_mac_add12 on the slot's pending quad (written in L5), with the
//           padding of an incomplete final quad (add12(t, +0)); an integer quad passes N-2.4
//   L2..L5  m5: the exact pending quad read in L2, the exact sum in L3 (one prefix     N-2.4 (m5)
//           adder), written in L5
//   L5      both: the accumulator is read for L6 (the value L9 writes now forwarded)
//   L6..L9  m1: ane_mac_acc_add: fp32 accumulate, compare, or int32 saturating add  N-2.5, N-2.6,
//   L4..L9  m5: ane_mac_acc_exact (L4, L5: the quad's zero counts and normalization; N-2.8, N-2.9
//           L6..L9: the exact accumulate); the compare or the int32 add in L6
//   L9      every accumulator write of a MAC operation happens here
//   reg 10  the output queue's head; its fp16 port value (ane_mac_out)              N-2.6, N-2.3, N-2.7
`default_nettype none

module ane_mac_dp #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen      = ane_pkg::GenM1,
  // The read port (rd_*) and the result's fp16 port (out_fp16_o). The core has neither (its
  // post-processor rounds out_acc_o): with 0 the outputs are tied to 0 and their logic is gone.
  parameter logic ReadPort = 1'b1,
  parameter logic Fp16Port = 1'b1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              en_i,
  input  wire ane_pkg::mac_ctl_t ctl_i,
  input  wire ane_pkg::mac_oq_t  oq_i,
  input  wire ane_pkg::mac_cmd_e  in_cmd_i,
  input  wire ane_pkg::mac_mode_e in_mode_i,
  input  wire logic [15:0]       in_data_i,
  input  wire logic [15:0]       in_kernel_i,
  output      logic [31:0]       out_acc_o,
  output      logic [15:0]       out_fp16_o,
  output      logic              out_sat_o,
  input  wire logic [2:0]        rd_slot_i,
  output      logic [31:0]       rd_acc_o,
  output      logic [15:0]       rd_fp16_o,
  output      logic              rd_sat_o
);

  localparam int unsigned NumSlots = 8;
  localparam int unsigned XW = ane_pkg::MacExactBits;  // 85, m5 exact quads

  // ------------------------------------------------------------------ slot state
  logic [NumSlots*32-1:0] acc_q;  // accumulators (fp32 or int32)
  logic [NumSlots-1:0]    sat_q;  // int32 saturation flags
  logic [NumSlots*32-1:0] tq_q;   // pending quads: m1 fp (mac_fv_t), integer (bits 17:0)

  // ------------------------------------------------------------------ register 0, L0, L1
  // Register 0 holds the decoded operands (ane_mac_mul's first register), or a CmdLoad's value.
  ane_pkg::mac_fv_t   prod;
  logic [31:0]        prod_int, ld_val;
  logic signed [15:0] prod_i8;
  logic [31:0]        prod_i4;
  ane_mac_mul #(.Gen(Gen), .Pipe(1'b1)) u_mul (
    .clk_i       (clk_i),
    .ld_i        (ctl_i.s0_load),
    .en_i        (en_i),
    .mode_i      (in_mode_i),
    .raw_i       (in_cmd_i == ane_pkg::CmdLoad),
    .data_i      (in_data_i),
    .kernel_i    (in_kernel_i),
    .raw_o       (ld_val),
    .prod_o      (prod),
    .int_prod_o  (prod_i8),
    .int4_prod_o (prod_i4),
    .int_o       (prod_int)
  );

  // The integer products: int8 sign-extended, or the four int4 products rotated by the base
  // slot so that byte l is the product integer lane l adds (for slot l or l + 4).
  ane_pkg::mac_fv_t p2;
  logic [31:0]      pi2;
  logic [63:0]      prod_rot;  // bits 63..32: the products rotated left by 8 x (slot mod 4)
  assign prod_rot = {prod_int, prod_int} << {ctl_i.l1_slot[1:0], 3'b000};
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      p2  <= prod;
      pi2 <= ctl_i.l1_int4 ? prod_rot[63:32] : prod_int;
    end
  end

  // ------------------------------------------------------------------ L2: integer quads
  // Four integer lanes; lane l serves slots l and l + 4. An int4 operation on base slot b puts
  // its product i on slot b + i, which lane (b + i) mod 4 serves: the four products are rotated
  // by b onto the lanes, and no slot is served by two lanes. An int8 operation uses one lane.
  // In L2 each lane adds the product to the slot's pending quad. A quad that completes goes on
  // to the accumulator path: the base slot's (or the int8 slot's) at once, an int4 operation's
  // other three from the hold register in the three pipeline positions after it (int4 quads
  // fit 10 bits: |quad| <= 4 x 64).
  logic [4*18-1:0] lqs;   // per lane: the new pending quad (L2)
  logic [4*10-1:0] hold;  // per lane: an int4 operation's completed quads, for base + 1..3
  logic [17:0]     injq;  // the completed quad that enters the accumulator path

  for (genvar l = 0; l < 4; l++) begin : g_int
    logic               hi2, b0;
    logic signed [17:0] addend, tbase;
    always_comb begin
      hi2     = ctl_i.l2_iwe[l+4];  // the operation's slot for this lane is l + 4 (else l)
      b0      = hi2 ? ctl_i.l2_ib0[l+4] : ctl_i.l2_ib0[l];
      addend  = ctl_i.l2_int4 ? 18'($signed(pi2[8*l +: 8])) : 18'($signed(pi2[15:0]));
      tbase   = b0 ? 18'sd0 : $signed(hi2 ? tq_q[32*(l+4) +: 18] : tq_q[32*l +: 18]);
      lqs[18*l +: 18] = tbase + addend;
    end
  end
  always_ff @(posedge clk_i) begin
    if (en_i && ctl_i.l2_hold_ld) begin
      hold <= {lqs[54 +: 10], lqs[36 +: 10], lqs[18 +: 10], lqs[0 +: 10]};
    end
  end
  always_comb begin
    injq = '0;
    for (int l = 0; l < 4; l++) begin
      injq = injq | ({18{ctl_i.l2_inj_lsel[l]}} & lqs[18*l +: 18])
                  | ({18{ctl_i.l2_inj_hsel[l]}} & {{8{hold[10*l+9]}}, hold[10*l +: 10]});
    end
  end

  // ------------------------------------------------------------------ generation-specific fp path
  logic [31:0] fp_res;    // L9: the fp / compare / integer result
  logic        res_ovf;   // L9: an integer sum left the int32 range (saturated)

  // (Yosys 0.23 cannot resolve struct fields of variables declared inside a generate block:
  // the generation-specific struct variables live here.)
  ane_pkg::mac_fv_t p3, p4, p5;      // m5
  ane_pkg::mac_fv_t t_sel, s5, t6;  // m1

  if (Gen == ane_pkg::GenM5) begin : g_m5
    // ---- m5: exact quads (NUMERICS N-2.4 m5 [assumption]: no add12 rounding). An exact sum of
    // four products needs up to 83 bits, and so does the state that holds it between products.
    // L2 reads the slot's pending quad and puts the product on the exact grid, L3 adds, L5
    // writes the sum back (an fp operation that continues the quad is at least 4 positions
    // behind the last writer of its slot, so its L2 comes after that writer's L5). L4..L9:
    // ane_mac_acc_exact (t's zero counts, normalization, then the accumulator read in L5 as in
    // m1, with the value L9 writes now forwarded).
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        p3 <= ctl_i.l2_inj ? {{14{injq[17]}}, injq} : p2;  // an integer quad rides p3..p5
        p4 <= p3;
        p5 <= p4;
      end
    end

    logic [NumSlots*XW-1:0] tx_q;  // pending quads, exact
    logic [2:0]    slot2_q;         // register 2's slot
    logic [XW-1:0] tsel2, px2, ta3, pb3, tsum3, t4, t5;
    logic [82:0]   pmag2;
    logic [83:0]   s84, qa3, qb3;
    logic [83:0]   qk_p, qk_g, qk_pp, qk_gg, qk_r, qk_r1;
    logic          qk_c1;
    logic          sg3, zero3, same3;
    always_ff @(posedge clk_i) begin
      if (en_i) slot2_q <= ctl_i.l1_slot;
    end
    // L2: the product as mag * 2^-48 (value = sig * 2^(e - 85)); the pending quad (+0 when the
    // product starts a quad)
    always_comb begin
      pmag2 = (p2.e >= 7'd37) ? (83'(p2.sig) << (p2.e - 7'd37)) : (83'(p2.sig) >> (7'd37 - p2.e));
      px2   = p2.zero ? '0 : (p2.inf ? {1'b1, p2.sign, 83'd0} : {1'b0, p2.sign, pmag2});
      tsel2 = ctl_i.l2_pass ? '0 : tx_q[XW*slot2_q +: XW];
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        ta3 <= tsel2;
        pb3 <= px2;
        // the signs compared a stage early: in L3 the comparison fed 84 operand bits through
        // buffers in front of the adder (the m5 lane's critical path)
        same3 <= tsel2[83] == px2[83];
      end
    end
    // L3: the exact sum: inf + finite = inf, inf + (-inf) = +0, zero sums are +0
    always_comb begin
      // one prefix tree: a + b, or a + ~b and a + ~b + 1 = a - b (when a >= b, the carry out),
      // else b - a = ~(a + ~b)
      qa3 = {1'b0, ta3[82:0]};
      qb3 = same3 ? {1'b0, pb3[82:0]} : ~{1'b0, pb3[82:0]};
      // qk: a compound parallel-prefix (Kogge-Stone) adder: qk_r = x + y, qk_r1 = x + y + 1
      // (level s in whole-vector form: bit i >= 2^s combines with bit i - 2^s, the bits below
      // 2^s keep their (g, p); the gates of a loop over bits, one wide operation each in the
      // Verilated model)
      qk_p  = qa3 ^ qb3;
      qk_g  = qa3 & qb3;
      qk_gg = qk_g;
      qk_pp = qk_p;
      for (int s = 0; s < 7; s++) begin
        qk_gg = qk_gg | (qk_pp & (qk_gg << (1 << s)));
        qk_pp = qk_pp & ((qk_pp << (1 << s)) | ~({84{1'b1}} << (1 << s)));
      end
      qk_r  = qk_p ^ {qk_gg[82:0], 1'b0};
      qk_r1 = qk_p ^ {qk_gg[82:0] | qk_pp[82:0], 1'b1};
      qk_c1 = qk_gg[83] | qk_pp[83];
      if (same3) begin
        s84   = qk_r;
        sg3   = ta3[83];
        zero3 = (ta3[82:0] == 83'd0) && (pb3[82:0] == 83'd0);
      end else begin
        s84   = qk_c1 ? qk_r1 : ~qk_r;
        sg3   = qk_c1 ? ta3[83] : pb3[83];
        zero3 = ta3[82:0] == pb3[82:0];
      end
      if (ta3[84] || pb3[84]) begin
        tsum3 = (ta3[84] && pb3[84] && !same3) ? '0
                                                             : {1'b1, ta3[84] ? ta3[83] : pb3[83], 83'd0};
      end else begin
        tsum3 = {1'b0, sg3 && !zero3, s84[82:0]};
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        t4 <= tsum3;
        t5 <= t4;
      end
    end
    for (genvar j = 0; j < NumSlots; j++) begin : g_tx
      always_ff @(posedge clk_i) begin
        if (en_i && ctl_i.l5_twe[j]) tx_q[XW*j +: XW] <= t5;
      end
    end

    // L5: the accumulator is read for L6 (the value L9 writes now forwarded); the compare data
    // (an fp16 value, exact, as fp32 bits) or the integer quad (raw bits of p5).
    logic [31:0] acc6, v6, acc_in, acc_x, cmp_acc, key_d, key_a, cmp_res, int_res, d32;
    logic [31:0] r7, r8, r9;
    logic        o7, o8, o9, take_d, iovf;
    logic        a_nan, a_zero, gt, lt, d_pos, d_inf;
    logic [32:0] isum;
    always_comb begin
      d32 = p5.zero ? 32'd0 : (p5.inf ? {p5.sign, 8'hFF, 23'd0}
                                      : {p5.sign, 8'({1'b0, p5.e} + 8'd63), p5.sig[20:0], 2'b00});
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        acc6 <= ctl_i.l5_fwd ? fp_res : acc_q[32*ctl_i.l5_slot +: 32];
        v6   <= ctl_i.l5_iacc ? p5 : d32;
      end
    end
    assign acc_in = ctl_i.l6_qclr ? 32'd0 : acc6;

    // L6..L9: the exact accumulate
    ane_mac_acc_exact #(.Pipe(1'b1)) u_acc (
      .clk_i     (clk_i),
      .en_i      (en_i),
      .acc_i     (acc_in),
      .t_i       (t4),
      .ceiling_i (ctl_i.l6_ceiling),
      .acc_o     (acc_x)
    );
    // L6: the compare or the integer add (int32, saturating: N-2.8), carried to L9. The
    // accumulator operand's clear (l6_qclr: +0), NaN (+inf) and -0 (+0) are resolved beside the
    // 32-bit compare and the add, from acc6 itself, not in front of them (in front, the clear
    // was the m5 lane's critical path). The compare data v6 is never NaN or -0 (d32).
    always_comb begin
      a_nan   = (acc6[30:23] == 8'hFF) && (acc6[22:0] != 23'd0);
      a_zero  = ctl_i.l6_qclr || (acc6[30:0] == 31'd0);
      cmp_acc = a_zero ? 32'd0 : (a_nan ? 32'h7F80_0000 : acc6);  // NaN -> +inf, -0 -> +0
      key_d   = v6[31] ? ~v6 : (v6 ^ 32'h8000_0000);
      key_a   = acc6[31] ? ~acc6 : (acc6 ^ 32'h8000_0000);
      d_pos   = !v6[31] && (v6[30:0] != 31'd0);
      d_inf   = v6 == 32'h7F80_0000;
      if (a_zero) begin         // against +0
        gt = d_pos;
        lt = v6[31];
      end else if (a_nan) begin  // against +inf
        gt = 1'b0;
        lt = !d_inf;
      end else begin
        gt = key_d > key_a;
        lt = key_d < key_a;
      end
      take_d  = !ctl_i.l6_hv || (ctl_i.l6_max ? gt : lt);
      cmp_res = take_d ? v6 : cmp_acc;
      isum    = {acc6[31], acc6} + {{15{v6[17]}}, v6[17:0]};
      iovf    = !ctl_i.l6_qclr && (isum[32] != isum[31]);
      int_res = ctl_i.l6_qclr ? {{14{v6[17]}}, v6[17:0]}
                              : (iovf ? {isum[32], {31{!isum[32]}}} : isum[31:0]);
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        r7 <= ctl_i.l6_int ? int_res : cmp_res;
        o7 <= ctl_i.l6_int && iovf;
        r8 <= r7;
        o8 <= o7;
        r9 <= r8;
        o9 <= o8;
      end
    end
    // L9: the result
    always_comb begin
      res_ovf = ctl_i.l9_int && o9;
      fp_res  = (ctl_i.l9_int || ctl_i.l9_cmp) ? r9 : acc_x;
    end

    assign {t_sel, s5, t6} = '0;
    logic unused_m5;
    assign unused_m5 = ^{t_sel, s5, t6, tq_q[NumSlots*32-1:0], ctl_i.l1_fwd, ctl_i.l2_pad,
                         ctl_i.l5_pass, ctl_i.l5_cmp, ctl_i.l9_qclr, ctl_i.l9_max, ctl_i.l9_hv,
                         ctl_i.l9_ceiling, ctl_i.l6_cmp, s84[83], qk_r1[83]};
  end else begin : g_m1
    // ---- m1: the narrow datapath.
    // The slot's pending quad is read in L1 for L2; the value L5 writes in the same cycle is
    // forwarded (the hazard rule keeps every older writer of the slot at least that far ahead).
    always_ff @(posedge clk_i) begin
      if (en_i) t_sel <= ctl_i.l1_fwd ? s5 : tq_q[32*ctl_i.l1_slot +: 32];
    end
    ane_mac_add12 #(.Pipe(1'b1)) u_add12 (
      .clk_i  (clk_i),
      .en_i   (en_i),
      .x_i    (t_sel),
      .y_i    (p2),
      .pass_i (ctl_i.l2_pass),
      .pad_i  (ctl_i.l2_pad),  // an incomplete final quad is padded: add12(t, +0)
      .inj_i  (ctl_i.l2_inj),  // a completed integer quad passes through instead
      .injq_i (injq),
      .s_o    (s5)
    );

    // L5 reads the slot's accumulator for L6; when L9 writes that slot in the same cycle, its
    // value is taken instead (an accumulator written in L9 is read again four positions later).
    logic [31:0] acc6, acc_in;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        t6   <= s5;
        acc6 <= ctl_i.l5_fwd ? fp_res : acc_q[32*ctl_i.l5_slot +: 32];
      end
    end
    always_comb begin
      acc_in = ctl_i.l6_qclr ? 32'd0 : acc6;
    end
    ane_mac_acc_add #(.Pipe(1'b1)) u_acc (
      .clk_i     (clk_i),
      .en_i      (en_i),
      .acc_i     (acc_in),
      .t_i       (t6),
      .ceiling_i (ctl_i.l6_ceiling),
      .cmp_i     (ctl_i.l6_cmp),
      .max_i     (ctl_i.l6_max),
      .hv_i      (ctl_i.l6_hv),
      .int_i     (ctl_i.l6_int),
      .acc_o     (fp_res),
      .ovf_o     (res_ovf)
    );

    assign {p3, p4, p5} = '0;
    logic unused_m1;
    assign unused_m1 = ^{p3, p4, p5, ctl_i.l5_pass, ctl_i.l5_cmp, ctl_i.l5_iacc, ctl_i.l9_qclr,
                         ctl_i.l9_cmp, ctl_i.l9_max, ctl_i.l9_hv, ctl_i.l9_ceiling, ctl_i.l9_int};
  end

  // ------------------------------------------------------------------ slot writes
  // L0: load / clear (the control unit lets them run only when no older operation on the slot is
  // in flight); L2: integer pending quads; L5: the fp pending quad (m1); L9: every accumulator
  // result (fp, compare, integer) and the +0 of a reduction that starts with its quad pending.
  // The saturation flag: a reduction's start clears it, an integer sum out of range sets it.
  logic res_sat;  // L9: the written slot's new flag
  assign res_sat = (!ctl_i.l9_satclr && sat_q[ctl_i.l9_slot]) || res_ovf;
  for (genvar j = 0; j < NumSlots; j++) begin : g_slot
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        acc_q[32*j +: 32] <= 32'd0;
        sat_q[j]          <= 1'b0;
      end else if (ctl_i.l0_ld_we[j]) begin
        acc_q[32*j +: 32] <= ctl_i.l0_ld_zero ? 32'd0 : ld_val;
        sat_q[j]          <= 1'b0;
      end else if (en_i && ctl_i.l9_fwe[j]) begin
        acc_q[32*j +: 32] <= fp_res;
        sat_q[j]          <= res_sat;
      end else if (en_i && ctl_i.l9_fh[j]) begin
        acc_q[32*j +: 32] <= 32'd0;
        sat_q[j]          <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i && ctl_i.l5_twe[j]) begin
        tq_q[32*j +: 32] <= s5;  // m1 (m5 keeps its quads in tx_q)
      end else if (en_i && ctl_i.l2_iwe[j]) begin
        tq_q[32*j +: 18] <= lqs[18*(j%4) +: 18];
      end
    end
  end

  // ------------------------------------------------------------------ register 10: the output queue
  // The head drives the ports, the skid entry holds a second result while the head waits
  // (ane_mac_ctrl keeps the count). The fp16 port value is formed after the head register.
  logic [31:0] out_acc_q, skid_acc_q;
  logic        out_sat_q, skid_sat_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_acc_q <= 32'd0;
      out_sat_q <= 1'b0;
    end else if (oq_i.head_new) begin  // the output registers hold the last result, never X
      out_acc_q <= fp_res;
      out_sat_q <= res_sat;
    end else if (oq_i.head_skid) begin
      out_acc_q <= skid_acc_q;
      out_sat_q <= skid_sat_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (oq_i.skid_new) begin
      skid_acc_q <= fp_res;
      skid_sat_q <= res_sat;
    end
  end
  assign out_acc_o = out_acc_q;
  assign out_sat_o = out_sat_q;
  if (Fp16Port) begin : g_fp16
    ane_mac_out #(.Gen(Gen)) u_out (.acc_i(out_acc_q), .fp16_o(out_fp16_o));
  end else begin : g_no_fp16
    assign out_fp16_o = 16'd0;
  end

  // ------------------------------------------------------------------ read port
  if (ReadPort) begin : g_rd
    logic [31:0] rd_acc_q;
    logic        rd_sat_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_acc_q <= 32'd0;
        rd_sat_q <= 1'b0;
      end else begin
        rd_acc_q <= acc_q[32*rd_slot_i +: 32];
        rd_sat_q <= sat_q[rd_slot_i];
      end
    end
    assign rd_acc_o = rd_acc_q;
    assign rd_sat_o = rd_sat_q;
    if (Fp16Port) begin : g_rd_fp16
      ane_mac_out #(.Gen(Gen)) u_rd_out (.acc_i(rd_acc_q), .fp16_o(rd_fp16_o));
    end else begin : g_rd_no_fp16
      assign rd_fp16_o = 16'd0;
    end
  end else begin : g_no_rd
    assign {rd_acc_o, rd_fp16_o, rd_sat_o} = '0;
    logic unused_rd;
    assign unused_rd = ^rd_slot_i;
  end

  logic unused;
  assign unused = ^{prod_i8, prod_i4, prod_rot[31:0]};

endmodule

`default_nettype wire
