// ane_mac_dp: the datapath of one MAC lane (NUMERICS N-2): products, the 8 slots' pending quads
// and accumulators, the result and read ports. It has no control of its own: ane_mac_ctrl tells
// it, stage by stage, what to do (ane_pkg::mac_ctl_t), so one control unit drives all the lanes
// of an array. Pipeline (docs/mac_lane.md): register k feeds stage Lk.
//
//   reg 0   data, kernel
//   L0, L1  ane_mac_mul: operand decode, the split 11 x 11 multiplier, product sum   N-1, N-2.1-2.3
//   L2..L5  m1: ane_mac_add12 on the slot's pending quad (read in L2, written in L5) N-2.4
//           m5: the exact quad sum (read and written in L5)                         N-2.4 (m5)
//           integer: the quads and the int32 saturating accumulators (L5)           N-2.8
//   L6      m1: an incomplete final quad is padded: add12(t, +0)                    N-2.4
//   L7..L10 m1: ane_mac_acc_add (accumulator read in L7, written in L10)            N-2.5, N-2.6, N-2.9
//           m5: the exact accumulate ane_mac_acc_exact, or the compare (L10)        N-2.5, N-2.6, N-2.9
//   L11     the fp16 output port of the result (ane_mac_out)                        N-2.6, N-2.3, N-2.7
//
// An integer result rides the fp registers from L6 on as raw bits.
`default_nettype none

module ane_mac_dp #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              en_i,
  input  wire ane_pkg::mac_ctl_t ctl_i,
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
  logic [15:0] data_q, kernel_q;
  always_ff @(posedge clk_i) begin
    if (ctl_i.s0_load) begin
      data_q   <= in_data_i;
      kernel_q <= in_kernel_i;
    end
  end

  ane_pkg::mac_fv_t prod;
  logic [31:0]      prod_int;
  logic signed [15:0] prod_i8;
  logic [31:0]      prod_i4;
  ane_mac_mul #(.Gen(Gen), .Pipe(1'b1)) u_mul (
    .clk_i       (clk_i),
    .en_i        (en_i),
    .mode_i      (ctl_i.l0_mode),
    .data_i      (data_q),
    .kernel_i    (kernel_q),
    .prod_o      (prod),
    .int_prod_o  (prod_i8),
    .int4_prod_o (prod_i4),
    .int_o       (prod_int)
  );

  // ------------------------------------------------------------------ registers 2..5
  ane_pkg::mac_fv_t p2;
  logic [31:0]      pi2, pi3, pi4, pi5;  // integer products (int8 sign-extended, or four int4)
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      p2  <= prod;
      pi2 <= prod_int;
      pi3 <= pi2;
      pi4 <= pi3;
      pi5 <= pi4;
    end
  end

  // ------------------------------------------------------------------ L5: integer quads and accumulators
  logic [NumSlots*32-1:0] inew;   // per slot: the new int32 accumulator
  logic [NumSlots-1:0]    isat;   // per slot: the new saturation flag
  logic [NumSlots*18-1:0] iqs;    // per slot: the new integer pending quad

  for (genvar j = 0; j < NumSlots; j++) begin : g_int
    logic [1:0]         rel;
    logic signed [17:0] addend, tbase, qs;
    logic [31:0]        abase;
    logic signed [32:0] s33;
    logic               ovf_pos, ovf_neg;
    always_comb begin
      rel     = 2'(3'(j) - ctl_i.l5_slot);
      addend  = ctl_i.l5_int4 ? 18'($signed(pi5[8*rel +: 8])) : 18'($signed(pi5[15:0]));
      tbase   = ctl_i.l5_ib0[j] ? 18'sd0 : $signed(tq_q[32*j +: 18]);
      qs      = tbase + addend;
      abase   = ctl_i.l5_iclr[j] ? 32'd0 : acc_q[32*j +: 32];
      s33     = $signed({abase[31], abase}) + 33'($signed(qs));
      ovf_pos = !s33[32] && s33[31];
      ovf_neg = s33[32] && !s33[31];
      inew[32*j +: 32] = ovf_pos ? 32'h7FFF_FFFF : (ovf_neg ? 32'h8000_0000 : s33[31:0]);
      isat[j]          = (!ctl_i.l5_iclr[j] && sat_q[j]) || ovf_pos || ovf_neg;
      iqs[18*j +: 18]  = qs;
    end
  end

  // The integer result of the base slot (a result always completes its quad).
  logic [31:0] ires5;
  logic        isat5;
  always_comb begin
    ires5 = inew[32*ctl_i.l5_slot +: 32];
    isat5 = isat[ctl_i.l5_slot];
  end

  // ------------------------------------------------------------------ generation-specific fp path
  logic [31:0] fp_res;    // L10: the fp / compare result (or an integer result, raw)
  logic [NumSlots*32-1:0] tq_fp_d;  // L5: the fp pending quad written (m1)
  logic [31:0] res6;      // register 6 holds an integer result in place of the fp value
  logic        sat6, sat7, sat8, sat9, sat10;

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      sat6  <= isat5;
      sat7  <= sat6;
      sat8  <= sat7;
      sat9  <= sat8;
      sat10 <= sat9;
    end
  end
  assign res6 = ires5;

  // (Yosys 0.23 cannot resolve struct fields of variables declared inside a generate block:
  // the generation-specific struct variables live here.)
  ane_pkg::mac_fv_t p3, p4, p5;            // m5
  ane_pkg::mac_fv_t t_sel, s5, t6, t6p, t7;  // m1

  if (Gen == ane_pkg::GenM5) begin : g_m5
    // ---- m5: exact quads (NUMERICS N-2.4 m5 [assumption]: no add12 rounding). An exact sum of
    // four products needs up to 83 bits, and so does the state that holds it between products.
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        p3 <= p2;
        p4 <= p3;
        p5 <= p4;
      end
    end

    logic [NumSlots*XW-1:0] tx_q;  // pending quads, exact
    logic [XW-1:0] px, tsel, tnew, tsum;
    logic [82:0]   pmag;
    logic [83:0]   s84;
    logic          sg;
    logic [31:0]   d32;
    always_comb begin
      // the product as mag * 2^-48 (value = sig * 2^(e - 85))
      pmag = (p5.e >= 7'd37) ? (83'(p5.sig) << (p5.e - 7'd37)) : (83'(p5.sig) >> (7'd37 - p5.e));
      px   = p5.zero ? '0 : (p5.inf ? {1'b1, p5.sign, 83'd0} : {1'b0, p5.sign, pmag});
      tsel = tx_q[XW*ctl_i.l5_slot +: XW];
      // the exact sum: inf + finite = inf, inf + (-inf) = +0, zero sums are +0
      if (tsel[83] == px[83]) begin
        s84 = {1'b0, tsel[82:0]} + {1'b0, px[82:0]};
        sg  = tsel[83];
      end else if (tsel[82:0] >= px[82:0]) begin
        s84 = {1'b0, tsel[82:0]} - {1'b0, px[82:0]};
        sg  = tsel[83];
      end else begin
        s84 = {1'b0, px[82:0]} - {1'b0, tsel[82:0]};
        sg  = px[83];
      end
      if (tsel[84] || px[84]) begin
        tsum = (tsel[84] && px[84] && (tsel[83] != px[83])) ? '0
                                                             : {1'b1, tsel[84] ? tsel[83] : px[83], 83'd0};
      end else begin
        tsum = {1'b0, sg && (s84 != 84'd0), s84[82:0]};
      end
      // compare mode: the data value as fp32 bits (an fp16 value, exact)
      d32  = p5.zero ? 32'd0 : (p5.inf ? {p5.sign, 8'hFF, 23'd0}
                                       : {p5.sign, 8'({1'b0, p5.e} + 8'd63), p5.sig[20:0], 2'b00});
      tnew = ctl_i.l5_cmp ? {53'd0, d32} : (ctl_i.l5_pass ? px : tsum);
    end
    for (genvar j = 0; j < NumSlots; j++) begin : g_tx
      always_ff @(posedge clk_i) begin
        if (en_i && ctl_i.l5_twe[j]) tx_q[XW*j +: XW] <= tnew;
      end
    end

    logic [XW-1:0] x6, x7, x8, x9, x10;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        x6  <= ctl_i.l5_int ? {53'd0, res6} : tnew;
        x7  <= x6;
        x8  <= x7;
        x9  <= x8;
        x10 <= x9;
      end
    end

    // L10: read the accumulator, accumulate exactly or compare.
    logic [31:0] acc_in, acc_x, cmp_acc, key_d, key_a, cmp_res;
    logic        take_d;
    ane_mac_acc_exact u_acc (.acc_i(acc_in), .t_i(x10), .ceiling_i(ctl_i.l10_ceiling), .acc_o(acc_x));
    assign acc_in = ctl_i.l10_qclr ? 32'd0 : acc_q[32*ctl_i.l10_slot +: 32];
    always_comb begin
      cmp_acc = ((acc_in[30:23] == 8'hFF) && (acc_in[22:0] != 23'd0)) ? 32'h7F80_0000 :
                (acc_in == 32'h8000_0000) ? 32'd0 : acc_in;   // NaN -> +inf, -0 -> +0
      key_d   = x10[31] ? ~x10[31:0] : (x10[31:0] ^ 32'h8000_0000);
      key_a   = cmp_acc[31] ? ~cmp_acc : (cmp_acc ^ 32'h8000_0000);
      take_d  = !ctl_i.l10_hv || (ctl_i.l10_max ? (key_d > key_a) : (key_d < key_a));
      cmp_res = take_d ? x10[31:0] : cmp_acc;
      fp_res  = ctl_i.l10_raw ? x10[31:0] : (ctl_i.l10_cmp ? cmp_res : acc_x);
    end
    assign tq_fp_d = tq_q;  // m1 only

    assign {t_sel, s5, t6, t6p, t7} = '0;
    logic unused_m5;
    assign unused_m5 = ^{t_sel, s5, t6, t6p, t7, ctl_i.l2_slot, ctl_i.l2_pass, ctl_i.l6_pad, ctl_i.l7_slot, ctl_i.l7_qclr,
                         ctl_i.l7_cmp, ctl_i.l7_max, ctl_i.l7_hv, ctl_i.l7_ceiling, ctl_i.l7_raw};
  end else begin : g_m1
    // ---- m1: the narrow datapath.
    assign t_sel = tq_q[32*ctl_i.l2_slot +: 32];
    ane_mac_add12 #(.Pipe(1'b1)) u_add12 (
      .clk_i  (clk_i),
      .en_i   (en_i),
      .x_i    (t_sel),
      .y_i    (p2),
      .pass_i (ctl_i.l2_pass),
      .s_o    (s5)
    );
    assign tq_fp_d = {NumSlots{s5}};

    // L6: pad an incomplete final quad, add12(t, +0): round the significand to 12 bits (RNE).
    logic             pad_inc;
    logic [12:0]      pad_r;
    always_ff @(posedge clk_i) begin
      if (en_i) t6 <= ctl_i.l5_int ? res6 : s5;
    end
    always_comb begin
      pad_inc = t6.sig[9] && (t6.sig[10] || (t6.sig[8:0] != 9'd0));
      pad_r   = {1'b0, t6.sig[21:10]} + {12'd0, pad_inc};
      t6p     = t6;
      if (ctl_i.l6_pad && !t6.zero && !t6.inf) begin
        t6p.sig = pad_r[12] ? {1'b1, 21'd0} : {pad_r[11:0], 10'd0};
        t6p.e   = t6.e + {6'd0, pad_r[12]};
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i) t7 <= t6p;
    end

    // L7..L10: the accumulator (an integer result passes through as raw bits).
    logic [31:0] acc_in;
    always_comb begin
      acc_in = ctl_i.l7_raw ? t7 : (ctl_i.l7_qclr ? 32'd0 : acc_q[32*ctl_i.l7_slot +: 32]);
    end
    ane_mac_acc_add #(.Pipe(1'b1)) u_acc (
      .clk_i     (clk_i),
      .en_i      (en_i),
      .acc_i     (acc_in),
      .t_i       (t7),
      .ceiling_i (ctl_i.l7_ceiling),
      .cmp_i     (ctl_i.l7_cmp),
      .max_i     (ctl_i.l7_max),
      .hv_i      (ctl_i.l7_hv),
      .raw_i     (ctl_i.l7_raw),
      .acc_o     (fp_res)
    );

    assign {p3, p4, p5} = '0;
    logic unused_m1;
    assign unused_m1 = ^{p3, p4, p5, ctl_i.l5_pass, ctl_i.l5_cmp, ctl_i.l10_qclr, ctl_i.l10_cmp, ctl_i.l10_max,
                         ctl_i.l10_hv, ctl_i.l10_ceiling};
  end

  // ------------------------------------------------------------------ slot writes
  // L0: load / clear (the control unit lets them run only when no older operation on the slot is
  // in flight); L5: integer quads and accumulators, the fp pending quad (m1); L10: fp / compare.
  for (genvar j = 0; j < NumSlots; j++) begin : g_slot
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        acc_q[32*j +: 32] <= 32'd0;
        sat_q[j]          <= 1'b0;
      end else if (ctl_i.l0_ld_we[j]) begin
        acc_q[32*j +: 32] <= ctl_i.l0_ld_zero ? 32'd0 : {kernel_q, data_q};
        sat_q[j]          <= 1'b0;
      end else if (en_i && ctl_i.l5_idone[j]) begin
        acc_q[32*j +: 32] <= inew[32*j +: 32];
        sat_q[j]          <= isat[j];
      end else if (en_i && ctl_i.l5_ifh[j]) begin
        acc_q[32*j +: 32] <= 32'd0;
        sat_q[j]          <= 1'b0;
      end else if (en_i && ctl_i.l10_fwe[j]) begin
        acc_q[32*j +: 32] <= fp_res;
        sat_q[j]          <= !ctl_i.l10_satclr && sat_q[j];
      end else if (en_i && ctl_i.l10_fh[j]) begin
        acc_q[32*j +: 32] <= 32'd0;
        sat_q[j]          <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i && ctl_i.l5_twe[j]) begin
        tq_q[32*j +: 32] <= tq_fp_d[32*j +: 32];
      end else if (en_i && ctl_i.l5_iwe[j]) begin
        tq_q[32*j +: 18] <= iqs[18*j +: 18];
      end
    end
  end

  // ------------------------------------------------------------------ registers 11, 12: result
  logic [31:0] res_acc_q, out_acc_q;
  logic        res_sat_q, out_sat_q;
  logic [15:0] out_fp16_q, res_fp16;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      res_acc_q <= fp_res;
      res_sat_q <= ctl_i.l10_raw ? sat10 : (!ctl_i.l10_satclr && sat_q[ctl_i.l10_slot]);
    end
  end
  ane_mac_out #(.Gen(Gen)) u_out (.acc_i(res_acc_q), .fp16_o(res_fp16));
  // The output queue: the head drives the ports, the skid entry holds a second result while the
  // head waits (ane_mac_ctrl keeps the count).
  logic [31:0] skid_acc_q;
  logic [15:0] skid_fp16_q;
  logic        skid_sat_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_acc_q  <= 32'd0;
      out_fp16_q <= 16'd0;
      out_sat_q  <= 1'b0;
    end else if (ctl_i.o_head_new) begin  // the output registers hold the last result, never X
      out_acc_q  <= res_acc_q;
      out_fp16_q <= res_fp16;
      out_sat_q  <= res_sat_q;
    end else if (ctl_i.o_head_skid) begin
      out_acc_q  <= skid_acc_q;
      out_fp16_q <= skid_fp16_q;
      out_sat_q  <= skid_sat_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (ctl_i.o_skid_new) begin
      skid_acc_q  <= res_acc_q;
      skid_fp16_q <= res_fp16;
      skid_sat_q  <= res_sat_q;
    end
  end
  assign out_acc_o  = out_acc_q;
  assign out_fp16_o = out_fp16_q;
  assign out_sat_o  = out_sat_q;

  // ------------------------------------------------------------------ read port
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
  ane_mac_out #(.Gen(Gen)) u_rd_out (.acc_i(rd_acc_q), .fp16_o(rd_fp16_o));

  logic unused;
  assign unused = ^{prod_i8, prod_i4};

endmodule

`default_nettype wire
